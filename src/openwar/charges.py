"""The odds of a charge: will a unit reach an enemy this far away? Exact fractions.

A charge that rolls dice succeeds when its reach (the roll, plus a Move where the rules add
it, plus any bonus) covers the gap between the nearest models, less the distance the rules let
it stop short by:

* Age of Sigmar (AOS-C1): 2D6, and the first model must end within 1/2" of an enemy model,
  so a roll of the gap less 1/2" is enough; only a unit within 12" of an enemy and not within
  3" may try. Forward to Victory (AOS-K2) re-rolls a failed roll.
* The Old World (TOW-M1): the higher of two D6 added to the unit's Movement must reach the
  enemy.
* One Page Fantasy (OPR-M1) and OpenWar (OW-O3, OW-M2) roll nothing: a Charge moves 12" (One
  Page: Fast +6", Nimble +3"), an OpenWar Run twice the unit's Move and it is a Charge when it
  ends within 5 cm of an enemy. The odds are certain either way, and say which.

The numbers are each ruleset's data: Age of Sigmar's and OpenWar's ``battle.yaml``, One Page
Fantasy's and The Old World's ``charges.yaml``. Terrain, other units in the way and a unit's
shape are the table's (``openwar battle``);
here the gap is measured between the nearest models and the way is taken as clear.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

from pydantic import Field

from openwar.errors import OpenWarError
from openwar.rulesets.data import RuleData, load_data

MAX_GAP = 1000.0  # inches or cm: far past any table
MOST_MOVEMENT = 20  # an Old World Movement: far past any profile


class OprCharges(RuleData):
    """``opr/data/charges.yaml``: the Charge action's move, in inches (OPR-M1)."""

    charge_move: int = Field(ge=1)


class OldWorldCharges(RuleData):
    """``oldworld/data/charges.yaml``: the charge roll is the highest of ``charge_dice`` D6
    (TOW-M1)."""

    charge_dice: int = Field(ge=1)


MAX_BONUS = 100
DIE = range(1, 7)


