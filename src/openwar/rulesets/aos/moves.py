"""Age of Sigmar movement on the engine's table: distances between units, straight-line
moves of a whole unit (normal moves, runs, retreats, charges), pile-ins model by model,
coherency and split units.

A unit moves as a block along a straight line (AOS-B4, as with a movement tray), so it stays
in the formation it was set up in; every base-crossing check is the engine's exact one. Where
the tray is stopped, a charge may go round what is in its way (AOS-C1) and a normal move
towards an objective may be made model by model (AOS-B8), each model's path found by the
compiled grid search (:func:`path_to_contact`).
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Polygon

from openwar.engine import kernels
from openwar.engine.space import (
    BLOCKED,
    OVERLAP_TOLERANCE,
    centroid,
    detour_fans,
    dot2,
    furthest_translation,
    furthest_translations,
    gaps,
    groups,
    pick_detours,
    placement_clear,
    unit_gaps,
)
from openwar.engine.state import POSITION_DECIMALS, FloatArray, GameState, IntArray
from openwar.rulesets.aos import garrisons
from openwar.rulesets.aos.board import base_to_shape
from openwar.rulesets.aos.rules import battle_rules

EPS = 1e-6
KEEP_CLEAR = 0.01  # inches beyond 3" where the menu's normal moves and runs stop (AOS-M2)
Point = tuple[float, float]


def side_minis(state: GameState, side: int) -> IntArray:
    """A side's models on the table (the engine's lookup, remembered while only read)."""
    return state.side_miniatures(side)


def enemy_minis(state: GameState, side: int) -> IntArray:
    return side_minis(state, 1 - side)


def unit_gap(state: GameState, a: str, b: str) -> float:
    """The closest gap between two units; a garrison is measured from its feature
    (remembered while the state is only read)."""
    return state.remembered(("aos.unit_gap", a, b), lambda: _unit_gap(state, a, b))


def _unit_gap(state: GameState, a: str, b: str) -> float:
    ours, theirs = state.on_table(a), state.on_table(b)
    if len(ours) == 0 or len(theirs) == 0:
        return float("inf")
    if garrisons.garrisons(state):
        here, there = garrisons.shape_of(state, a), garrisons.shape_of(state, b)
        if here is not None and there is not None:
            return float(shapely.distance(here, there))
        if here is not None:
            return float(garrisons.gap_to(state, here, theirs).min())
        if there is not None:
            return float(garrisons.gap_to(state, there, ours).min())
    return float(unit_gaps(state, ours, theirs).min())


def enemy_gap(state: GameState, unit_id: str) -> float:
    """The gap to the nearest enemy model, an enemy garrison's feature counting as one."""
    ours = state.on_table(unit_id)
    side = state.unit(unit_id).side
    held = garrisons.garrisons(state)
    if held and unit_id in held:
        enemies = [u.id for u in state.units if u.side != side]
        return min((unit_gap(state, unit_id, e) for e in enemies), default=float("inf"))
    if held:  # each garrison by its feature, the other enemies' models all at once
        if len(ours) == 0:
            return float("inf")
        enemies = [u.id for u in state.units if u.side != side]
        found = [unit_gap(state, unit_id, e) for e in enemies if e in held]
        rest = [state.on_table(e) for e in enemies if e not in held]
        theirs = np.concatenate(rest) if rest else np.zeros(0, dtype=np.int64)
        if len(theirs):
            found.append(float(unit_gaps(state, ours, theirs).min()))
        return min(found, default=float("inf"))
    theirs = enemy_minis(state, side)
    if len(ours) == 0 or len(theirs) == 0:
        return float("inf")
    return float(unit_gaps(state, ours, theirs).min())


def keep_away() -> float:
    """How near an enemy model the menu's normal moves and runs come: 3" and a hundredth. No
    part of such a move may be within 3" of an enemy (AOS-M2), and a gap of exactly 3" is
    within 3" (:func:`near_enemy`): a move that stopped there let the unit fight without a
    charge (until 2026-11-29)."""
    return battle_rules().enemy_gap + KEEP_CLEAR


