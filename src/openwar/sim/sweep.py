"""Balance sweeps: vary one unit's size, play the same seeded battles at every value, and find
the points value at which the matchup is even.

Every value plays battles with the same seeds (common random numbers), and both armies' points
limits are raised to the largest army of the sweep, so generated battleplans are the same at
every value and differences come from the unit alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from openwar.armies.files import army_yaml
from openwar.armies.model import ArmyList
from openwar.armies.validate import assess
from openwar.errors import OpenWarError
from openwar.sim.executors import Executor, chunked
from openwar.sim.plan import SIDES, ArmyFile, BattleResult, SimulationPlan
from openwar.sim.seeds import battle_seeds
from openwar.sim.stats import wilson


def parse_values(text: str) -> list[int]:
    """``"10:30:5"`` (start:stop:step, stop included) or ``"10,15,30"``.

    >>> parse_values("10:20:5"), parse_values("8, 12")
    ([10, 15, 20], [8, 12])
    """
    try:
        if ":" in text:
            start, stop, *step = (int(p) for p in text.split(":"))
            values = list(range(start, stop + 1, step[0] if step else 1))
        else:
            values = [int(p) for p in text.split(",")]
    except ValueError as exc:
        raise OpenWarError(f"--size {text!r}: expected START:STOP:STEP or A,B,C") from exc
    if len(values) < 2 or min(values) < 1:
        raise OpenWarError(f"--size {text!r}: expected at least two sizes of 1 or more")
    return values


@dataclass(frozen=True)
class SweepPoint:
    """One value of the sweep: the varied army's points and the varied side's win share."""

    size: int
    points: int
    wins: int
    draws: int
    losses: int
    failed: int

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def share(self) -> float:
        """Wins plus half the draws, per battle: 0.5 is an even matchup."""
        return (self.wins + self.draws / 2) / self.played if self.played else 0.5

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins + self.draws / 2, self.played)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval()
        return {
            "size": self.size,
            "points": self.points,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "failed": self.failed,
            "share": round(self.share, 6),
            "ci95": [round(low, 6), round(high, 6)],
        }


def sweep_plans(
    plan: SimulationPlan, side: int, unit: str, sizes: list[int]
) -> list[tuple[int, int, SimulationPlan]]:
    """``(size, points of the varied army, plan)`` for every size of ``unit`` in army ``side``."""
    armies = plan.army_lists()
    names = [u.name for u in armies[side].units]
    if unit not in names:
        if any(u.name == unit for u in armies[1 - side].units):
            there = SIDES[1 - side]
            fix = "add --side B" if there == "B" else "use --side A (the default)"
            raise OpenWarError(f"--unit {unit!r} is in army {there}: {fix}")
        raise OpenWarError(f"--unit {unit!r}: army {SIDES[side]} has {', '.join(names)}")
    varied = [_resized(armies[side], names.index(unit), size) for size in sizes]
    points = [assess(a).cost.total for a in varied]
    limit = max([*points, *(a.points_limit or 0 for a in armies)])
    other = armies[1 - side].model_copy(update={"points_limit": limit})
    result = []
    for size, army, total in zip(sizes, varied, points, strict=True):
        files = [ArmyFile("", ""), ArmyFile("", "")]
        files[side] = ArmyFile(f"{plan.armies[side].path} [{unit} x{size}]", _text(army, limit))
        files[1 - side] = ArmyFile(plan.armies[1 - side].path, _text(other, limit))
        sized = SimulationPlan(
            (files[0], files[1]), plan.battleplan, plan.players, plan.seed, plan.battles
        )
        sized.army_lists()
        result.append((size, total, sized))
    return result


def play_sweep(
    plans: list[tuple[int, int, SimulationPlan]],
    side: int,
    executor: Executor,
    advance: Callable[[int], None] | None = None,
) -> list[SweepPoint]:
    """Play the battles of every size's plan (:func:`sweep_plans`, made first so that a bad
    unit or size is reported before any executor starts) on a started executor; ``advance``
    is told how many battles each finished chunk held (for a progress bar)."""
    points = []
    for size, total, sized in plans:
        items = list(enumerate(battle_seeds(sized.seed, sized.battles)))
        results = []
        for chunk in executor.results(sized, chunked(items, executor.workers)):
            results += chunk
            if advance is not None:
                advance(len(chunk))
        points.append(_point(size, total, side, results))
    return points


def even_points(points: list[SweepPoint]) -> dict[str, float | None]:
    """Points at which the varied side's share crosses 0.5 (linear between sweep values), and
    the 95% range: where the intervals' upper and lower ends cross 0.5."""
    xs = [float(p.points) for p in points]
    ends = [_crossing(xs, [p.interval()[k] for p in points]) for k in (0, 1)]
    known = [x for x in ends if x is not None]
    return {
        "points": _crossing(xs, [p.share for p in points]),
        "low": min(known) if len(known) == 2 else None,
        "high": max(known) if len(known) == 2 else None,
    }


def _crossing(xs: list[float], ys: list[float]) -> float | None:
    """First x where the piecewise-linear curve through (xs, ys) reaches 0.5, or None.

    >>> _crossing([100.0, 200.0], [0.25, 0.75])
    150.0
    """
    for k, (x, y) in enumerate(zip(xs, ys, strict=True)):
        if y == 0.5:
            return round(x, 1)
        if k + 1 < len(xs) and (y - 0.5) * (ys[k + 1] - 0.5) < 0:
            return round(x + (0.5 - y) * (xs[k + 1] - x) / (ys[k + 1] - y), 1)
    return None


def _point(size: int, total: int, side: int, results: list[BattleResult]) -> SweepPoint:
    played = [r for r in results if r.error is None]
    wins = sum(1 for r in played if r.winner == side)
    draws = sum(1 for r in played if r.winner is None)
    losses = len(played) - wins - draws
    return SweepPoint(size, total, wins, draws, losses, len(results) - len(played))


def _resized(army: ArmyList, index: int, size: int) -> ArmyList:
    units = list(army.units)
    units[index] = units[index].model_copy(update={"size": size})
    return army.model_copy(update={"units": units})


def _text(army: ArmyList, limit: int) -> str:
    return army_yaml(army.model_copy(update={"points_limit": limit}))
