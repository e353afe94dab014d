"""Where miniatures are: formations, gaps between round bases, legal positions, coherency.

All distances are between the closest points of bases (edge to edge), in the ruleset's unit.
Rows of miniatures are gathered with ``take`` (the same rows as indexing with an array, a
quicker call on the small arrays a battle has).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from openwar.engine.state import POSITION_DECIMALS, BoolArray, FloatArray, GameState, IntArray

SWEEP_MARGIN = 1e-3  # cm around a moving group's swept bounding box
OVERLAP_TOLERANCE = 2e-6  # covers rounding touching bases to POSITION_DECIMALS (<= 1.42e-6)
GAP_TABLE = "engine.gap_table"  # (Lookups.memo) the last table of gaps, with its positions
TRANSLATION_MEMO = "engine.translations"  # key of the TranslationMemo (Lookups.memo, scratch)
TRANSLATION_MEMO_LIMIT = 4096  # moves remembered before the memo starts afresh
LANE_MARGIN = 1e-2  # cm around a remembered move's lane: any change nearer forgets the move


def dot2(a: FloatArray, b: FloatArray) -> FloatArray:
    """The dot products of 2-vectors along the last axis, written out as two products and a
    sum: numpy's multiply and add are exact IEEE operations on every machine, whereas einsum
    and matmul use fused multiply-adds or BLAS kernels where the CPU has them, which changes
    the last bits of a move and so, rarely, a battle (results must be identical anywhere)."""
    return np.asarray(a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1], dtype=np.float64)


def gaps(a_xy: FloatArray, a_r: FloatArray, b_xy: FloatArray, b_r: FloatArray) -> FloatArray:
    """(n, m) edge-to-edge gaps between round bases (negative when they overlap)."""
    delta = a_xy[:, None, :] - b_xy[None, :, :]
    centre = np.sqrt(dot2(delta, delta))
    return np.asarray(centre - a_r[:, None] - b_r[None, :], dtype=np.float64)


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
    touches the still one solves ``|d + t u| = r1 + r2`` (a quadratic in ``t``).
    """
    return next(furthest_translations(state, movers, [shift]))


def furthest_translations(
    state: GameState, movers: IntArray, shifts: Sequence[FloatArray]
) -> Iterator[FloatArray]:
    """:func:`furthest_translation` of each of ``shifts`` in turn, as they are asked for.

    The moves the battle's memo does not know are worked out together at the first request
    (the group once, every first contact in one pass); the memo is looked up and added to
    only as each answer is taken, so a caller that stops early leaves it as if the later
    moves had never been asked (the same answers and the same memo as one call per shift).
    The state must not change until the caller is done with the answers.
    """
    lengths = [float(np.hypot(*shift)) for shift in shifts]
    memo = TranslationMemo.of(state)
    keys = [b""] * len(shifts)
    if memo is not None:
        start = movers.tobytes() + state.pos.take(movers, 0).tobytes()
        keys = [start + shift.tobytes() for shift in shifts]
    unknown = [
        i
        for i, (key, length) in enumerate(zip(keys, lengths, strict=True))
        if length != 0.0 and (memo is None or key not in memo.results)
    ]
    asked = [(shifts[i], lengths[i]) for i in unknown]
    worked = dict(zip(unknown, _translations(state, movers, asked), strict=True))
    for i, (shift, key) in enumerate(zip(shifts, keys, strict=True)):
        if lengths[i] == 0.0:
            yield np.zeros(2)
            continue
        if memo is not None:
            known = memo.results.get(key)
            if known is not None:
                if memo.used is not None:
                    memo.used.append((key, known))
                yield known.copy()
                continue
        if i not in worked:  # known at first, forgotten since (the memo filled up and restarted)
            worked[i] = _translations(state, movers, [(shift, lengths[i])])[0]
        move, lane = worked[i]
        if memo is not None:
            memo.remember(key, move.copy(), lane)
        yield move


