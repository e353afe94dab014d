"""D6Test against brute force: both dice of a possible re-roll, all 36 cases, every policy."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from openwar.dice.d6 import D6Test, Reroll, parse_roll

FLAGS = list(itertools.product([False, True], repeat=2))


def passes(face: int, target: int, modifier: int, cap: int | None, one: bool, six: bool) -> bool:
    """The rule as written: automatic results on the unmodified face, else face + modifier."""
    if cap is not None:
        modifier = max(-cap, min(cap, modifier))
    if one and face == 1:
        return False
    if six and face == 6:
        return True
    return face + modifier >= target


def rolled_again(policy: Reroll, first_passed: bool, face: int) -> bool:
    return {
        Reroll.NONE: False,
        Reroll.ONES: face == 1,
        Reroll.FAILED: not first_passed,
        Reroll.SUCCESSES: first_passed,
        Reroll.ALL: True,
    }[policy]


def brute_force(
    target: int, modifier: int, cap: int | None, one: bool, six: bool, policy: Reroll
) -> tuple[Fraction, list[Fraction]]:
    """(P(success), P(final face == f) for f = 1..6) over the 36 pairs (first, second die)."""
    faces = [Fraction(0)] * 6
    success = Fraction(0)
    for first, second in itertools.product(range(1, 7), repeat=2):
        ok = passes(first, target, modifier, cap, one, six)
        final = second if rolled_again(policy, ok, first) else first
        faces[final - 1] += Fraction(1, 36)
        if passes(final, target, modifier, cap, one, six):
            success += Fraction(1, 36)
    return success, faces


@pytest.mark.parametrize("policy", list(Reroll))
@pytest.mark.parametrize("target", range(1, 9))
@pytest.mark.parametrize("modifier", range(-3, 4))
@pytest.mark.parametrize("cap", [None, 1, 2])
def test_d6_test_matches_all_36_rolls_of_a_reroll(
    policy: Reroll, target: int, modifier: int, cap: int | None
) -> None:
    for one, six in FLAGS:
        test = D6Test(target, modifier, cap, one, six, policy)
        success, faces = brute_force(target, modifier, cap, one, six, policy)
        assert test.probability == pytest.approx(float(success), abs=1e-15)
        for face in range(1, 7):
            assert test.probability_of_face(face) == pytest.approx(
                float(faces[face - 1]), abs=1e-15
            )
            assert bool(test.success_faces[face - 1]) == passes(
                face, target, modifier, cap, one, six
            )
        assert float(test.face_probabilities.sum()) == pytest.approx(1.0, abs=1e-15)


def test_reroll_ones_on_4_plus_is_7_in_12() -> None:
    assert D6Test(4, reroll=Reroll.ONES).probability == pytest.approx(7 / 12, abs=1e-15)


def test_reroll_failed_on_4_plus_is_3_in_4() -> None:
    assert D6Test(4, reroll=Reroll.FAILED).probability == pytest.approx(3 / 4, abs=1e-15)


def test_reroll_successes_squares_the_chance() -> None:
    # re-rolling every success: pass only if both dice pass
    assert D6Test(4, reroll=Reroll.SUCCESSES).probability == pytest.approx(1 / 4, abs=1e-15)


def test_modifier_cap_limits_both_ways() -> None:
    assert D6Test(4, modifier=3, modifier_cap=1).effective_modifier == 1
    assert D6Test(4, modifier=-3, modifier_cap=1).effective_modifier == -1
    assert D6Test(4, modifier=-3).effective_modifier == -3


def test_unmodified_six_succeeds_even_when_modifiers_make_it_impossible() -> None:
    test = D6Test(4, modifier=-5, six_succeeds=True)
    assert test.probability == pytest.approx(1 / 6, abs=1e-15)


def test_unmodified_one_fails_even_when_modifiers_make_it_certain() -> None:
    test = D6Test(2, modifier=3, one_fails=True)
    assert test.probability == pytest.approx(5 / 6, abs=1e-15)


def test_a_seven_plus_is_possible_only_with_a_bonus() -> None:
    assert D6Test(7).probability == 0.0
    assert D6Test(7, modifier=1).probability == pytest.approx(1 / 6, abs=1e-15)


@pytest.mark.parametrize(
    ("text", "value"), [("2+", 2), ("4+", 4), ("6+", 6), (" 3+ ", 3), ("5", 5)]
)
def test_parse_roll_valid(text: str, value: int) -> None:
    assert parse_roll(text) == value


@pytest.mark.parametrize("text", ["0+", "1+", "7+", "-", "x", "", "4++", "+4", "-1"])
def test_parse_roll_invalid_names_the_text(text: str) -> None:
    with pytest.raises(ValueError, match=r"expected|is not"):
        parse_roll(text)


def test_parse_roll_dash_means_cannot() -> None:
    assert parse_roll("-", allow_dash=True) == 7
    assert parse_roll("7+", allow_dash=True) == 7
    # "7" is how `odds aos --help` shows the save's default, as "4" is the hit's; it was refused
    assert parse_roll("7", allow_dash=True) == 7
    with pytest.raises(ValueError, match=r"'8\+' is not a roll from 2\+ to 6\+ or - \(none"):
        parse_roll("8+", allow_dash=True)
