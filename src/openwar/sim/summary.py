"""The summary of a run: rates with Wilson intervals, victories, scores, casualties, rounds.

It is computed from the battles sorted by index and holds nothing about how or where they were
played (no timings, no worker count, no run id), so its JSON is byte-identical for any executor.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from openwar.armies.model import ArmyList
from openwar.armies.validate import assess
from openwar.sim.plan import SIDES, BattleResult, SimulationPlan
from openwar.sim.stats import describe, mean_interval, rate

SUMMARY_FORMAT = "openwar-simulation/1"
FAILURES_LISTED = 10


@dataclass(frozen=True)
class SideInfo:
    """What the summary needs to know of an army: its name, points and units, and the numbers
    of their types that units change for themselves (``profile``: a home-made variant)."""

    name: str
    points: int
    units: tuple[tuple[str, int], ...]  # (name, points) in army-file order
    profiles: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # (name, own numbers)

    @classmethod
    def of(cls, army: ArmyList) -> SideInfo:
        cost = assess(army).cost
        costs = {unit.unit: unit.total for unit in cost.units}
        units = tuple((u.name, costs.get(u.name, 0)) for u in army.units)
        profiles = tuple((u.name, tuple(u.profile.items())) for u in army.units if u.profile)
        # the army's points, battalions included
        return cls(army.name, cost.total, units, profiles)


def summarise(
    plan: SimulationPlan, sides: tuple[SideInfo, SideInfo], results: list[BattleResult]
) -> dict[str, Any]:
    """The JSON summary of a run from its battles (in any order: they are sorted here)."""
    ordered = sorted(results, key=lambda r: r.index)
    played = [r for r in ordered if r.error is None]
    n = len(played)
    return {
        "format": SUMMARY_FORMAT,
        "armies": {
            side: {"name": s.name, "points": s.points} for side, s in zip(SIDES, sides, strict=True)
        },
        "players": {side: player for side, player in zip(SIDES, plan.players, strict=True)},
        "seed": plan.seed,
        "battleplan": plan.describe_board(),
        "battles": plan.battles,
        "played": n,
        "failed": len(ordered) - n,
        "outcomes": _outcomes(played),
        "victories": _victories(played),
        "scores": {
            "A": describe([r.scores[0] for r in played]),
            "B": describe([r.scores[1] for r in played]),
            "A - B": describe([r.scores[0] - r.scores[1] for r in played]),
        },
        "conditions": _conditions(played),
        "casualties": _casualties(played),
        "points_destroyed_per_point": _efficiency(played, sides),
        "rounds": {
            **describe([r.rounds for r in played]),
            "counts": {str(k): v for k, v in sorted(Counter(r.rounds for r in played).items())},
        },
        "units": _units(played, sides),
        "failures": [
            {"battle": r.index, "seed": r.seed, "error": r.error}
            for r in ordered
            if r.error is not None
        ][:FAILURES_LISTED],
    }


def _victories(played: list[BattleResult]) -> dict[str, dict[str, Any]]:
    n = len(played)
    counts = Counter((r.winner, r.victory) for r in played)
    return {
        side: {kind: rate(counts[(i, kind)], n) for kind in ("major", "minor")}
        for i, side in enumerate(SIDES)
    }


def _conditions(played: list[BattleResult]) -> dict[str, dict[str, Any]]:
    """Per victory condition (their scores count different things: objectives, points or
    looted markers): battles, who won how often, and each side's score."""
    found: dict[str, dict[str, Any]] = {}
    for name in sorted({r.condition for r in played}):
        mine = [r for r in played if r.condition == name]
        found[name or "(none)"] = {
            "battles": len(mine),
            **_outcomes(mine),
            "scores": {side: describe([r.scores[i] for r in mine]) for i, side in enumerate(SIDES)},
        }
    return found


def _outcomes(played: list[BattleResult]) -> dict[str, dict[str, Any]]:
    """How often A won, the battle was drawn and B won, with Wilson intervals."""
    wins = Counter(r.winner for r in played)
    n = len(played)
    return {"A wins": rate(wins[0], n), "draws": rate(wins[None], n), "B wins": rate(wins[1], n)}


def _casualties(played: list[BattleResult]) -> dict[str, dict[str, Any]]:
    return {
        side: {
            "miniatures_lost": describe([r.miniatures_lost[i] for r in played]),
            "points_lost": describe([r.points_lost[i] for r in played]),
        }
        for i, side in enumerate(SIDES)
    }


def _efficiency(
    played: list[BattleResult], sides: tuple[SideInfo, SideInfo]
) -> dict[str, dict[str, float]]:
    """Enemy points destroyed (slain or fled) per point of one's own army, per battle."""
    result = {}
    for i, side in enumerate(SIDES):
        spent = sides[i].points or 1
        result[side] = describe([r.points_lost[1 - i] / spent for r in played])
    return result


def named_units(sides: tuple[SideInfo, SideInfo]) -> list[tuple[str, str, int]]:
    """``(side, unit, points)`` of every unit, A's then B's, as battles number them."""
    return [
        (side, name, points)
        for side, s in zip(SIDES, sides, strict=True)
        for name, points in s.units
    ]


def _units(played: list[BattleResult], sides: tuple[SideInfo, SideInfo]) -> list[dict[str, Any]]:
    """Per unit: points, miniatures, mean share of miniatures lost, how often wiped out and,
    when every battle measured it, the enemy points it destroyed (``Rules.kills``; a battle's
    distribution, and per point of its own cost, with the 95% interval of the mean: above 1,
    it earned its points back)."""
    named = named_units(sides)
    if not played or any(len(r.units_lost) != len(named) for r in played):
        return []
    own = {(side, name): dict(numbers) for side, s in zip(SIDES, sides, strict=True)
           for name, numbers in s.profiles}  # fmt: skip
    size = played[0].units_size
    n = len(played)
    measured = all(len(r.units_destroyed) == len(named) for r in played)
    rows = []
    for k, (side, name, points) in enumerate(named):
        lost = [r.units_lost[k] / size[k] if size[k] else 0.0 for r in played]
        wiped = sum(1 for r in played if size[k] and r.units_lost[k] == size[k])
        rows.append(
            {
                "side": side,
                "unit": name,
                "points": points,
                "miniatures": size[k],
                "share_lost": describe(lost)["mean"],
                "destroyed": rate(wiped, n),
            }
        )
        if (side, name) in own:  # only a variant's row has it: other summaries are unchanged
            rows[-1]["profile"] = own[side, name]
        if measured:
            values = [r.units_destroyed[k] for r in played]
            interval = mean_interval(values, floor=0.0)
            rows[-1]["points_destroyed"] = describe(values) | {"ci95": interval}
            per_point = [v / points for v in values] if points else None
            rows[-1]["destroyed_per_point"] = per_point and {
                "mean": describe(per_point)["mean"],
                "ci95": mean_interval(per_point, floor=0.0),
            }
    return rows
