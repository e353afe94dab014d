"""OpenWar movement: the orders' moves, checked against the table edge and the bases they meet.

A unit moves as a block (its miniatures translate together, in a straight line), which is what
a Run requires and what a player does with a movement tray; it may pass through its own side's
units but not the enemy's, and must end clear of every base (OW-B4). The Fight move and
Regroup move miniatures one by one.
"""

from __future__ import annotations

import numpy as np

from openwar.engine import kernels
from openwar.engine.errors import IllegalActionError
from openwar.engine.events import Event
from openwar.engine.space import (
    OVERLAP_TOLERANCE,
    centroid,
    detour_fans,
    furthest_translation,
    furthest_translations,
    groups,
    pick_detours,
    placement_clear,
    unit_gaps,
)
from openwar.engine.state import POSITION_DECIMALS, BoolArray, FloatArray, GameState, IntArray
from openwar.rulesets.openwar.rules import battle_rules

REACH_TOLERANCE = 1e-3  # cm: a destination this close to the reachable end counts as reached
EDGE_ROOM = 1.0  # cm: the table grown by this when only the way's enemy bases are asked about
MIN_MOVE = 0.5  # cm: a candidate move shorter than this is not offered
CONTACT_TRIES = 8  # closest pairs of miniatures tried for a charge's base contact


def enemy_minis(state: GameState, side: int) -> np.ndarray:
    return state.side_miniatures(side, same=False)


def nearest_enemy_gap(state: GameState, unit_id: str) -> float:
    if state.scratch is None:
        return _nearest_enemy_gap(state, unit_id)
    key = ("openwar.nearest_enemy_gap", unit_id)
    found: float | None = state.scratch.get(key)
    if found is None:
        found = state.scratch[key] = _nearest_enemy_gap(state, unit_id)
    return found


def _nearest_enemy_gap(state: GameState, unit_id: str) -> float:
    ours = state.on_table(unit_id)
    theirs = enemy_minis(state, state.unit(unit_id).side)
    if len(ours) == 0 or len(theirs) == 0:
        return float("inf")
    return float(unit_gaps(state, ours, theirs).min())


def least_gap(state: GameState, unit_id: str, other_id: str) -> float:
    """The least gap between two units' miniatures on the table (both must have some;
    remembered while the state is only read: a menu asks it of each pair more than once)."""
    return state.remembered(
        ("openwar.least_gap", unit_id, other_id),
        lambda: float(unit_gaps(state, state.on_table(unit_id), state.on_table(other_id)).min()),
    )


def in_combat(state: GameState, unit_id: str) -> bool:
    """Within 5 cm of an enemy unit (seed "Fighting")."""
    return nearest_enemy_gap(state, unit_id) <= battle_rules().combat_range + OVERLAP_TOLERANCE


def enemies_within(state: GameState, unit_id: str, distance: float) -> list[str]:
    """The enemy units within ``distance`` of the unit, with :func:`in_combat`'s tolerance
    (so a unit in combat always has an enemy to fight)."""
    if not len(state.on_table(unit_id)):
        return []
    side = state.unit(unit_id).side
    return [
        enemy.id
        for enemy in state.units
        if enemy.side != side
        and len(state.on_table(enemy.id))
        and least_gap(state, unit_id, enemy.id) <= distance + OVERLAP_TOLERANCE
    ]


def move_allowance(state: GameState, unit_id: str) -> float:
    unit = state.unit(unit_id)
    return float(unit.profile["move"]) + battle_rules().haste_bonus * unit.tokens.get("haste", 0)


def run_allowance(state: GameState, unit_id: str) -> float:
    """How far a Run moves the unit: double its move (seed "Orders"), plus the twist's
    bonus (OW-X4 Eager for Battle)."""
    from openwar.rulesets.openwar.twists import run_bonus

    return move_allowance(state, unit_id) * battle_rules().run_multiplier + run_bonus(state)


def translate(
    state: GameState, unit_id: str, point: tuple[float, float], limit: float, clause: str
) -> float:
    """Move the unit's centre in a straight line towards ``point``, at most ``limit``.

    A destination the unit cannot reach unblocked is refused, naming ``clause``; the menu of
    legal actions only offers reachable ones.
    """
    members = state.on_table(unit_id)
    start = centroid(state, members)
    shift = np.asarray(point, dtype=np.float64) - start
    length = float(np.hypot(*shift))
    if length > limit + 1e-6:
        raise IllegalActionError(
            clause, f"{unit_id} can move at most {limit:g} cm, not {length:.1f}"
        )
    reachable = tray_moves(state, members, shift.reshape(1, 2))[0]
    if float(np.hypot(*(shift - reachable))) > REACH_TOLERANCE:
        if not lands_clear(state, members, shift):
            raise IllegalActionError("OW-B4", f"{unit_id}'s path to {point} is blocked")
        reachable = shift
    state.pos[members] = np.round(state.pos[members] + reachable, POSITION_DECIMALS)
    return float(np.hypot(*reachable))


