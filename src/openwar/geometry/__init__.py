"""The table battles stand on: battlefield, bases, terrain, territories, objectives, measuring.

Every length is in the ruleset's own unit (:func:`ruleset_unit`: inches or cm).
"""

from openwar.geometry.bases import Base, PlacedBase, RectangularBase, RoundBase
from openwar.geometry.features import Objective, SceneryRule, TerrainFeature, Territory
from openwar.geometry.measure import (
    base_distance,
    base_to_point_distance,
    base_to_polygon_distance,
    point_to_polygon_distance,
    wholly_within_polygon,
    wholly_within_range,
    within,
)
from openwar.geometry.sight import has_line_of_sight, visibility_matrix
from openwar.geometry.table import Battlefield
from openwar.geometry.units import CM_PER_INCH, LengthUnit, inches_to_cm, ruleset_unit

__all__ = [
    "CM_PER_INCH",
    "Base",
    "Battlefield",
    "LengthUnit",
    "Objective",
    "PlacedBase",
    "RectangularBase",
    "RoundBase",
    "SceneryRule",
    "TerrainFeature",
    "Territory",
    "base_distance",
    "base_to_point_distance",
    "base_to_polygon_distance",
    "has_line_of_sight",
    "inches_to_cm",
    "point_to_polygon_distance",
    "ruleset_unit",
    "visibility_matrix",
    "wholly_within_polygon",
    "wholly_within_range",
    "within",
]
