"""Where miniatures are: formations, gaps between round bases, legal positions, coherency.

All distances are between the closest points of bases (edge to edge), in the ruleset's unit.
Rows of miniatures are gathered with ``take`` (the same rows as indexing with an array, a
quicker call on the small arrays a battle has).
"""

from __future__ import annotations

import numpy as np

from openwar.engine import kernels
from openwar.engine.state import POSITION_DECIMALS, BoolArray, FloatArray, GameState, IntArray

OVERLAP_TOLERANCE = 2e-6  # covers rounding touching bases to POSITION_DECIMALS (<= 1.42e-6)
GAP_TABLE = "engine.gap_table"  # (Lookups.memo) the last table of gaps, with its positions
BLOCKED = 0.9  # a straight move that gets less than this share of its way is blocked ...
DETOURS = (30.0, -30.0, 60.0, -60.0, 90.0, -90.0)  # ... and tried turned by these degrees
_COS = np.array([np.cos(np.radians(a)) for a in DETOURS])  # each turn's cosine and sine
_SIN = np.array([np.sin(np.radians(a)) for a in DETOURS])


def dot2(a: FloatArray, b: FloatArray) -> FloatArray:
    """The dot products of 2-vectors along the last axis, written out as two products and a
    sum: numpy's multiply and add are exact IEEE operations on every machine, whereas einsum
    and matmul use fused multiply-adds or BLAS kernels where the CPU has them, which changes
    the last bits of a move and so, rarely, a battle (results must be identical anywhere)."""
    return np.asarray(a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1], dtype=np.float64)


def gaps(a_xy: FloatArray, a_r: FloatArray, b_xy: FloatArray, b_r: FloatArray) -> FloatArray:
    """(n, m) edge-to-edge gaps between round bases (negative when they overlap): each the
    square root of :func:`dot2` of the offset less both radii, in one compiled loop
    (:func:`openwar.engine.kernels.gaps`)."""
    return kernels.gaps(a_xy, a_r, b_xy, b_r)


def unit_gaps(state: GameState, a: IntArray, b: IntArray) -> FloatArray:
    """Gaps between two sets of miniatures; while the state is only read, looked up in one
    table of every pair (the same numbers, computed once)."""
    if state.scratch is None:
        return gaps(
            state.pos.take(a, 0), state.radius.take(a), state.pos.take(b, 0), state.radius.take(b)
        )
    table = state.scratch.get("gaps")
    if table is None:
        table = state.scratch["gaps"] = gap_table(state)
    return np.asarray(table.take(a, 0).take(b, 1), dtype=np.float64)


def gap_table(state: GameState) -> FloatArray:
    """Gaps between every pair of miniatures. The battle keeps the last table it made: only
    the rows and columns of miniatures that have moved since are worked out again (each gap is
    the same sum whichever call computes it)."""
    memo = state.lookup().memo
    last: tuple[FloatArray, FloatArray, FloatArray] | None = memo.get(GAP_TABLE)
    if last is None or last[0].shape != state.pos.shape or (last[1] != state.radius).any():
        table = gaps(state.pos, state.radius, state.pos, state.radius)
    else:
        moved = np.flatnonzero((last[0] != state.pos).any(axis=1))
        if len(moved) == 0:
            return last[2]
        if 2 * len(moved) > len(state.pos):
            table = gaps(state.pos, state.radius, state.pos, state.radius)
        else:
            table = last[2].copy()
            pos, r = state.pos, state.radius
            table[moved, :] = gaps(pos[moved], r[moved], pos, r)
            table[:, moved] = gaps(pos, r, pos[moved], r[moved])
    table.flags.writeable = False
    memo[GAP_TABLE] = (state.pos.copy(), state.radius.copy(), table)
    return table


def formation(
    count: int, centre: tuple[float, float], radius: float, width: int, facing: float
) -> FloatArray:
    """``count`` bases in ranks of ``width`` around ``centre``; the front rank faces ``facing``
    (radians, 0 = +x). Bases touch side to side and rank to rank."""
    return np.asarray(
        formations(count, np.asarray([centre], dtype=np.float64), radius, width, facing)[0],
        dtype=np.float64,
    )


