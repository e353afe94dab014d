"""The finite menu of meaningful OpenWar actions for the side to move.

Continuous movement is offered as candidates (towards or away from a unit or objective, into
base contact for a charge, hold, regroup); any other destination a human gives is checked by
the same rules when it is applied.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from openwar.engine.actions import Action
from openwar.engine.space import (
    OVERLAP_TOLERANCE,
    centroid,
    formation,
    formations,
    gaps,
    on_table,
    others,
    placement_clear,
)
from openwar.engine.state import BoolArray, FloatArray, GameState, IntArray, UnitState
from openwar.rulesets.openwar import orders, ruses
from openwar.rulesets.openwar.board import deployment_points, facing_for, objectives, territory
from openwar.rulesets.openwar.rules import battle_rules
from openwar.rulesets.openwar.shooting import can_shoot, shooters

DEPLOYMENT_GRIDS = ((7, 3), (15, 7), (31, 15))  # columns x rows, coarse first
NO_ROOM = "no room"
WIDE = "wide ranks"
FITTING_BASES = 1024  # bases placed per vectorised fitting check
FITTING_MEMO = "openwar.fitting"  # (Lookups.memo) set-up formations checked so far
ROUNDING_SLACK = 2 * OVERLAP_TOLERANCE  # rounding to POSITION_DECIMALS plus in_combat's tolerance


def deployment_menu(state: GameState) -> list[Action]:
    side = state.active
    waiting = [u for u in state.units if u.side == side and not u.flags.get("deployed")]
    menu = []
    wide = battle_rules().wide_rank_width
    for unit in waiting:
        points = deployment_options(state, unit)
        menu += [Action("deploy", side, unit.id, point=point) for point in points]
        menu += [
            Action("deploy", side, unit.id, point=p, choice=ruses.AMBUSH)
            for p in ruses.ambush_points(state, unit)
        ]
        if ruses.may_wait(state, unit):
            menu.append(Action("deploy", side, unit.id, choice=ruses.OUTFLANK))
        if points:
            continue
        points = deployment_options(state, unit, wide)
        menu += [Action("deploy", side, unit.id, point=p, choice=WIDE) for p in points]
        if not points:
            menu.append(Action("deploy", side, unit.id, choice=NO_ROOM))
    return menu


def deployment_options(
    state: GameState, unit: UnitState, width: int | None = None
) -> list[tuple[float, float]]:
    """Where the unit fits in its territory in ranks of ``width``: a coarse grid of centres,
    finer grids only when the coarse one has no room left (OW-B12)."""
    members = state.members(unit.id)
    chunk = max(1, FITTING_BASES // len(members))  # bounds the memory of one check
    for columns, rows in DEPLOYMENT_GRIDS:
        points = deployment_points(state, unit.side, columns, rows)
        fit = [
            ok
            for i in range(0, len(points), chunk)
            for ok in fitting(state, members, points[i : i + chunk], width)
        ]
        found = [point for point, ok in zip(points, fit, strict=True) if ok]
        if found:
            return found
    return []


def fitting(
    state: GameState, members: IntArray, points: list[tuple[float, float]], width: int | None = None
) -> list[bool]:
    """:func:`fits` for many centres at once: the unit's formation around each point is on
    the table, clear of every other base and wholly within its territory."""
    if not points:
        return []
    side = state.units[int(state.unit_of[members[0]])].side
    radii = state.radius[members]
    blocks = formations(
        len(members),
        np.asarray(points, dtype=np.float64),
        float(radii[0]),
        width or battle_rules().rank_width,
        facing_for(state, side),
    )
    xy, r = blocks.reshape(-1, 2), np.tile(radii, len(points))
    memo: dict[tuple[object, ...], _Fitting] = state.lookup().memo.setdefault(FITTING_MEMO, {})
    key = (members.tobytes(), tuple(points), width, facing_for(state, side))
    known = memo.get(key)
    if known is None:
        ok = on_table(xy, r, state.board["width"], state.board["depth"])
        ok &= territory(state, side).bases_inside(xy, r)
        known = memo[key] = _Fitting(ok, np.zeros(0, dtype=np.int64), b"")
    rest = others(state, members)
    checked = known.checked
    if len(checked) and not (
        np.isin(checked, rest).all() and state.pos[checked].tobytes() == known.where
    ):
        return _fitting_afresh(state, members, xy, r, side, len(points))
    new = rest[~np.isin(rest, checked)] if len(checked) else rest
    ok = known.ok
    if len(new):
        # only bases whose bounding boxes meet the new bases' box can overlap one of them
        new_xy, new_r = state.pos[new], state.radius[new]
        low = (new_xy - new_r[:, None]).min(axis=0) - OVERLAP_TOLERANCE
        high = (new_xy + new_r[:, None]).max(axis=0) + OVERLAP_TOLERANCE
        near = np.flatnonzero(((xy + r[:, None] >= low) & (xy - r[:, None] <= high)).all(axis=1))
        ok = ok.copy()
        if len(near):
            clear = gaps(xy[near], r[near], new_xy, new_r) >= -OVERLAP_TOLERANCE
            ok[near] &= clear.all(axis=1)
        checked = np.sort(np.concatenate([checked, new]))
        memo[key] = _Fitting(ok, checked, state.pos[checked].tobytes())
    return [bool(v) for v in np.asarray(ok.reshape(len(points), len(members)).all(axis=1))]


@dataclass(frozen=True)
class _Fitting:
    """What :func:`fitting` knows of one set of formations: whether each base is on the table
    and in its territory and clear of the bases ``checked`` (which stood at ``where``).
    During set-up bases are only added, so later checks need only the new ones."""

    ok: BoolArray
    checked: IntArray
    where: bytes


def _fitting_afresh(
    state: GameState, members: IntArray, xy: FloatArray, r: FloatArray, side: int, count: int
) -> list[bool]:
    ok = on_table(xy, r, state.board["width"], state.board["depth"])
    rest = others(state, members)
    if len(rest):
        clear = gaps(xy, r, state.pos[rest], state.radius[rest]) >= -OVERLAP_TOLERANCE
        ok &= clear.all(axis=1)
    ok &= territory(state, side).bases_inside(xy, r)
    return [bool(v) for v in np.asarray(ok.reshape(count, len(members)).all(axis=1))]


def fits(state: GameState, unit: UnitState, point: tuple[float, float]) -> bool:
    members = state.members(unit.id)
    xy = formation(
        len(members),
        point,
        float(state.radius[members[0]]),
        battle_rules().rank_width,
        facing_for(state, unit.side),
    )
    if not placement_clear(state, members, xy):
        return False
    return territory(state, unit.side).contains_bases(xy, state.radius[members])


def order_menu(state: GameState) -> list[Action]:
    side = state.active
    menu: list[Action] = []
    for unit in state.side_units(side):
        if unit.flags.get("ordered"):
            continue
        menu += unit_orders(state, unit)
    return menu


def unit_orders(state: GameState, unit: UnitState) -> list[Action]:
    side = unit.side
    if unit.flags.get("split"):
        return [Action("regroup", side, unit.id)]
    if orders.in_combat(state, unit.id):
        return _in_combat_orders(state, unit)
    menu = [Action("hold", side, unit.id)]
    shots, moves = _free_orders(state, unit)
    menu += shots
    menu += moves
    menu += _skills(state, unit)
    return menu


def _free_orders(state: GameState, unit: UnitState) -> tuple[list[Action], list[Action]]:
    """A unit out of combat's shooting orders (Holds aimed at an enemy) and its moves: for
    each enemy its shot, then its advance into or short of combat and its charge; each
    objective's advance and run; the fall-back. Every straight move they need is worked out
    in two passes (the contact tries, then the goals not in contact)."""
    side = unit.side
    shoots = can_shoot(state, unit.id)
    move = orders.move_allowance(state, unit.id)
    run = orders.run_allowance(state, unit.id)
    exhausted = bool(unit.tokens.get("exhaustion"))
    enemies = state.side_units(1 - side)
    touches = orders.contacts(state, unit.id, [enemy.id for enemy in enemies], run)
    apart = [
        e
        for e, (travel, touch) in zip(enemies, touches, strict=True)
        if travel > move or touch is None
    ]
    aims = [
        (centroid(state, state.on_table(e.id)), move, _stand_off(state, unit, e)) for e in apart
    ]
    targets = _objective_aims(state, unit, move, run)
    aims += [(goal, limit, 0.0) for goal, limit, _ in targets]
    away = _away_goal(state, unit, move)
    if away is not None:
        aims.append((away, move, 0.0))
    points = iter(
        orders.reachable_points(
            state,
            unit.id,
            np.array([goal for goal, _, _ in aims], dtype=np.float64).reshape(-1, 2),
            np.array([limit for _, limit, _ in aims]),
            np.array([stop for _, _, stop in aims]),
        )
    )
    shots: list[Action] = []
    moves: list[Action] = []
    for enemy, (travel, touch) in zip(enemies, touches, strict=True):
        if shoots and shooters(state, unit.id, enemy.id):
            shots.append(Action("hold", side, unit.id, target=enemy.id))
        if touch is not None and travel <= move:
            moves.append(Action("advance", side, unit.id, enemy.id, touch, "move-fight"))
        else:
            point = next(points)
            if point is not None:
                choice = "move-shoot" if shoots else "move-fight"
                target = enemy.id if shoots else None
                moves.append(Action("advance", side, unit.id, target, point, choice))
        if not exhausted and touch is not None and travel <= run:
            moves.append(Action("run", side, unit.id, enemy.id, touch, "charge"))
    reached = [(next(points), running) for _, _, running in targets]
    back = next(points, None)
    checked = [point for point, running in reached if running and point is not None]
    fights = iter(_ends_in_combat(state, unit, checked + ([back] if back is not None else [])))
    for point, running in reached:
        if point is None:
            continue
        if not running:
            moves.append(Action("advance", side, unit.id, None, point, "move-shoot"))
        elif not next(fights):
            moves.append(Action("run", side, unit.id, None, point, "objective"))
    if back is not None and not next(fights):
        moves.append(Action("advance", side, unit.id, None, back, "move-shoot"))
    return shots, moves


def _objective_aims(
    state: GameState, unit: UnitState, move: float, run: float
) -> list[tuple[FloatArray, float, bool]]:
    """Each objective's moves a unit is offered: its Advance and, unless Exhausted, its Run
    (the goal, the allowance, whether it is the Run)."""
    aims = []
    for goal_xy in objectives(state):
        goal = np.asarray(goal_xy, dtype=np.float64)
        aims.append((goal, move, False))
        if not unit.tokens.get("exhaustion"):
            aims.append((goal, run, True))
    return aims


def _in_combat_orders(state: GameState, unit: UnitState) -> list[Action]:
    side, rules = unit.side, battle_rules()
    menu = [
        Action("hold", side, unit.id, target=enemy)
        for enemy in orders.enemies_within(state, unit.id, rules.combat_range)
    ]
    if not unit.tokens.get("exhaustion"):
        retreat = _away_point(state, unit, orders.run_allowance(state, unit.id))
        if retreat is not None and _leaves_combat(state, unit, retreat):
            menu.append(Action("run", side, unit.id, point=retreat, choice="retreat"))
    menu += _skills(state, unit)
    return menu


def _stand_off(state: GameState, unit: UnitState, enemy: UnitState) -> float:
    """How far short of the enemy's centre a plain advance stops: outside combat range."""
    ours, theirs = state.on_table(unit.id), state.on_table(enemy.id)
    goal = centroid(state, theirs)
    here = centroid(state, ours)
    gap = orders.least_gap(state, unit.id, enemy.id)
    centre = float(np.hypot(*(goal - here)))
    return max(centre - gap, 0.0) + battle_rules().combat_range + 1.0


