"""Balance sweeps: vary one number of a unit (its size, or one of its own numbers: a
characteristic, a weapon's number, its cost; :mod:`openwar.armies.profile`), play the same
seeded battles at every value, and find the value, and the army points, at which the matchup
is even.

Every value plays battles with the same seeds (common random numbers), on the battleplans the
army files' own points limits generate (an Age of Sigmar table and its terrain grow with the
points: a value over the limit is played on the files' table all the same), so the battleplans
are the same at every value and differences come from the unit alone; both armies' limits are
raised to the largest army of the sweep so that every value's army is read as valid.

A sweep is kept in the results store as one run per value (:func:`record_sweep`), recorded
before any is played: each value's battles are committed as they finish, so a sweep stopped
part-way is finished later (:func:`stored_sweep`) with the same results.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any

from openwar.armies.files import army_yaml
from openwar.armies.model import ArmyList
from openwar.armies.suggest import close_names, did_you_mean
from openwar.armies.validate import assess
from openwar.battles import plan_points
from openwar.errors import OpenWarError
from openwar.rulesets import load_ruleset
from openwar.sim.executors import Executor, chunked
from openwar.sim.plan import SIDES, ArmyFile, BattleResult, SimulationPlan
from openwar.sim.run import code_version, play_run
from openwar.sim.seeds import battle_seeds
from openwar.sim.stats import mean_interval, wilson
from openwar.sim.store import RunStore
from openwar.sim.summary import SideInfo

SIZE = "size"
MOST_VALUES = 100


EXPECTED = "expected whole numbers as START:STOP:STEP or A,B,C"


def parse_values(text: str, option: str = "--size", lowest: int | None = 1) -> list[int]:
    """``"10:30:5"`` (start:stop:step, stop included; a negative step counts down) or
    ``"10,15,30"``; ``option`` names the option in messages, ``lowest`` is the least value.

    >>> parse_values("10:20:5"), parse_values("8, 12"), parse_values("0:-2:-1", "--values", None)
    ([10, 15, 20], [8, 12], [0, -1, -2])
    """
    try:
        parts = [int(p) for p in text.split(":" if ":" in text else ",")]
    except ValueError as exc:
        raise OpenWarError(f"{option} {text!r}: {EXPECTED}") from exc
    if ":" not in text:
        values = parts
    elif len(parts) not in (2, 3):
        raise OpenWarError(f"{option} {text!r}: {EXPECTED}")
    else:
        start, stop, by = (*parts, 1) if len(parts) == 2 else parts
        if start != stop and (by == 0 or (stop - start) * by < 0):  # 6:2:1 is no values
            if by == 0:
                need, way = (
                    "a step of 0 never gets there",
                    f"{start}:{stop}:{1 if stop > start else -1}",
                )
            else:
                up = "up" if stop > start else "down"
                need = f"counting {up} needs a {'positive' if up == 'up' else 'negative'} step"
                way = f"{start}:{stop}:{-by}"
            raise OpenWarError(f"{option} {text!r}: {need} (such as {way})")
        # the first values only, never the whole range (1:10**12:1 ran out of memory)
        count = 1 if start == stop else (stop - start) // by + 1
        values = [start + k * by for k in range(min(count, MOST_VALUES + 1))]
    if lowest is not None and min(values) < lowest:
        below = ", ".join(str(v) for v in values if v < lowest)
        raise OpenWarError(f"{option} {text!r}: {below} is below the least value, {lowest}")
    if len(values) < 2:
        raise OpenWarError(f"{option} {text!r}: expected at least two values")
    if len(set(values)) != len(values):
        raise OpenWarError(f"{option} {text!r}: a value is given twice")
    if len(values) > MOST_VALUES:
        raise OpenWarError(f"{option} {text!r}: at most {MOST_VALUES} values in one sweep")
    return values


@dataclass(frozen=True)
class SweepPoint:
    """One value of the sweep: the varied army's points and the varied side's win share;
    ``destroyed``, the enemy points the varied unit destroyed a battle (mean; what
    ``DESTROYED_BY_UNIT`` says) and ``destroyed_ci`` the 95% interval of that mean, and
    ``unit_points``, its own points at this value (None where not measured)."""

    value: int
    points: int
    wins: int
    draws: int
    losses: int
    failed: int
    destroyed: float | None = None
    unit_points: int | None = None
    destroyed_ci: list[float] | None = None

    @property
    def destroyed_per_point(self) -> float | None:
        if self.destroyed is None or not self.unit_points:
            return None
        return self.destroyed / self.unit_points

    def per_point_interval(self) -> tuple[float, float] | None:
        if self.destroyed_ci is None or not self.unit_points:
            return None
        low, high = self.destroyed_ci
        return low / self.unit_points, high / self.unit_points

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
            "value": self.value,
            "points": self.points,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "failed": self.failed,
            "share": round(self.share, 6),
            "ci95": [round(low, 6), round(high, 6)],
            "unit_points": self.unit_points,
            "unit_points_destroyed": _rounded(self.destroyed),
            "unit_destroyed_per_point": _rounded(self.destroyed_per_point),
            "unit_destroyed_per_point_ci95": _pair(self.per_point_interval()),
        }


def _pair(pair: tuple[float, float] | None) -> list[float] | None:
    return None if pair is None else [round(pair[0], 6), round(pair[1], 6)]


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def sweep_plans(
    plan: SimulationPlan, side: int, unit: str, values: list[int], key: str = SIZE
) -> list[tuple[int, int, SimulationPlan]]:
    """``(value, points of the varied army, plan)`` for every value of ``key`` (``"size"`` or
    a key of the unit's ``profile``) of ``unit`` in army ``side``."""
    armies = plan.army_lists()
    names = [u.name for u in armies[side].units]
    if unit not in names:
        if any(u.name == unit for u in armies[1 - side].units):
            there = SIDES[1 - side]
            fix = f"use --side {there} (or leave --side out)"
            raise OpenWarError(f"--unit {unit!r} is in army {there}: {fix}")
        if close_names(unit, names):
            close = did_you_mean(unit, names)
            raise OpenWarError(f"--unit {unit!r}: not a unit of army {SIDES[side]}{close}")
        raise OpenWarError(f"--unit {unit!r}: army {SIDES[side]} has {', '.join(names)}")
    index = names.index(unit)
    if key != SIZE:
        _check_key(armies[side], index, key)
    varied = [_varied(armies[side], index, key, value) for value in values]
    reports = [assess(a) for a in varied]
    for value, report in zip(values, reports, strict=True):
        sized = [p for p in report.problems if p.unit == unit and f"size {value} " in p.message]
        if key == SIZE and value < 1 and sized:  # the unit's own limits, not the file's "at
            label = f"{plan.armies[side].path} [{unit} x{value}]"  # least 1" said on reading
            raise OpenWarError(f"{label}: {sized[0]}")
    points = [r.cost.total for r in reports]
    limit = max([*points, *(a.points_limit or 0 for a in armies)])
    table = plan_points(armies)  # the files' own battlefield
    other = armies[1 - side].model_copy(update={"points_limit": limit})
    result = []
    for value, army, total in zip(values, varied, points, strict=True):
        files = [ArmyFile("", ""), ArmyFile("", "")]
        label = f"{unit} x{value}" if key == SIZE else f"{unit} {key} {value}"
        files[side] = ArmyFile(f"{plan.armies[side].path} [{label}]", _text(army, limit))
        files[1 - side] = ArmyFile(plan.armies[1 - side].path, _text(other, limit))
        varied_plan = SimulationPlan(
            (files[0], files[1]), plan.battleplan, plan.players, plan.seed, plan.battles,
            board_points=table,
        )  # fmt: skip
        varied_plan.army_lists()
        result.append((value, total, varied_plan))
    return result


Plans = list[tuple[int, int, SimulationPlan]]


@dataclass(frozen=True)
class StoredSweep:
    """A sweep read back from the store: the plan of the files as given, the army holding
    the unit (0 or 1), the unit and what of it is varied, each value's ``(value, army
    points, plan)`` and run id."""

    plan: SimulationPlan
    side: int
    unit: str
    key: str
    plans: Plans
    run_ids: list[int]


def record_sweep(
    store: RunStore, plan: SimulationPlan, side: int, unit: str, key: str, plans: Plans
) -> StoredSweep:
    """Record the sweep of ``plans`` (:func:`sweep_plans` of ``plan``) in ``store``, one run
    per value, all at once; the sweep's id is its first run's."""
    about = {
        "unit": unit,
        "side": SIDES[side],
        "vary": key,
        "files": [[army.path, army.text] for army in plan.armies],
    }
    runs = []
    for value, total, varied in plans:
        armies = varied.army_lists()
        names = (armies[0].name, armies[1].name)
        runs.append((varied, names, {**about, "value": value, "points": total}))
    ids = store.create_sweep(runs, code_version(plan.ruleset))
    return StoredSweep(plan, side, unit, key, plans, ids)


def stored_sweep(store: RunStore, sweep_id: int) -> StoredSweep:
    """The sweep with id ``sweep_id`` as :func:`record_sweep` kept it."""
    runs = store.sweep_runs(sweep_id)
    try:  # a record edited by hand is one line, not a traceback
        about = runs[0].sweep or {}
        first = runs[0].plan
        files = [ArmyFile(str(path), str(text)) for path, text in about["files"]]
        plan = SimulationPlan(
            (files[0], files[1]), first.battleplan, first.players, first.seed, first.battles
        )
        plans = [(int(r.sweep["value"]), int(r.sweep["points"]), r.plan) for r in runs if r.sweep]
        side = SIDES.index(about["side"])
        unit, key = str(about["unit"]), str(about["vary"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        damaged = f"sweep {sweep_id} in {store.path}: its record is damaged ({exc!r})"
        raise OpenWarError(damaged) from None
    return StoredSweep(plan, side, unit, key, plans, [r.id for r in runs])


def changes_points(key: str) -> bool:
    """Whether varying ``key`` changes the army's points (its size or its cost)."""
    return key in (SIZE, "points", "points_per_miniature")


def play_sweep(
    plans: Plans,
    side: int,
    executor: Executor,
    advance: Callable[[int], None] | None = None,
    unit: str | None = None,
    recorded: tuple[RunStore, list[int]] | None = None,
) -> list[SweepPoint]:
    """Play the battles of every value's plan (:func:`sweep_plans`, made first so that a bad
    unit or value is reported before any executor starts) on a started executor; ``advance``
    is told how many battles each finished chunk held (for a progress bar). With ``unit``,
    each point also has what that unit (of army ``side``) destroyed. ``recorded``: the store
    and run ids of the values (:func:`record_sweep`): only the battles it lacks are played,
    each kept as it finishes (a stop raises :class:`~openwar.sim.run.RunInterrupted`)."""
    points = []
    for n, (value, total, varied) in enumerate(plans):
        if recorded is None:
            results = _played(varied, executor, advance)
        else:
            results = _played_in(*recorded, n, executor, advance)
        point = _point(value, total, side, results)
        if unit is not None:
            point = _with_kills(point, varied, side, unit, results)
        points.append(point)
    return points


def _played(
    plan: SimulationPlan, executor: Executor, advance: Callable[[int], None] | None
) -> list[BattleResult]:
    items = list(enumerate(battle_seeds(plan.seed, plan.battles)))
    results = []
    for chunk in executor.results(plan, chunked(items, executor.workers)):
        results += chunk
        if advance is not None:
            advance(len(chunk))
    return results


def _played_in(
    store: RunStore,
    run_ids: list[int],
    n: int,
    executor: Executor,
    advance: Callable[[int], None] | None,
) -> list[BattleResult]:
    """Value ``n``'s battles, the missing ones played into its run of ``store``."""
    run_id = run_ids[n]
    if store.run(run_id).status == "complete":
        return store.results(run_id)

    def told(results: list[BattleResult]) -> None:
        if advance is not None:
            advance(len(results))

    return play_run(store, run_id, executor, told).results


def _with_kills(
    point: SweepPoint, plan: SimulationPlan, side: int, unit: str, results: list[BattleResult]
) -> SweepPoint:
    """The point with the mean enemy points ``unit`` destroyed a battle and its own points."""
    armies = plan.army_lists()
    index = [u.name for u in armies[side].units].index(unit)
    at = index + (len(armies[0].units) if side else 0)  # units are numbered A's first
    played = [r for r in results if r.error is None]
    destroyed = [r.units_destroyed[at] for r in played if len(r.units_destroyed) > at]
    own = dict(SideInfo.of(armies[side]).units)[unit]
    if not destroyed or len(destroyed) != len(played):
        return replace(point, unit_points=own)
    mean = math.fsum(destroyed) / len(destroyed)
    interval = mean_interval(destroyed, floor=0.0)
    return replace(point, destroyed=mean, unit_points=own, destroyed_ci=interval)


def even_points(points: list[SweepPoint], key: str = SIZE) -> dict[str, float | int | None]:
    """Where the varied side's share crosses 0.5 (linear between sweep values, taken in
    order; the first crossing, ``crossings`` says how many there are), with the 95% range:
    every value where 0.5 lies within the interval, its ends linear between sweep values too
    (an end None when the range reaches past that end of the sweep). ``value``, ``value_low`` and
    ``value_high`` are in the varied number; ``points``, ``low`` and ``high`` in the varied
    army's points, when ``key`` changes them (else None). ``decided`` is False when every
    value's interval holds 0.5: the battles cannot tell the values apart, so no even point is
    named (all six None) however the shares fall."""
    decided = not all(low <= 0.5 <= high for low, high in (p.interval() for p in points))
    found: dict[str, float | int | None] = {}
    for names, attr in (
        (("value", "value_low", "value_high"), "value"),
        (("points", "low", "high"), "points"),
    ):
        ordered = sorted(points, key=attrgetter(attr))
        xs = [float(getattr(p, attr)) for p in ordered]
        shares = [p.share for p in ordered]
        lows, highs = ([p.interval()[k] for p in ordered] for k in (0, 1))
        found |= dict(zip(names, (_crossing(xs, shares), *_within(xs, lows, highs)), strict=True))
        if names[0] == "value":
            found["crossings"] = _crossings(shares)
    if not changes_points(key):
        found |= {"points": None, "low": None, "high": None}
    if not decided:
        found |= dict.fromkeys(("value", "value_low", "value_high", "points", "low", "high"))
    return found | {"decided": decided}


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


def _crossings(ys: list[float]) -> int:
    """How many times the curve through ``ys`` reaches 0.5: each pass, and each run of values
    at 0.5 that it then leaves on the side it came from (a touch), once.

    >>> _crossings([0.4, 0.54, 0.46, 0.52, 0.8]), _crossings([0.3, 0.5, 0.7])
    (3, 1)
    >>> _crossings([0.17, 0.5, 0.33]), _crossings([0.5, 0.5]), _crossings([0.6, 0.7])
    (1, 1, 0)
    """
    count, side, at_half = 0, None, False
    for y in ys:
        if y == 0.5:
            at_half = True
            continue
        above = y > 0.5
        count += at_half or (side is not None and above != side)
        side, at_half = above, False
    return count + at_half


def _within(xs: list[float], lows: list[float], highs: list[float]) -> tuple[float | None, ...]:
    """The least and greatest x (linear between sweep values) where lows <= 0.5 <= highs;
    an end that reaches the sweep's own end is None (the other is kept: until 2026-12-07 both
    were dropped, so a range bounded on one side was said to reach past the sweep), and both
    are None when there is no such x.

    >>> _within([10.0, 20.0, 30.0], [0.1, 0.4, 0.6], [0.3, 0.6, 0.8])
    (16.7, 25.0)
    >>> _within([1.0, 2.0, 3.0], [0.1, 0.3, 0.6], [0.6, 0.7, 0.9])
    (None, 2.7)
    """
    spans: list[tuple[float, float]] = []
    for k in range(len(xs) - 1):
        x0, x1 = xs[k], xs[k + 1]
        start, end = 0.0, 1.0  # the share t of the way along this segment where both hold
        for y0, y1, below in ((lows[k], lows[k + 1], True), (highs[k], highs[k + 1], False)):
            start, end = _half(y0, y1, below, start, end)
        if start <= end:
            spans.append((x0 + start * (x1 - x0), x0 + end * (x1 - x0)))
    if not spans:
        return (None, None)
    least, most = min(s for s, _ in spans), max(e for _, e in spans)
    return (None if least <= xs[0] else round(least, 1), None if most >= xs[-1] else round(most, 1))


def _half(y0: float, y1: float, below: bool, start: float, end: float) -> tuple[float, float]:
    """[start, end] narrowed to the t in [0, 1] where y0 + t (y1 - y0) <= 0.5 (``below``)
    or >= 0.5."""
    slope = y1 - y0
    if slope == 0:
        holds = y0 <= 0.5 if below else y0 >= 0.5
        return (start, end) if holds else (1.0, 0.0)
    t = (0.5 - y0) / slope
    if (slope > 0) == below:  # holds for t <= the crossing
        return (start, min(end, t))
    return (max(start, t), end)


def _point(value: int, total: int, side: int, results: list[BattleResult]) -> SweepPoint:
    played = [r for r in results if r.error is None]
    wins = sum(1 for r in played if r.winner == side)
    draws = sum(1 for r in played if r.winner is None)
    losses = len(played) - wins - draws
    return SweepPoint(value, total, wins, draws, losses, len(results) - len(played))


def _check_key(army: ArmyList, index: int, key: str) -> None:
    """A key the unit has no number for, or one the rules fix, is refused before any play."""
    unit = army.units[index]
    keys = load_ruleset(army.ruleset).hooks.profile_keys(unit)
    if keys is None:
        raise OpenWarError(f"--vary {key!r}: {army.ruleset} units have only a size to vary")
    refused = keys.refusal(key)
    if refused is not None:
        raise OpenWarError(f"--vary {key!r}: {unit.name}: {refused}")


def _varied(army: ArmyList, index: int, key: str, value: int) -> ArmyList:
    units = list(army.units)
    unit = units[index]
    change = {SIZE: value} if key == SIZE else {"profile": {**unit.profile, key: value}}
    units[index] = unit.model_copy(update=change)
    return army.model_copy(update={"units": units})


def _text(army: ArmyList, limit: int) -> str:
    return army_yaml(army.model_copy(update={"points_limit": limit}))