def formations(
    count: int, centres: FloatArray, radius: float, width: int, facing: float
) -> FloatArray:
    """:func:`formation` around each of ``centres`` (k, 2) at once: (k, count, 2)."""
    step = 2.0 * radius
    ranks = -(-count // width)
    rows, cols = np.divmod(np.arange(count), width)
    in_rank = np.minimum(width, count - rows * width)
    lateral = (cols - (in_rank - 1) / 2.0) * step
    depth = ((ranks - 1) / 2.0 - rows) * step  # front rank (row 0) is ahead of the centre
    forward = np.array([np.cos(facing), np.sin(facing)])
    side = np.array([-forward[1], forward[0]])
    xy = centres[:, None, :] + (depth[:, None] * forward)[None] + (lateral[:, None] * side)[None]
    return np.asarray(np.round(xy, POSITION_DECIMALS), dtype=np.float64)


def on_table(xy: FloatArray, r: FloatArray, width: float, depth: float) -> BoolArray:
    return np.asarray(
        (xy[:, 0] - r >= -OVERLAP_TOLERANCE)
        & (xy[:, 1] - r >= -OVERLAP_TOLERANCE)
        & (xy[:, 0] + r <= width + OVERLAP_TOLERANCE)
        & (xy[:, 1] + r <= depth + OVERLAP_TOLERANCE)
    )


def others(state: GameState, movers: IntArray) -> IntArray:
    """Miniatures on the table that are not moving."""
    mask = state.alive & state.deployed
    mask[movers] = False
    return np.flatnonzero(mask)


def placement_clear(state: GameState, movers: IntArray, xy: FloatArray) -> bool:
    """Whether ``movers`` could stand at ``xy``: on the table, overlapping no other base."""
    r = state.radius[movers]
    width, depth = state.board["width"], state.board["depth"]
    if not bool(on_table(xy, r, width, depth).all()):
        return False
    rest = others(state, movers)
    if len(rest) == 0:
        return True
    return bool((gaps(xy, r, state.pos[rest], state.radius[rest]) >= -OVERLAP_TOLERANCE).all())


def furthest_translation(state: GameState, movers: IntArray, shift: FloatArray) -> FloatArray:
    """The longest part of ``shift`` (same direction) that ``movers`` can travel in a straight
    line without a base crossing another base or the table edge.

    Exact, not sampled: for every mover and every other base, the first time the moving circle
    touches the still one solves ``|d + t u| = r1 + r2`` (a quadratic in ``t``); see
    :func:`openwar.engine.kernels.straight_moves`.
    """
    shifts = np.asarray(shift, dtype=np.float64).reshape(1, 2)
    return np.asarray(furthest_translations(state, movers, shifts)[0], dtype=np.float64)


def furthest_translations(state: GameState, movers: IntArray, shifts: FloatArray) -> FloatArray:
    """:func:`furthest_translation` of each of ``shifts`` (k, 2), all in one compiled call
    (:func:`openwar.engine.kernels.table_moves`); each answer is the one of its shift asked
    alone. Nothing is remembered across calls: the kernel works out a move in about the time
    a look-up of a remembered one took."""
    shifts = np.ascontiguousarray(shifts, dtype=np.float64)
    lengths = np.hypot(shifts[:, 0], shifts[:, 1])  # the same as each shift's own np.hypot
    return kernels.table_moves(
        state.pos,
        state.radius,
        state.alive,
        state.deployed,
        movers,
        float(state.board["width"]),
        float(state.board["depth"]),
        shifts,
        lengths,
    )


def groups(state: GameState, members: IntArray, link: float) -> list[IntArray]:
    """Split ``members`` into groups where each base is within ``link`` of another of its
    group (connected components of the "within link" graph)."""
    if len(members) == 0:
        return []
    near = (unit_gaps(state, members, members) <= link + OVERLAP_TOLERANCE).tolist()
    unseen = [True] * len(members)
    found: list[IntArray] = []
    for first in range(len(members)):  # each group starts at its lowest index
        if not unseen[first]:
            continue
        unseen[first] = False
        frontier, group = [first], [first]
        while frontier:
            row = near[frontier.pop()]
            for other, linked in enumerate(row):
                if linked and unseen[other]:
                    unseen[other] = False
                    frontier.append(other)
                    group.append(other)
        found.append(members[np.sort(np.asarray(group))])
    return found


def centroid(state: GameState, members: IntArray) -> FloatArray:
    """The mean position of ``members`` (remembered while the state is only read)."""
    if state.scratch is None:
        return np.asarray(state.pos.take(members, 0).mean(axis=0), dtype=np.float64)
    key = ("centroid", members.tobytes())
    found: FloatArray | None = state.scratch.get(key)
    if found is None:
        found = np.asarray(state.pos.take(members, 0).mean(axis=0), dtype=np.float64)
        state.scratch[key] = found
        found.flags.writeable = False
    return found


def detour_fans(u: FloatArray, travel: FloatArray) -> FloatArray:
    """(k, 1 + t, 2): each goal's straight move ``travel`` (k,) along the unit vector ``u``
    (k, 2), then the same move turned by each of :data:`DETOURS` (a menu's ways round a
    blockage, in every ruleset that moves units as blocks)."""
    return kernels.fans(u, travel, _COS, _SIN)


def pick_detours(
    delta: FloatArray, moves: FloatArray, travel: FloatArray, gain: float
) -> FloatArray:
    """(k, 2): of each fan of ``moves`` (k, 1 + t, 2) that the table allows (the straight
    move, then its turns; ``delta`` (k, 2) from the start to the goal), the straight move,
    unless it gets less than :data:`BLOCKED` of its way ``travel`` and the turn that ends
    nearest the goal (the first of equals) ends ``gain`` nearer than it."""
    return kernels.picks(delta, moves, travel, BLOCKED, gain)
