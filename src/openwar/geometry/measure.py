"""Measuring between bases, points and areas the way the rules do: closest point to closest point.

A model is *within* X of something when the closest point of its base is X or less away; it is
*wholly within* when every point of its base is.
"""

from __future__ import annotations

import math

import shapely
from shapely.geometry import Polygon

from openwar.geometry.bases import PlacedBase

Point = tuple[float, float]


def centre_distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def base_distance(a: PlacedBase, b: PlacedBase) -> float:
    """Gap between the closest points of two bases (0 when they touch or overlap).

    >>> from openwar.geometry.bases import RoundBase
    >>> base_distance(PlacedBase(RoundBase(1), 0, 0), PlacedBase(RoundBase(1), 3, 4))
    4.0
    """
    if a.is_round and b.is_round:
        return max(0.0, centre_distance(a.centre, b.centre) - a.radius - b.radius)
    if a.is_round or b.is_round:  # exact: from the circle's centre, not its drawn polygon
        circle, other = (a, b) if a.is_round else (b, a)
        gap = float(shapely.distance(shapely.Point(circle.centre), other.footprint))
        return max(0.0, gap - circle.radius)
    return float(shapely.distance(a.footprint, b.footprint))


def within(a: PlacedBase, b: PlacedBase, limit: float) -> bool:
    """True if the bases are ``limit`` or less apart."""
    return base_distance(a, b) <= limit


def point_to_polygon_distance(point: Point, area: Polygon) -> float:
    """Distance from a point to an area: 0 inside it, else to its boundary."""
    return float(shapely.distance(shapely.Point(point), area))


def base_to_polygon_distance(a: PlacedBase, area: Polygon) -> float:
    """Gap between the closest point of a base and an area (0 if they overlap)."""
    if a.is_round:
        return max(0.0, point_to_polygon_distance(a.centre, area) - a.radius)
    return float(shapely.distance(a.footprint, area))


def base_to_point_distance(a: PlacedBase, point: Point) -> float:
    """Distance from the closest point of a base to a point (an objective's centre)."""
    if a.is_round:
        return max(0.0, centre_distance(a.centre, point) - a.radius)
    return float(shapely.distance(a.footprint, shapely.Point(point)))


def wholly_within_range(a: PlacedBase, point: Point, limit: float) -> bool:
    """True if every point of the base is ``limit`` or less from ``point``."""
    if a.is_round:
        return centre_distance(a.centre, point) + a.radius <= limit
    corners = a.footprint.exterior.coords
    return max(math.hypot(cx - point[0], cy - point[1]) for cx, cy in corners) <= limit


def wholly_within_polygon(a: PlacedBase, area: Polygon) -> bool:
    """True if the whole base lies inside ``area`` (touching its boundary from inside counts)."""
    if not a.is_round:
        return bool(area.covers(a.footprint))
    centre = shapely.Point(a.centre)
    if not area.covers(centre):
        return False
    return float(shapely.distance(centre, area.boundary)) >= a.radius
