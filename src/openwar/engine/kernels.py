"""Compiled geometry: the straight-move arithmetic of :mod:`openwar.engine.space` as numba
loops, for the small arrays a battle has (tens of miniatures), where numpy's per-call cost
dwarfs the arithmetic.

Every result is, to the bit, the one of the numpy code this replaced (and of the plain
Python reference in the tests): each number is the same IEEE operations in the same order.
What keeps it so:

- no ``fastmath``: LLVM may then neither reassociate nor contract a product and a sum into
  a fused multiply-add (a test reads the machine code for that);
- ``error_model="numpy"``: a division is the IEEE one (no Python check inserted);
- only exact reductions (least, greatest); ties between equal numbers are settled as
  ``np.minimum`` and ``np.maximum`` settle them (the second operand), which only shows on
  the sign of a zero;
- distances as the numpy code had them: a square root of a sum of squares (correctly
  rounded everywhere) where it used one, and ``math.hypot`` where it used ``np.hypot``
  (numba compiles both to the C library's ``hypot``, so they agree bit for bit on one
  machine; a test checks it).

Compiled on first use and kept in ``__pycache__`` beside this file (``cache=True``), so a
fresh clone pays the compile once. ``NUMBA_DISABLE_JIT=1`` (debugging) runs these loops as
plain Python, whose ``math.hypot`` is CPython's own and not the C library's: battles may
then differ in a last bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

from openwar.engine.state import BoolArray, FloatArray, IntArray

F = TypeVar("F", bound=Callable[..., Any])

SWEEP_MARGIN = 1e-3  # cm around a moving group's swept bounding box
TRAY_SLACK = 1e-7  # cm: an end this far into a friend's base still counts as clear of it


def _compiled(function: F) -> F:
    """``function`` compiled on first call, with IEEE arithmetic as written (see above); kept
    on disk when numba finds somewhere to write (a read-only install with no writable cache
    directory compiles in every process instead of failing)."""
    try:
        return cast(F, numba.njit(cache=True, error_model="numpy")(function))
    except RuntimeError:  # numba: "cannot cache function ...: no locator available"
        return cast(F, numba.njit(error_model="numpy")(function))


@_compiled
def _least(a: float, b: float) -> float:
    """``np.minimum(a, b)``: the second of equals, NaN from either."""
    return a if a < b or a != a else b


@_compiled
def _greatest(a: float, b: float) -> float:
    """``np.maximum(a, b)``: the second of equals, NaN from either."""
    return a if a > b or a != a else b


@_compiled
def straight_moves(
    xy: FloatArray,
    r: FloatArray,
    rest_xy: FloatArray,
    rest_r: FloatArray,
    width: float,
    depth: float,
    shifts: FloatArray,
    lengths: FloatArray,
) -> FloatArray:
    """(k, 2): for each of ``shifts`` (k, 2) of length ``lengths`` (k,), how far bases
    ``xy`` (n, 2) of radii ``r`` travel together along it before a base crosses the table
    edge (``width`` by ``depth``) or touches one of the other bases ``rest_xy`` (m, 2) of
    radii ``rest_r`` (a zero shift: nowhere).

    Another base is tried only when its bounding box meets the group's bounding box swept
    along the part of the move the table edge allows, and it lies in the strip the group's
    enclosing circle sweeps: any other one is never touched (met later than the move's end,
    or no mover comes within touching distance across the path). The first touch of a mover
    and a base solves ``|d + t u| = r1 + r2``: ``-b - sqrt(b * b - c)``, which is negative
    only for overlapping bases (a move from an overlap starts at 0).
    """
    n, m, k = xy.shape[0], rest_xy.shape[0], shifts.shape[0]
    # the group's figures: room to each table edge, bounding box, enclosing circle
    far_x = far_y = low_x = low_y = np.inf
    back_x = back_y = high_x = high_y = -np.inf
    for i in range(n):
        x, y, ri = xy[i, 0], xy[i, 1], r[i]
        far_x = _least(far_x, width - ri - x)
        far_y = _least(far_y, depth - ri - y)
        back_x = _greatest(back_x, ri - x)
        back_y = _greatest(back_y, ri - y)
        low_x = _least(low_x, x - ri)
        low_y = _least(low_y, y - ri)
        high_x = _greatest(high_x, x + ri)
        high_y = _greatest(high_y, y + ri)
    cx, cy = (low_x + high_x) / 2.0, (low_y + high_y) / 2.0
    spread = -np.inf
    for i in range(n):
        ox, oy = xy[i, 0] - cx, xy[i, 1] - cy
        spread = _greatest(spread, math.sqrt(ox * ox + oy * oy) + r[i])
    moves = np.empty((k, 2))
    for p in range(k):
        if lengths[p] == 0.0:  # a zero shift goes nowhere
            moves[p, 0] = moves[p, 1] = 0.0
            continue
        ux, uy = shifts[p, 0] / lengths[p], shifts[p, 1] / lengths[p]
        # the table edge: the least quotient of the room and the unit vector, per axis
        if ux > 1e-12:
            edge_x = far_x / ux
        elif ux < -1e-12:
            edge_x = back_x / ux
        else:
            edge_x = np.inf
        if uy > 1e-12:
            edge_y = far_y / uy
        elif uy < -1e-12:
            edge_y = back_y / uy
        else:
            edge_y = np.inf
        limit = _least(lengths[p], _least(edge_x, edge_y))
        travel = _greatest(limit, 0.0)
        # the group's box swept along the travel, plus the margin
        step_x, step_y = ux * travel, uy * travel
        swept_low_x = low_x + _least(step_x, 0.0) - SWEEP_MARGIN
        swept_low_y = low_y + _least(step_y, 0.0) - SWEEP_MARGIN
        swept_high_x = -(high_x + _greatest(step_x, 0.0) + SWEEP_MARGIN)
        swept_high_y = -(high_y + _greatest(step_y, 0.0) + SWEEP_MARGIN)
        contact = np.inf
        for j in range(m):
            bx, by, br = rest_xy[j, 0], rest_xy[j, 1], rest_r[j]
            if not (
                bx + br >= swept_low_x
                and by + br >= swept_low_y
                and br - bx >= swept_high_x
                and br - by >= swept_high_y
            ):
                continue
            px, py = bx - cx, by - cy
            if not abs(py * ux - px * uy) <= spread + br + SWEEP_MARGIN:
                continue
            for i in range(n):
                dx, dy = xy[i, 0] - bx, xy[i, 1] - by
                reach = r[i] + br
                b = dx * ux + dy * uy
                disc = b * b - (dx * dx + dy * dy - reach * reach)
                if disc >= 0.0 and b < 0.0:
                    contact = _least(contact, _greatest(-b - math.sqrt(disc), 0.0))
        found = _greatest(_least(limit, contact), 0.0)
        moves[p, 0], moves[p, 1] = ux * found, uy * found
    return moves


@_compiled
def table_moves(
    pos: FloatArray,
    radius: FloatArray,
    alive: BoolArray,
    deployed: BoolArray,
    movers: IntArray,
    width: float,
    depth: float,
    shifts: FloatArray,
    lengths: FloatArray,
) -> FloatArray:
    """:func:`straight_moves` of the miniatures ``movers`` among every miniature (``pos``,
    ``radius``) against the others on the table (``alive`` and ``deployed``), gathered here
    rather than by numpy calls around the kernel."""
    n, total = movers.shape[0], pos.shape[0]
    rest = np.empty(total, dtype=np.bool_)
    for b in range(total):
        rest[b] = alive[b] and deployed[b]
    xy, r = np.empty((n, 2)), np.empty(n)
    for i in range(n):
        mover = movers[i]
        xy[i, 0], xy[i, 1], r[i] = pos[mover, 0], pos[mover, 1], radius[mover]
        rest[mover] = False
    rest_xy, rest_r = _bases(pos, radius, rest)
    return straight_moves(xy, r, rest_xy, rest_r, width, depth, shifts, lengths)


@_compiled
def _bases(pos: FloatArray, radius: FloatArray, keep: BoolArray) -> tuple[FloatArray, FloatArray]:
    """The centres (m, 2) and radii (m,) of the bases ``keep`` picks, in index order."""
    m = 0
    for b in range(pos.shape[0]):
        m += keep[b]
    xy, r = np.empty((m, 2)), np.empty(m)
    j = 0
    for b in range(pos.shape[0]):
        if keep[b]:
            xy[j, 0], xy[j, 1], r[j] = pos[b, 0], pos[b, 1], radius[b]
            j += 1
    return xy, r


@_compiled
def tray_moves(
    pos: FloatArray,
    radius: FloatArray,
    alive: BoolArray,
    deployed: BoolArray,
    movers: IntArray,
    side_of: IntArray,
    width: float,
    depth: float,
    shifts: FloatArray,
    lengths: FloatArray,
) -> FloatArray:
    """(k, 2): :func:`table_moves` of a unit whose straight moves pass through the bases of
    its own side (``side_of`` of the first mover) and end clear of them: the move stops where
    :func:`straight_moves` stops it (the table edge, an enemy base), or, if a friend's base
    stands there, at the last point before it along the way where every mover is clear of every
    friend. Where no friend is in the way the answer is :func:`table_moves`' to the bit."""
    n, total, k = movers.shape[0], pos.shape[0], shifts.shape[0]
    side = side_of[movers[0]]
    block = np.empty(total, dtype=np.bool_)
    friend = np.empty(total, dtype=np.bool_)
    for b in range(total):
        on = alive[b] and deployed[b]
        block[b] = on and side_of[b] != side
        friend[b] = on and side_of[b] == side
    xy, r = np.empty((n, 2)), np.empty(n)
    for i in range(n):
        mover = movers[i]
        xy[i, 0], xy[i, 1], r[i] = pos[mover, 0], pos[mover, 1], radius[mover]
        block[mover] = friend[mover] = False
    rest_xy, rest_r = _bases(pos, radius, block)
    mate_xy, mate_r = _bases(pos, radius, friend)
    f = mate_r.shape[0]
    moves = straight_moves(xy, r, rest_xy, rest_r, width, depth, shifts, lengths)
    low = np.empty(n * f)
    high = np.empty(n * f)
    box_low_x = box_low_y = np.inf
    box_high_x = box_high_y = -np.inf
    for i in range(n):
        box_low_x = min(box_low_x, xy[i, 0] - r[i])
        box_low_y = min(box_low_y, xy[i, 1] - r[i])
        box_high_x = max(box_high_x, xy[i, 0] + r[i])
        box_high_y = max(box_high_y, xy[i, 1] + r[i])
    for p in range(k):
        if lengths[p] == 0.0 or f == 0:
            continue
        ux, uy = shifts[p, 0] / lengths[p], shifts[p, 1] / lengths[p]
        travel = math.hypot(moves[p, 0], moves[p, 1])
        # the group's box swept along the travel: a friend outside it is never overlapped
        step_x, step_y = ux * travel, uy * travel
        swept_low_x = box_low_x + min(step_x, 0.0) - SWEEP_MARGIN
        swept_low_y = box_low_y + min(step_y, 0.0) - SWEEP_MARGIN
        swept_high_x = box_high_x + max(step_x, 0.0) + SWEEP_MARGIN
        swept_high_y = box_high_y + max(step_y, 0.0) + SWEEP_MARGIN
        # every (mover, friend) pair's stretch of the way where they overlap: (low, high)
        c = 0
        for j in range(f):
            bx, by, br = mate_xy[j, 0], mate_xy[j, 1], mate_r[j]
            if not (
                bx + br >= swept_low_x
                and by + br >= swept_low_y
                and bx - br <= swept_high_x
                and by - br <= swept_high_y
            ):
                continue
            for i in range(n):
                dx, dy = xy[i, 0] - mate_xy[j, 0], xy[i, 1] - mate_xy[j, 1]
                reach = r[i] + mate_r[j]
                b = dx * ux + dy * uy
                disc = b * b - (dx * dx + dy * dy - reach * reach)
                if disc > 0.0:
                    root = math.sqrt(disc)
                    first, last = -b - root, -b + root
                    if last > 0.0 and first < travel:
                        low[c], high[c] = first, last
                        c += 1
        end = travel
        moved = True
        while moved:  # step back to the start of every overlap the end lies in
            moved = False
            for w in range(c):
                if low[w] + TRAY_SLACK < end < high[w] - TRAY_SLACK:
                    end = low[w]
                    moved = True
        if end != travel:
            end = _greatest(end, 0.0)
            moves[p, 0], moves[p, 1] = ux * end, uy * end
    return moves


