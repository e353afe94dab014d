"""The Open War battleplan generator, step by step (seed 000, "Open War Battleplan Generator").

Seed -> ``SeedSequence(seed).spawn(3)``: one stream for the dice of the tables and roll-offs,
one for terrain positions, one for objective positions, so each step is reproducible alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from shapely.geometry.base import BaseGeometry

from openwar.battleplans.data import (
    Battlepack,
    MapRow,
    TableRow,
    VictoryRow,
    load_battlepack,
    load_maps,
)
from openwar.battleplans.maps import SIDES, deployment_zone, territories
from openwar.battleplans.objectives import BattlefieldTooSmallError, place_objectives
from openwar.battleplans.tables import RollOff, points_tier, roll_off, roll_on
from openwar.battleplans.terrain import TerrainSetUp, set_up_terrain
from openwar.dice import Roller, SeededRoller
from openwar.geometry import Battlefield, LengthUnit, Objective, Territory


@dataclass(frozen=True)
class Battleplan:
    """Everything the players need to set up and play a battle."""

    ruleset: str
    points: int
    seed: int
    battlefield: Battlefield
    terrain_roll_off: RollOff
    terrain: TerrainSetUp
    map: MapRow
    territories: dict[str, Territory]
    deployment_zones: dict[str, BaseGeometry]
    victory_roll_off: RollOff | None
    victory: VictoryRow
    objectives: tuple[Objective, ...]
    twist: TableRow | None
    ruses: dict[str, TableRow]
    arcane_prize: tuple[TableRow, ...]
    deployment: tuple[str, ...]
    game_length: int | None
    control_range: float

    @property
    def unit(self) -> LengthUnit:
        return self.battlefield.unit


@dataclass(frozen=True)
class Streams:
    """The seeded random streams of one battleplan."""

    dice: Roller
    terrain: np.random.Generator
    objectives: np.random.Generator

    @classmethod
    def from_seed(cls, seed: int) -> Streams:
        dice, terrain, objectives = np.random.SeedSequence(seed).spawn(3)
        return cls(
            SeededRoller(dice), SeededRoller(terrain).generator, SeededRoller(objectives).generator
        )


def distance_text(value: float, unit: LengthUnit) -> str:
    return f"{value:g}{unit.symbol}"


def deployment_steps(pack: Battlepack, unit: LengthUnit) -> tuple[str, ...]:
    gap = distance_text(pack.deployment.enemy_territory_gap, unit)
    return tuple(step.format(gap=gap) for step in pack.deployment.steps)


def zones(
    pack: Battlepack, lands: dict[str, Territory], battlefield: Battlefield, name: str
) -> dict[str, BaseGeometry]:
    """Each side's deployment zone; an empty one means the battlefield is too small."""
    gap = pack.deployment.enemy_territory_gap
    found = {
        side: deployment_zone(lands[side], lands[other], gap)
        for side, other in zip(SIDES, SIDES[::-1], strict=True)
    }
    for side, zone in found.items():
        if zone.area <= 0:
            far = distance_text(gap, battlefield.unit)
            raise BattlefieldTooSmallError(
                f"map {name}: territory {side} has no room more than {far} from the enemy's"
            )
    return found


def battlefield_for(pack: Battlepack, points: int) -> tuple[Battlefield, int]:
    tier = points_tier(pack, points)
    return Battlefield(tier.width, tier.depth, LengthUnit(pack.unit)), tier.terrain_features


def generate(
    ruleset: str, points: int, seed: int, battlefield: Battlefield | None = None
) -> Battleplan:
    """Generate an Open War battleplan; ``battlefield`` overrides the recommended one."""
    pack = load_battlepack(ruleset)
    table, terrain_count = battlefield_for(pack, points)
    table = battlefield or table
    rng = Streams.from_seed(seed)
    terrain_roll_off = roll_off(rng.dice)
    terrain = set_up_terrain(
        pack.terrain, pack.scenery, table, terrain_count, rng.terrain, rng.dice
    )
    chosen_map = roll_on(load_maps(ruleset), rng.dice)
    lands = territories(chosen_map, table)
    deploy = zones(pack, lands, table, chosen_map.name)
    victory_roll_off = roll_off(rng.dice)
    victory = roll_on(pack.victory, rng.dice)
    objectives = _objectives(victory, table, lands, rng.objectives, chosen_map.name)
    twist = roll_on(pack.twist, rng.dice)
    ruses = {side: roll_on(pack.ruse, rng.dice) for side in SIDES}
    prize = tuple(pack.arcane_prize) if victory.prize_territory_gap is not None else ()
    return Battleplan(
        ruleset, points, seed, table, terrain_roll_off, terrain, chosen_map, lands, deploy,
        victory_roll_off, victory, objectives, twist, ruses, prize,
        deployment_steps(pack, table.unit), pack.game_length,
        pack.objective_control_range,
    )  # fmt: skip


def _objectives(
    victory: VictoryRow, table: Battlefield, lands: dict[str, Territory],
    rng: np.random.Generator, map_name: str,
) -> tuple[Objective, ...]:  # fmt: skip
    if victory.objectives is None:
        return ()
    what = f"{victory.name} on map {map_name}"
    return place_objectives(victory.objectives, table, lands, rng, what)


def generate_default_scenario(points: int, seed: int) -> Battleplan:
    """OpenWar's default scenario: deployment zones, terrain, destroy the enemy (seed 002)."""
    pack = load_battlepack("openwar")
    assert pack.default_scenario is not None
    scenario = pack.default_scenario
    table, terrain_count = battlefield_for(pack, points)
    rng = Streams.from_seed(seed)
    terrain_roll_off = roll_off(rng.dice)
    terrain = set_up_terrain(
        pack.terrain, pack.scenery, table, terrain_count, rng.terrain, rng.dice
    )
    chosen_map = load_maps("openwar")[scenario.map_roll - 1]
    lands = territories(chosen_map, table)
    victory = VictoryRow(
        roll=scenario.victory.roll, name=scenario.victory.name, rule=scenario.victory.rule
    )
    return Battleplan(
        "openwar", points, seed, table, terrain_roll_off, terrain, chosen_map, lands,
        zones(pack, lands, table, chosen_map.name), None, victory, (), None, {}, (),
        deployment_steps(pack, table.unit), None, pack.objective_control_range,
    )  # fmt: skip