def near_enemy(state: GameState, unit_id: str) -> bool:
    """Within 3" of an enemy unit."""
    return enemy_gap(state, unit_id) <= battle_rules().enemy_gap + EPS


def enemies_within(state: GameState, unit_id: str, distance: float) -> list[str]:
    side = state.unit(unit_id).side
    return [
        u.id
        for u in state.units
        if u.side != side and unit_gap(state, unit_id, u.id) <= distance + EPS
    ]


def gap_after(state: GameState, moved: FloatArray, movers: IntArray, others: IntArray) -> float:
    if len(others) == 0:
        return float("inf")
    return float(gaps(moved, state.radius[movers], state.pos[others], state.radius[others]).min())


def clearance_limit(
    state: GameState, movers: IntArray, shift: FloatArray, others: IntArray, margin: float
) -> float:
    """How far along ``shift`` the movers go before any base comes within ``margin`` of a base
    of ``others`` (an exact quadratic per pair, like the engine's base-crossing check)."""
    shifts = np.asarray(shift, dtype=np.float64).reshape(1, 2)
    return float(clearance_limits(state, movers, shifts, others, margin)[0])


def clearance_limits(
    state: GameState, movers: IntArray, shifts: FloatArray, others: IntArray, margin: float
) -> FloatArray:
    """:func:`clearance_limit` of each of ``shifts`` (k, 2) at once, each the same numbers as
    asked alone (the same IEEE operations, element by element)."""
    lengths = np.hypot(shifts[:, 0], shifts[:, 1])
    if len(others) == 0:
        return np.asarray(lengths, dtype=np.float64)
    found = lengths.copy()
    moving = lengths != 0.0
    if not moving.any():
        return np.asarray(found, dtype=np.float64)
    u = shifts[moving] / lengths[moving, None]
    d, c = _pair_terms(state, movers, others, margin)
    b = dot2(d[None, :, :, :], u[:, None, None, :])
    disc = b * b - c[None, :, :]
    hits = (disc >= 0.0) & (b < 0.0)
    t = np.where(hits, -b - np.sqrt(np.maximum(disc, 0.0)), np.inf)
    best = t.reshape(len(u), -1).min(axis=1) if t[0].size else np.full(len(u), np.inf)
    found[moving] = np.maximum(0.0, np.minimum(lengths[moving], best))
    return np.asarray(found, dtype=np.float64)


def _pair_terms(
    state: GameState, movers: IntArray, others: IntArray, margin: float
) -> tuple[FloatArray, FloatArray]:
    """The offsets between every mover and every other base, and ``|d|^2 - reach^2``: the
    same for every direction a menu tries, so remembered while the state is only read."""
    key = ("aos_pairs", movers.tobytes(), others.tobytes(), margin)
    if state.scratch is not None:
        found: tuple[FloatArray, FloatArray] | None = state.scratch.get(key)
        if found is not None:
            return found
    d = state.pos[movers][:, None, :] - state.pos[others][None, :, :]
    reach = state.radius[movers][:, None] + state.radius[others][None, :] + margin
    c = dot2(d, d) - reach * reach
    if state.scratch is not None:
        state.scratch[key] = (d, c)
    return d, c


def block_shift(
    state: GameState,
    unit_id: str,
    towards: FloatArray,
    limit: float,
    *,
    keep_away: float | None,
    fly: bool,
    stop_short: float = 0.0,
) -> FloatArray:
    """The longest straight shift of the whole unit towards a point (its centre heading
    there), at most ``limit``, never crossing a base (unless it flies) nor the table edge,
    and with ``keep_away`` never coming within that distance of an enemy model."""
    members = state.on_table(unit_id)
    start = centroid(state, members)
    delta = np.asarray(towards, dtype=np.float64) - start
    length = float(np.hypot(*delta))
    if length == 0.0:
        return np.zeros(2)
    travel = min(limit, max(length - stop_short, 0.0))
    shift = delta / length * travel
    if keep_away is not None:
        enemies = enemy_minis(state, state.unit(unit_id).side)
        shift = (
            shift / max(travel, EPS) * clearance_limit(state, members, shift, enemies, keep_away)
        )
        shift = shift * garrisons.path_fraction(state, unit_id, shift, keep_away)
    if fly:
        return _flying_shift(state, members, shift)
    return furthest_translation(state, members, shift)


