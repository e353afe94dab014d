"""The compiled straight moves are, to the bit, a plain Python reference (Python floats:
each operation correctly rounded, never fused), on any machine."""

from __future__ import annotations

import math
import platform
import re
from typing import Any

import llvmlite.binding
import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from openwar.engine import kernels
from openwar.engine.kernels import (
    _greatest,
    _least,
    contact_tries,
    fans,
    gaps,
    grid_path,
    nearest_after,
    picks,
    straight_moves,
    table_moves,
    tray_moves,
)
from openwar.engine.state import BoolArray, FloatArray, IntArray


def _np_min(a: float, b: float) -> float:
    return a if a < b or a != a else b  # np.minimum: the second of equals


def _np_max(a: float, b: float) -> float:
    return a if a > b or a != a else b  # np.maximum: the second of equals


def reference(
    xy: FloatArray,
    r: FloatArray,
    rest_xy: FloatArray,
    rest_r: FloatArray,
    width: float,
    depth: float,
    shifts: FloatArray,
) -> list[list[float]]:
    """Each move worked out by its definition: every mover against every other base (no
    pruning), each number the expression of the numpy code the kernel replaced."""
    movers = [(float(x), float(y), float(ri)) for (x, y), ri in zip(xy, r, strict=True)]
    rest = [(float(x), float(y), float(ri)) for (x, y), ri in zip(rest_xy, rest_r, strict=True)]
    far_x = min(width - ri - x for x, _, ri in movers)
    far_y = min(depth - ri - y for _, y, ri in movers)
    back_x = max(ri - x for x, _, ri in movers)
    back_y = max(ri - y for _, y, ri in movers)
    moves = []
    for sx, sy in shifts.tolist():
        length = float(np.hypot(sx, sy))
        if length == 0.0:  # a zero shift goes nowhere
            moves.append([0.0, 0.0])
            continue
        ux, uy = sx / length, sy / length
        edges = [math.inf, math.inf]
        for axis, (u, far, back) in enumerate(((ux, far_x, back_x), (uy, far_y, back_y))):
            if u > 1e-12:
                edges[axis] = far / u
            elif u < -1e-12:
                edges[axis] = back / u
        limit = _np_min(length, _np_min(edges[0], edges[1]))
        contact = math.inf
        for x, y, ri in movers:
            for bx, by, br in rest:
                dx, dy, reach = x - bx, y - by, ri + br
                b = dx * ux + dy * uy
                disc = b * b - (dx * dx + dy * dy - reach * reach)
                if disc >= 0.0 and b < 0.0:
                    contact = min(contact, _np_max(-b - math.sqrt(disc), 0.0))
        found = _np_max(_np_min(limit, contact), 0.0)
        moves.append([ux * found, uy * found])
    return moves


def _check(
    xy: FloatArray,
    r: FloatArray,
    rest_xy: FloatArray,
    rest_r: FloatArray,
    width: float,
    depth: float,
    shifts: FloatArray,
) -> FloatArray:
    lengths = np.hypot(shifts[:, 0], shifts[:, 1])
    moves = straight_moves(xy, r, rest_xy, rest_r, width, depth, shifts, lengths)
    expected = reference(xy, r, rest_xy, rest_r, width, depth, shifts)
    assert moves.tobytes() == np.array(expected).reshape(-1, 2).tobytes()
    return np.asarray(moves, dtype=np.float64)


def _table(rng: np.random.Generator, bases: int, size: float) -> tuple[FloatArray, FloatArray]:
    xy = np.round(rng.uniform(-2.0, size, (bases, 2)), 6)
    r = rng.choice([1.25, 1.6, 2.5, 3.2], bases)
    return xy, r