def lands_clear(state: GameState, members: IntArray, shift: FloatArray) -> bool:
    """OW-B4 asked of one destination: the straight way there crosses no enemy base and not
    the table edge, and the end is clear of every base (to the overlap tolerance).

    :func:`tray_moves` answers how far a move along ``shift`` gets, which is the question of
    the menu; asked again of a destination the menu offered, rounded to
    :data:`POSITION_DECIMALS`, it can differ at a knife edge: a move that ends touching a
    friend it passed and an enemy it stops at starts the friend's overlap again a tenth of a
    micrometre earlier and is sent back before the friend (seen in a search rollout: 4.7 cm
    short). The destination itself is legal, so the order is.
    """
    side_of = state.lookup().side_of
    enemy = state.alive & state.deployed & (side_of != side_of[members[0]])
    xy, r = state.pos[members], state.radius[members]
    # The table edge is judged at the end (placement_clear, to the overlap tolerance): the
    # table is convex, so a way that starts and ends on it stays on it. Asked of the way, a
    # base touching the edge would be stopped at once by a rounding's outward nanometres
    # (seen in a battle: a Charge along the table's north edge, refused where it was offered).
    grown = 2 * EDGE_ROOM  # the table grown by EDGE_ROOM on every side, and every base moved in
    straight = kernels.straight_moves(
        xy + EDGE_ROOM, r, state.pos[enemy] + EDGE_ROOM, state.radius[enemy],
        float(state.board["width"]) + grown, float(state.board["depth"]) + grown,
        shift.reshape(1, 2), np.array([np.hypot(*shift)]),
    )[0]  # fmt: skip
    return float(np.hypot(*(shift - straight))) <= REACH_TOLERANCE and placement_clear(
        state, members, xy + shift
    )


def tray_moves(state: GameState, members: IntArray, shifts: FloatArray) -> FloatArray:
    """(k, 2): how far the unit ``members`` gets along each of ``shifts`` (k, 2) as one
    tray (OW-B4): stopped by the table edge and enemy bases, through its own side's bases,
    and ending clear of them (:func:`openwar.engine.kernels.tray_moves`)."""
    shifts = np.ascontiguousarray(shifts, dtype=np.float64)
    lengths = np.hypot(shifts[:, 0], shifts[:, 1])
    return kernels.tray_moves(
        state.pos,
        state.radius,
        state.alive,
        state.deployed,
        members,
        state.lookup().side_of,
        float(state.board["width"]),
        float(state.board["depth"]),
        shifts,
        lengths,
    )


def reachable_point(
    state: GameState, unit_id: str, towards: FloatArray, limit: float, stop_short: float = 0.0
) -> tuple[float, float] | None:
    """The unblocked centre position within ``limit`` that ends nearest ``towards`` (stopping
    ``stop_short`` of it): straight there, or, when a base blocks the straight way, the best of
    a fan of detours (:data:`~openwar.engine.space.DETOURS`) around it."""
    goals = np.asarray(towards, dtype=np.float64).reshape(1, 2)
    return reachable_points(state, unit_id, goals, np.array([limit]), np.array([stop_short]))[0]


def reachable_points(
    state: GameState,
    unit_id: str,
    goals: FloatArray,
    limits: FloatArray,
    stop_short: FloatArray,
) -> list[tuple[float, float] | None]:
    """:func:`reachable_point` for each of ``goals`` (k, 2) with its limit and stand-off, all
    the straight moves worked out in one pass (each answer the same arithmetic as alone)."""
    members = state.on_table(unit_id)
    start = centroid(state, members)
    delta = goals - start
    length = np.hypot(delta[:, 0], delta[:, 1])
    going = np.flatnonzero(length != 0.0)  # a unit on its goal has no way to it
    found: list[tuple[float, float] | None] = [None] * len(goals)
    if len(going) == 0:
        return found
    delta, length = delta[going], length[going]
    travel = np.minimum(limits[going], np.maximum(length - stop_short[going], 0.0))
    shifts = _around(state, members, delta, delta / length[:, None], travel)
    ends = np.round(start + shifts, POSITION_DECIMALS).tolist()
    for k, far, end in zip(going.tolist(), _lengths(shifts) >= MIN_MOVE, ends, strict=True):
        if far:
            found[k] = (end[0], end[1])
    return found


