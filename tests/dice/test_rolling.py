"""Rolling: a seed fixes every roll; a script states the rolls a test needs."""

from __future__ import annotations

import numpy as np
import pytest

from openwar.dice.notation import parse_dice
from openwar.dice.rolling import ScriptedRoller, ScriptExhaustedError, SeededRoller, roll


@pytest.mark.parametrize("seed", [0, 1, 42, 2**40])
def test_same_seed_gives_same_rolls(seed: int) -> None:
    first, second = SeededRoller(seed), SeededRoller(seed)
    for sides, count in [(6, 10), (3, 5), (6, 1), (20, 7)]:
        assert first.dice(sides, count).tolist() == second.dice(sides, count).tolist()


def test_seed_sequence_is_accepted_and_matches_int_seed() -> None:
    a = SeededRoller(np.random.SeedSequence(5)).dice(6, 20)
    b = SeededRoller(5).dice(6, 20)
    assert a.tolist() == b.tolist()


def test_different_seeds_give_different_rolls() -> None:
    assert SeededRoller(1).dice(6, 50).tolist() != SeededRoller(2).dice(6, 50).tolist()


def test_seeded_rolls_are_faces_of_the_die() -> None:
    rolls = SeededRoller(3).dice(6, 6000)
    assert rolls.min() == 1
    assert rolls.max() == 6
    assert set(np.unique(rolls).tolist()) == {1, 2, 3, 4, 5, 6}


def test_seeded_roller_state_can_be_saved_and_restored() -> None:
    roller = SeededRoller(9)
    roller.dice(6, 3)
    saved = roller.state
    after = roller.dice(6, 10).tolist()
    roller.state = saved
    assert roller.dice(6, 10).tolist() == after


def test_seeded_rolls_are_stable_across_machines() -> None:
    # PCG64(SeedSequence(0)) is specified by numpy: these exact rolls never change
    expected = np.random.Generator(np.random.PCG64(np.random.SeedSequence(0))).integers(
        1, 7, size=8
    )
    assert SeededRoller(0).dice(6, 8).tolist() == expected.tolist()


def test_scripted_roller_returns_values_in_order() -> None:
    roller = ScriptedRoller([6, 1, 3, 4])
    assert roller.dice(6, 2).tolist() == [6, 1]
    assert roller.remaining == 2
    assert roller.dice(6, 1).tolist() == [3]
    assert roller.dice(6, 1).tolist() == [4]
    assert roller.remaining == 0


def test_scripted_roller_exhaustion_is_an_error_that_consumes_nothing() -> None:
    roller = ScriptedRoller([2, 5])
    with pytest.raises(ScriptExhaustedError, match="needs 3 more dice, has 2"):
        roller.dice(6, 3)
    assert roller.remaining == 2
    assert roller.dice(6, 2).tolist() == [2, 5]
    with pytest.raises(ScriptExhaustedError):
        roller.dice(6, 1)


@pytest.mark.parametrize(("values", "sides"), [([7], 6), ([0], 6), ([4], 3), ([1, 2, 9], 6)])
def test_scripted_roller_rejects_values_the_die_cannot_show(values: list[int], sides: int) -> None:
    roller = ScriptedRoller(values)
    with pytest.raises(ValueError, match=f"not all rolls of a D{sides}"):
        roller.dice(sides, len(values))
    assert roller.remaining == len(values)


@pytest.mark.parametrize(
    ("text", "script", "value"),
    [("2D6+1", [3, 4], 8), ("D3", [2], 2), ("4", [], 4), ("3D6", [6, 6, 6], 18), ("D6-1", [1], 0)],
)
def test_roll_expression_with_scripted_dice(text: str, script: list[int], value: int) -> None:
    roller = ScriptedRoller(script)
    assert roll(parse_dice(text), roller) == value
    assert roller.remaining == 0


def test_roll_expression_is_seeded() -> None:
    expr = parse_dice("2D6")
    a = [roll(expr, r) for r in [SeededRoller(11)] for _ in range(20)]
    b = [roll(expr, r) for r in [SeededRoller(11)] for _ in range(20)]
    assert a == b
    assert all(2 <= v <= 12 for v in a)