def test_moves_are_the_reference_on_crowded_tables() -> None:
    """Groups of one to twelve bases on tables of every crowding, some bases off the table
    or overlapping, shifts along the axes and at random: most moves blocked, some not."""
    rng = np.random.default_rng(0)
    checked = blocked = 0
    for _ in range(150):
        xy, r = _table(rng, int(rng.integers(2, 40)), float(rng.choice([30.0, 90.0, 150.0])))
        n = int(rng.integers(1, min(12, len(xy) - 1) + 1))
        shifts = rng.normal(size=(8, 2)) * rng.choice([0.5, 5.0, 30.0])
        shifts[0] = (0.0, -shifts[0, 1])
        shifts[1] = (shifts[1, 0], 0.0)
        moves = _check(xy[:n], r[:n], xy[n:], r[n:], 150.0, 150.0, shifts)
        lengths = np.hypot(shifts[:, 0], shifts[:, 1])
        checked += len(shifts)
        blocked += int((np.hypot(moves[:, 0], moves[:, 1]) < lengths * 0.999).sum())
    assert checked // 4 < blocked < checked * 3 // 4


def test_a_base_against_the_edge_or_alone() -> None:
    """Bases touching the table edge (room exactly 0, a quotient of -0.0), a zero shift, and a
    group with no other base on the table."""
    xy, r = np.array([[1.25, 10.0], [30.0, 58.75]]), np.array([1.25, 1.25])
    shifts = np.array([[-3.0, 0.0], [0.0, 5.0], [-1.0, 1.0], [2.0, -0.5], [0.0, -4.0], [0.0, 0.0]])
    for n in (1, 2):
        moves = _check(xy[:n], r[:n], xy[n:], r[n:], 150.0, 150.0, shifts)
        assert (moves[0] == 0.0).all()
        assert repr(moves[-1].tolist()) == "[0.0, 0.0]"  # a zero shift: no move, no -0.0
    _check(xy, r, np.empty((0, 2)), np.empty(0), 90.0, 60.0, shifts)


def test_a_base_touched_at_the_very_end_of_the_move_stops_it() -> None:
    """Head on or grazing, in every direction, a base touched just before the move's end is
    not left out by the pruning (the swept box and the strip)."""
    rng = np.random.default_rng(3)
    for angle in np.linspace(0.0, 2.0 * np.pi, 32, endpoint=False).tolist():
        u = np.array([math.cos(angle), math.sin(angle)])
        side = np.array([-u[1], u[0]])
        for n, across in [(1, 0.0), (1, 0.9), (1, 0.999), (3, 0.5), (3, 0.999)]:
            xy = np.round(np.array([50.0, 50.0]) + rng.uniform(-3.0, 3.0, (n, 2)), 6)
            xy[0] = (50.0, 50.0)
            r = np.full(n, 1.25)
            other = xy[0] + u * 12.0 + side * across * 2.5
            rest_xy = np.round(other, 6)[None, :]
            d = xy[0] - rest_xy[0]
            b = float(d @ u)
            t = -b - math.sqrt(b * b - (float(d @ d) - 2.5 * 2.5))
            shifts = np.array([u * (t + 1e-6), u * (t - 1e-6)])
            moves = _check(xy, r, rest_xy, np.array([1.25]), 100.0, 100.0, shifts)
            if n == 1:
                assert float(np.hypot(*moves[0])) < t + 1e-6 - 1e-7  # stopped by the touch
                assert float(np.hypot(*moves[1])) > t - 1e-6 - 1e-12  # short of it: free


coordinate = st.floats(-5.0, 100.0, allow_nan=False).map(lambda v: round(v, 6))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(coordinate, coordinate, st.sampled_from([1.0, 1.25, 2.5])),
        min_size=2,
        max_size=30,
    ),
    st.integers(1, 8),
    st.lists(st.tuples(st.floats(-40.0, 40.0), st.floats(-40.0, 40.0)), min_size=1, max_size=6),
)
def test_moves_are_the_reference_on_any_table(
    bases: list[tuple[float, float, float]], movers: int, shifts: list[tuple[float, float]]
) -> None:
    table = np.array(bases)
    xy, r = table[:, :2].copy(), table[:, 2].copy()
    n = min(movers, len(bases) - 1)
    steps = np.array(shifts)
    _check(xy[:n], r[:n], xy[n:], r[n:], 90.0, 60.0, steps)