def _lengths(vectors: FloatArray) -> FloatArray:
    """The length of each of ``vectors`` (..., 2), as ``np.hypot`` of each alone."""
    return np.asarray(np.hypot(vectors[..., 0], vectors[..., 1]), dtype=np.float64)


def _around(
    state: GameState, members: np.ndarray, delta: FloatArray, u: FloatArray, travel: FloatArray
) -> FloatArray:
    """For each goal (k): the move ``travel`` along the unit vector ``u``, or, when a base
    blocks it, of it and the fan of turned moves, the one that ends nearest the goal
    (``delta`` from the start; :func:`openwar.engine.space.pick_detours`); a turn must gain
    :data:`MIN_MOVE` over the straight move. The turned moves are worked out with
    the straight one (most moves asked for are blocked)."""
    shifts = _fan(u, travel)
    moves = tray_moves(state, members, shifts.reshape(-1, 2)).reshape(shifts.shape)
    return _pick(delta, moves, travel)


def _fan(u: FloatArray, travel: FloatArray) -> FloatArray:
    """(k, 7, 2): each goal's straight move ``travel`` along ``u`` (k, 2), then its turns."""
    return detour_fans(u, travel)


def _pick(delta: FloatArray, moves: FloatArray, travel: FloatArray) -> FloatArray:
    """(k, 2): of each goal's fan of ``moves`` (k, 7, 2), the one :func:`_around` takes."""
    return pick_detours(delta, moves, travel, MIN_MOVE)


def contact(
    state: GameState, unit_id: str, target_id: str, limit: float = np.inf
) -> tuple[float, tuple[float, float] | None]:
    """How far the unit must go to touch the target, and where its centre ends (None when
    blocked, or farther than ``limit``): one answer for every allowance up to ``limit``.

    The closest pair of miniatures is tried first; when a base blocks that way, the next
    closest pairs (up to :data:`CONTACT_TRIES`) within ``limit``, so a unit can charge past
    a friend that stands in its straight line."""
    return contacts(state, unit_id, [target_id], limit)[0]


def contacts(
    state: GameState, unit_id: str, target_ids: list[str], limit: float = np.inf
) -> list[tuple[float, tuple[float, float] | None]]:
    """:func:`contact` with each of ``target_ids``: every try's move worked out in one pass,
    and each target's tries checked for combat range at once."""
    ours = state.on_table(unit_id)
    found: list[tuple[float, tuple[float, float] | None]] = []
    tries: list[tuple[int, float, FloatArray]] = []
    for k, target_id in enumerate(target_ids):
        nearest = least_gap(state, unit_id, target_id)
        found.append((nearest, None))
        if nearest > limit:  # no pair within reach (most targets)
            continue
        theirs = state.on_table(target_id)
        gap = unit_gaps(state, ours, theirs)
        travels, shifts = kernels.contact_tries(
            state.pos, ours, theirs, gap, float(limit), CONTACT_TRIES
        )
        tries += [
            (k, travel, shift) for travel, shift in zip(travels.tolist(), shifts, strict=True)
        ]
    if not tries:
        return found
    moves = tray_moves(state, ours, np.array([shift for _, _, shift in tries]))
    ends = np.round(centroid(state, ours) + moves, POSITION_DECIMALS).tolist()
    targets = np.array([k for k, _, _ in tries])
    for k in dict.fromkeys(targets.tolist()):
        mine = np.flatnonzero(targets == k)
        close = within_combat_range(state, ours, state.on_table(target_ids[k]), moves[mine])
        first = int(mine[np.argmax(close)])
        if close.any():
            found[k] = (tries[first][1], (ends[first][0], ends[first][1]))
    return found


def within_combat_range(
    state: GameState,
    ours: np.ndarray,
    theirs: np.ndarray,
    shifts: FloatArray,
    slack: float = 0.0,
) -> BoolArray:
    """Whether ``ours`` moved by each of ``shifts`` (k, 2) ends within combat range (plus
    ``slack``) of ``theirs`` (every move's gaps at once, each the sum of one move alone)."""
    shifts = np.ascontiguousarray(shifts, dtype=np.float64)
    nearest = kernels.nearest_after(state.pos, state.radius, ours, theirs, shifts)
    return np.asarray(nearest <= battle_rules().combat_range + slack)


