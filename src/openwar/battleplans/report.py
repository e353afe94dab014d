"""A battleplan as one JSON object and as a summary a player can set a table up from."""

from __future__ import annotations

import json
from typing import Any

from shapely.geometry import Polygon

from openwar.battleplans.data import TableRow, load_battlepack
from openwar.battleplans.generator import Battleplan, distance_text
from openwar.battleplans.objectives import objective_side
from openwar.battleplans.tables import RollOff

PLACES = 2  # decimals of every coordinate in the output
RULESET_NAMES = {"aos": "Age of Sigmar", "openwar": "OpenWar"}

Json = dict[str, Any]


def ring(shape: Polygon) -> list[list[float]]:
    """A polygon's outline as ``[[x, y], ...]`` without repeating the first corner."""
    coords = list(shape.exterior.coords)[:-1]
    return [[round(x, PLACES), round(y, PLACES)] for x, y in coords]


def row_json(row: TableRow) -> Json:
    return {"roll": row.roll, "name": row.name, "rule": row.rule}


def roll_off_json(result: RollOff | None) -> Json | None:
    if result is None:
        return None
    return {"rolls": [list(pair) for pair in result.rolls], "winner": f"Player {result.winner}"}


def terrain_json(plan: Battleplan) -> list[Json]:
    return [
        {
            "name": feature.name,
            "polygon": ring(feature.outline),
            "scenery": None
            if feature.scenery is None
            else {"roll": feature.scenery.roll, "name": feature.scenery.name},
            "blocks_sight": feature.blocks_sight,
        }
        for feature in plan.terrain.features
    ]


def victory_json(plan: Battleplan) -> Json:
    out = row_json(plan.victory) | {
        "objectives": [[round(o.x, PLACES), round(o.y, PLACES)] for o in plan.objectives],
        "ends_battle_early": plan.victory.ends_battle_early,
    }
    if plan.arcane_prize:
        out["arcane_prize_table"] = [row_json(row) for row in plan.arcane_prize]
    return out


def battleplan_json(plan: Battleplan) -> Json:
    """The battleplan as plain data: every length in ``units``, x along the long edges."""
    return {
        "ruleset": plan.ruleset,
        "points": plan.points,
        "seed": plan.seed,
        "units": plan.unit.value,
        "battlefield": {"width": plan.battlefield.width, "depth": plan.battlefield.depth},
        "roll_offs": {
            "terrain": roll_off_json(plan.terrain_roll_off),
            "victory": roll_off_json(plan.victory_roll_off),
        },
        "terrain": terrain_json(plan),
        "unused_terrain": list(plan.terrain.unused),
        "map": {
            "roll": plan.map.roll,
            "name": plan.map.name,
            "north": "the long edge at y = depth (the deployment step may turn the map round)",
            "territories": {side: ring(land.area) for side, land in plan.territories.items()},
        },
        "victory": victory_json(plan),
        "twist": None if plan.twist is None else row_json(plan.twist),
        "ruses": {side: row_json(row) | {"secret": True} for side, row in plan.ruses.items()},
        "deployment": list(plan.deployment),
        "game_length": plan.game_length,
        "objective_control_range": plan.control_range,
    }


def dumps(plan: Battleplan) -> str:
    """The JSON text: keys in a fixed order, so the same seed gives the same bytes."""
    return json.dumps(battleplan_json(plan), ensure_ascii=False)


def _point(x: float, y: float) -> str:
    return f"({x:.1f}, {y:.1f})"


def terrain_lines(plan: Battleplan) -> list[str]:
    unit = plan.unit
    who = plan.terrain_roll_off
    lines = [
        f"Terrain: Player {who.winner} won the roll-off {_rolls(who)} and sets up "
        f"{len(plan.terrain.features) + len(plan.terrain.unused)} features, each more than "
        f"{distance_text(_gap(plan, 'edge'), unit)} from every edge and "
        f"{distance_text(_gap(plan, 'feature'), unit)} from each other:"
    ]
    for n, feature in enumerate(plan.terrain.features, start=1):
        x, y = feature.outline.centroid.coords[0]
        minx, miny, maxx, maxy = feature.outline.bounds
        sight = ", blocks sight" if feature.blocks_sight else ""
        scenery = f" - scenery: {feature.scenery.name}" if feature.scenery else ""
        span = f"x {minx:.1f}-{maxx:.1f}, y {miny:.1f}-{maxy:.1f}"
        where = f"centred at {_point(x, y)}, spanning {span}"
        lines.append(f"  T{n}. {feature.name}{sight}, {where}{scenery}")
    if plan.terrain.unused:
        lines.append(f"  Not used (no legal place left): {', '.join(plan.terrain.unused)}")
    return lines


