"""Where miniatures are: formations, gaps between round bases, legal positions, coherency.

All distances are between the closest points of bases (edge to edge), in the ruleset's unit.
"""

from __future__ import annotations

import numpy as np

from openwar.engine.state import POSITION_DECIMALS, BoolArray, FloatArray, GameState, IntArray

OVERLAP_TOLERANCE = 2e-6  # covers rounding touching bases to POSITION_DECIMALS (<= 1.42e-6)


def gaps(a_xy: FloatArray, a_r: FloatArray, b_xy: FloatArray, b_r: FloatArray) -> FloatArray:
    """(n, m) edge-to-edge gaps between round bases (negative when they overlap)."""
    delta = a_xy[:, None, :] - b_xy[None, :, :]
    centre = np.sqrt(np.einsum("ijk,ijk->ij", delta, delta))
    return np.asarray(centre - a_r[:, None] - b_r[None, :], dtype=np.float64)


def unit_gaps(state: GameState, a: IntArray, b: IntArray) -> FloatArray:
    return gaps(state.pos[a], state.radius[a], state.pos[b], state.radius[b])


def formation(
    count: int, centre: tuple[float, float], radius: float, width: int, facing: float
) -> FloatArray:
    """``count`` bases in ranks of ``width`` around ``centre``; the front rank faces ``facing``
    (radians, 0 = +x). Bases touch side to side and rank to rank."""
    step = 2.0 * radius
    ranks = -(-count // width)
    rows, cols = np.divmod(np.arange(count), width)
    in_rank = np.minimum(width, count - rows * width)
    lateral = (cols - (in_rank - 1) / 2.0) * step
    depth = ((ranks - 1) / 2.0 - rows) * step  # front rank (row 0) is ahead of the centre
    forward = np.array([np.cos(facing), np.sin(facing)])
    side = np.array([-forward[1], forward[0]])
    xy = np.asarray(centre) + depth[:, None] * forward + lateral[:, None] * side
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
    touches the still one solves ``|d + t u| = r1 + r2`` (a quadratic in ``t``).
    """
    length = float(np.hypot(*shift))
    if length == 0.0:
        return np.zeros(2)
    u = shift / length
    limit = min(length, _edge_limit(state, movers, u))
    rest = others(state, movers)
    if len(rest):
        limit = min(
            limit,
            _first_contact(
                state.pos[movers], state.radius[movers], state.pos[rest], state.radius[rest], u
            ),
        )
    limit = max(limit, 0.0)
    return np.asarray(u * limit, dtype=np.float64)


def _edge_limit(state: GameState, movers: IntArray, u: FloatArray) -> float:
    xy, r = state.pos[movers], state.radius[movers]
    bounds = [(0, state.board["width"]), (1, state.board["depth"])]
    best = np.inf
    for axis, size in bounds:
        if u[axis] > 1e-12:
            best = min(best, float(((size - r - xy[:, axis]) / u[axis]).min()))
        elif u[axis] < -1e-12:
            best = min(best, float(((r - xy[:, axis]) / u[axis]).min()))
    return float(best)


def _first_contact(
    a_xy: FloatArray, a_r: FloatArray, b_xy: FloatArray, b_r: FloatArray, u: FloatArray
) -> float:
    d = a_xy[:, None, :] - b_xy[None, :, :]
    reach = a_r[:, None] + b_r[None, :]
    b = d @ u
    c = np.einsum("ijk,ijk->ij", d, d) - reach * reach
    disc = b * b - c
    approaching = (disc >= 0.0) & (b < 0.0)
    t = np.where(approaching, -b - np.sqrt(np.maximum(disc, 0.0)), np.inf)
    t = np.where(approaching & (c <= OVERLAP_TOLERANCE), np.maximum(t, 0.0), t)
    best = float(t.min()) if t.size else np.inf
    return best


def groups(state: GameState, members: IntArray, link: float) -> list[IntArray]:
    """Split ``members`` into groups where each base is within ``link`` of another of its
    group (connected components of the "within link" graph)."""
    if len(members) == 0:
        return []
    near = unit_gaps(state, members, members) <= link + OVERLAP_TOLERANCE
    unseen = set(range(len(members)))
    found: list[IntArray] = []
    while unseen:
        frontier = [min(unseen)]
        unseen.discard(frontier[0])
        group = [frontier[0]]
        while frontier:
            current = frontier.pop()
            for other in np.flatnonzero(near[current]):
                if int(other) in unseen:
                    unseen.discard(int(other))
                    frontier.append(int(other))
                    group.append(int(other))
        found.append(members[np.sort(np.asarray(group))])
    return found


def centroid(state: GameState, members: IntArray) -> FloatArray:
    return np.asarray(state.pos[members].mean(axis=0), dtype=np.float64)


def step_towards(here: FloatArray, there: FloatArray, distance: float) -> FloatArray:
    """The point ``distance`` from ``here`` towards ``there`` (not beyond it)."""
    delta = there - here
    length = float(np.hypot(*delta))
    if length <= distance or length == 0.0:
        return np.asarray(there, dtype=np.float64)
    return np.asarray(here + delta * (distance / length), dtype=np.float64)