@_compiled
def gaps(a_xy: FloatArray, a_r: FloatArray, b_xy: FloatArray, b_r: FloatArray) -> FloatArray:
    """(n, m) edge-to-edge gaps between round bases ``a`` and ``b``: the centre distance, the
    square root of the sum of the squared offsets, less each radius in turn."""
    n, m = a_xy.shape[0], b_xy.shape[0]
    found = np.empty((n, m))
    for i in range(n):
        x, y, ri = a_xy[i, 0], a_xy[i, 1], a_r[i]
        for j in range(m):
            dx, dy = x - b_xy[j, 0], y - b_xy[j, 1]
            found[i, j] = math.sqrt(dx * dx + dy * dy) - ri - b_r[j]
    return found


@_compiled
def fans(u: FloatArray, travel: FloatArray, cos: FloatArray, sin: FloatArray) -> FloatArray:
    """(k, 1 + t, 2): each of the moves ``travel`` (k,) along the unit vectors ``u`` (k, 2),
    then the same move turned by each of the t angles of cosines ``cos`` and sines ``sin``."""
    k, t = u.shape[0], cos.shape[0]
    found = np.empty((k, 1 + t, 2))
    for p in range(k):
        ux, uy, far = u[p, 0], u[p, 1], travel[p]
        found[p, 0, 0], found[p, 0, 1] = ux * far, uy * far
        for w in range(t):
            found[p, 1 + w, 0] = (cos[w] * ux - sin[w] * uy) * far
            found[p, 1 + w, 1] = (sin[w] * ux + cos[w] * uy) * far
    return found