def file_positions(
    state: GameState, unit_id: str, towards: FloatArray, limit: float, keep_away: float
) -> FloatArray | None:
    """A normal move made model by model (AOS-M1: each model moves on its own, in any
    direction): the unit's centre heads for ``towards`` as far as ``limit``; each model,
    the furthest along the heading first, moves straight by that much, or by the turn of it
    (each of DETOURS) that ends nearest where the straight move would take it when a base or the
    ``keep_away`` gap to an enemy model stops it (its own unit's models already moved
    counting where they now stand). None when the unit would end split (AOS-M6), or when an
    enemy garrisons a feature (their 3" is kept by block moves only)."""
    key = ("aos_file", unit_id, float(towards[0]), float(towards[1]), limit, keep_away)
    if state.scratch is not None and key in state.scratch:
        known: FloatArray | None = state.scratch[key]
        return known
    found = _file_positions(state, unit_id, np.asarray(towards, dtype=np.float64), limit,
                            keep_away)  # fmt: skip
    if state.scratch is not None:
        state.scratch[key] = found
    return found


def _file_positions(
    state: GameState, unit_id: str, towards: FloatArray, limit: float, keep_away: float
) -> FloatArray | None:
    members = state.on_table(unit_id)
    side = state.unit(unit_id).side
    if len(members) == 0 or garrisons.enemy_features(state, side):
        return None
    delta = towards - centroid(state, members)
    length = float(np.hypot(*delta))
    if length == 0.0:
        return None
    if limit <= 0.0:
        return None
    for share in FILE_SHARES:
        found = _filed(state, members, towards, delta / length, min(limit, length) * share,
                       limit, keep_away)  # fmt: skip
        if found is not None:
            return found
    return None


FILE_SHARES = (1.0, 0.5)  # of the way a model-by-model move tries, in turn


def _filed(
    state: GameState,
    members: IntArray,
    towards: FloatArray,
    u: FloatArray,
    travel: float,
    limit: float,
    keep_away: float,
) -> FloatArray | None:
    """:func:`file_positions` with the straight moves ``travel`` long along ``u``."""
    enemies = enemy_minis(state, state.lookup().side_of[members[0]])
    work = state.clone()  # menus only read the state: try the moves on a copy
    order = members[np.argsort(-dot2(state.pos[members], u[None, :]), kind="stable")]
    fan = detour_fans(u[None, :], np.array([travel]))[0]
    for mini in order:
        one = np.array([mini])
        clear = clearance_limits(work, one, fan, enemies, keep_away)
        moves = furthest_translations(work, one, fan * (clear / travel)[:, None])
        way = pick_detours(fan[:1], moves[None, :, :], np.array([travel]), FOLLOW_GAIN)[0]
        work.pos[one] = work.pos[one] + way
    link = battle_rules().coherency
    found = groups(work, members, link)
    if len(found) > 1:  # the stragglers find their own way to the group nearest the goal
        placed = min(found, key=lambda g: float(np.hypot(*(towards - work.pos[g].mean(axis=0)))))
        if not _regroup(state, work, members, placed, towards, limit, keep_away, u * travel):
            return None
    return np.asarray(np.round(work.pos[members], POSITION_DECIMALS), dtype=np.float64)


def _regroup(
    state: GameState,
    work: GameState,
    members: IntArray,
    placed: IntArray,
    towards: FloatArray,
    limit: float,
    keep_away: float = 0.0,
    heading: FloatArray | None = None,
) -> bool:
    """The models of ``members`` not ``placed`` go back (on the copy ``work``) to where they
    started and then, the nearest to ``towards`` first, each by its own shortest way within
    ``limit`` (:func:`path_to_contact`, kept ``keep_away`` from enemy models) to within
    coherency of the models already placed; with ``heading``, to the place so reached
    nearest where that move would take it. False when one cannot or the unit ends split."""
    link = battle_rules().coherency
    behind = np.setdiff1d(members, placed)
    work.pos[behind] = state.pos[behind]
    order = behind[np.argsort(np.hypot(*(state.pos[behind] - towards).T), kind="stable")]
    for mini in order:
        aim = None if heading is None else state.pos[mini] + heading
        there = path_to_contact(work, int(mini), placed, limit, link, keep_away, aim)
        if there is None:
            return False
        work.pos[mini] = there
        placed = np.append(placed, mini)
    return len(groups(work, members, link)) == 1


