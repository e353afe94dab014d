"""Many miniatures at once: numpy arrays of centres ``(n, 2)`` and radii ``(n,)``.

Round bases are measured exactly with broadcasting; rectangular bases go through shapely's
vectorised functions on arrays of footprints.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Polygon

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
GeometryArray = npt.NDArray[np.object_]


def as_points(xy: FloatArray | list[tuple[float, float]]) -> FloatArray:
    """Rows of ``(x, y)`` as a float array of shape ``(n, 2)``."""
    return np.asarray(xy, dtype=np.float64).reshape(-1, 2)


def centre_distances(a_xy: FloatArray, b_xy: FloatArray) -> FloatArray:
    """``(n, m)`` distances between the centres of ``a`` and ``b``."""
    delta = as_points(a_xy)[:, None, :] - as_points(b_xy)[None, :, :]
    return np.hypot(delta[..., 0], delta[..., 1])


def round_base_distances(
    a_xy: FloatArray, a_radius: FloatArray, b_xy: FloatArray, b_radius: FloatArray
) -> FloatArray:
    """``(n, m)`` gaps between round bases, closest point to closest point (0 if touching)."""
    gap = centre_distances(a_xy, b_xy) - np.asarray(a_radius)[:, None] - np.asarray(b_radius)
    return np.maximum(gap, 0.0)


def within_mask(distances: FloatArray, limit: float) -> BoolArray:
    """Which distances are ``limit`` or less."""
    return np.asarray(distances <= limit)


def wholly_within_range_mask(
    xy: FloatArray, radius: FloatArray, point: FloatArray, limit: float
) -> BoolArray:
    """Which round bases lie wholly within ``limit`` of ``point``."""
    far_side = centre_distances(xy, as_points(point))[:, 0] + np.asarray(radius)
    return np.asarray(far_side <= limit)


def points_to_polygon_distances(xy: FloatArray, area: Polygon) -> FloatArray:
    """Distance from each point to an area (0 inside it)."""
    pts = as_points(xy)
    return np.asarray(shapely.distance(shapely.points(pts), area), dtype=np.float64)


def bases_to_polygon_distances(xy: FloatArray, radius: FloatArray, area: Polygon) -> FloatArray:
    """Gap between each round base and an area (0 if they overlap)."""
    return np.maximum(points_to_polygon_distances(xy, area) - np.asarray(radius), 0.0)


def wholly_within_polygon_mask(xy: FloatArray, radius: FloatArray, area: Polygon) -> BoolArray:
    """Which round bases lie wholly inside ``area``."""
    pts = as_points(xy)
    inside = shapely.intersects_xy(area, pts[:, 0], pts[:, 1])
    to_edge = np.asarray(shapely.distance(shapely.points(pts), area.boundary), dtype=np.float64)
    return np.asarray(inside & (to_edge >= np.asarray(radius)))


def rectangular_footprints(
    xy: FloatArray, width: FloatArray, depth: FloatArray, facing: FloatArray
) -> GeometryArray:
    """Footprints of many rectangular bases (facing in degrees) as an array of polygons."""
    pts = as_points(xy)
    half_w, half_d = np.asarray(width)[:, None] / 2, np.asarray(depth)[:, None] / 2
    cx = np.hstack([-half_w, half_w, half_w, -half_w])
    cy = np.hstack([-half_d, -half_d, half_d, half_d])
    turn = np.radians(np.asarray(facing, dtype=np.float64))[:, None]
    x = pts[:, :1] + cx * np.cos(turn) - cy * np.sin(turn)
    y = pts[:, 1:] + cx * np.sin(turn) + cy * np.cos(turn)
    return np.asarray(shapely.polygons(np.stack([x, y], axis=-1)))


def footprint_distances(a: GeometryArray, b: GeometryArray) -> FloatArray:
    """``(n, m)`` gaps between any footprints (rectangular or round drawn as polygons)."""
    return np.asarray(shapely.distance(a[:, None], b[None, :]), dtype=np.float64)