@dataclass(frozen=True)
class ChargeOdds:
    """What a charge over ``gap`` needs and how often it gets it."""

    ruleset: str
    gap: float
    unit: str  # of length: '"' or " cm"
    dice: str  # what is rolled, e.g. "2D6 + 1", or "" when nothing is
    needed: str  # the least result that reaches, in words
    roll: dict[int, Fraction]  # P(result = k) of what is rolled; empty when nothing is
    least: int | None  # least result that reaches; None when none does
    success: Fraction
    rerolled: Fraction | None  # with a re-roll of a failed roll, where the rules have one
    why: str  # the rule, and any reason the charge cannot be tried
    clauses: tuple[str, ...]
    allowed: bool = True  # False: the rules let no charge be tried from here

    def at_least(self, k: int) -> Fraction:
        return sum((p for value, p in self.roll.items() if value >= k), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        def share(p: Fraction | None) -> dict[str, Any] | None:
            return None if p is None else {"fraction": str(p), "p": round(float(p), 9)}

        return {
            "ruleset": self.ruleset,
            "gap": self.gap,
            "unit": self.unit.strip(),
            "dice": self.dice or None,
            "needed": self.needed,
            "least": self.least,
            "roll": {str(k): share(p) for k, p in sorted(self.roll.items())},
            "success": share(self.success),
            "rerolled": share(self.rerolled),
            "why": self.why,
            "clauses": list(self.clauses),
            "allowed": self.allowed,
        }


def _pmf(outcomes: list[int]) -> dict[int, Fraction]:
    """Each value's share of equally likely ``outcomes`` (every face of every die)."""
    counts: dict[int, int] = {}
    for value in outcomes:
        counts[value] = counts.get(value, 0) + 1
    return {k: Fraction(n, len(outcomes)) for k, n in sorted(counts.items())}


def _check(gap: float, bonus: int) -> None:
    if not (math.isfinite(gap) and 0 <= gap <= MAX_GAP):
        raise OpenWarError(f"--distance {gap:g}: expected 0 to {MAX_GAP:g}")
    if abs(bonus) > MAX_BONUS:
        raise OpenWarError(f"--bonus {bonus}: expected -{MAX_BONUS} to {MAX_BONUS}")


def _rolled(
    ruleset: str,
    gap: float,
    unit: str,
    dice: str,
    results: list[int],
    least: int | None,
    why: str,
    clauses: tuple[str, ...],
    reroll: bool,
    allowed: bool = True,
) -> ChargeOdds:
    """Odds of a rolled charge that reaches on a result of ``least`` or more (never when it
    is not ``allowed`` to be tried)."""
    roll = _pmf(results)
    if not allowed or (least is not None and least > max(roll)):
        least = None  # no roll reaches
    success = (
        Fraction(0)
        if least is None
        else sum((p for k, p in roll.items() if k >= least), Fraction(0))
    )
    needed = "no roll reaches" if least is None else f"{least} or more"
    if least is not None and least <= min(roll):
        needed = "any roll"
    if not allowed:
        needed = "cannot be tried"
    rerolled = 1 - (1 - success) ** 2 if reroll else None
    return ChargeOdds(ruleset, gap, unit, dice, needed, roll, least, success, rerolled, why,
                      clauses, allowed)  # fmt: skip


def _plus(bonus: int) -> str:
    return "" if bonus == 0 else f" {'+' if bonus > 0 else '-'} {abs(bonus)}"


def aos(gap: float, bonus: int = 0, reroll: bool = False) -> ChargeOdds:
    """AOS-C1 (and AOS-K2 with ``reroll``): 2D6 + ``bonus`` must bring the first model within
    1/2" of an enemy model ``gap`` inches away."""
    from openwar.rulesets.aos.rules import battle_rules

    _check(gap, bonus)
    rules = battle_rules()
    # a roll made less than nothing moves nothing (a penalty may take it below 0)
    results = [max(0, sum(faces) + bonus) for faces in product(DIE, repeat=rules.charge_dice)]
    least = max(0, math.ceil(gap - rules.charge_contact - 1e-9))
    allowed = True
    dice, clauses = f"{rules.charge_dice}D6{_plus(bonus)}", ("AOS-C1",) + (("AOS-K2",) * reroll)
    why = (
        f'the first model must end within {rules.charge_contact:g}" of an enemy model '
        f'{gap:g}" away: a roll of {least} or more'
    )
    if gap > rules.charge_range:
        why = f'no charge can be tried: the nearest enemy is more than {rules.charge_range:g}" away'
        allowed = False
    elif gap <= rules.enemy_gap:
        why = f'no charge can be tried: an enemy is within {rules.enemy_gap:g}" already (it fights)'
        allowed = False
    return _rolled("aos", gap, '"', dice, results, least, why, clauses, reroll, allowed)


def oldworld(gap: float, movement: int, bonus: int = 0) -> ChargeOdds:
    """TOW-M1: the higher of two D6, plus Movement and ``bonus``, must reach ``gap``."""
    _check(gap, bonus)
    if not 0 <= movement <= MOST_MOVEMENT:
        raise OpenWarError(f"--move {movement}: expected a Movement of 0 to {MOST_MOVEMENT}")
    dice = load_data("oldworld", "charges.yaml", OldWorldCharges).charge_dice
    results = [max(faces) for faces in product(DIE, repeat=dice)]
    least = max(0, math.ceil(gap - 1e-9) - movement - bonus)
    longest = max(0, max(DIE) + movement + bonus)
    if least > max(DIE):
        reach = f'no charge roll does (the longest charge range is {longest}")'
    else:
        reach = f"a charge roll of {least} or more" if least > 1 else "any charge roll does"
    why = (
        f"the charge range (the highest of {dice}D6, plus Movement {movement}{_plus(bonus)}) must "
        f'reach the enemy {gap:g}" away: {reach}'
    )
    allowed = gap > 0
    if not allowed:
        why = "no charge can be tried: the units touch already (engaged in combat)"
    label = f"the highest of {dice}D6"
    return _rolled("oldworld", gap, '"', label, results, least, why, ("TOW-M1",), False, allowed)


def _certain(
    ruleset: str,
    gap: float,
    unit: str,
    reach: float,
    how: str,
    clauses: tuple[str, ...],
    refused: str = "",
) -> ChargeOdds:
    """A charge that rolls nothing: it reaches or not (``refused``: why none can be tried)."""
    reaches = gap <= reach + 1e-9 and not refused
    why = refused or f"nothing is rolled: {how} reaches {reach:g}{unit}, " + (
        "enough" if reaches else f"{gap - reach:g}{unit} short"
    )
    needed = "cannot be tried" if refused else "always reaches" if reaches else "never reaches"
    return ChargeOdds(ruleset, gap, unit, "", needed, {}, None, Fraction(int(reaches)), None,
                      why, clauses, allowed=not refused)  # fmt: skip


def opr(gap: float, bonus: int = 0) -> ChargeOdds:
    """OPR-M1: a Charge moves 12" (+6 Fast, +3 Nimble: ``bonus``) into melee."""
    _check(gap, bonus)
    move = load_data("opr", "charges.yaml", OprCharges).charge_move
    refused = "no charge can be tried: the units touch already (in melee)" if gap <= 0 else ""
    how = f'a Charge of {move}"{_plus(bonus)}' + ('"' if bonus else "")
    return _certain("opr", gap, '"', max(0, move + bonus), how, ("OPR-M1",), refused)


def openwar(gap: float, move: int, bonus: int = 0) -> ChargeOdds:
    """OW-O3 and OW-M2: a Run moves up to twice Move (+ ``bonus`` cm: Eager for Battle 3; With
    all Haste! 12, its 6 cm added to Move and so doubled) and is a Charge if it ends within
    5 cm of an enemy; from within 5 cm a Run is a Retreat (OW-M3), never a Charge."""
    from openwar.rulesets.openwar.rules import battle_rules

    _check(gap, bonus)
    if not 0 <= move <= 100:
        raise OpenWarError(f"--move {move}: expected a Move of 0 to 100 cm")
    rules = battle_rules()
    run = max(0, rules.run_multiplier * move + bonus)  # a penalty leaves no Run at worst
    how = (
        f"a Run of {rules.run_multiplier:g} x Move {move} cm"
        + (f"{_plus(bonus)} cm" if bonus else "")
        + f", ending within {rules.combat_range:g} cm,"
    )
    refused = ""
    if gap <= rules.combat_range:
        refused = (
            f"no charge can be tried: an enemy is within {rules.combat_range:g} cm already "
            "(in combat; a Run from here is a Retreat, OW-M3)"
        )
    return _certain("openwar", gap, " cm", run + rules.combat_range, how, ("OW-O3", "OW-M2"),
                    refused)  # fmt: skip


def charge_odds(
    ruleset: str, gap: float, *, move: int | None = None, bonus: int = 0, reroll: bool = False
) -> ChargeOdds:
    """The odds of a charge over ``gap`` in ``ruleset``; ``move`` is the unit's Move (OpenWar)
    or Movement (The Old World), which only those need."""
    needs_move = ruleset in ("openwar", "oldworld")
    if needs_move and move is None:
        what = "Move in cm" if ruleset == "openwar" else "Movement"
        raise OpenWarError(f"--move: {ruleset} charges need the charging unit's {what}")
    if not needs_move and move is not None:
        raise OpenWarError(f"--move: {ruleset} charges do not depend on the unit's Move")
    if reroll and ruleset != "aos":
        raise OpenWarError(
            f"--reroll: {ruleset} has no re-roll of a charge (aos: Forward to Victory)"
        )
    if ruleset == "aos":
        return aos(gap, bonus, reroll)
    if ruleset == "oldworld":
        assert move is not None
        return oldworld(gap, move, bonus)
    if ruleset == "opr":
        return opr(gap, bonus)
    assert move is not None
    return openwar(gap, move, bonus)
