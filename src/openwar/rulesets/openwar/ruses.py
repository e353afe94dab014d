"""The battleplan's secret ruses in an OpenWar battle (docs/rules/openwar.md, OW-R1..OW-R6).

Each side has its own ruse (OW-BP.5 restates the Open War table in OpenWar terms: the HERO and
the general are the Command unit, a turn is the side's part of a round, +1 to wound is +1 to
Damage rolls, no battleshock is no Shaken tokens). OpenWar has no player turns, so "the start
of your turn" is the start of each round (after the twist) and "the end of your turn" is the
end of each round (before the objectives are counted), as OW-V1 and the twists read them.

Ambush and Outflank are choices on the set-up menu. The other ruses act by themselves: where
the table leaves a choice of place or moment the rules make the one a player would (design
decisions, written down with each clause), as OpenWar's flow of single orders has no step in
which a player could make it. A board without ruses (the default scenario, a hand-made board,
a replay recorded before ruses were played) has none.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Polygon

from openwar.engine.events import Event
from openwar.engine.space import OVERLAP_TOLERANCE, formations, placement_clear
from openwar.engine.state import (
    POSITION_DECIMALS,
    BoolArray,
    FloatArray,
    GameState,
    IntArray,
    UnitState,
)
from openwar.rulesets.openwar.rules import battle_rules

AMBUSH = "Ambush"
REINFORCEMENTS = "Reinforcements"
OUTFLANK = "Outflank"
FIRESTARTER = "Firestarter"
REVENGE = "Revenge"
SPEECH = "Inspiring Speech"
RUSES = (AMBUSH, REINFORCEMENTS, OUTFLANK, FIRESTARTER, REVENGE, SPEECH)


def ruse(state: GameState, side: int) -> str | None:
    """``side``'s secret ruse, or None (a board that names none)."""
    names = state.board.get("ruses") or [None, None]
    name = names[side]
    return None if name is None else str(name)


def available(state: GameState, side: int, name: str) -> bool:
    """Whether ``side`` has the once-per-battle ruse ``name`` and has not used it yet."""
    return ruse(state, side) == name and not state.extra.get("ruse_used", [False, False])[side]


def any_ruse(state: GameState) -> bool:
    return any(ruse(state, side) for side in (0, 1))


def _mark_used(state: GameState, side: int) -> None:
    used = list(state.extra.get("ruse_used", [False, False]))
    used[side] = True
    state.extra["ruse_used"] = used


def command_unit(state: GameState, side: int) -> UnitState | None:
    """The side's Command unit (U12: exactly one per army), or None."""
    kind = battle_rules().command_type
    return next((u for u in state.units if u.side == side and u.kind == kind), None)


def army_stands(state: GameState, side: int) -> bool:
    """Whether ``side`` still has a unit on the table or one waiting to arrive (OW-R3): an
    army with neither is wiped out (OW-B13)."""
    return bool(state.side_units(side)) or any(
        u.side == side and in_reserve(u) for u in state.units
    )


def destroyed(state: GameState, unit: UnitState) -> bool:
    """Destroyed or fled, not waiting in reserve (OW-R3)."""
    return state.is_destroyed(unit.id) and not in_reserve(unit)


def _command_on_table(state: GameState, side: int) -> bool:
    unit = command_unit(state, side)
    return unit is not None and len(state.on_table(unit.id)) > 0


# -- OW-R1 Ambush -------------------------------------------------------------------------
def ambush_points(state: GameState, unit: UnitState) -> list[tuple[float, float]]:
    """Centres (a grid across the table) where ``unit`` could be set up by Ambush: on the
    table, clear of every base, wholly outside the enemy's territory and more than 8 cm from
    every enemy miniature."""
    if state.phase != "setup" or not available(state, unit.side, AMBUSH):
        return []
    columns, rows = battle_rules().ambush_grid
    width, depth = float(state.board["width"]), float(state.board["depth"])
    points = [
        (round(float(x), 3), round(float(y), 3))
        for y in np.linspace(0.0, depth, rows + 2)[1:-1]
        for x in np.linspace(0.0, width, columns + 2)[1:-1]
    ]
    return [p for p in points if ambush_fits(state, unit, p)]