@_compiled
def picks(
    delta: FloatArray, moves: FloatArray, travel: FloatArray, blocked: float, gain: float
) -> FloatArray:
    """(k, 2): of each fan of ``moves`` (k, 1 + t, 2) (the straight move ``travel`` (k,),
    then its turns), the straight move, unless it gets less than the share ``blocked`` of
    its way and the turn that ends nearest ``delta`` (the first of equals) ends ``gain``
    nearer than it. Lengths are ``math.hypot``: the C library's hypot, as ``np.hypot``."""
    k, ways = moves.shape[0], moves.shape[1]
    found = np.empty((k, 2))
    for p in range(k):
        dx, dy = delta[p, 0], delta[p, 1]
        straight = math.hypot(dx - moves[p, 0, 0], dy - moves[p, 0, 1])
        turn, best = 1, math.hypot(dx - moves[p, 1, 0], dy - moves[p, 1, 1])
        for w in range(2, ways):
            left = math.hypot(dx - moves[p, w, 0], dy - moves[p, w, 1])
            if left < best or (left != left and best == best):  # np.argmin: a NaN first
                turn, best = w, left
        better = best < straight - gain
        short = math.hypot(moves[p, 0, 0], moves[p, 0, 1]) < blocked * travel[p]
        way = turn if short and better else 0
        found[p, 0], found[p, 1] = moves[p, way, 0], moves[p, way, 1]
    return found