def _skills(state: GameState, unit: UnitState) -> list[Action]:
    found = []
    reach = battle_rules().command_skill_range
    for skill in unit.profile.get("command_skills", []):
        for friend in state.side_units(unit.side):
            if friend.id == unit.id:
                continue
            if orders.least_gap(state, unit.id, friend.id) <= reach:
                found.append(Action("skill", unit.side, unit.id, friend.id, choice=skill))
    return found


def _away_point(state: GameState, unit: UnitState, limit: float) -> tuple[float, float] | None:
    goal = _away_goal(state, unit, limit)
    return None if goal is None else orders.reachable_point(state, unit.id, goal, limit)


def _away_goal(state: GameState, unit: UnitState, limit: float) -> FloatArray | None:
    """The point ``limit`` straight away from the enemy army's centre (None: no enemy, or no
    way is away)."""
    ours = state.on_table(unit.id)
    theirs = orders.enemy_minis(state, unit.side)
    if len(theirs) == 0:
        return None
    here = centroid(state, ours)
    away = here - centroid(state, theirs)
    length = float(np.hypot(*away))
    if length == 0.0:
        return None
    return np.asarray(here + away / length * limit, dtype=np.float64)


def _leaves_combat(state: GameState, unit: UnitState, point: tuple[float, float]) -> bool:
    return not _ends_in_combat(state, unit, [point])[0]


def _ends_in_combat(
    state: GameState, unit: UnitState, points: list[tuple[float, float]]
) -> list[bool]:
    """Whether the unit's centre moved to each of ``points`` ends within combat range of an
    enemy, or so near it that the engine might find it in combat: a move offered as ending
    out of combat (a Retreat, a Run to an objective) must still end out of it once the
    engine rounds the positions and measures with its tolerance (:data:`ROUNDING_SLACK`)."""
    ours = state.on_table(unit.id)
    theirs = orders.enemy_minis(state, unit.side)
    if len(theirs) == 0 or not points:
        return [False] * len(points)
    shifts = np.asarray(points, dtype=np.float64) - centroid(state, ours)
    near = orders.within_combat_range(state, ours, theirs, shifts, ROUNDING_SLACK)
    return [bool(k) for k in near]