def _flying_shift(state: GameState, members: IntArray, shift: FloatArray) -> FloatArray:
    """A flyer passes over models; it only has to end clear of them and on the table."""
    steps = np.linspace(1.0, 0.0, 41)
    for k in steps:
        xy = state.pos[members] + shift * k
        if placement_clear(state, members, xy):
            return np.asarray(shift * k, dtype=np.float64)
    return np.zeros(2)


def apply_shift(state: GameState, unit_id: str, shift: FloatArray) -> float:
    members = state.on_table(unit_id)
    state.pos[members] = np.round(state.pos[members] + shift, POSITION_DECIMALS)
    return float(np.hypot(*shift))


def centre(state: GameState, unit_id: str) -> Point:
    c = centroid(state, state.on_table(unit_id))
    return (float(c[0]), float(c[1]))


def charge_positions(
    state: GameState, unit_id: str, target_id: str, roll: float, fly: bool
) -> FloatArray | None:
    """Where the unit's models end a charge that brings a model within 1/2" of the target, or
    None when the roll or blocked paths do not allow it (AOS-C1). The unit first tries to move
    as a block along the line between one of its closest few pairs of models; failing that,
    as a block first stepped aside (:func:`_block_detour`); failing that, one of its models
    nearest the target (the nearest first) leads: it moves alone, straight or by the
    shortest way round the bases in between (AOS-M1: any combination of directions, the
    whole path within the roll), and the others follow with the same move as far as they
    can, or turned round what blocks them, and any left out of the leader's group find
    their own way back to it (:func:`_regroup`); the unit must end coherent."""
    ours, theirs = state.on_table(unit_id), state.on_table(target_id)
    if len(ours) == 0 or len(theirs) == 0:
        return None
    feature = garrisons.shape_of(state, target_id)
    if feature is not None:
        return garrisons.charge_positions(state, ours, feature, roll, battle_rules().charge_contact)
    gap = unit_gaps(state, ours, theirs)
    pairs = np.argsort(gap, axis=None, kind="stable")[:CHARGE_PAIRS]
    for flat in pairs:
        i, j = np.unravel_index(int(flat), gap.shape)
        shift = _pair_shift(state, ours, int(i), int(theirs[j]), float(gap[i, j]), roll)
        if shift is None:
            continue
        moved = (
            _flying_shift(state, ours, shift) if fly else furthest_translation(state, ours, shift)
        )
        xy = state.pos[ours] + moved
        if gap_after(state, xy, ours, theirs) <= battle_rules().charge_contact + EPS:
            return np.asarray(np.round(xy, POSITION_DECIMALS), dtype=np.float64)
    if not fly:
        found = _block_detour(state, ours, theirs, gap, roll)
        if found is not None:
            return found
    nearest = gap.argmin(axis=1)
    for leader in np.argsort(gap.min(axis=1), kind="stable")[:CHARGE_LEADERS]:
        at = int(nearest[leader])
        found = _lead_and_follow(state, ours, theirs, int(leader), int(theirs[at]),
                                 gap[leader, at], roll)  # fmt: skip
        if found is not None:
            return found
    return None


CHARGE_PAIRS = 8  # closest pairs tried for a charge as a block ...
CHARGE_LEADERS = 4  # ... then the models nearest the target tried as the one that leads
BLOCK_STEPS = (1.0, 2.0, 3.0, 4.0, 6.0, 8.0)  # inches a blocked unit first moves aside ...
HALF_ROOT = math.sqrt(0.5)  # cos 45 degrees, correctly rounded on every machine
BLOCK_TURNS = ((0.0, 1.0), (0.0, -1.0), (HALF_ROOT, HALF_ROOT), (HALF_ROOT, -HALF_ROOT))
# ... (cosine, sine) of 90, -90, 45 and -45 degrees: turned off its line ...
BLOCK_PAIRS = 3  # ... before going straight between one of its closest few pairs
PATH_CELL = 0.5  # inches between the nodes of a leading model's grid search ...
PATH_MARGIN = 1e-3  # ... whose every leg stays this far clear of other bases
FOLLOW_GAIN = 0.05  # a blocked follower takes a turn of its move that ends this much nearer