@_compiled
def contact_tries(
    pos: FloatArray, ours: IntArray, theirs: IntArray, gap: FloatArray, limit: float, most: int
) -> tuple[FloatArray, FloatArray]:
    """The moves that bring the closest pairs of miniatures ``ours`` and ``theirs`` (``gap``
    (n, m) apart; at ``pos``) into contact, closest first, at most ``most`` pairs and none
    farther than ``limit``: how far (t,), and the shift (t, 2), the unit vector between the
    centres times that far (a pair on one centre is left out).

    The pairs come in the order of numpy's stable sort of the flattened gaps (by gap, then
    by place in the table; a NaN after every number), picked one by one: only the first
    few are wanted, and a sort takes numba seconds to compile."""
    n, m = gap.shape[0], gap.shape[1]
    taken = np.zeros(n * m, dtype=np.bool_)
    travels, shifts = np.empty(most), np.empty((most, 2))
    count = 0
    for _ in range(min(most, n * m)):
        best = -1
        for flat in range(n * m):
            if taken[flat]:
                continue
            value = gap[flat // m, flat % m]
            if best < 0:
                best = flat
                continue
            least = gap[best // m, best % m]
            if value < least or (least != least and value == value):  # NaN last
                best = flat
        taken[best] = True
        i, j = best // m, best % m
        travel = gap[i, j]
        if travel > limit:
            break
        dx = pos[theirs[j], 0] - pos[ours[i], 0]
        dy = pos[theirs[j], 1] - pos[ours[i], 1]
        length = math.hypot(dx, dy)
        if length != 0.0:
            travels[count] = travel
            shifts[count, 0], shifts[count, 1] = dx / length * travel, dy / length * travel
            count += 1
    return travels[:count], shifts[:count]


@_compiled
def nearest_after(
    pos: FloatArray, radius: FloatArray, ours: IntArray, theirs: IntArray, shifts: FloatArray
) -> FloatArray:
    """(k,): the least gap between the miniatures ``ours`` moved by each of ``shifts`` (k, 2)
    and ``theirs`` (inf when either is empty): each gap the sum of :func:`gaps` on the moved
    position, the least exact."""
    found = np.full(shifts.shape[0], np.inf)
    for s in range(shifts.shape[0]):
        least = np.inf
        for i in range(ours.shape[0]):
            x = pos[ours[i], 0] + shifts[s, 0]
            y = pos[ours[i], 1] + shifts[s, 1]
            ri = radius[ours[i]]
            for j in range(theirs.shape[0]):
                dx, dy = x - pos[theirs[j], 0], y - pos[theirs[j], 1]
                least = _least(least, math.sqrt(dx * dx + dy * dy) - ri - radius[theirs[j]])
        found[s] = least
    return found


_GRID_STEPS = np.array(
    [[1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [-1, 1], [-1, -1], [1, -1],
     [2, 1], [1, 2], [-1, 2], [-2, 1], [-2, -1], [-1, -2], [1, -2], [2, -1]],
    dtype=np.int64,
)  # fmt: skip


@_compiled
def _clear(
    ax: float, ay: float, bx: float, by: float, r: float, xy: FloatArray, rs: FloatArray,
    margin: float,
) -> bool:  # fmt: skip
    """Whether a base of radius ``r`` moving straight from a to b stays ``margin`` clear of
    every base (``xy``, ``rs``): the least distance from each centre to the segment. A base
    it is nearest at a, where it already stands, does not stop it (a base in contact can
    move away); a == b asks whether the place itself is clear."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    for o in range(xy.shape[0]):
        px, py = xy[o, 0] - ax, xy[o, 1] - ay
        t = 0.0 if length2 == 0.0 else (px * dx + py * dy) / length2
        if length2 != 0.0 and t <= 0.0:
            continue
        t = 1.0 if t > 1.0 else t
        ex, ey = px - t * dx, py - t * dy
        if math.sqrt(ex * ex + ey * ey) < r + rs[o] + margin:
            return False
    return True


@_compiled
def grid_path(
    start: FloatArray,
    r: float,
    obstacles: FloatArray,
    obstacle_r: FloatArray,
    goals: FloatArray,
    goal_r: FloatArray,
    contact: float,
    limit: float,
    cell: float,
    width: float,
    depth: float,
    margin: float,
    target: FloatArray,
    toward: bool,
) -> FloatArray:
    """Where a base of radius ``r`` at ``start`` can get within ``contact`` of a base of
    ``goals`` along a path of at most ``limit`` that never comes within ``margin`` of a base
    of ``obstacles`` nor goes off the table: the first node reached, in path length along a
    grid of ``cell`` with 16 ways out of each node (Dijkstra), that is within ``contact`` of
    a goal base or from which a straight last leg (of at most 3 cells, on the table) reaches
    ``contact``/2 of one (the first goal base, in their order, that fits), each leg checked
    exactly against every base;
    or, with ``toward``, of all the nodes so reached within ``contact`` of a goal base, the
    one nearest ``target`` (the first found of equals). Returns (x, y, path length), or NaNs
    when there is none within ``limit``."""
    best_x, best_y, best_d, best_gap = np.nan, np.nan, np.nan, np.inf
    n = int(limit / cell) + 1
    side = 2 * n + 1
    size = side * side
    dist = np.full(size, np.inf)
    state = np.zeros(size, dtype=np.int8)  # 0 unknown, 1 free, 2 blocked
    heap_key = np.empty(size * 16 + 1)
    heap_val = np.empty(size * 16 + 1, dtype=np.int64)
    home = n * side + n
    dist[home] = 0.0
    state[home] = 1
    heap_key[0], heap_val[0] = 0.0, home
    count = 1
    sx, sy = start[0], start[1]
    while count > 0:
        d, v = heap_key[0], heap_val[0]
        count -= 1
        if count > 0:  # sift the last entry down from the root
            key, val = heap_key[count], heap_val[count]
            i = 0
            while True:
                c = 2 * i + 1
                if c >= count:
                    break
                if c + 1 < count and heap_key[c + 1] < heap_key[c]:
                    c += 1
                if heap_key[c] >= key:
                    break
                heap_key[i], heap_val[i] = heap_key[c], heap_val[c]
                i = c
            heap_key[i], heap_val[i] = key, val
        if d > dist[v]:
            continue
        ix, iy = v // side - n, v % side - n
        x, y = sx + ix * cell, sy + iy * cell
        for g in range(goals.shape[0] if toward else 0):
            gx, gy = goals[g, 0] - x, goals[g, 1] - y
            if math.sqrt(gx * gx + gy * gy) - r - goal_r[g] <= contact:
                tx, ty = target[0] - x, target[1] - y
                away = math.sqrt(tx * tx + ty * ty)
                if away < best_gap:
                    best_x, best_y, best_d, best_gap = x, y, d, away
                break
        for g in range(0 if toward else goals.shape[0]):
            gx, gy = goals[g, 0] - x, goals[g, 1] - y
            centre = math.sqrt(gx * gx + gy * gy)
            gap = centre - r - goal_r[g]
            if gap <= contact:
                return np.array([x, y, d])
            need = gap - contact / 2.0
            if d + need <= limit and need <= 3.0 * cell:
                ex, ey = x + gx / centre * need, y + gy / centre * need
                inside = r <= ex <= width - r and r <= ey <= depth - r
                if inside and _clear(x, y, ex, ey, r, obstacles, obstacle_r, margin):
                    return np.array([ex, ey, d + need])
        for s in range(_GRID_STEPS.shape[0]):
            jx, jy = ix + _GRID_STEPS[s, 0], iy + _GRID_STEPS[s, 1]
            if jx < -n or jx > n or jy < -n or jy > n:
                continue
            u = (jx + n) * side + (jy + n)
            if state[u] == 2:
                continue
            ux, uy = sx + jx * cell, sy + jy * cell
            step = math.sqrt(float(_GRID_STEPS[s, 0] ** 2 + _GRID_STEPS[s, 1] ** 2)) * cell
            if d + step > limit or d + step >= dist[u]:
                continue
            if state[u] == 0:
                inside = r <= ux <= width - r and r <= uy <= depth - r
                free = inside and _clear(ux, uy, ux, uy, r, obstacles, obstacle_r, margin)
                state[u] = 1 if free else 2
                if not free:
                    continue
            if not _clear(x, y, ux, uy, r, obstacles, obstacle_r, margin):
                continue
            dist[u] = d + step
            i = count  # sift the new entry up
            count += 1
            while i > 0:
                p = (i - 1) // 2
                if heap_key[p] <= d + step:
                    break
                heap_key[i], heap_val[i] = heap_key[p], heap_val[p]
                i = p
            heap_key[i], heap_val[i] = d + step, u
    return np.array([best_x, best_y, best_d])
