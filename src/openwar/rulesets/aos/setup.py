"""A new Age of Sigmar battle: forces and a board become the state before set-up, and the
set-up itself (alternating units, territories, Ambush and Outflank)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.events import Event
from openwar.engine.game import Dice, seed_state
from openwar.engine.space import formation, placement_clear
from openwar.engine.state import GameState, UnitState, initial_state
from openwar.rulesets.aos import garrisons
from openwar.rulesets.aos.board import grid, territory, wholly_outside, wholly_within, zone
from openwar.rulesets.aos.forces import ForceUnit
from openwar.rulesets.aos.moves import enemy_minis
from openwar.rulesets.aos.rules import battle_rules

GRIDS = ((9, 3), (17, 7), (33, 15))
AMBUSH_GRID = (11, 7)


def new_battle(
    forces: tuple[list[ForceUnit], list[ForceUnit]], board: dict[str, Any], seed: int
) -> tuple[GameState, list[Event]]:
    """The state before set-up: the player who set up the terrain sets up first (AOS-B2)."""
    first = int(board.get("terrain_first", 0))
    state = initial_state("aos", seed, Dice(seed_state(seed)).state, board, forces, first)
    state.extra = initial_extra(state, forces, board)
    return state, [Event("set_up_first", {"side": first})]


def initial_extra(
    state: GameState, forces: tuple[list[ForceUnit], list[ForceUnit]], board: dict[str, Any]
) -> dict[str, Any]:
    rules = battle_rules()
    generals: list[str | None] = []
    cp = []
    for force in forces:
        chosen = next((f.id for f in force if f.profile.get("general")), None)
        generals.append(chosen or (force[0].id if force else None))
        battalions = {f.profile.get("battalion") for f in force} - {None}
        cp.append(len(battalions) * rules.command_points_per_battalion)
    dark = board.get("twist") == "Dead of Night"
    return {
        "turn": None,
        "first": None,
        "turns": 0,
        "cp": cp,
        "pending": None,
        "spells_cast": [],
        "objectives": [list(o) for o in board.get("objectives", [])],
        "control": [None] * len(board.get("objectives", [])),
        "vp": [0, 0],
        "looted": [0, 0],
        "slain_wounds": [0, 0],
        "slain_models": [0, 0],
        "destroyed": [],
        "first_blood": None,
        "general": generals,
        "revenge": [0, 0],
        "sight_limit": rules.dead_of_night_sight if dark else None,
        "prize": {"result": None, "carrier": None},
        "burning": [],
        "ruse_used": [False, False],
        "finished_first": None,
        "sudden": None,
        "log": [],
        "combat_side": None,
        "shock": None,
        "phase_started": False,
        "reserves": [],
        "ending_movement": False,
        "triumph": [None, None],
        "triumph_used": [False, False],
    }


def facing_for(state: GameState, side: int) -> float:
    own = territory(state, side).centroid
    other = territory(state, 1 - side).centroid
    return math.atan2(other.y - own.y, other.x - own.x)


def rank_width(unit: UnitState) -> int:
    rules = battle_rules()
    return rules.cavalry_rank_width if "CAVALRY" in unit.profile["keywords"] else rules.rank_width


def formation_at(state: GameState, unit: UnitState, point: tuple[float, float]) -> np.ndarray:
    members = state.members(unit.id, alive=False)
    spacing = float(state.radius[members[0]]) + battle_rules().base_spacing / 2
    return formation(len(members), point, spacing, rank_width(unit), facing_for(state, unit.side))


def fits(state: GameState, unit: UnitState, point: tuple[float, float], ambush: bool) -> bool:
    members = state.members(unit.id)
    xy = formation_at(state, unit, point)
    if not placement_clear(state, members, xy):
        return False
    r = state.radius[members]
    if not ambush:
        return wholly_within(zone(state, unit.side), xy, r)
    enemies = enemy_minis(state, unit.side)
    if len(enemies):
        from openwar.engine.space import gaps

        near = gaps(xy, r, state.pos[enemies], state.radius[enemies]).min()
        if near <= battle_rules().ambush_enemy_gap:
            return False
    return wholly_outside(territory(state, 1 - unit.side), xy, r)


def deployment_points(state: GameState, unit: UnitState) -> list[tuple[float, float]]:
    shape = zone(state, unit.side)
    for columns, rows in GRIDS:
        points = grid(shape, columns, rows)
        found = [p for p, ok in zip(points, fits_zone(state, unit, points), strict=True) if ok]
        if found:
            return found
    return []


def fits_zone(state: GameState, unit: UnitState, points: list[tuple[float, float]]) -> list[bool]:
    """``fits(state, unit, p, False)`` for every point at once: the same formations and the
    same checks (on the table, no overlap, wholly within the zone), as arrays."""
    if not points:
        return []
    from openwar.engine.space import OVERLAP_TOLERANCE, formations, gaps, on_table, others

    members = state.members(unit.id)
    everyone = state.members(unit.id, alive=False)
    if len(members) != len(everyone):
        return [fits(state, unit, p, False) for p in points]
    spacing = float(state.radius[everyone[0]]) + battle_rules().base_spacing / 2
    centres = np.asarray(points, dtype=np.float64)
    xy = np.asarray(
        formations(len(everyone), centres, spacing, rank_width(unit), facing_for(state, unit.side)),
        dtype=np.float64,
    )
    k, n = len(points), len(members)
    flat = xy.reshape(k * n, 2)
    r = np.tile(state.radius[members], k)
    table = on_table(flat, r, state.board["width"], state.board["depth"])
    ok = np.asarray(table.reshape(k, n).all(axis=1), dtype=bool)
    rest = others(state, members)
    if len(rest):
        clear = gaps(flat, r, state.pos[rest], state.radius[rest]) >= -OVERLAP_TOLERANCE
        ok &= clear.reshape(k, n, len(rest)).all(axis=(1, 2))
    shape = zone(state, unit.side)
    inside = shapely.contains_xy(shape, flat[:, 0], flat[:, 1])
    edge = shapely.distance(shape.exterior, shapely.points(flat))
    ok &= (inside & (edge >= r - 1e-9)).reshape(k, n).all(axis=1)
    return [bool(v) for v in ok]


def ambush_points(state: GameState, unit: UnitState) -> list[tuple[float, float]]:
    from shapely.geometry import box

    table = box(0, 0, float(state.board["width"]), float(state.board["depth"]))
    return [p for p in grid(table, *AMBUSH_GRID) if fits(state, unit, p, True)]


def waiting(state: GameState, side: int) -> list[UnitState]:
    return [u for u in state.units if u.side == side and not u.flags.get("set_up")]


def setup_menu(state: GameState) -> list[Action]:
    side = state.active
    ruse = state.board["ruses"][side]
    free = not state.extra["ruse_used"][side]
    menu: list[Action] = []
    for unit in waiting(state, side):
        points = deployment_points(state, unit)
        menu += [Action("deploy", side, unit.id, point=p) for p in points]
        if not points:
            menu.append(Action("deploy", side, unit.id, choice="no room"))
        if free and ruse == "Ambush":
            menu += [
                Action("deploy", side, unit.id, point=p, choice="ambush")
                for p in ambush_points(state, unit)
            ]
        menu += [
            Action("deploy", side, unit.id, choice=f"garrison {k}")
            for k in garrisons.setup_features(state, unit.id)
        ]
        if free and ruse == "Outflank" and not {"HERO", "MONSTER"} & set(unit.profile["keywords"]):
            menu.append(Action("reserve", side, unit.id))
    return menu


def deploy(state: GameState, action: Action) -> list[Event]:
    """Set up one unit (or put it in reserve); returns True in ``done`` when set-up ends."""
    try:
        unit = state.unit(str(action.unit))
    except KeyError:
        raise IllegalActionError("AOS-B2", f"there is no unit {action.unit!r}") from None
    if unit.side != action.side or unit.flags.get("set_up"):
        raise IllegalActionError("AOS-B2", f"{unit.id} is not side {action.side}'s to set up")
    side = unit.side
    ruse = state.board["ruses"][side]
    if action.kind == "reserve":
        if ruse != "Outflank" or state.extra["ruse_used"][side]:
            raise IllegalActionError("AOS-R3", "only the Outflank ruse puts a unit in reserve")
        if {"HERO", "MONSTER"} & set(unit.profile["keywords"]):
            raise IllegalActionError("AOS-R3", "Outflank: not a HERO or MONSTER")
        state.extra["ruse_used"][side] = True
        state.extra["reserves"].append(unit.id)
        event = Event("reserve", {"unit": unit.id, "ruse": "Outflank"})
    elif (action.choice or "").startswith("garrison "):
        k = action.choice.split()[-1] if action.choice else ""
        if not k.isdigit() or int(k) not in garrisons.setup_features(state, unit.id):
            raise IllegalActionError(
                "AOS-G1", "a unit is set up garrisoning a feature wholly within its territory"
            )
        garrisons.enter(state, unit.id, int(k))
        members = state.members(unit.id)
        state.facing[members] = facing_for(state, side)
        state.deployed[members] = True
        name = state.board["terrain"][int(k)]["name"]
        event = Event("garrison", {"unit": unit.id, "terrain": name})
    elif action.choice == "no room":
        if deployment_points(state, unit):
            raise IllegalActionError("AOS-B2", f"{unit.id} still has room in its territory")
        state.alive[state.members(unit.id)] = False
        state.extra["destroyed"].append(unit.id)
        event = Event("no_room", {"unit": unit.id})
    else:
        ambush = action.choice == "ambush"
        if ambush and (ruse != "Ambush" or state.extra["ruse_used"][side]):
            raise IllegalActionError(
                "AOS-R1", "only the Ambush ruse sets a unit up outside the territory"
            )
        if action.point is None or not fits(state, unit, action.point, ambush):
            where = (
                'outside enemy territory, more than 3" from enemies'
                if ambush
                else ("wholly within its territory, more than 6\" from the enemy's")
            )
            raise IllegalActionError("AOS-B2", f"{unit.id} must be set up {where}")
        members = state.members(unit.id)
        state.pos[members] = formation_at(state, unit, action.point)
        state.facing[members] = facing_for(state, side)
        state.deployed[members] = True
        if ambush:
            state.extra["ruse_used"][side] = True
        event = Event("deployed", {"unit": unit.id, "point": list(action.point), "ambush": ambush})
    unit.flags["set_up"] = True
    mine, theirs = waiting(state, side), waiting(state, 1 - side)
    if not mine and state.extra["finished_first"] is None:
        state.extra["finished_first"] = side
    if theirs:
        state.active = 1 - side
    return [event]


def setup_done(state: GameState) -> bool:
    return not waiting(state, 0) and not waiting(state, 1)