def ambush_fits(state: GameState, unit: UnitState, point: tuple[float, float]) -> bool:
    from openwar.rulesets.openwar.board import facing_for, territory

    members = state.members(unit.id)
    xy = _formation(state, members, point, facing_for(state, unit.side))
    radius = state.radius[members]
    if not placement_clear(state, members, xy):
        return False
    enemy_zone = territory(state, 1 - unit.side).polygon
    outside = ~shapely.contains_xy(enemy_zone, xy[:, 0], xy[:, 1])
    outside &= shapely.distance(enemy_zone, shapely.points(xy)) >= radius - 1e-9
    if not bool(outside.all()):
        return False
    if territory(state, unit.side).contains_bases(xy, radius):
        return False  # a place the unit could take without the ruse
    return _clear_of_enemies(state, unit.side, xy, radius, battle_rules().ambush_enemy_gap)


def use_ambush(state: GameState, unit: UnitState) -> Event:
    _mark_used(state, unit.side)
    return Event("ruse", {"ruse": AMBUSH, "side": unit.side, "unit": unit.id})


# -- OW-R3 Outflank: a unit waits in reserve --------------------------------------------------
def may_wait(state: GameState, unit: UnitState) -> bool:
    """Whether ``unit`` may be put in reserve instead of being set up (OW-R3)."""
    return (
        state.phase == "setup"
        and unit.kind != battle_rules().command_type
        and available(state, unit.side, OUTFLANK)
    )


def wait_in_reserve(state: GameState, unit: UnitState) -> Event:
    """The unit stays off the table: its miniatures count as neither alive nor destroyed
    until it arrives (:func:`in_reserve`)."""
    _mark_used(state, unit.side)
    state.alive[state.members(unit.id, alive=False)] = False
    unit.flags["reserve"] = True
    return Event("ruse", {"ruse": OUTFLANK, "side": unit.side, "unit": unit.id, "how": "waits"})


def in_reserve(unit: UnitState) -> bool:
    return bool(unit.flags.get("reserve"))


# -- OW-R2 Reinforcements, OW-R3 Outflank's arrival: the end of each round --------------------
def end_of_round(state: GameState) -> list[Event]:
    """A unit in reserve arrives and a destroyed unit may come back, each side in the order it
    gave orders this round."""
    events: list[Event] = []
    first = int(state.extra.get("first", 0))
    for side in (first, 1 - first):
        events += _outflank(state, side)
        if available(state, side, REINFORCEMENTS):
            events += _reinforce(state, side)
    return events


def _outflank(state: GameState, side: int) -> list[Event]:
    """OW-R3: the unit in reserve arrives at the end of the first round, or of the second if
    no place fitted, at the place a returning unit takes (:func:`_arrival_place`); if none
    fits by then it never arrives and counts as destroyed (design decisions)."""
    events: list[Event] = []
    for unit in state.units:
        if unit.side != side or not in_reserve(unit):
            continue
        place = _arrival_place(state, unit)
        if place is not None:
            _set_up_again(state, unit, place)
            events.append(Event("ruse", {"ruse": OUTFLANK, "side": side, "unit": unit.id,
                                         "how": "arrives"}))  # fmt: skip
        elif state.round >= battle_rules().outflank_last_round:
            del unit.flags["reserve"]
            events.append(Event("ruse", {"ruse": OUTFLANK, "side": side, "unit": unit.id,
                                         "how": "lost"}))  # fmt: skip
            events.append(Event("destroyed", {"unit": unit.id}))
    return events


def _set_up_again(state: GameState, unit: UnitState, place: tuple[FloatArray, float]) -> None:
    members = state.members(unit.id, alive=False)
    carrier = state.extra.get("carrier")
    if carrier is not None and int(carrier) in members.tolist():
        # the Arcane Prize stays where its carrier fell (OW-V5), not where it is set up again
        state.extra["prize"] = [float(v) for v in state.pos[int(carrier)]]
        state.extra["carrier"] = None
    state.pos[members], state.facing[members] = place
    state.alive[members] = True
    state.deployed[members] = True
    unit.tokens.clear()
    unit.flags.clear()
    unit.flags.update({"deployed": True, "ordered": True})