def _gap(plan: Battleplan, which: str) -> float:
    rules = load_battlepack(plan.ruleset).terrain
    return rules.edge_gap if which == "edge" else rules.feature_gap


def _map_source(plan: Battleplan) -> str:
    """How the map was chosen: rolled on the table, or set by a scenario (a scenario rolls
    nothing for its map and victory, so it has no victory roll-off either)."""
    return f"rolled {plan.map.roll}" if plan.victory_roll_off is not None else "set by the scenario"


def _rolls(result: RollOff) -> str:
    return "(" + ", then ".join(f"{a}-{b}" for a, b in result.rolls) + ")"


def victory_lines(plan: Battleplan) -> list[str]:
    head = f"Victory: {plan.victory.name}"
    if plan.victory_roll_off is not None:
        rolls, winner = _rolls(plan.victory_roll_off), plan.victory_roll_off.winner
        head += f" (Player {winner} won the roll-off {rolls}, rolled {plan.victory.roll}"
        head += ", places the objectives)" if plan.objectives else ")"
    lines = [head, f"  {plan.victory.rule}"]
    if plan.objectives:
        lines.append(
            f"  Objectives (measure to the marker's centre; control: most models within "
            f"{distance_text(plan.control_range, plan.unit)}):"
        )
    for objective in plan.objectives:
        side = objective_side(objective, plan.territories)
        where = f"in Territory {side}" if side else "outside both territories"
        if (objective.x, objective.y) == plan.battlefield.centre:
            where = "centre of the battlefield"
        lines.append(f"    {objective.number}. {_point(objective.x, objective.y)} {where}")
    for row in plan.arcane_prize:
        lines.append(f"  Arcane Prize {row.roll}. {row.name}: {row.rule}")
    return lines


def summary(plan: Battleplan) -> str:
    """A readable battleplan: table, terrain, map, victory, twist, secret ruses, deployment."""
    field = plan.battlefield
    unit = plan.unit
    title = "Open War battleplan" if plan.victory_roll_off is not None else "Default scenario"
    lines = [
        f"{title}: {RULESET_NAMES.get(plan.ruleset, plan.ruleset)}, "
        f"{plan.points} points, seed {plan.seed}",
        f"Battlefield: {distance_text(field.width, unit)} x {distance_text(field.depth, unit)}; "
        f"x runs west to east{' along the long edge' if field.width > field.depth else ''}, "
        f"y south to north; north is the far {'long ' if field.width > field.depth else ''}edge.",
        *terrain_lines(plan),
        f"Map: {plan.map.name} ({_map_source(plan)}). {plan.map.description}",
        *(
            f"  Territory {side}: {' '.join(_point(x, y) for x, y in ring(land.area))}"
            for side, land in plan.territories.items()
        ),
        *victory_lines(plan),
    ]
    if plan.twist is not None:
        lines.append(f"Twist: {plan.twist.name} (rolled {plan.twist.roll}). {plan.twist.rule}")
    for side, ruse in plan.ruses.items():
        secret = f"Ruse of the player in Territory {side} [SECRET: reveal it when used]"
        lines.append(f"{secret}: {ruse.name} (rolled {ruse.roll}). {ruse.rule}")
    lines.append("Deployment:")
    lines += [f"  {n}. {step}" for n, step in enumerate(plan.deployment, start=1)]
    lines.append(_length_line(plan))
    return "\n".join(lines)


def _length_line(plan: Battleplan) -> str:
    if plan.game_length is None:  # the OpenWar rules' default scenario: the rules' limit
        from openwar.rulesets.openwar.rules import battle_rules

        return (
            f"Game length: until one army is destroyed, or at most {battle_rules().rounds} "
            "battle rounds."
        )
    early = f" unless {plan.victory.name} ends it sooner" if plan.victory.ends_battle_early else ""
    return f"Game length: {plan.game_length} battle rounds{early}."