def test_ties_are_settled_as_numpy_settles_them() -> None:
    values = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan]
    for a in values:
        for b in values:
            for ours, theirs in ((_least, np.minimum), (_greatest, np.maximum)):
                found, expected = ours(a, b), float(theirs(np.array([a]), np.array([b]))[0])
                assert repr(found) == repr(expected), (ours, a, b)


@pytest.mark.parametrize(
    "kernel",
    [
        "straight_moves",
        "table_moves",
        "tray_moves",
        "gaps",
        "fans",
        "picks",
        "contact_tries",
        "nearest_after",
        "grid_path",
    ],
)
def test_no_fused_multiply_add_in_the_machine_code(kernel: str) -> None:
    """LLVM contracts a product and a sum into one FMA instruction (one rounding instead of
    two) only when allowed: it must not be, or a move's last bit would depend on the CPU.
    Checked on a fresh compile with the kernel's options (cached code keeps no assembly),
    for this machine's CPU."""
    x86 = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")
    if x86 and "+fma" not in llvmlite.binding.get_host_cpu_features().flatten():
        pytest.skip("this CPU has no FMA: nothing could have been fused")
    xy, ones, index = np.zeros((1, 2)), np.ones(1), np.zeros(1, dtype=np.int64)
    dispatcher, args = {
        "straight_moves": (straight_moves, (xy, ones, xy, ones, 1.0, 1.0, xy + 1.0, ones)),
        "table_moves": (
            table_moves,
            (xy, ones, ones > 0, ones > 0, index, 1.0, 1.0, xy + 1, ones),
        ),
        "tray_moves": (
            tray_moves,
            (xy, ones, ones > 0, ones > 0, index, index, 1.0, 1.0, xy + 1, ones),
        ),
        "gaps": (gaps, (xy, ones, xy, ones)),
        "contact_tries": (contact_tries, (xy, index, index, np.ones((1, 1)), 9.0, 8)),
        "nearest_after": (nearest_after, (xy, ones, index, index, xy)),
        "fans": (fans, (xy, ones, ones, ones)),
        "picks": (picks, (xy, np.ones((1, 7, 2)), ones, 0.9, 0.5)),
        "grid_path": (
            grid_path,
            (
                np.zeros(2),
                0.5,
                xy + 3.0,
                ones,
                xy + 2.0,
                ones,
                0.5,
                4.0,
                0.5,
                9.0,
                9.0,
                1e-3,
                np.zeros(2),
                False,
            ),
        ),
    }[kernel]
    untyped: Any = dispatcher  # the numba dispatcher behind the typed name
    options = {
        key: value
        for key, value in untyped.targetoptions.items()
        if key not in ("cache", "nopython")
    }
    fresh = numba.njit(**options)(untyped.py_func)  # the kernel's own compile options
    fresh(*args)
    asm = "\n".join(fresh.inspect_asm(sig) for sig in fresh.signatures)
    assert re.search(r"\bv?mulsd\b|\bfmul\b", asm)  # the products are there, as products
    found = re.findall(r"\bv?f(?:n)?m(?:add|sub)\w*|\bfml[as]\b", asm)  # x86, then ARM
    assert not found, found


def test_gaps_are_the_reference() -> None:
    rng = np.random.default_rng(6)
    a, a_r = _table(rng, 9, 90.0)
    b, b_r = _table(rng, 13, 90.0)
    others = list(zip(b.tolist(), b_r.tolist(), strict=True))
    expected = [
        [math.sqrt((x - u) * (x - u) + (y - v) * (y - v)) - ar - br for (u, v), br in others]
        for (x, y), ar in zip(a.tolist(), a_r.tolist(), strict=True)
    ]
    assert gaps(a, a_r, b, b_r).tobytes() == np.array(expected).tobytes()
    assert gaps(a[:0], a_r[:0], b, b_r).shape == (0, 13)


