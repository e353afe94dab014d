"""The table of an Age of Sigmar battle: an Open War battleplan (or First Blood) as plain JSON.

Territories keep their full outline (victory conditions measure to them) and a deployment
zone (the territory less 6" round the enemy's: Open War "Deployment"). Side 0 takes Territory
A, side 1 Territory B (AOS-B2).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from openwar.engine.state import FloatArray, GameState
from openwar.errors import OpenWarError
from openwar.rulesets.aos.rules import battle_rules

SIDES = ("A", "B")


def board_from_plan(plan: dict[str, Any]) -> dict[str, Any]:
    """A board from ``openwar battleplan --ruleset aos --json``."""
    from openwar.battleplans.data import load_battlepack
    from openwar.battleplans.files import check_battleplan
    from openwar.battleplans.maps import deployment_zone
    from openwar.geometry.features import Territory as Land

    check_battleplan(plan, "aos")
    lands = {s: Land(s, Polygon(plan["map"]["territories"][s])) for s in SIDES}
    gap = load_battlepack("aos").deployment.enemy_territory_gap
    zones = [
        _largest_ring(deployment_zone(lands[own], lands[other], gap))
        for own, other in (("A", "B"), ("B", "A"))
    ]
    winner = str(plan.get("roll_offs", {}).get("terrain", {}).get("winner", "Player 1"))
    victory = plan["victory"]
    return {
        "name": f"{plan['map']['name']}: {victory['name']}",
        "width": float(plan["battlefield"]["width"]),
        "depth": float(plan["battlefield"]["depth"]),
        "unit": "inch",
        "territories": [[list(p) for p in plan["map"]["territories"][s]] for s in SIDES],
        "zones": zones,
        "terrain": [
            {
                "name": t["name"],
                "polygon": t["polygon"],
                "blocks_sight": t.get("blocks_sight", True),
                "scenery": (t.get("scenery") or {}).get("name"),
            }
            for t in plan.get("terrain", [])
        ],
        "objectives": [list(o) for o in victory.get("objectives", [])],
        "victory": victory["name"],
        "arcane_prize": [row["name"] for row in victory.get("arcane_prize_table", [])],
        "twist": (plan.get("twist") or {}).get("name", "No Twist"),
        "ruses": [(plan.get("ruses") or {}).get(s, {}).get("name") for s in SIDES],
        "terrain_first": 1 if winner.endswith("2") else 0,
        "rounds": int(plan.get("game_length") or battle_rules().rounds),
        "triumphs": triumph_sides(plan.get("triumphs") or []),
        "control_range": float(plan.get("objective_control_range") or 6),
    }


def first_blood_board(width: float = 72.0, depth: float = 48.0) -> dict[str, Any]:
    """The First Blood battleplan (seed 001): halves of a 6' x 4' table, set up more than 12"
    from enemy territory, no objectives, scored by the Wounds of slain enemy models."""
    half = depth / 2
    gap = 12.0
    return {
        "name": "First Blood",
        "width": width,
        "depth": depth,
        "unit": "inch",
        "territories": [
            [[0.0, 0.0], [width, 0.0], [width, half], [0.0, half]],
            [[0.0, half], [width, half], [width, depth], [0.0, depth]],
        ],
        "zones": [
            [[0.0, 0.0], [width, 0.0], [width, half - gap - 0.01], [0.0, half - gap - 0.01]],
            [[0.0, half + gap + 0.01], [width, half + gap + 0.01], [width, depth], [0.0, depth]],
        ],
        "terrain": [],
        "objectives": [],
        "victory": "First Blood",
        "arcane_prize": [],
        "twist": "No Twist",
        "ruses": [None, None],
        "terrain_first": 0,
        "rounds": battle_rules().rounds,
        "control_range": battle_rules().objective_range,
        "triumphs": [False, False],
    }


def triumph_sides(sides: list[str] | str) -> list[bool]:
    """AOS-B10: which sides won a major victory in their previous battle ("A", "B", "A,B")."""
    names = [s.strip().upper() for s in (sides.split(",") if isinstance(sides, str) else sides)]
    if not all(names):
        raise OpenWarError("triumphs: an empty side name (give A, B or A,B)")
    unknown = [n for n in names if n not in SIDES]
    if unknown:
        raise OpenWarError(f"triumphs: {', '.join(unknown)} is not a side (A or B)")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise OpenWarError(f"triumphs: {', '.join(twice)} is named twice (give A, B or A,B)")
    return [side in names for side in SIDES]


def generated_board(points: int, seed: int) -> dict[str, Any]:
    from openwar.battleplans.generator import generate
    from openwar.battleplans.report import battleplan_json

    return board_from_plan(battleplan_json(generate("aos", points, seed)))


def _largest_ring(shape: Any) -> list[list[float]]:
    parts = list(getattr(shape, "geoms", [shape]))
    biggest = max(parts, key=lambda part: part.area)
    return [[round(x, 3), round(y, 3)] for x, y in biggest.exterior.coords[:-1]]


@lru_cache(maxsize=256)
def polygon(coords: tuple[tuple[float, float], ...]) -> Polygon:
    shape = Polygon(coords)
    shapely.prepare(shape)
    return shape


def _poly(points: list[list[float]]) -> Polygon:
    return polygon(tuple((float(x), float(y)) for x, y in points))


_OUTLINES: dict[int, tuple[list[Any], Polygon]] = {}


def _outline(points: list[Any]) -> Polygon:
    """A board outline's polygon, remembered by the (never changing) list's identity."""
    found = _OUTLINES.get(id(points))
    if found is None or found[0] is not points:
        if len(_OUTLINES) >= 256:
            _OUTLINES.clear()
        found = _OUTLINES[id(points)] = (points, _poly(points))
    return found[1]


def territory(state: GameState, side: int) -> Polygon:
    return _outline(state.board["territories"][side])


def zone(state: GameState, side: int) -> Polygon:
    return _outline(state.board["zones"][side])


# The board's terrain list object -> its polygons (and those that block sight). A board never
# changes during a battle and clones share it, so its identity is the key; the list itself is
# kept in the entry so that its id cannot be reused while the entry lives.
_SHAPES: dict[int, tuple[list[Any], list[Polygon], list[bool]]] = {}


def _shapes(state: GameState) -> tuple[list[Polygon], list[bool]]:
    features: list[Any] = state.board.get("terrain", [])
    found = _SHAPES.get(id(features))
    if found is None or found[0] is not features:
        if len(_SHAPES) >= 64:
            _SHAPES.clear()
        shapes = [_poly(t["polygon"]) for t in features]
        found = (features, shapes, [bool(t.get("blocks_sight", True)) for t in features])
        _SHAPES[id(features)] = found
    return found[1], found[2]


def terrain(state: GameState) -> list[Polygon]:
    return list(_shapes(state)[0])


def wholly_within(shape: Polygon, xy: FloatArray, radius: FloatArray) -> bool:
    """Every round base lies wholly inside ``shape``."""
    inside = shapely.contains_xy(shape, xy[:, 0], xy[:, 1])
    edge = shapely.distance(shape.exterior, shapely.points(xy))
    return bool(np.all(inside & (edge >= radius - 1e-9)))


def wholly_outside(shape: Polygon, xy: FloatArray, radius: FloatArray) -> bool:
    return bool(np.all(shapely.distance(shape, shapely.points(xy)) >= radius - 1e-9))


def base_to_shape(shape: Polygon, xy: FloatArray, radius: FloatArray) -> FloatArray:
    """Distance from each base's edge to a shape (0 when touching or inside)."""
    d = shapely.distance(shape, shapely.points(xy)) - radius
    return np.asarray(np.maximum(d, 0.0), dtype=np.float64)


def objectives(state: GameState) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in state.extra.get("objectives", [])]


def sight_blockers(state: GameState, skip: tuple[int, ...] = ()) -> list[Polygon]:
    """Features that block sight, less those in ``skip`` (a garrison sees out of and is seen
    in its own feature)."""
    shapes, blocks = _shapes(state)
    return [shape for k, shape in enumerate(shapes) if blocks[k] and k not in skip]


def grid(shape: Polygon, columns: int, rows: int) -> list[tuple[float, float]]:
    x0, y0, x1, y1 = shape.bounds
    xs = np.linspace(x0, x1, columns + 2)[1:-1]
    ys = np.linspace(y0, y1, rows + 2)[1:-1]
    return [
        (round(float(x), 3), round(float(y), 3))
        for y in ys
        for x in xs
        if shape.contains(shapely.Point(x, y))
    ]
