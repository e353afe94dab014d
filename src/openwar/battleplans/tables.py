"""Rolling on the battlepack's D6 tables, roll-offs and the points table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from openwar.battleplans.data import Battlepack, PointsTier
from openwar.dice import Roller
from openwar.errors import OpenWarError
from openwar.rulesets.data import RuleData

Row = TypeVar("Row", bound=RuleData)
ROLL_OFF_LIMIT = 1000  # ties are rolled again; this only stops a broken scripted roller


class PointsError(OpenWarError):
    """A points limit that no battle can be played at."""


@dataclass(frozen=True, slots=True)
class RollOff:
    """A roll-off: each pair is (Player 1, Player 2); ties were rolled again."""

    rolls: tuple[tuple[int, int], ...]
    winner: int

    @property
    def loser(self) -> int:
        return 3 - self.winner


def roll_off(roller: Roller) -> RollOff:
    """Both players roll a dice, highest wins, ties roll again (seed 000, "Rolling Off").

    >>> from openwar.dice import ScriptedRoller
    >>> roll_off(ScriptedRoller([4, 4, 2, 5])).winner
    2
    """
    rolls: list[tuple[int, int]] = []
    for _ in range(ROLL_OFF_LIMIT):
        first, second = (int(v) for v in roller.dice(6, 2))
        rolls.append((first, second))
        if first != second:
            return RollOff(tuple(rolls), 1 if first > second else 2)
    raise RuntimeError(f"roll-off still tied after {ROLL_OFF_LIMIT} rolls")


def roll_on(table: Sequence[Row], roller: Roller) -> Row:
    """Roll a D6 and return that row of the table.

    >>> from openwar.dice import ScriptedRoller
    >>> from openwar.battleplans.data import TableRow
    >>> rows = [TableRow(roll=r, name=str(r), rule="") for r in range(1, 7)]
    >>> roll_on(rows, ScriptedRoller([5])).name
    '5'
    """
    face = int(roller.dice(len(table), 1)[0])
    return table[face - 1]


def points_tier(pack: Battlepack, points: int) -> PointsTier:
    """The recommended battlefield and terrain count for a points limit."""
    if points <= 0:
        raise PointsError(f"--points {points}: a points limit must be a whole number above 0")
    for tier in pack.points:
        if tier.up_to is None or points <= tier.up_to:
            return tier
    raise AssertionError("the last points row has no upper limit")