def _numpy_fans(u: FloatArray, travel: FloatArray, cos: FloatArray, sin: FloatArray) -> FloatArray:
    """The numpy code the fan kernel replaced."""
    ux, uy = u[:, 0:1], u[:, 1:2]
    ways_x = np.concatenate((ux, cos * ux - sin * uy), axis=1)
    ways_y = np.concatenate((uy, sin * ux + cos * uy), axis=1)
    return np.stack((ways_x * travel[:, None], ways_y * travel[:, None]), axis=2)


def _numpy_picks(
    delta: FloatArray, moves: FloatArray, travel: FloatArray, blocked: float, gain: float
) -> FloatArray:
    """The numpy code the pick kernel replaced."""
    ends = delta[:, None, :] - moves
    left = np.hypot(ends[..., 0], ends[..., 1])
    turn = np.argmin(left[:, 1:], axis=1) + 1
    rows = np.arange(len(moves))
    better = left[rows, turn] < left[:, 0] - gain
    short = np.hypot(moves[:, 0, 0], moves[:, 0, 1]) < blocked * travel
    return np.asarray(moves[rows, np.where(short & better, turn, 0)], dtype=np.float64)


def test_fans_and_picks_are_the_numpy_ones() -> None:
    """Fans of turned moves and the pick among them (the straight move unless it is blocked
    and a turn gains enough; ties between turns to the first), on random goals and blocked
    moves, with the ties made on purpose."""
    rng = np.random.default_rng(8)
    angles = np.radians([30.0, -30.0, 60.0, -60.0, 90.0, -90.0])
    cos, sin = np.cos(angles), np.sin(angles)
    for _ in range(200):
        k = int(rng.integers(1, 12))
        theta = rng.uniform(0.0, 2.0 * np.pi, k)
        u = np.column_stack([np.cos(theta), np.sin(theta)])
        travel = rng.uniform(0.0, 30.0, k)
        fan = fans(u, travel, cos, sin)
        assert fan.tobytes() == _numpy_fans(u, travel, cos, sin).tobytes()
        moves = fan * rng.choice([0.0, 0.3, 0.95, 1.0], (k, 7, 1))  # some blocked
        moves[:, 3] = moves[:, 2] if rng.random() < 0.5 else moves[:, 3]  # equal turns
        delta = u * (travel + rng.uniform(0.0, 5.0, k))[:, None]
        found = picks(delta, moves, travel, 0.9, 0.5)
        assert found.tobytes() == _numpy_picks(delta, moves, travel, 0.9, 0.5).tobytes()


def test_a_nan_is_picked_as_numpy_argmin_picks_it() -> None:
    moves = np.zeros((1, 7, 2))
    moves[0, 1:, 0] = [5.0, np.nan, 6.0, 7.0, np.nan, 8.0]
    delta, travel = np.array([[10.0, 0.0]]), np.array([10.0])
    expected = _numpy_picks(delta, moves, travel, 0.9, 0.5)
    assert repr(picks(delta, moves, travel, 0.9, 0.5).tolist()) == repr(expected.tolist())


def test_compiled_hypot_is_numpy_s() -> None:
    """The pick kernel's lengths: ``math.hypot`` compiled calls the C library's hypot, as
    ``np.hypot`` does (a square root of the sum of squares differs in the last bit)."""

    def lengths(x: FloatArray, y: FloatArray) -> FloatArray:
        found = np.empty(len(x))
        for i in range(len(x)):
            found[i] = math.hypot(x[i], y[i])
        return found

    compiled = numba.njit(error_model="numpy")(lengths)
    rng = np.random.default_rng(9)
    x = rng.normal(size=100_000) * rng.choice([1e-6, 1.0, 30.0, 1e6], 100_000)
    y = x * rng.choice([1e-9, 0.01, 1.0, 3.0], 100_000) + rng.normal(size=100_000)
    specials = np.array([0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, 1.0])
    x = np.concatenate([x, np.repeat(specials, 7)])
    y = np.concatenate([y, np.tile(specials, 7)])
    assert compiled(x, y).tobytes() == np.hypot(x, y).tobytes()
    assert (np.sqrt(x * x + y * y) != np.hypot(x, y))[:100_000].any()