def _pair_shift(
    state: GameState, ours: IntArray, i: int, enemy: int, gap: float, roll: float
) -> FloatArray | None:
    direction = state.pos[enemy] - state.pos[ours[i]]
    length = float(np.hypot(*direction))
    travel = max(gap - battle_rules().charge_contact / 2, 0.0)
    if length == 0.0 or travel > roll + EPS:
        return None
    return np.asarray(direction / length * travel, dtype=np.float64)


def _block_detour(
    state: GameState, ours: IntArray, theirs: IntArray, gap: FloatArray, roll: float
) -> FloatArray | None:
    """The unit as a block, first turned aside (each of :data:`BLOCK_TURNS` off the line from
    its closest model to the target's, for each of :data:`BLOCK_STEPS`, shortest first) and
    then straight between one of its closest few pairs of models (AOS-M1: any combination of
    directions, the whole path within the roll); None when no such path gets there."""
    contact = battle_rules().charge_contact + EPS
    i, j = np.unravel_index(int(np.argmin(gap)), gap.shape)
    line = state.pos[theirs[j]] - state.pos[ours[i]]
    u = line / float(np.hypot(*line))
    start = state.pos[ours].copy()
    work = state.clone()  # menus only read the state: try the moves on a copy
    for step in BLOCK_STEPS:
        if step >= roll:
            break
        for c, s in BLOCK_TURNS:
            aside = np.array([c * u[0] - s * u[1], s * u[0] + c * u[1]]) * step
            work.pos[ours] = start
            first = furthest_translation(work, ours, aside)
            done = float(np.hypot(*first))
            if done < BLOCKED * step:
                continue
            work.pos[ours] = start + first
            after = gaps(work.pos[ours], work.radius[ours], work.pos[theirs], work.radius[theirs])
            for flat in np.argsort(after, axis=None, kind="stable")[:BLOCK_PAIRS]:
                a, b = np.unravel_index(int(flat), after.shape)
                second = _pair_shift(work, ours, int(a), int(theirs[b]), float(after[a, b]),
                                     roll - done)  # fmt: skip
                if second is None:
                    continue
                xy = start + first + furthest_translation(work, ours, second)
                if gap_after(work, xy, ours, theirs) <= contact:
                    return np.asarray(np.round(xy, POSITION_DECIMALS), dtype=np.float64)
    return None


def _lead(
    work: GameState, lead: IntArray, theirs: IntArray, enemy: int, gap: float, roll: float
) -> bool:
    """Move the model ``lead`` (on the copy ``work``) within 1/2" of the target: straight at
    the enemy model ``enemy``, else along the shortest way round the bases in between
    (:func:`path_to_contact`); False when no path of at most ``roll`` inches gets there."""
    start = work.pos[lead].copy()
    shift = _pair_shift(work, lead, 0, enemy, gap, roll)
    if shift is not None:
        work.pos[lead] = start + furthest_translation(work, lead, shift)
        if gap_after(work, work.pos[lead], lead, theirs) <= battle_rules().charge_contact + EPS:
            return True
        work.pos[lead] = start
    end = path_to_contact(work, int(lead[0]), theirs, roll, battle_rules().charge_contact)
    if end is None:
        return False
    work.pos[lead] = end
    return True


