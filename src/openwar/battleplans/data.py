"""The battlepack tables as validated data: aos ``battleplans.yaml``, openwar ``scenarios.yaml``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Self

from pydantic import Field, model_validator

from openwar.errors import OpenWarError
from openwar.rulesets import check_ruleset
from openwar.rulesets.data import RuleData, load_data

DATA_FILES = {"aos": "battleplans.yaml", "openwar": "scenarios.yaml"}
D6_FACES = tuple(range(1, 7))


class NoBattleplansError(OpenWarError):
    """The ruleset has no battleplan generator."""


class PointsTier(RuleData):
    """A row of the points table: up to ``up_to`` points (None: any more)."""

    up_to: int | None
    width: float
    depth: float
    terrain_features: int


class TerrainKind(RuleData):
    """A feature in the terrain catalogue: its footprint in the ruleset's unit."""

    name: str
    shape: Literal["rectangle", "ellipse"]
    width: float
    depth: float
    blocks_sight: bool


class TerrainRules(RuleData):
    edge_gap: float
    feature_gap: float
    placement_tries: int
    search_step: float = Field(gt=0)  # the grid a feature the random tries missed is sought on
    search_turns: int = Field(ge=1)
    roll_scenery: bool
    catalogue: list[TerrainKind]


class TableRow(RuleData):
    """One result of a D6 table."""

    roll: int
    name: str
    rule: str


class ObjectivePlan(RuleData):
    """Where a victory condition's objectives go; every gap is "more than"."""

    centre: bool = False
    per_territory: int = 0
    anywhere: int = 0
    edge_gap: float
    spacing: float
    centre_gap: float = 0

    @property
    def count(self) -> int:
        return int(self.centre) + 2 * self.per_territory + self.anywhere


class VictoryRow(TableRow):
    objectives: ObjectivePlan | None = None
    ends_battle_early: bool = False
    prize_territory_gap: float | None = None


class MapRow(RuleData):
    """A map: territories A and B drawn in fractions of width (x) and depth (y); north is y=1."""

    roll: int
    name: str
    description: str
    territories: dict[Literal["A", "B"], list[tuple[float, float]]]


class Deployment(RuleData):
    enemy_territory_gap: float
    steps: list[str]


class DefaultScenario(RuleData):
    name: str
    map_roll: int
    victory: TableRow


def _check_d6(table: str, rows: Sequence[TableRow | MapRow]) -> None:
    rolls = tuple(row.roll for row in rows)
    if rolls != D6_FACES:
        raise ValueError(f"{table}: rolls must be 1-6 in order, found {list(rolls)}")


class Battlepack(RuleData):
    """All the tables of one ruleset's battleplan generator."""

    unit: Literal["inch", "cm"]
    points: list[PointsTier]
    terrain: TerrainRules
    scenery: list[TableRow]
    deployment: Deployment
    game_length: int
    objective_control_range: float
    victory: list[VictoryRow]
    twist: list[TableRow]
    ruse: list[TableRow]
    arcane_prize: list[TableRow]
    maps: list[MapRow] | None = None
    maps_from: str | None = None
    default_scenario: DefaultScenario | None = None

    @model_validator(mode="after")
    def _tables_are_d6(self) -> Self:
        tables: dict[str, Sequence[TableRow]] = {"scenery": self.scenery, "twist": self.twist}
        tables |= {"victory": self.victory, "ruse": self.ruse, "arcane_prize": self.arcane_prize}
        for name, rows in tables.items():
            _check_d6(name, rows)
        if self.maps is not None:
            _check_d6("maps", self.maps)
        elif self.maps_from is None:
            raise ValueError("give either maps or maps_from")
        if self.points[-1].up_to is not None:
            raise ValueError("points: the last row must have up_to: null (any higher limit)")
        return self


def load_battlepack(ruleset: str) -> Battlepack:
    """The battleplan tables of ``ruleset`` (aos or openwar)."""
    check_ruleset(ruleset)
    if ruleset not in DATA_FILES:
        known = " or ".join(DATA_FILES)
        raise NoBattleplansError(f"ruleset {ruleset!r} has no battleplan generator (use {known})")
    return load_data(ruleset, DATA_FILES[ruleset], Battlepack)


def load_maps(ruleset: str) -> list[MapRow]:
    """The Map table of ``ruleset``, following ``maps_from`` when it borrows another's."""
    pack = load_battlepack(ruleset)
    if pack.maps is not None:
        return pack.maps
    assert pack.maps_from is not None
    return load_maps(pack.maps_from)