def test_table_moves_gather_the_movers_and_the_other_bases_on_the_table() -> None:
    """The movers in any order, the others being every base alive and deployed but them."""
    rng = np.random.default_rng(10)
    for _ in range(100):
        pos, radius = _table(rng, 40, 90.0)
        alive, deployed = rng.random(40) < 0.8, rng.random(40) < 0.9
        movers = rng.choice(40, int(rng.integers(1, 10)), replace=False)
        shifts = rng.normal(size=(6, 2)) * 10.0
        lengths = np.hypot(shifts[:, 0], shifts[:, 1])
        found = table_moves(pos, radius, alive, deployed, movers, 90.0, 60.0, shifts, lengths)
        rest = alive & deployed
        rest[movers] = False
        others = np.flatnonzero(rest)
        expected = straight_moves(
            pos[movers], radius[movers], pos[others], radius[others], 90.0, 60.0, shifts, lengths
        )
        assert found.tobytes() == expected.tobytes()


def tray_reference(
    pos: FloatArray,
    radius: FloatArray,
    on: BoolArray,
    movers: IntArray,
    side_of: IntArray,
    shifts: FloatArray,
) -> list[list[float]]:
    """Each tray move by its definition, another way than the kernel's: the straight move
    past enemy bases and the table edge (:func:`reference`), then, of that end and the start
    of every stretch of the way where a mover overlaps a friend, the farthest not inside any
    such stretch."""
    rest = on.copy()
    rest[movers] = False
    friend = rest & (side_of == side_of[movers[0]])
    enemy = rest & ~friend
    xy, r = pos[movers], radius[movers]
    straight = reference(xy, r, pos[enemy], radius[enemy], 90.0, 60.0, shifts)
    moves = []
    for (sx, sy), (mx, my) in zip(shifts.tolist(), straight, strict=True):
        length = float(np.hypot(sx, sy))
        if length == 0.0 or not friend.any():
            moves.append([mx, my])
            continue
        ux, uy = sx / length, sy / length
        travel = math.hypot(mx, my)
        stretches = []
        for (x, y), ri in zip(xy.tolist(), r.tolist(), strict=True):
            for (bx, by), br in zip(pos[friend].tolist(), radius[friend].tolist(), strict=True):
                dx, dy, reach = x - bx, y - by, ri + br
                b = dx * ux + dy * uy
                disc = b * b - (dx * dx + dy * dy - reach * reach)
                if disc > 0.0:
                    low, high = -b - math.sqrt(disc), -b + math.sqrt(disc)
                    if high > 0.0 and low < travel:
                        stretches.append((low, high))
        slack = kernels.TRAY_SLACK
        free = [
            t
            for t in [travel] + [low for low, _ in stretches]
            if t <= travel and not any(low + slack < t < high - slack for low, high in stretches)
        ]
        end = max(free) if free else 0.0
        if end == travel:
            moves.append([mx, my])
        else:
            end = _np_max(end, 0.0)
            moves.append([ux * end, uy * end])
    return moves


