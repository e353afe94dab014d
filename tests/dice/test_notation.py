"""Dice notation: the forms the rules write ("D6", "2D6", "D3+1", "3") and clear errors."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from openwar.dice.notation import MAX_DICE, MAX_SIDES, DiceExpr, DiceNotationError, parse_dice
from openwar.errors import OpenWarError


@pytest.mark.parametrize(
    ("text", "count", "sides", "modifier", "minimum", "maximum", "mean"),
    [
        ("D6", 1, 6, 0, 1, 6, 3.5),
        ("d6", 1, 6, 0, 1, 6, 3.5),
        ("2D6", 2, 6, 0, 2, 12, 7.0),
        ("D3", 1, 3, 0, 1, 3, 2.0),
        ("D3+1", 1, 3, 1, 2, 4, 3.0),
        ("2D3+1", 2, 3, 1, 3, 7, 5.0),
        ("D6-1", 1, 6, -1, 0, 5, 2.5),
        ("1D6", 1, 6, 0, 1, 6, 3.5),
        (" 2 D6 ", 2, 6, 0, 2, 12, 7.0),
    ],
)
def test_dice_notation_valid_forms(
    text: str, count: int, sides: int, modifier: int, minimum: int, maximum: int, mean: float
) -> None:
    expr = parse_dice(text)
    assert (expr.count, expr.sides, expr.modifier) == (count, sides, modifier)
    assert (expr.minimum, expr.maximum) == (minimum, maximum)
    assert expr.mean == mean
    assert not expr.is_constant


@pytest.mark.parametrize(("text", "value"), [("3", 3), ("0", 0), ("12", 12), (4, 4)])
def test_dice_notation_constant(text: str | int, value: int) -> None:
    expr = parse_dice(text)
    assert expr.is_constant
    assert expr.minimum == expr.maximum == value
    assert expr.mean == value
    assert expr.distribution.tolist() == [0.0] * value + [1.0]
    assert str(expr) == str(value)


@pytest.mark.parametrize(
    "text",
    [
        "2Q",
        "",
        " ",
        "D1",
        "-3",
        "D0",
        "0D6",
        "D",
        "2D",
        "D6+",
        "1.5",
        "D6+-1",
        "3D6x2",
        "6D-1",
        "+3",
    ],
)
def test_dice_notation_error_names_the_text(text: str) -> None:
    with pytest.raises(DiceNotationError) as caught:
        parse_dice(text)
    message = str(caught.value)
    assert repr(text) in message
    assert "\n" not in message


def test_dice_notation_error_says_what_was_expected() -> None:
    with pytest.raises(DiceNotationError, match=r"expected e\.g\. 3, D6, 2D6, D3\+1"):
        parse_dice("2Q")


def test_dice_notation_error_is_an_input_error() -> None:
    assert issubclass(DiceNotationError, OpenWarError)
    assert issubclass(DiceNotationError, ValueError)


def test_dice_notation_rejects_values_below_zero() -> None:
    with pytest.raises(DiceNotationError, match="below zero"):
        parse_dice("D3-2")


def test_dice_notation_limits_dice_and_sides() -> None:
    assert parse_dice(f"{MAX_DICE}D6").count == MAX_DICE
    assert parse_dice(f"D{MAX_SIDES}").sides == MAX_SIDES
    with pytest.raises(DiceNotationError, match="number of dice"):
        parse_dice(f"{MAX_DICE + 1}D6")
    with pytest.raises(DiceNotationError, match="sides"):
        parse_dice(f"D{MAX_SIDES + 1}")


@pytest.mark.parametrize("text", ["D6", "2D6", "D3+1", "3", "3D3-2", "D10", "0", "4D2+3"])
def test_dice_notation_str_round_trips(text: str) -> None:
    expr = parse_dice(text)
    assert parse_dice(str(expr)) == expr


@pytest.mark.parametrize("text", ["D6", "2D6", "D3+1", "3D3-2", "2D4", "D2+5"])
def test_dice_distribution_matches_enumeration(text: str) -> None:
    expr = parse_dice(text)
    faces = range(1, expr.sides + 1)
    counts = Counter(
        sum(roll) + expr.modifier for roll in itertools.product(faces, repeat=expr.count)
    )
    total = expr.sides**expr.count
    expected = np.zeros(expr.maximum + 1)
    for value, n in counts.items():
        expected[value] = n / total
    np.testing.assert_allclose(expr.distribution, expected, rtol=0, atol=1e-15)


def test_dice_expr_is_immutable_and_hashable() -> None:
    expr = parse_dice("D3")
    assert {expr: 1}[DiceExpr(1, 3, 0)] == 1
    with pytest.raises(AttributeError):
        expr.count = 2  # type: ignore[misc]
