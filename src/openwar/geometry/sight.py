"""Line of sight between bases, blocked by terrain features that block sight.

Design decision (docs/rules/aos.md, Battleplans): a base sees another if at least one of nine
sight lines (from the left edge, centre and right edge of one base, across the line between
them, to the same three points of the other) passes through no sight-blocking feature. A
feature that holds the centre of either base does not block that pair: models in a wood can
see out of it and be seen in it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry import Polygon

from openwar.geometry.bases import PlacedBase
from openwar.geometry.vectorised import BoolArray, FloatArray, GeometryArray, as_points

OFFSETS = np.array([-1.0, 0.0, 1.0])  # across each base, in radii
EDGE_INSET = 0.999  # keep sight points just inside the base edge


def sight_lines(a_xy: FloatArray, a_r: float, b_xy: FloatArray, b_r: float) -> GeometryArray:
    """The nine sight lines between two round bases (radius ``a_r`` and ``b_r``)."""
    a, b = as_points(a_xy)[0], as_points(b_xy)[0]
    along = b - a
    length = float(np.hypot(*along))
    across = np.array([-along[1], along[0]]) / length if length > 0 else np.array([1.0, 0.0])
    start = a + np.outer(OFFSETS * a_r * EDGE_INSET, across)
    end = b + np.outer(OFFSETS * b_r * EDGE_INSET, across)
    pairs = np.stack(
        [np.repeat(start, 3, axis=0), np.tile(end, (3, 1))], axis=1
    )  # (9, 2 points, 2 coords)
    return np.asarray(shapely.linestrings(pairs))


# Unions of sight-blocking features, by the identities of the features in them: a board's
# features never change during a battle and its clones share them, and a sight check needs the
# same few unions (all of them, all but the one a base stands in) over and over. Each entry
# keeps its features so that their ids cannot be reused while it lives.
_UNIONS: dict[tuple[int, ...], tuple[tuple[Polygon, ...], shapely.Geometry]] = {}


def _union(walls: Sequence[Polygon]) -> shapely.Geometry:
    """``shapely.union_all(walls)``, remembered (see ``_UNIONS``)."""
    key = tuple(map(id, walls))
    found = _UNIONS.get(key)
    if found is None or any(x is not y for x, y in zip(found[0], walls, strict=True)):
        if len(_UNIONS) >= 256:
            _UNIONS.clear()
        found = (tuple(walls), shapely.union_all(np.asarray(list(walls), dtype=object)))
        _UNIONS[key] = found
    return found[1]


def _blockers_for(a: FloatArray, b: FloatArray, blockers: GeometryArray) -> shapely.Geometry:
    holds = shapely.intersects_xy(blockers, a[0], a[1]) | shapely.intersects_xy(
        blockers, b[0], b[1]
    )
    return _union(list(blockers[~holds]))


def has_line_of_sight(a: PlacedBase, b: PlacedBase, blockers: Sequence[Polygon]) -> bool:
    """True if base ``a`` can see base ``b`` past the sight-blocking ``blockers``."""
    if not blockers:
        return True
    walls = np.asarray(list(blockers), dtype=object)
    a_xy, b_xy = as_points([a.centre])[0], as_points([b.centre])[0]
    lines = sight_lines(a_xy, _across(a, b_xy - a_xy), b_xy, _across(b, b_xy - a_xy))
    return not bool(np.all(shapely.intersects(lines, _blockers_for(a_xy, b_xy, walls))))


def _across(base: PlacedBase, along: FloatArray) -> float:
    """How far the base reaches to either side of the line ``along`` through its centre: its
    radius, or for a rectangle its corners' farthest offset (half its diagonal put the side
    points off the base)."""
    if base.is_round:
        return base.radius
    length = float(np.hypot(*along))
    if length == 0.0:
        return base.radius
    across = np.array([-along[1], along[0]]) / length
    corners = np.asarray(base.footprint.exterior.coords) - np.asarray(base.centre)
    offsets = corners[:, 0] * across[0] + corners[:, 1] * across[1]  # written out: no BLAS
    return float(np.abs(offsets).max())


def visibility_matrix(
    a_xy: FloatArray,
    a_radius: FloatArray,
    b_xy: FloatArray,
    b_radius: FloatArray,
    blockers: Sequence[Polygon],
) -> BoolArray:
    """``(n, m)``: which bases of ``a`` can see which of ``b`` (round bases). Every pair's
    nine lines are traced in one call against the union of the blockers; only a pair with a
    base inside a feature, all of whose lines are blocked, is traced again without the
    features holding its bases."""
    a_pts, b_pts = as_points(a_xy), as_points(b_xy)
    if not blockers or not len(a_pts) or not len(b_pts):
        return np.ones((len(a_pts), len(b_pts)), dtype=bool)
    walls = np.asarray(list(blockers), dtype=object)
    a_r, b_r = np.asarray(a_radius, dtype=np.float64), np.asarray(b_radius, dtype=np.float64)
    all_walls = _union(list(blockers))
    shapely.prepare(all_walls)
    lines = _lines_between(a_pts, a_r, b_pts, b_r)  # (n, m, 9)
    blocked: BoolArray = np.asarray(np.asarray(shapely.intersects(lines, all_walls)).all(axis=2))
    a_holds, b_holds = _holds(a_pts, walls), _holds(b_pts, walls)  # (walls, n), (walls, m)
    held = np.asarray(a_holds.any(axis=0))[:, None] | np.asarray(b_holds.any(axis=0))[None, :]
    again: dict[bytes, list[tuple[int, int]]] = {}  # by the features that still block
    for i, j in zip(*np.nonzero(held & blocked), strict=True):
        again.setdefault((~(a_holds[:, i] | b_holds[:, j])).tobytes(), []).append((i, j))
    for key, pairs in again.items():
        rest = _union(list(walls[np.frombuffer(key, dtype=bool)]))
        rows, cols = (np.array(k) for k in zip(*pairs, strict=True))
        blocked[rows, cols] = np.asarray(shapely.intersects(lines[rows, cols], rest)).all(axis=1)
    return np.asarray(~blocked)


def _holds(pts: FloatArray, walls: GeometryArray) -> BoolArray:
    """``(walls, points)``: which feature holds which point."""
    return np.asarray(shapely.intersects_xy(walls[:, None], pts[None, :, 0], pts[None, :, 1]))


def _lines_between(
    a_pts: FloatArray, a_r: FloatArray, b_pts: FloatArray, b_r: FloatArray
) -> GeometryArray:
    """``(n, m, 9)``: the nine sight lines of every pair (as :func:`sight_lines`)."""
    along = b_pts[None, :, :] - a_pts[:, None, :]  # (n, m, 2)
    length = np.hypot(along[..., 0], along[..., 1])
    safe = np.where(length > 0, length, 1.0)
    across = np.stack([-along[..., 1], along[..., 0]], axis=2) / safe[..., None]
    across[length == 0] = (1.0, 0.0)
    offsets = (OFFSETS * EDGE_INSET)[None, None, :, None]
    start = a_pts[:, None, None, :] + offsets * a_r[:, None, None, None] * across[:, :, None, :]
    end = b_pts[None, :, None, :] + offsets * b_r[None, :, None, None] * across[:, :, None, :]
    pairs = np.stack([np.repeat(start, 3, axis=2), np.tile(end, (1, 1, 3, 1))], axis=3)
    return np.asarray(shapely.linestrings(pairs))  # (n, m, 9)