def test_tray_moves_pass_through_friends_and_end_clear_of_them() -> None:
    """Two sides on crowded tables: each tray move is the reference's to the bit, ends clear
    of every base, and is a plain straight move wherever no friend lies in the way."""
    rng = np.random.default_rng(12)
    passed = stopped = 0
    for _ in range(120):
        pos, radius = _table(rng, 40, 60.0)
        alive, deployed = rng.random(40) < 0.9, rng.random(40) < 0.95
        side_of = (rng.random(40) < 0.5).astype(np.int64)
        movers = rng.choice(40, int(rng.integers(1, 8)), replace=False)
        shifts = rng.normal(size=(6, 2)) * 12.0
        lengths = np.hypot(shifts[:, 0], shifts[:, 1])
        found = tray_moves(
            pos, radius, alive, deployed, movers, side_of, 90.0, 60.0, shifts, lengths
        )
        expected = tray_reference(pos, radius, alive & deployed, movers, side_of, shifts)
        assert found.tobytes() == np.array(expected).reshape(-1, 2).tobytes()
        plain = table_moves(pos, radius, alive, deployed, movers, 90.0, 60.0, shifts, lengths)
        rest = alive & deployed
        rest[movers] = False
        mates = rest & (side_of == side_of[movers[0]])
        friends = np.flatnonzero(mates)
        unhindered = table_moves(  # as if every friend were gone
            pos, radius, alive & ~mates, deployed, movers, 90.0, 60.0, shifts, lengths
        )
        for move, straight, free in zip(found, plain, unhindered, strict=True):
            if np.hypot(*move) > np.hypot(*straight) + 1e-9:
                passed += 1  # it went through a friend the plain move stopped at
            start_clear = (gaps(pos[movers], radius[movers], pos[friends], radius[friends])
                           >= -1e-6).all()  # fmt: skip
            if start_clear and len(friends):
                end = gaps(pos[movers] + move, radius[movers], pos[friends], radius[friends])
                assert (end >= -1e-6).all()
                stopped += bool(np.hypot(*move) < np.hypot(*free) - 1e-9)
    assert passed > 20 and stopped > 20


def test_tray_moves_are_table_moves_with_no_friend_on_the_table() -> None:
    rng = np.random.default_rng(13)
    for _ in range(50):
        pos, radius = _table(rng, 30, 90.0)
        on = np.ones(30, dtype=np.bool_)
        side_of = np.ones(30, dtype=np.int64)
        movers = rng.choice(30, 5, replace=False)
        side_of[movers] = 0
        shifts = rng.normal(size=(6, 2)) * 10.0
        lengths = np.hypot(shifts[:, 0], shifts[:, 1])
        found = tray_moves(pos, radius, on, on, movers, side_of, 90.0, 60.0, shifts, lengths)
        plain = table_moves(pos, radius, on, on, movers, 90.0, 60.0, shifts, lengths)
        assert found.tobytes() == plain.tobytes()


def _numpy_contact_tries(
    pos: FloatArray, ours: IntArray, theirs: IntArray, gap: FloatArray, limit: float, most: int
) -> list[tuple[float, FloatArray]]:
    """The numpy code the contact tries kernel replaced."""
    found: list[tuple[float, FloatArray]] = []
    if float(gap.min()) > limit:
        return found
    for flat in np.argsort(gap, axis=None, kind="stable")[:most]:
        i, j = divmod(int(flat), gap.shape[1])
        travel = float(gap[i, j])
        if travel > limit:
            break
        direction = pos[theirs[j]] - pos[ours[i]]
        length = float(np.hypot(*direction))
        if length != 0.0:
            found.append((travel, direction / length * travel))
    return found


def test_contact_tries_and_the_nearest_gaps_after_moves_are_the_numpy_ones() -> None:
    """Closest pairs first (equal gaps in a stable order, a pair on one centre left out), up
    to a limit; and each move's least gap to the other side, as the tiled numpy gaps."""
    rng = np.random.default_rng(11)
    tried = 0
    for _ in range(200):
        pos, radius = _table(rng, 30, float(rng.choice([20.0, 60.0])))
        pos[5] = pos[20]  # a pair on one centre
        pos[7] = pos[8] + (3.0, 4.0)
        pos[22] = pos[23] + (3.0, 4.0)  # equal gaps, if the radii are equal too
        picked = rng.permutation(30)
        ours, theirs = picked[: rng.integers(1, 12)], picked[15 : 15 + rng.integers(1, 12)]
        ours = np.concatenate([ours, [5, 8, 23]])
        theirs = np.concatenate([theirs, [20, 7, 22]])
        gap = gaps(pos[ours], radius[ours], pos[theirs], radius[theirs])
        limit = float(rng.choice([np.inf, 3.0, 10.0, 30.0]))
        travels, shifts = contact_tries(pos, ours, theirs, gap, limit, 8)
        expected = _numpy_contact_tries(pos, ours, theirs, gap, limit, 8)
        assert travels.tolist() == [travel for travel, _ in expected]
        assert shifts.tobytes() == np.array([s for _, s in expected]).reshape(-1, 2).tobytes()
        tried += len(expected)
        if not expected:
            continue
        moved = (pos[ours][None, :, :] + shifts[:, None, :]).reshape(-1, 2)
        radii = np.tile(radius[ours], len(shifts))
        apart = gaps(moved, radii, pos[theirs], radius[theirs]).reshape(len(shifts), -1)
        nearest = nearest_after(pos, radius, ours, theirs, shifts)
        assert nearest.tobytes() == apart.min(axis=1).tobytes()
    assert tried > 200


