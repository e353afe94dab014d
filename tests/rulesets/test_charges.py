"""The odds of a charge (`openwar charge`, src/openwar/charges.py): each ruleset's clause,
checked against a die-by-die enumeration written apart from the code, and the Age of Sigmar
odds against the battle engine's own charge."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest

from openwar.charges import charge_odds
from openwar.cli.app import main
from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.errors import OpenWarError

from .aos.kit import battle, gap, in_phase, place, play, unit

FACES = range(1, 7)
GAPS = [3.01, 3.5, 4.0, 5.49, 5.5, 5.51, 6.0, 7.5, 9.2, 10.0, 11.5, 11.51, 12.0]


def enumerated_aos(gap_: float, bonus: int, reroll: bool) -> Fraction:
    """Every pair of dice (and, re-rolled, every pair of pairs): the first model moves the roll
    and must end within 1/2" of the enemy, only from more than 3" and within 12"."""
    if not 3 < gap_ <= 12:
        return Fraction(0)
    rolls = [a + b + bonus for a, b in product(FACES, FACES)]
    if not reroll:
        return Fraction(sum(gap_ - r <= 0.5 for r in rolls), len(rolls))
    both = [(r, s) for r in rolls for s in rolls]
    return Fraction(sum(gap_ - r <= 0.5 or gap_ - s <= 0.5 for r, s in both), len(both))


@pytest.mark.parametrize("reroll", [False, True])
@pytest.mark.parametrize("bonus", [-1, 0, 1, 3])
def test_aos_c1_k2_charge_odds_match_every_roll_enumerated(bonus: int, reroll: bool) -> None:
    for gap_ in [*GAPS, 2.0, 3.0, 12.01, 20.0]:
        odds = charge_odds("aos", gap_, bonus=bonus, reroll=reroll)
        got = odds.success if not reroll else odds.rerolled
        assert got == enumerated_aos(gap_, bonus, reroll), gap_
        assert sum(odds.roll.values()) == 1
        assert odds.allowed == (3 < gap_ <= 12)


def test_aos_c1_the_least_roll_is_the_engines_least_roll() -> None:
    """On an open table, the least roll the odds name brings the engine's charge home and
    one less does not (AOS-C1: within 1/2" of an enemy model)."""
    for centre in [4.6, 6.3, 7.25, 8.0, 9.9, 11.4, 12.9]:
        state = in_phase(battle([unit("a", 1)], [unit("b", 1)]), "charge")
        place(state, "a", [(30.0, 10.0)])
        place(state, "b", [(30.0, 10.0 + centre)])
        odds = charge_odds("aos", gap(state, "a", "b"))
        assert odds.least is not None
        for roll, reaches in ((odds.least, True), (odds.least - 1, False)):
            if roll < 2:
                continue
            dice = [min(6, roll - 1), roll - min(6, roll - 1)]
            rolled, _ = play(state, Action("charge", 0, "a"), dice)
            if reaches:
                after, _ = play(rolled, Action("charge_move", 0, "a", target="b"))
                assert gap(after, "a", "b") <= 0.5
            else:
                with pytest.raises(IllegalActionError, match="AOS-C1"):
                    play(rolled, Action("charge_move", 0, "a", target="b"))


@pytest.mark.parametrize("bonus", [0, 1])
@pytest.mark.parametrize("movement", [0, 3, 4, 8])
def test_tow_m1_charge_range_is_movement_plus_the_higher_of_two_dice(
    movement: int, bonus: int
) -> None:
    for gap_ in [*GAPS, 0.5, 13.0, 14.0, 15.0]:
        reaches = sum(movement + max(a, b) + bonus >= gap_ for a, b in product(FACES, FACES))
        odds = charge_odds("oldworld", gap_, move=movement, bonus=bonus)
        assert odds.success == Fraction(reaches, 36), gap_
        assert odds.roll == {k: Fraction(2 * k - 1, 36) for k in FACES}  # P(max = k)
    far = charge_odds("oldworld", 11.0, move=4)
    assert far.success == 0 and 'no charge roll does (the longest charge range is 10")' in far.why
    touching = charge_odds("oldworld", 0.0, move=4)
    assert (touching.allowed, touching.success) == (False, Fraction(0))
    assert not charge_odds("opr", 0.0).allowed and charge_odds("opr", 0.5).success == 1
    near = charge_odds("oldworld", 3.0, move=4)
    assert (near.needed, near.success) == (
        "any roll",
        Fraction(1),
    ) and "any charge roll does" in near.why


def test_the_charge_numbers_are_the_rulesets_data_as_the_seeds_give_them() -> None:
    from openwar.charges import OldWorldCharges, OprCharges
    from openwar.rulesets.data import load_data

    assert load_data("opr", "charges.yaml", OprCharges).charge_move == 12  # "Charge 12\""
    assert load_data("oldworld", "charges.yaml", OldWorldCharges).charge_dice == 2  # two D6