def fight_move(state: GameState, unit_id: str, target_id: str) -> float:
    """Each miniature not yet in base contact moves up to 5 cm towards the nearest miniature of
    the target, stopping at contact (seed "Fighting"), around a base in its way (OW-F2).
    Returns the furthest distance moved."""
    rules = battle_rules()
    theirs = state.on_table(target_id)
    furthest = 0.0
    if len(theirs) == 0:
        return furthest
    ours = state.on_table(unit_id)
    # each miniature's goal and fan of moves worked out at once, before any step: the earlier
    # steps move neither it nor the target; only the moves themselves see those steps
    gap = unit_gaps(state, ours, theirs)
    nearest = np.argmin(gap, axis=1)
    closest = gap[np.arange(len(ours)), nearest]
    stepping = np.flatnonzero(closest > rules.contact)
    minis = ours[stepping]
    delta = state.pos[theirs[nearest[stepping]]] - state.pos[minis]
    length = _lengths(delta)
    limit = np.minimum(rules.fight_move, closest[stepping])
    going = np.flatnonzero((length != 0.0) & (limit > 0.0))
    way = delta[going] / length[going][:, None]
    # the straight step stops at contact; a way round is longer than the gap, so the turned
    # steps may use the whole 5 cm (they too stop at the first base they touch)
    fans = _fan(way, np.full(len(going), rules.fight_move))
    fans[:, 0] = way * limit[going][:, None]
    for fan, k in zip(fans, going.tolist(), strict=True):
        mini = int(minis[k])
        moves = furthest_translations(state, np.array([mini]), fan)
        shift = _pick(delta[k : k + 1], moves[None], limit[k : k + 1])[0]
        state.pos[mini] = np.round(state.pos[mini] + shift, POSITION_DECIMALS)
        furthest = max(furthest, float(np.hypot(*shift)))
    return furthest


def _step_miniature(state: GameState, mini: int, towards: FloatArray, limit: float) -> float:
    """Move one miniature up to ``limit`` straight towards ``towards``."""
    delta = towards - state.pos[mini]
    length = float(np.hypot(*delta))
    if length == 0.0 or limit <= 0.0:
        return 0.0
    shift = furthest_translation(state, np.array([mini]), delta / length * limit)
    state.pos[mini] = np.round(state.pos[mini] + shift, POSITION_DECIMALS)
    return float(np.hypot(*shift))


def regroup(state: GameState, unit_id: str) -> list[Event]:
    """Every miniature moves up to 5 cm directly towards the unit's leader: the miniature
    nearest the centre of the largest group (seed "Orders" 5; OW-B6)."""
    rules = battle_rules()
    members = state.on_table(unit_id)
    parts = groups(state, members, rules.coherency)
    if not parts:
        return []
    largest = max(parts, key=len)
    middle = centroid(state, largest)
    leader = int(largest[np.argmin(np.hypot(*(state.pos[largest] - middle).T))])
    order = np.argsort(np.hypot(*(state.pos[members] - state.pos[leader]).T), kind="stable")
    for k in order:
        mini = int(members[k])
        if mini == leader:
            continue
        gap = float(unit_gaps(state, np.array([mini]), np.array([leader]))[0, 0])
        _step_miniature(state, mini, state.pos[leader], min(rules.regroup_move, max(gap, 0.0)))
    return [Event("regroup", {"unit": unit_id})]


def check_coherency(state: GameState, unit_id: str) -> list[Event]:
    """Mark a unit split into several groups: it may only Regroup (seed "Units")."""
    unit = state.unit(unit_id)
    parts = groups(state, state.on_table(unit_id), battle_rules().coherency)
    split = len(parts) > 1
    was = bool(unit.flags.get("split", False))
    unit.flags["split"] = split
    if split and not was:
        return [Event("split", {"unit": unit_id, "groups": len(parts)})]
    if was and not split:
        return [Event("coherent", {"unit": unit_id})]
    return []


def deploy(state: GameState, unit_id: str, point: tuple[float, float], facing: float,
           width: int | None = None) -> None:  # fmt: skip
    """Set the unit up in ranks of ``width`` (OW-B3) around ``point``, facing ``facing``."""
    from openwar.engine.space import formation

    members = state.members(unit_id)
    radius = float(state.radius[members[0]])
    xy = formation(len(members), point, radius, width or battle_rules().rank_width, facing)
    if not placement_clear(state, members, xy):
        raise IllegalActionError("OW-B12", f"{unit_id} does not fit at {point}")
    state.pos[members] = xy
    state.facing[members] = facing
    state.deployed[members] = True