def test_contact_tries_come_in_numpy_s_stable_order() -> None:
    """Equal gaps by their place in the table, a NaN after every number, -0.0 equal to 0.0."""
    pos = np.column_stack([np.arange(8.0), np.arange(8.0) ** 2])
    ours, theirs = np.array([0, 1, 2]), np.array([3, 4, 5, 6, 7])
    gap = np.array(
        [[2.0, np.nan, 1.0, 0.0, 2.0], [-0.0, 1.0, np.nan, 2.0, 1.0], [1.0, 0.0, 3.0, 2.0, 1.0]]
    )
    for most in (1, 4, 8, 15, 20):
        travels, shifts = contact_tries(pos, ours, theirs, gap, np.inf, most)
        expected = _numpy_contact_tries(pos, ours, theirs, gap, np.inf, most)
        assert repr(travels.tolist()) == repr([travel for travel, _ in expected])
        assert shifts.tobytes() == np.array([s for _, s in expected]).reshape(-1, 2).tobytes()


def test_kernels_compile_without_a_disk_cache_where_nothing_can_be_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """numba refuses ``cache=True`` when it finds no writable place for the cache (a
    read-only install, no writable home): the kernels then compile in memory instead."""
    real = numba.njit

    def njit(**options: Any) -> Any:
        if options.get("cache"):
            raise RuntimeError("cannot cache function 'twice': no locator available for file")
        return real(**options)

    monkeypatch.setattr(numba, "njit", njit)

    def twice(x: float) -> float:
        return 2.0 * x

    compiled: Any = kernels._compiled(twice)
    assert compiled(1.5) == 3.0
    assert not compiled.targetoptions.get("cache")
    assert compiled.targetoptions["error_model"] == "numpy"


def _path(start: tuple[float, float], walls: list[tuple[float, float]], goal: tuple[float, float],
          limit: float, r: float = 0.5) -> FloatArray:  # fmt: skip
    """grid_path on a 60x44 table, every base of radius ``r``, the goal also an obstacle."""
    bases = np.array([*walls, goal], dtype=np.float64)
    return grid_path(np.array(start, dtype=np.float64), r, bases, np.full(len(bases), r),
                     np.array([goal], dtype=np.float64), np.array([r]), 0.5, limit, 0.5,
                     60.0, 44.0, 1e-3, np.zeros(2), False)  # fmt: skip


def _clear_of(end: FloatArray, bases: list[tuple[float, float]], r: float = 0.5) -> bool:
    return all(math.dist(end, b) >= 2 * r for b in bases)


def test_grid_path_goes_straight_on_an_open_table() -> None:
    found = _path((10.0, 10.0), [], (10.0, 20.0), 12.0)
    assert math.dist(found[:2], (10.0, 20.0)) - 1.0 == pytest.approx(0.25, abs=0.3)
    assert found[2] == pytest.approx(math.dist((10.0, 10.0), found[:2]), abs=1e-9)
    assert np.isnan(_path((10.0, 10.0), [], (10.0, 20.0), 8.0)).all()  # 8.75" away