def _translations(
    state: GameState, movers: IntArray, shifts: Sequence[tuple[FloatArray, float]]
) -> list[tuple[FloatArray, tuple[float, ...]]]:
    """Each (non-zero) shift's furthest translation, from the shift and its length, and the
    lane it depends on (see :meth:`MovingGroup.lane`)."""
    if not shifts:
        return []
    group = MovingGroup.of(state, movers)
    units: list[tuple[float, float]] = []
    limits: list[float] = []
    steps: list[tuple[float, float]] = []
    for shift, length in shifts:
        sx, sy = shift.tolist()
        ux, uy = sx / length, sy / length
        limit = min(length, group.edge_limit(ux, uy))
        travel = max(limit, 0.0)
        units.append((ux, uy))
        limits.append(limit)
        steps.append((ux * travel, uy * travel))
    contacts = group.first_contacts(np.array(units), group.near_paths(steps))
    found = []
    for (ux, uy), limit, contact in zip(units, limits, contacts.tolist(), strict=True):
        share = max(min(limit, contact), 0.0)
        found.append((np.array((ux * share, uy * share)), group.lane(ux, uy, max(limit, 0.0))))
    return found


Used = list[tuple[bytes, FloatArray]]  # the remembered moves an answer was built from


def still_valid(state: GameState, used: Used) -> bool:
    """Whether every remembered move in ``used`` still holds for ``state`` (the very answers,
    not recomputed ones: a move forgotten and worked out again counts as changed)."""
    memo = TranslationMemo.of(state)
    if memo is None:
        return False
    return all(memo.results.get(key) is found for key, found in used)


class TranslationMemo:
    """Straight moves worked out while earlier states of the battle were read, kept while
    they still hold: a move's end depends only on the movers, the shift and the other bases
    the movers could touch on the way (bases in the strip they sweep; any other one is met
    later, if ever), so an answer is forgotten as soon as a base appears in, leaves or moves
    within that lane (found by comparing each state read with the last one)."""

    def __init__(self) -> None:
        self.pos: FloatArray | None = None
        self.present: BoolArray | None = None
        self.results: dict[bytes, FloatArray] = {}
        self.keys: list[bytes] = []
        self.lanes: list[tuple[float, ...]] = []  # each key's lane (see MovingGroup.lane)
        self.used: Used | None = None  # when a list, every move looked up is noted in it

    @classmethod
    def of(cls, state: GameState) -> TranslationMemo | None:
        """The battle's memo, brought up to date with ``state``; None unless the state is
        only being read."""
        if state.scratch is None:
            return None
        memo: TranslationMemo | None = state.scratch.get(TRANSLATION_MEMO)
        if memo is None:
            shared = state.lookup().memo
            memo = shared.get(TRANSLATION_MEMO)
            if memo is None:
                memo = shared[TRANSLATION_MEMO] = cls()
            memo.sync(state)
            state.scratch[TRANSLATION_MEMO] = memo
        return memo

    def sync(self, state: GameState) -> None:
        present = state.alive & state.deployed
        if self.pos is None or self.present is None or self.pos.shape != state.pos.shape:
            self.forget_all()
        elif self.keys:
            changed = (state.pos != self.pos).any(axis=1) | (present != self.present)
            if changed.any():
                self._forget_near(state, np.flatnonzero(changed))
        self.pos, self.present = state.pos.copy(), present

    def _forget_near(self, state: GameState, changed: IntArray) -> None:
        assert self.pos is not None
        r = state.radius[changed]
        places = np.concatenate([self.pos[changed], state.pos[changed]])  # before and now
        reach = np.concatenate([r, r])[None, :]
        lanes = np.asarray(self.lanes)
        u0, u1 = lanes[:, 0:1], lanes[:, 1:2]
        along = places[None, :, 0] * u0 + places[None, :, 1] * u1
        across = places[None, :, 1] * u0 - places[None, :, 0] * u1
        hit = (
            (along + reach >= lanes[:, 2:3])
            & (along - reach <= lanes[:, 3:4])
            & (across + reach >= lanes[:, 4:5])
            & (across - reach <= lanes[:, 5:6])
        ).any(axis=1)
        if not hit.any():
            return
        for k in np.flatnonzero(hit):
            del self.results[self.keys[int(k)]]
        keep = np.flatnonzero(~hit)
        self.keys = [self.keys[int(k)] for k in keep]
        self.lanes = [self.lanes[int(k)] for k in keep]

    def forget_all(self) -> None:
        self.results, self.keys, self.lanes = {}, [], []

    def remember(self, key: bytes, shift: FloatArray, lane: tuple[float, ...]) -> None:
        if len(self.keys) >= TRANSLATION_MEMO_LIMIT:
            self.forget_all()
        if key not in self.results:
            self.keys.append(key)
            self.lanes.append(lane)
        self.results[key] = shift
        if self.used is not None:
            self.used.append((key, shift))

    @contextmanager
    def noting(self) -> Iterator[Used]:
        """Note every move looked up inside the block (for :func:`still_valid` later)."""
        outer, self.used = self.used, []
        try:
            yield self.used
        finally:
            if outer is not None:
                outer.extend(self.used)
            self.used = outer


