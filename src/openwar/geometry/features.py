"""What stands on the battlefield besides miniatures: terrain, territories and objectives."""

from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import Polygon


@dataclass(frozen=True, slots=True)
class SceneryRule:
    """A result of the scenery table: a rule given to one terrain feature."""

    roll: int
    name: str


@dataclass(frozen=True, slots=True)
class TerrainFeature:
    """A terrain feature's outline on the table; some features block sight through them."""

    name: str
    outline: Polygon
    blocks_sight: bool
    scenery: SceneryRule | None = None


@dataclass(frozen=True, slots=True)
class Territory:
    """The area of the table an army sets up in (Territory A or B)."""

    name: str
    area: Polygon


@dataclass(frozen=True, slots=True)
class Objective:
    """A numbered objective marker; distances are measured to its centre."""

    number: int
    x: float
    y: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)