@pytest.mark.parametrize("model", ["OprCharges", "OldWorldCharges"])
def test_a_misspelt_key_of_charges_yaml_is_an_error_not_dropped(model: str) -> None:
    """As in every other rule-data file (RuleData): `charge_mvoe: 12` was silently ignored."""
    from pydantic import ValidationError

    import openwar.charges

    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        getattr(openwar.charges, model).model_validate({"charge_move": 12, "charge_dice": 2})


def test_opr_m1_and_ow_m2_charges_roll_nothing() -> None:
    assert charge_odds("opr", 12.0).success == 1 and charge_odds("opr", 12.01).success == 0
    assert charge_odds("opr", 17.9, bonus=6).success == 1  # Fast
    assert charge_odds("opr", 15.5, bonus=3).success == 0  # Nimble
    # a Run of twice Move, ending within 5 cm of the enemy (OW-O3, OW-M2)
    assert charge_odds("openwar", 29.0, move=12).success == 1
    assert charge_odds("openwar", 29.5, move=12).success == 0
    assert charge_odds("openwar", 32.0, move=12, bonus=3).success == 1  # Eager for Battle
    assert charge_odds("openwar", 41.0, move=12, bonus=12).success == 1  # With all Haste!
    within = charge_odds("openwar", 5.0, move=12)  # in combat: a Run is a Retreat (OW-M3)
    assert (within.allowed, within.success, within.needed) == (
        False,
        Fraction(0),
        "cannot be tried",
    )
    assert charge_odds("openwar", 5.01, move=12).success == 1
    for ruleset, move in (("opr", None), ("openwar", 12)):
        odds = charge_odds(ruleset, 10.0, move=move)
        assert odds.roll == {} and odds.dice == "" and "nothing is rolled" in odds.why


def test_a_penalty_never_makes_a_charge_move_less_than_nothing() -> None:
    """A bonus of -100 gave a Run that "reaches -85 cm" and a 2D6 - 100 table from -98."""
    assert "reaches 5 cm, 5 cm short" in charge_odds("openwar", 10.0, move=5, bonus=-100).why
    assert 'reaches 0", 5" short' in charge_odds("opr", 5.0, bonus=-20).why
    aos = charge_odds("aos", 5.0, bonus=-10)
    assert aos.roll == {0: Fraction(33, 36), 1: Fraction(2, 36), 2: Fraction(1, 36)}
    assert aos.success == 0
    assert 'the longest charge range is 0"' in charge_odds("oldworld", 5.0, move=4, bonus=-20).why


@pytest.mark.parametrize(
    ("ruleset", "options", "said"),
    [
        ("openwar", {}, "--move: openwar charges need the charging unit's Move in cm"),
        ("oldworld", {}, "--move: oldworld charges need the charging unit's Movement"),
        ("aos", {"move": 5}, "--move: aos charges do not depend on the unit's Move"),
        ("opr", {"reroll": True}, "--reroll: opr has no re-roll of a charge"),
    ],
)
def test_an_option_a_ruleset_does_not_have_is_refused(
    ruleset: str, options: dict[str, object], said: str
) -> None:
    with pytest.raises(OpenWarError, match=said):
        charge_odds(ruleset, 8.0, **options)  # type: ignore[arg-type]


def test_charge_command_prints_the_roll_and_the_odds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["charge", "aos", "--distance", "7.5", "--reroll"]) == 0
    out = capsys.readouterr().out
    assert "a roll of 7 or more" in out
    assert "reaches: 58.33% (7/12)" in out
    assert "reaches with the re-roll of a failed roll: 82.64% (119/144)" in out
    assert main(["charge", "aos", "--distance", "9", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["success"] == {"fraction": "5/18", "p": 0.277777778} and data["least"] == 9
    assert data["clauses"] == ["AOS-C1"] and data["allowed"] is True
    assert main(["charge", "aos", "--distance", "14"]) == 0
    out = capsys.readouterr().out
    assert 'more than 12" away' in out and "reaches: never" in out and "P(exactly)" not in out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["charge", "openwar", "--distance", "20"], "--move: openwar charges need"),
        (["charge", "aos", "--distance", "-1"], "'--distance': -1: expected a distance of 0 to"),
        (["charge", "aos", "--distance", "nan"], "'--distance': nan: expected a distance of 0"),
        (["charge", "chess", "--distance", "3"], "unknown ruleset 'chess'"),
    ],
)
def test_charge_command_refuses_bad_input_in_one_line(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and said in captured.err and len(captured.err.splitlines()) == 1