def test_grid_path_goes_round_a_wall_within_its_limit_or_not_at_all() -> None:
    wall = [(6.0 + 1.1 * k, 14.0) for k in range(9)]  # x 5.5 to 15.3: across the straight way
    found = _path((10.0, 10.0), wall, (10.0, 18.0), 14.0)
    straight = 8.0 - 1.0 - 0.25
    assert not np.isnan(found).any() and found[2] > straight + 2.0  # round an end
    assert math.dist(found[:2], (10.0, 18.0)) - 1.0 <= 0.5 and _clear_of(found[:2], wall)
    assert np.isnan(_path((10.0, 10.0), wall, (10.0, 18.0), straight + 1.0)).all()


def test_grid_path_leaves_a_base_it_touches_and_is_stopped_by_a_ring() -> None:
    touching = [(11.0, 10.0)]  # in base contact: moving away is free
    assert not np.isnan(_path((10.0, 10.0), touching, (4.0, 10.0), 8.0)).any()
    ring = [(10.0 + 1.05 * math.cos(a), 10.0 + 1.05 * math.sin(a))
            for a in np.linspace(0.0, 2 * math.pi, 7)[:-1]]  # fmt: skip
    assert np.isnan(_path((10.0, 10.0), ring, (4.0, 10.0), 12.0)).all()


def test_grid_path_toward_a_point_ends_nearest_it_within_contact() -> None:
    """With ``toward``, of the places within contact reached within the limit, the one
    nearest the target: round to the goal base's far side, not its near one."""
    goal = np.array([[10.0, 10.0]])
    args = (np.array([10.0, 13.0]), 0.5, goal, np.array([0.5]), goal, np.array([0.5]), 1.0)
    near = grid_path(*args, 6.0, 0.5, 60.0, 44.0, 1e-3, np.zeros(2), False)
    far = grid_path(*args, 6.0, 0.5, 60.0, 44.0, 1e-3, np.array([10.0, 0.0]), True)
    for end in (near, far):
        assert 1.0 - 1e-9 <= math.dist(end[:2], goal[0]) <= 2.0 + 1e-9  # within 1" of it
    assert near[1] > 10.0 > far[1]  # the first stays on its side, the second goes round
    assert far[2] <= 6.0


def test_grid_path_never_ends_a_base_over_the_table_edge() -> None:
    """A big base charging a small one against the edge: the last straight leg would take
    it over the edge, so it ends elsewhere, wholly on the table."""
    found = grid_path(np.array([1.0, 30.0]), 1.0, np.array([[0.5, 20.0]]), np.array([0.5]),
                      np.array([[0.5, 20.0]]), np.array([0.5]), 0.5, 12.0, 0.5, 60.0, 44.0,
                      1e-3, np.zeros(2), False)  # fmt: skip
    assert not np.isnan(found).any() and found[0] >= 1.0 and found[1] >= 1.0
    assert math.dist(found[:2], (0.5, 20.0)) - 1.5 <= 0.5 + 1e-9


def test_grid_path_never_steps_across_a_base_between_two_nodes() -> None:
    """A wall of small bases standing between two columns of grid nodes (every node clear
    of it): only the check of each leg, not of its ends, keeps the path from stepping
    through it; round its ends the way is far longer than the limit."""
    wall = np.array([[10.25, 5.0 + 0.3 * k] for k in range(34)])  # 0.1" apart: no way through
    goal = np.array([[12.0, 10.0]])
    bases = np.vstack([wall, goal])
    args = (np.array([10.0, 10.0]), 0.1, bases, np.full(len(bases), 0.1), goal,
            np.array([0.1]), 0.5, 4.0, 0.5, 60.0, 44.0, 1e-3, np.zeros(2), False)  # fmt: skip
    assert np.isnan(grid_path(*args)).all()
    open_way = (np.array([10.0, 10.0]), 0.1, goal, np.array([0.1]), goal, np.array([0.1]),
                0.5, 4.0, 0.5, 60.0, 44.0, 1e-3, np.zeros(2), False)  # fmt: skip
    assert not np.isnan(grid_path(*open_way)).any()  # without the wall, well within 4"
