"""The battlefield: a rectangle with x along the long edges (0..width) and y across (0..depth)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from shapely.geometry import Polygon, box

from openwar.geometry.units import LengthUnit

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Battlefield:
    """A rectangular table; the south edge is y = 0 and the north edge y = depth.

    >>> Battlefield(44, 30).centre
    (22.0, 15.0)
    """

    width: float
    depth: float
    unit: LengthUnit = LengthUnit.INCH

    def __post_init__(self) -> None:
        if self.width <= 0 or self.depth <= 0:
            raise ValueError(f"a battlefield needs a positive size, not {self.width}x{self.depth}")

    @property
    def centre(self) -> tuple[float, float]:
        return (self.width / 2, self.depth / 2)

    @property
    def area(self) -> float:
        return self.width * self.depth

    @property
    def polygon(self) -> Polygon:
        return box(0.0, 0.0, self.width, self.depth)

    def inner(self, margin: float) -> Polygon:
        """The part of the table farther than ``margin`` from every edge (empty if none)."""
        if 2 * margin >= min(self.width, self.depth):
            return Polygon()
        return box(margin, margin, self.width - margin, self.depth - margin)

    def edge_distance(self, xy: FloatArray) -> FloatArray:
        """Distance from each point (rows of ``xy``) to the nearest table edge."""
        points = np.atleast_2d(np.asarray(xy, dtype=np.float64))
        x, y = points[:, 0], points[:, 1]
        nearest: FloatArray = np.minimum.reduce([x, y, self.width - x, self.depth - y])
        return nearest

    def shape_edge_distance(self, shape: Polygon) -> float:
        """Smallest distance from any part of ``shape`` to a table edge (negative if off it)."""
        minx, miny, maxx, maxy = shape.bounds
        return float(min(minx, miny, self.width - maxx, self.depth - maxy))

    def fraction(self, fx: float, fy: float) -> tuple[float, float]:
        """The point at fractions of the width and depth (maps are drawn in fractions)."""
        return (fx * self.width, fy * self.depth)