def _reinforce(state: GameState, side: int) -> list[Event]:
    """OW-R2: the most valuable destroyed unit other than the Command unit (then the earlier
    in the army list) is set up again at full strength, at the place nearest the table's
    centre (design decision: where objectives and fights are) that is wholly within 15 cm of
    a table edge and more than 23 cm from every enemy miniature. If none fits, the ruse waits
    for a later round."""
    kind = battle_rules().command_type
    fallen = sorted(
        (
            u
            for u in state.units
            if u.side == side
            and u.kind != kind
            and destroyed(state, u)
            and not u.flags.get("no_room")
        ),
        key=lambda u: (-u.points, state.unit_index(u.id)),
    )
    for unit in fallen:
        place = _arrival_place(state, unit)
        if place is None:
            continue
        _set_up_again(state, unit, place)
        _mark_used(state, side)
        state.extra["reinforced"] = [*state.extra.get("reinforced", []), unit.id]
        return [Event("ruse", {"ruse": REINFORCEMENTS, "side": side, "unit": unit.id})]
    return []


def _arrival_place(state: GameState, unit: UnitState) -> tuple[FloatArray, float] | None:
    """Where a unit coming on from a table edge stands (OW-R2, OW-R3): wholly within 15 cm of
    an edge, clear of every base and more than 23 cm from every enemy miniature. Design
    decision: its ranks face into the table from the edge, centred ``arrival_step`` apart
    along the middle of the edge band, the place nearest the table's centre first (where
    objectives and fights are), of equally near places the one nearest the unit's own
    territory (the side a player would bring it on from); ranks of 5, else the wide ranks of
    10 (as OW-B12)."""
    from openwar.rulesets.openwar.board import territory

    rules = battle_rules()
    home = territory(state, unit.side).polygon
    members = state.members(unit.id, alive=False)
    radius = state.radius[members]
    width, depth = float(state.board["width"]), float(state.board["depth"])
    inset = rules.arrival_edge_band / 2.0
    places: list[tuple[float, float, float]] = []  # x, y, facing
    for along in np.arange(inset, max(width, depth) - inset + 1e-9, rules.arrival_step):
        a = float(along)
        if a <= width - inset:
            places += [(a, inset, math.pi / 2), (a, depth - inset, -math.pi / 2)]
        if a <= depth - inset:
            places += [(inset, a, 0.0), (width - inset, a, math.pi)]
    places.sort(
        key=lambda p: (
            math.hypot(p[0] - width / 2, p[1] - depth / 2),
            home.distance(shapely.Point(p[0], p[1])),
            p[1],
            p[0],
        )
    )
    for ranks in (rules.rank_width, rules.wide_rank_width):
        for x, y, facing in places:
            xy = _formation(state, members, (x, y), facing, ranks)
            edge = np.minimum.reduce([xy[:, 0], width - xy[:, 0], xy[:, 1], depth - xy[:, 1]])
            if not bool((edge + radius <= rules.arrival_edge_band + 1e-9).all()):
                continue
            if not _clear_of_enemies(state, unit.side, xy, radius, rules.arrival_enemy_gap):
                continue
            if placement_clear(state, members, xy):
                return xy, facing
    return None


def burn(state: GameState, unit_id: str) -> list[Event]:
    """OW-R4: the unit's miniatures within 3 cm of a burning feature when its order ends are
    slain (design decision: a unit's part of its side's turn ends with its order, as a model's
    movement phase ends after it could move away)."""
    burning: list[int] = state.extra.get("burning", [])
    if not burning:
        return []
    members = state.on_table(unit_id)
    near = burning_near(state, state.pos[members], state.radius[members])
    if not near.any():
        return []
    state.alive[members[near]] = False
    slain = int(near.sum())
    events = [Event("burned", {"unit": unit_id, "slain": slain})]
    if state.is_destroyed(unit_id):
        events.append(Event("destroyed", {"unit": unit_id}))
    return events


def burning_near(state: GameState, xy: FloatArray, radius: FloatArray) -> BoolArray:
    """For each base at ``xy``, whether it comes within 3 cm of a burning feature."""
    near = np.zeros(len(xy), dtype=np.bool_)
    for index in state.extra.get("burning", []):
        near |= burning_near_one(Polygon(state.board["terrain"][index]["polygon"]), xy, radius)
    return near


# -- OW-R4 Firestarter: the start of each round ----------------------------------------------
def start_of_round(state: GameState) -> list[Event]:
    """Firestarter, for each side in the order it gives orders this round."""
    events: list[Event] = []
    for side in (state.active, 1 - state.active):
        if available(state, side, FIRESTARTER):
            events += _set_fire(state, side)
    return events


