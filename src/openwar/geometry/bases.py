"""Bases of miniatures: round (diameter) and rectangular (frontage x depth, for rank and file)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import shapely
from shapely.geometry import Polygon

CIRCLE_SEGMENTS = 16  # quarter-circle segments when a round base is drawn as a polygon


@dataclass(frozen=True, slots=True)
class RoundBase:
    """A round base; distances to it are exact (never through its polygon drawing)."""

    diameter: float

    def __post_init__(self) -> None:
        if self.diameter <= 0:
            raise ValueError(f"a base needs a positive diameter, not {self.diameter}")

    @property
    def radius(self) -> float:
        return self.diameter / 2


@dataclass(frozen=True, slots=True)
class RectangularBase:
    """A rectangular base: ``width`` is its frontage, ``depth`` front to back."""

    width: float
    depth: float

    def __post_init__(self) -> None:
        if self.width <= 0 or self.depth <= 0:
            raise ValueError(f"a base needs a positive size, not {self.width}x{self.depth}")


Base = RoundBase | RectangularBase


@dataclass(frozen=True, slots=True)
class PlacedBase:
    """A base on the table: centre ``(x, y)`` and facing in degrees (0 faces along +y)."""

    base: Base
    x: float
    y: float
    facing: float = 0.0

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)

    @property
    def is_round(self) -> bool:
        return isinstance(self.base, RoundBase)

    @property
    def radius(self) -> float:
        """Radius of a round base; half the diagonal (the farthest point) of a rectangle."""
        if isinstance(self.base, RoundBase):
            return self.base.radius
        return math.hypot(self.base.width, self.base.depth) / 2

    @property
    def footprint(self) -> Polygon:
        """The area the base covers, as a polygon (a 64-gon for a round base)."""
        if isinstance(self.base, RoundBase):
            circle = shapely.Point(self.x, self.y).buffer(
                self.base.radius, quad_segs=CIRCLE_SEGMENTS
            )
            assert isinstance(circle, Polygon)
            return circle
        return rectangle(self.x, self.y, self.base.width, self.base.depth, self.facing)


def rectangle(x: float, y: float, width: float, depth: float, facing: float) -> Polygon:
    """A ``width`` x ``depth`` rectangle centred on ``(x, y)`` turned ``facing`` degrees."""
    turn = math.radians(facing)
    cos, sin = math.cos(turn), math.sin(turn)
    w, d = width / 2, depth / 2
    corners = ((-w, -d), (w, -d), (w, d), (-w, d))
    return Polygon([(x + cx * cos - cy * sin, y + cx * sin + cy * cos) for cx, cy in corners])