def path_to_contact(
    state: GameState,
    mini: int,
    theirs: IntArray,
    limit: float,
    contact: float,
    keep_away: float = 0.0,
    toward: FloatArray | None = None,
) -> FloatArray | None:
    """Where the model ``mini`` ends within ``contact`` of a model of ``theirs`` by a path of at
    most ``limit`` inches that crosses no base nor the table edge (AOS-M1: a model moves in
    any combination of directions) and, with ``keep_away``, never comes that near an enemy
    model (AOS-M2), or None; with ``toward``, of the places so reached, the one nearest
    that point. The kernel's grid search
    (:func:`openwar.engine.kernels.grid_path`, a :data:`PATH_CELL` grid, every leg checked
    exactly), on the bases within reach."""
    here, r = state.pos[mini], float(state.radius[mini])
    live = np.flatnonzero(state.alive & state.deployed)
    live = live[live != mini]
    radius = state.radius[live].copy()
    if keep_away > 0.0:
        radius[state.lookup().side_of[live] != state.lookup().side_of[mini]] += keep_away
    reach = np.hypot(*(state.pos[live] - here).T) - radius - r
    keep = reach <= limit + PATH_CELL
    near = live[keep]
    goals = theirs[np.isin(theirs, near)]
    if len(goals) == 0:
        return None
    found = kernels.grid_path(
        np.ascontiguousarray(here, dtype=np.float64), r,
        np.ascontiguousarray(state.pos[near]), np.ascontiguousarray(radius[keep]),
        np.ascontiguousarray(state.pos[goals]), np.ascontiguousarray(state.radius[goals]),
        contact, limit, PATH_CELL,
        float(state.board["width"]), float(state.board["depth"]), PATH_MARGIN,
        np.zeros(2) if toward is None else np.asarray(toward, dtype=np.float64),
        toward is not None,
    )  # fmt: skip
    if np.isnan(found[0]):
        return None
    return np.asarray(np.round(found[:2], POSITION_DECIMALS), dtype=np.float64)


def _follow(work: GameState, one: IntArray, shift: FloatArray) -> None:
    """Move the model ``one`` (on the copy ``work``) by ``shift`` as far as it can, or by the
    turn of it that ends nearest where ``shift`` would take it when a base blocks the way."""
    length = float(np.hypot(*shift))
    if length == 0.0:
        return
    fan = detour_fans((shift / length)[None, :], np.array([length]))[0]
    moves = furthest_translations(work, one, fan)
    way = pick_detours(shift[None, :], moves[None, :, :], np.array([length]), FOLLOW_GAIN)[0]
    work.pos[one] = work.pos[one] + way


def _lead_and_follow(
    state: GameState,
    ours: IntArray,
    theirs: IntArray,
    i: int,
    enemy: int,
    gap: float,
    roll: float,
) -> FloatArray | None:
    """One model leads (:func:`_lead`); the others follow with its move, the formation kept
    (:func:`_follow`), and any that this leaves out of the leader's group go instead, the
    nearest to the leader first, by the shortest way to within coherency of the models
    already there (:func:`path_to_contact`); None when one cannot."""
    gap = float(gap)
    work = state.clone()  # menus only read the state: try the moves on a copy
    lead = np.array([ours[i]])
    start = work.pos[ours].copy()
    if not _lead(work, lead, theirs, enemy, gap, roll):
        return None
    end = work.pos[lead][0].copy()
    shift = end - start[i]
    for k in np.argsort(np.hypot(*(start - start[i]).T), kind="stable"):
        if k != i:
            _follow(work, np.array([ours[k]]), shift)
    found = groups(work, ours, battle_rules().coherency)
    if len(found) > 1:
        placed = next(g for g in found if ours[i] in g)
        if not _regroup(state, work, ours, placed, end, roll):
            return None
    return np.asarray(np.round(work.pos[ours], POSITION_DECIMALS), dtype=np.float64)


