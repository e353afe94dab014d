"""The table of an OpenWar battle: size, territories, terrain, objectives.

A board is plain JSON (it travels in replays). The default scenario (seed "Scenarios": decide
deployment zones, destroy the enemy) is two zones along opposite edges (OW-B12).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Polygon

from openwar.engine.state import FloatArray, GameState
from openwar.rulesets.openwar.rules import battle_rules


def default_board() -> dict[str, Any]:
    """90 x 90 cm, side 0 sets up along the south edge, side 1 along the north edge."""
    rules = battle_rules()
    w, d, depth = rules.table.width, rules.table.depth, rules.deployment_depth
    return {
        "name": "Deployment zones, destroy the enemy",
        "width": w,
        "depth": d,
        "unit": "cm",
        "territories": [
            [[0.0, 0.0], [w, 0.0], [w, depth], [0.0, depth]],
            [[0.0, d - depth], [w, d - depth], [w, d], [0.0, d]],
        ],
        "terrain": [],
        "objectives": [],
        "objective_points": 0,
        "victory": "Destroy the Enemy",
    }


def board_from_plan(plan: dict[str, Any]) -> dict[str, Any]:
    """An OpenWar battle's board from a battleplan (``openwar battleplan --ruleset openwar
    --json``): deployment zones, terrain, objectives, game length (OW-B16)."""
    from openwar.battleplans.data import load_battlepack
    from openwar.battleplans.files import check_battleplan
    from openwar.battleplans.maps import deployment_zone
    from openwar.geometry.features import Territory as Land

    check_battleplan(plan, "openwar")
    lands = {side: Land(side, Polygon(plan["map"]["territories"][side])) for side in ("A", "B")}
    gap = load_battlepack("openwar").deployment.enemy_territory_gap  # OW-BP.2
    zones = [
        _largest_ring(deployment_zone(lands[own], lands[other], gap))
        for own, other in (("A", "B"), ("B", "A"))
    ]
    objectives = plan["victory"].get("objectives", [])
    pack = load_battlepack("openwar")
    row = next((v for v in pack.victory if v.name == plan["victory"]["name"]), None)
    prize_gap = getattr(row, "prize_territory_gap", None)
    return {
        "name": f"{plan['map']['name']}: {plan['victory']['name']}",
        "width": float(plan["battlefield"]["width"]),
        "depth": float(plan["battlefield"]["depth"]),
        "unit": "cm",
        "territories": zones,
        "terrain": [
            {
                "name": t["name"],
                "polygon": t["polygon"],
                "blocks_sight": t.get("blocks_sight", True),
                "scenery": (t.get("scenery") or {}).get("name"),
            }
            for t in plan.get("terrain", [])
        ],
        "objectives": objectives,
        "objective_points": battle_rules().objective_points if objectives else 0,
        "control_range": float(
            plan.get("objective_control_range") or battle_rules().objective_range
        ),
        "rounds": int(plan.get("game_length") or battle_rules().rounds),
        "victory": plan["victory"]["name"],
        "arcane_prize": [row["name"] for row in plan["victory"].get("arcane_prize_table", [])],
        "lands": [[list(map(float, p)) for p in plan["map"]["territories"][s]] for s in ("A", "B")],
        "prize_gap": float(prize_gap) if prize_gap is not None else None,
        "prize_pickup": battle_rules().prize_pickup,
        "twist": (plan.get("twist") or {}).get("name") or "No Twist",
        "ruses": [((plan.get("ruses") or {}).get(s) or {}).get("name") for s in ("A", "B")],
    }


def _largest_ring(shape: Any) -> list[list[float]]:
    parts = list(getattr(shape, "geoms", [shape]))
    biggest = max(parts, key=lambda part: part.area)
    return [[round(x, 3), round(y, 3)] for x, y in biggest.exterior.coords[:-1]]


def generated_board(points: int, seed: int) -> dict[str, Any]:
    """Generate an OpenWar battleplan and make it a board."""
    from openwar.battleplans.generator import generate
    from openwar.battleplans.report import battleplan_json

    return board_from_plan(battleplan_json(generate("openwar", points, seed)))


@dataclass(frozen=True)
class Territory:
    polygon: Polygon

    def contains_bases(self, xy: FloatArray, radius: FloatArray) -> bool:
        """Whether every round base lies wholly within the territory."""
        return bool(np.all(self.bases_inside(xy, radius)))

    def bases_inside(self, xy: FloatArray, radius: FloatArray) -> npt.NDArray[np.bool_]:
        """For each round base, whether it lies wholly within the territory."""
        inside = shapely.contains_xy(self.polygon, xy[:, 0], xy[:, 1])
        edge = shapely.distance(self.polygon.exterior, shapely.points(xy))
        return np.asarray(inside & (edge >= radius - 1e-9), dtype=np.bool_)


@lru_cache(maxsize=64)
def _territory(coords: tuple[tuple[float, float], ...]) -> Territory:
    return Territory(Polygon(coords))


def territory(state: GameState, side: int) -> Territory:
    coords = tuple((float(x), float(y)) for x, y in state.board["territories"][side])
    return _territory(coords)


def facing_for(state: GameState, side: int) -> float:
    """Units set up facing the centre of the enemy's territory (radians)."""
    own = territory(state, side).polygon.centroid
    other = territory(state, 1 - side).polygon.centroid
    return math.atan2(other.y - own.y, other.x - own.x)


def objectives(state: GameState) -> list[tuple[float, float]]:
    """Where the objectives still in play are now (looted ones gone, the prize where it is)."""
    from openwar.rulesets.openwar.victory import live_objectives

    if state.scratch is None:
        return [point for _, point in live_objectives(state)]
    found: list[tuple[float, float]] | None = state.scratch.get("openwar.objectives")
    if found is None:
        found = state.scratch["openwar.objectives"] = [p for _, p in live_objectives(state)]
    return list(found)


def sight_blockers(state: GameState) -> list[Polygon]:
    """Terrain features that block line of sight (OW-T1)."""
    return [
        Polygon(feature["polygon"])
        for feature in state.board.get("terrain", [])
        if feature.get("blocks_sight", True)
    ]


def deployment_points(
    state: GameState, side: int, columns: int = 7, rows: int = 3
) -> list[tuple[float, float]]:
    """A grid of candidate centres inside the side's territory (worked out once a battle)."""
    memo = state.lookup().memo
    key = ("openwar.deployment_points", side, columns, rows)
    if key not in memo:
        memo[key] = _deployment_points(state, side, columns, rows)
    return list(memo[key])


def _deployment_points(
    state: GameState, side: int, columns: int, rows: int
) -> list[tuple[float, float]]:
    poly = territory(state, side).polygon
    x0, y0, x1, y1 = poly.bounds
    xs = np.linspace(x0, x1, columns + 2)[1:-1]
    ys = np.linspace(y0, y1, rows + 2)[1:-1]
    return [
        (round(float(x), 3), round(float(y), 3))
        for y in ys
        for x in xs
        if poly.contains(shapely.Point(x, y))
    ]
