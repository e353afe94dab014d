"""Territories of a map on a given battlefield, and where each army may deploy."""

from __future__ import annotations

from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from openwar.battleplans.data import MapRow
from openwar.geometry import Battlefield, Territory

SIDES = ("A", "B")


def territories(row: MapRow, battlefield: Battlefield) -> dict[str, Territory]:
    """The map's territories scaled to the battlefield."""
    return {
        side: Territory(side, Polygon([battlefield.fraction(fx, fy) for fx, fy in corners]))
        for side, corners in sorted(row.territories.items())
    }


def deployment_zone(own: Territory, enemy: Territory, enemy_gap: float) -> BaseGeometry:
    """Where a unit may be set up: inside its territory, more than ``enemy_gap`` from the
    enemy territory (the buffer's boundary itself is excluded by "more than")."""
    return own.area.difference(enemy.area.buffer(enemy_gap, quad_segs=16))