def _set_fire(state: GameState, side: int) -> list[Event]:
    """OW-R4, design decision for when and where: the side sets fire to the feature within
    8 cm of its Command unit that has the most enemy miniatures within 3 cm of it less its
    own, as soon as that count is above zero (then the earlier feature on the board)."""
    rules = battle_rules()
    command = command_unit(state, side)
    if command is None or not len(state.on_table(command.id)):
        return []
    own = state.on_table(command.id)
    best, best_gain = None, 0
    for index, feature in enumerate(state.board.get("terrain", [])):
        if index in state.extra.get("burning", []):
            continue
        polygon = Polygon(feature["polygon"])
        gap = shapely.distance(polygon, shapely.points(state.pos[own])) - state.radius[own]
        if float(gap.min()) > rules.fire_range + OVERLAP_TOLERANCE:
            continue
        live = np.flatnonzero(state.alive & state.deployed)
        near = live[burning_near_one(polygon, state.pos[live], state.radius[live])]
        sides = state.lookup().side_of[near]
        gain = int(np.count_nonzero(sides != side)) - int(np.count_nonzero(sides == side))
        if gain > best_gain:
            best, best_gain = index, gain
    if best is None:
        return []
    _mark_used(state, side)
    state.extra["burning"] = [*state.extra.get("burning", []), best]
    feature = state.board["terrain"][best]["name"]
    return [Event("ruse", {"ruse": FIRESTARTER, "side": side, "feature": feature})]


def burning_near_one(polygon: Polygon, xy: FloatArray, radius: FloatArray) -> BoolArray:
    gap = shapely.distance(polygon, shapely.points(xy)) - radius
    return np.asarray(gap <= battle_rules().fire_reach + OVERLAP_TOLERANCE, dtype=np.bool_)


# -- OW-R5 Revenge, OW-R6 Inspiring Speech ----------------------------------------------------
def note_revenge(state: GameState) -> list[Event]:
    """OW-R5: the round a side with Revenge loses its Command unit, its Damage rolls get +1
    until the end of the next round."""
    events: list[Event] = []
    for side in (0, 1):
        if not available(state, side, REVENGE):
            continue
        command = command_unit(state, side)
        if command is None or not destroyed(state, command) or command.flags.get("no_room"):
            continue
        _mark_used(state, side)
        rules = battle_rules()
        last = int(state.board.get("rounds", rules.rounds))  # no round after the last one
        until = list(state.extra.get("revenge", [0, 0]))
        until[side] = min(state.round + rules.revenge_rounds, last)
        state.extra["revenge"] = until
        bonus = rules.revenge_damage
        data = {"ruse": REVENGE, "side": side, "until": until[side], "bonus": bonus}
        events.append(Event("ruse", data))
    return events


def damage_bonus(state: GameState, side: int) -> int:
    """What ``side`` adds to its Damage rolls now (OW-R5 Revenge)."""
    until = state.extra.get("revenge", [0, 0])[side]
    return battle_rules().revenge_damage if until and state.round <= until else 0


def no_shaken(state: GameState, side: int) -> bool:
    """Whether ``side``'s units take no Shaken tokens now (OW-R6 Inspiring Speech: while its
    Command unit is on the table)."""
    return ruse(state, side) == SPEECH and _command_on_table(state, side)


# -- shared ---------------------------------------------------------------------------------
def _formation(
    state: GameState,
    members: IntArray,
    point: tuple[float, float],
    facing: float,
    ranks: int | None = None,
) -> FloatArray:
    radius = float(state.radius[members[0]])
    centre = np.asarray([point], dtype=np.float64)
    width = ranks or battle_rules().rank_width
    block = formations(len(members), centre, radius, width, facing)[0]
    return np.asarray(np.round(block, POSITION_DECIMALS), dtype=np.float64)


def _clear_of_enemies(
    state: GameState, side: int, xy: FloatArray, radius: FloatArray, gap: float
) -> bool:
    enemies = np.flatnonzero(state.alive & state.deployed & (state.lookup().side_of != side))
    if not len(enemies):
        return True
    centre = np.hypot(
        xy[:, None, 0] - state.pos[enemies][None, :, 0],
        xy[:, None, 1] - state.pos[enemies][None, :, 1],
    )
    apart = centre - radius[:, None] - state.radius[enemies][None, :]
    return bool(apart.min() > gap + OVERLAP_TOLERANCE)