def pile_in(state: GameState, unit_id: str, distance: float) -> float:
    """Each model moves up to ``distance`` straight towards the nearest enemy model, stopping
    in base contact; every model ends at least as close as it started. If the unit would be
    split, the models move as one block instead (AOS-F2). A feature an enemy garrisons counts
    as an enemy model (AOS-G3): a model nearest it moves towards its nearest point and stops
    within 1/2" of it, never on it. Returns the furthest move."""
    before = state.pos.copy()
    ours = state.on_table(unit_id)
    theirs = enemy_minis(state, state.unit(unit_id).side)
    features: list[Polygon] = []
    if garrisons.garrisons(state):
        if garrisons.feature_of(state, unit_id) is not None:
            return 0.0  # a garrison cannot move (AOS-G2)
        theirs = np.setdiff1d(theirs, garrisons.garrisoned_minis(state))  # nobody enters it
        features = garrisons.enemy_features(state, state.unit(unit_id).side)
    if len(ours) == 0 or len(theirs) + len(features) == 0:
        return 0.0
    stop = garrisons.feature_stop()
    nearest = _enemy_gaps(state, state.pos[ours], state.radius[ours], theirs, features).min(axis=1)
    order = np.argsort(nearest, kind="stable")
    furthest = 0.0
    for k in order:
        mini = np.array([ours[k]])
        g = _enemy_gaps(state, state.pos[mini], state.radius[mini], theirs, features)[0]
        j = int(np.argmin(g))
        if j < len(theirs):
            if g[j] <= garrisons.CONTACT_TOLERANCE:
                continue
            direction = state.pos[theirs[j]] - state.pos[ours[k]]
            length = min(distance, float(g[j]))
        else:
            if g[j] <= stop:
                continue
            direction = _towards(features[j - len(theirs)], state.pos[ours[k]])
            length = min(distance, float(g[j]) - stop)
        step = direction / float(np.hypot(*direction)) * length
        shift = furthest_translation(state, mini, step)
        state.pos[mini] = np.round(state.pos[mini] + shift, POSITION_DECIMALS)
        furthest = max(furthest, float(np.hypot(*shift)))
    if len(groups(state, ours, battle_rules().coherency)) > 1:
        state.pos[:] = before
        near = _enemy_gaps(state, state.pos[ours], state.radius[ours], theirs, features)
        m, e = (int(x) for x in np.unravel_index(int(np.argmin(near)), near.shape))
        if e < len(theirs):
            target = state.pos[theirs[e]]
        else:
            target = state.pos[ours[m]] + _towards(features[e - len(theirs)], state.pos[ours[m]])
        shift = block_shift(state, unit_id, target, distance, keep_away=None, fly=False)
        if features:  # towards a feature: to just within 1/2" of it; else never onto one
            keep = stop if e >= len(theirs) else 0.0
            shift = shift * garrisons.path_fraction(state, unit_id, shift, keep)
        shift = shift * _no_further(state, ours, theirs, features, shift)
        furthest = apply_shift(state, unit_id, shift)
    return furthest


def _enemy_gaps(
    state: GameState, xy: FloatArray, radius: FloatArray, theirs: IntArray, features: list[Polygon]
) -> FloatArray:
    """Gaps from bases at ``xy`` to each enemy model, then to each feature an enemy garrisons."""
    found = gaps(xy, radius, state.pos[theirs], state.radius[theirs]).reshape(len(xy), -1)
    if not features:
        return found
    shapes = [base_to_shape(f, xy, radius)[:, None] for f in features]
    return np.asarray(np.hstack([found, *shapes]), dtype=np.float64)


def _towards(feature: Polygon, xy: FloatArray) -> FloatArray:
    """From a point to a feature's nearest point."""
    from shapely.ops import nearest_points

    here = shapely.Point(float(xy[0]), float(xy[1]))
    there = nearest_points(feature, here)[0]
    return np.array([there.x - here.x, there.y - here.y])


def _no_further(
    state: GameState,
    ours: IntArray,
    theirs: IntArray,
    features: list[Polygon],
    shift: FloatArray,
) -> float:
    """1.0 if after ``shift`` every model is at least as close to its nearest enemy, else 0."""
    xy, radius = state.pos[ours], state.radius[ours]
    before = _enemy_gaps(state, xy, radius, theirs, features)
    after = _enemy_gaps(state, xy + shift, radius, theirs, features)
    return 1.0 if bool((after.min(axis=1) <= before.min(axis=1) + EPS).all()) else 0.0


def coherent_groups(state: GameState, unit_id: str) -> list[IntArray]:
    return groups(state, state.on_table(unit_id), battle_rules().coherency)


def within_of_point(state: GameState, minis: IntArray, point: Point, distance: float) -> np.ndarray:
    """Which of ``minis`` have their base within ``distance`` of ``point``."""
    d = np.hypot(*(state.pos[minis] - np.asarray(point)).T) - state.radius[minis]
    return np.asarray(d <= distance + OVERLAP_TOLERANCE)