@dataclass(frozen=True)
class MovingGroup:
    """Miniatures moving together and every other base on the table, with what a straight
    move needs of them; kept in the state's scratch while the state is only read."""

    xy: FloatArray
    r: FloatArray
    low: tuple[float, float]  # bounding box of the bases
    high: tuple[float, float]
    room: tuple[float, float, float, float]  # min (size - r - x), max (r - x), per axis
    rest_xy: FloatArray
    rest_r: FloatArray
    rest_box: FloatArray  # the other bases' boxes, (4, n): high x, high y, -low x, -low y

    @classmethod
    def of(cls, state: GameState, movers: IntArray) -> MovingGroup:
        if state.scratch is None:
            return cls.build(state, movers)
        key = ("moving", movers.tobytes())
        group: MovingGroup | None = state.scratch.get(key)
        if group is None:
            group = state.scratch[key] = cls.build(state, movers)
        return group

    @classmethod
    def build(cls, state: GameState, movers: IntArray) -> MovingGroup:
        xy, r = state.pos.take(movers, 0), state.radius.take(movers)
        rest = others(state, movers)
        size = np.array([state.board["width"], state.board["depth"]], dtype=np.float64)
        reach = r[:, None]
        far = (size - reach - xy).min(axis=0).tolist()
        back = (reach - xy).max(axis=0).tolist()
        low = (xy - reach).min(axis=0).tolist()
        high = (xy + reach).max(axis=0).tolist()
        rest_xy, rest_r = state.pos.take(rest, 0), state.radius.take(rest)
        rest_reach = rest_r[:, None]
        rest_box = np.concatenate((rest_xy + rest_reach, rest_reach - rest_xy), axis=1).T.copy()
        return cls(
            xy,
            r,
            (low[0], low[1]),
            (high[0], high[1]),
            (far[0], back[0], far[1], back[1]),
            rest_xy,
            rest_r,
            rest_box,
        )

    @cached_property
    def pairs(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Each base's offset from every other base, x and y, (n, m) each, and the square of
        their centre distance less the square of their touching distance, (n, m): what the
        first contact of any straight move of the group needs (taken for the bases near its
        path)."""
        offsets = self.xy[:, None, :] - self.rest_xy[None, :, :]
        reach = self.r[:, None] + self.rest_r[None, :]
        clearances = dot2(offsets, offsets) - reach * reach
        return offsets[:, :, 0].copy(), offsets[:, :, 1].copy(), clearances

    @cached_property
    def circle(self) -> tuple[float, float, float]:
        """Centre and radius of a circle holding every base of the group."""
        middle = (np.asarray(self.low) + np.asarray(self.high)) / 2.0
        spread = (np.sqrt(((self.xy - middle) ** 2).sum(axis=1)) + self.r).max()
        return float(middle[0]), float(middle[1]), float(spread)

    def edge_limit(self, ux: float, uy: float) -> float:
        """How far the group goes along the unit vector (``ux``, ``uy``) before a base crosses
        the table edge (the minimum over bases of the same quotient: dividing is monotonic, so
        taken once)."""
        best = np.inf
        for axis, step in enumerate((ux, uy)):
            if step > 1e-12:
                best = min(best, self.room[2 * axis] / step)
            elif step < -1e-12:
                best = min(best, self.room[2 * axis + 1] / step)
        return float(best)

    def lane(self, ux: float, uy: float, travel: float) -> tuple[float, ...]:
        """A strip holding all the group sweeps moving ``travel`` along the unit vector
        (``ux``, ``uy``), as (u_x, u_y, along_min, along_max, across_min, across_max), with a
        margin: the only place where another base can stop the move (the strip of the
        group's enclosing circle, cheaper than the bases' own and never narrower)."""
        cx, cy, spread = self.circle
        along, across = cx * ux + cy * uy, cy * ux - cx * uy
        reach = spread + LANE_MARGIN
        return (ux, uy, along - reach, along + reach + travel, across - reach, across + reach)

    def near_paths(self, steps: Sequence[tuple[float, float]]) -> BoolArray:
        """(k, m): which other bases' bounding boxes touch the group's bounding box swept along
        each of ``steps`` (dx, dy), plus a margin. Leaving the rest out changes no first
        contact: they are met later than the step's end, if ever."""
        boxes = [
            (
                self.low[0] + min(dx, 0.0) - SWEEP_MARGIN,
                self.low[1] + min(dy, 0.0) - SWEEP_MARGIN,
                -(self.high[0] + max(dx, 0.0) + SWEEP_MARGIN),
                -(self.high[1] + max(dy, 0.0) + SWEEP_MARGIN),
            )
            for dx, dy in steps
        ]
        return np.asarray((self.rest_box[:, None, :] >= np.array(boxes).T[:, :, None]).all(axis=0))

    def first_contacts(self, units: FloatArray, near: BoolArray) -> FloatArray:
        """(k,): how far the group goes along each of the unit vectors ``units`` (k, 2) before
        a base first touches one of the other bases ``near`` (k, m) its path (inf: none).
        Worked out only for the bases near some path; each time is the same sum whichever
        paths are asked together, and the least of a set is exact."""
        columns = np.flatnonzero(near.any(axis=0))
        if len(columns) == 0:
            return np.full(len(units), np.inf)
        dx, dy, clearances = self.pairs
        x, y, c = dx.take(columns, 1), dy.take(columns, 1), clearances.take(columns, 1)
        ux, uy = units.T[:, :, None, None]
        b = x * ux + y * uy  # (k, n, columns): the products and sum of dot2
        disc = b * b - c
        approaching = (disc >= 0.0) & (b < 0.0) & near.take(columns, axis=1)[:, None, :]
        t = np.where(approaching, -b - np.sqrt(np.maximum(disc, 0.0)), np.inf)
        t = np.where(approaching & (c <= OVERLAP_TOLERANCE), np.maximum(t, 0.0), t)
        return np.asarray(t.min(axis=(1, 2)), dtype=np.float64)


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


def step_towards(here: FloatArray, there: FloatArray, distance: float) -> FloatArray:
    """The point ``distance`` from ``here`` towards ``there`` (not beyond it)."""
    delta = there - here
    length = float(np.hypot(*delta))
    if length <= distance or length == 0.0:
        return np.asarray(there, dtype=np.float64)
    return np.asarray(here + delta * (distance / length), dtype=np.float64)
