"""The finite menu of actions for the side to decide, phase by phase. Moves are offered as
candidates (towards each enemy unit, each objective, away from the enemy; a way that a base
blocks is tried turned, AOS-B8); any other point a person gives is checked by the same rules
when applied."""

from __future__ import annotations

import numpy as np

from openwar.engine.actions import Action
from openwar.engine.space import BLOCKED, detour_fans, pick_detours
from openwar.engine.state import GameState, UnitState
from openwar.rulesets.aos import attacks, characteristics, garrisons, handlers, magic, phases
from openwar.rulesets.aos.board import objectives
from openwar.rulesets.aos.moves import (
    block_shift,
    centre,
    enemy_minis,
    file_positions,
    keep_away,
    near_enemy,
)
from openwar.rulesets.aos.rules import battle_rules
from openwar.rulesets.aos.wounds import templates

MIN_MOVE = 0.25


def menu(state: GameState) -> list[Action]:
    """The legal actions (built while the state is only read, so what they share is worked
    out once)."""
    with state.reading():
        return _menu(state)


def _menu(state: GameState) -> list[Action]:
    side = state.active
    if state.phase == "first_turn":
        return [
            Action("first_turn", side, choice="first"),
            Action("first_turn", side, choice="second"),
        ]
    pending = state.extra.get("pending")
    if pending is not None:
        return _pending_menu(state, pending)
    found = {
        "hero": _hero,
        "movement": _movement,
        "shooting": _shooting,
        "charge": _charge,
        "combat": _combat,
        "battleshock": _battleshock,
    }[state.phase](state, side)
    return found


def _end(side: int) -> Action:
    return Action("end_phase", side)


def _hero(state: GameState, side: int) -> list[Action]:
    found = magic.cast_menu(state, side)
    if state.extra["phase_started"]:
        found += [
            Action("sacrifice", side, u)
            for u in handlers.near_scenery(state, side, "Damned")
            if state.unit(u).flags.get("damned") is None and handlers.damned_features(state, u)
        ]
    found += [
        Action("firestarter", side, choice=str(k)) for k in handlers.fire_targets(state, side)
    ]
    return [*found, _end(side)]


def move_points(
    state: GameState, unit: UnitState, limit: float, kind: str
) -> list[tuple[float, float]]:
    """Candidate destinations: towards each enemy unit and objective (keeping 3" away; round
    a base in the way, :func:`_detour`), or for a retreat away from the nearest enemies."""
    fly = handlers.flies(unit)
    here = np.asarray(centre(state, unit.id))
    goals: list[np.ndarray] = []
    if kind == "retreat":
        enemies = enemy_minis(state, unit.side)
        away = here - state.pos[enemies].mean(axis=0)
        norm = float(np.hypot(*away)) or 1.0
        for angle in (0.0, 0.6, -0.6):
            c, s = np.cos(angle), np.sin(angle)
            turn = np.array([c * away[0] - s * away[1], s * away[0] + c * away[1]]) / norm
            goals.append(here + turn * limit)
    else:
        goals += [
            np.asarray(centre(state, u.id))
            for u in state.side_units(1 - unit.side)
            if len(state.on_table(u.id))
        ]
        goals += [np.asarray(p) for p in objectives(state)]
    found: list[tuple[float, float]] = []
    for goal in goals:
        if kind == "retreat":
            shift = block_shift(state, unit.id, goal, limit, keep_away=None, fly=fly)
        else:
            shift = _detour(state, unit, here, goal, limit, keep_away(), fly)
        if float(np.hypot(*shift)) < MIN_MOVE:
            continue
        if kind == "retreat":
            members = state.on_table(unit.id)
            if not handlers.ends_clear(state, unit.side, members, state.pos[members] + shift):
                continue
        end = np.round(here + shift, 6)
        point = (float(end[0]), float(end[1]))
        if point not in found:
            found.append(point)
    return found


def file_points(state: GameState, unit: UnitState, limit: float) -> list[tuple[float, float]]:
    """The objectives a unit of several models can close on model by model
    (:func:`~openwar.rulesets.aos.moves.file_positions`) where its block move that way (turned
    round a block, :func:`_detour`) gets less than :data:`~openwar.engine.space.BLOCKED` of
    its way and the model-by-model move ends :data:`MIN_MOVE` nearer. Flyers pass over
    models and move as blocks."""
    members = state.on_table(unit.id)
    if len(members) < 2 or handlers.flies(unit):
        return []
    gap = keep_away()
    here = np.asarray(centre(state, unit.id))
    found: list[tuple[float, float]] = []
    for point in objectives(state):
        goal = np.asarray(point, dtype=np.float64)
        length = float(np.hypot(*(goal - here)))
        block = _detour(state, unit, here, goal, limit, gap, False)
        if length == 0.0 or float(np.hypot(*block)) >= BLOCKED * min(limit, length):
            continue
        xy = file_positions(state, unit.id, goal, limit, gap)
        if xy is None:
            continue
        left = float(np.hypot(*(goal - xy.mean(axis=0))))
        if left <= float(np.hypot(*(goal - here - block))) - MIN_MOVE:
            found.append((float(goal[0]), float(goal[1])))
    return found


def _detour(
    state: GameState,
    unit: UnitState,
    here: np.ndarray,
    goal: np.ndarray,
    limit: float,
    keep_away: float,
    fly: bool,
) -> np.ndarray:
    """The straight move towards ``goal`` or, when a base (or the 3" gap to an enemy) stops it
    short of :data:`~openwar.engine.space.BLOCKED` of its way, of it and the same move turned
    by each of :data:`~openwar.engine.space.DETOURS`, the turn that ends nearest the goal if it
    ends :data:`MIN_MOVE` nearer than the straight one (the choice OpenWar's menu makes,
    :func:`~openwar.engine.space.pick_detours`). A model may move in any combination of
    directions (AOS-M1); a turned straight move lets a unit behind its own lines go round
    them, as the menu's straight ones cannot. Remembered while the state is only read (the
    model-by-model moves ask it again)."""
    key = ("aos_detour", unit.id, goal.tobytes(), limit, keep_away, fly)
    if state.scratch is not None and key in state.scratch:
        known: np.ndarray = state.scratch[key]
        return known
    found = block_shift(state, unit.id, goal, limit, keep_away=keep_away, fly=fly)
    delta = goal - here
    length = float(np.hypot(*delta))
    travel = np.array([min(limit, length)])
    if length > 0.0 and float(np.hypot(*found)) < BLOCKED * travel[0]:
        fan = detour_fans((delta / length)[None, :], travel)[0]
        moves = [found] + [
            block_shift(state, unit.id, here + way, limit, keep_away=keep_away, fly=fly)
            for way in fan[1:]
        ]
        picked = pick_detours(delta[None, :], np.asarray(moves)[None], travel, MIN_MOVE)[0]
        found = np.asarray(picked)
    if state.scratch is not None:
        state.scratch[key] = found
    return found


def _movement(state: GameState, side: int) -> list[Action]:
    found: list[Action] = []
    if not state.extra["ending_movement"]:
        for unit in state.side_units(side):
            found += unit_moves(state, unit)
    for unit_id in handlers.waiting_reserves(state, side):
        if state.round <= battle_rules().outflank_last_turn:
            points = handlers.edge_points(state, state.unit(unit_id))
            found += [Action("arrive", side, unit_id, point=p) for p in points]
            if not points and handlers.must_arrive(state):
                found.append(Action("arrive", side, unit_id))
    for unit_id in handlers.reinforceable(state, side):
        found += [
            Action("reinforce", side, unit_id, point=p)
            for p in handlers.edge_points(state, state.unit(unit_id))
        ]
    if not handlers.must_arrive(state):
        found.append(_end(side))
    return found


def unit_moves(state: GameState, unit: UnitState) -> list[Action]:
    """One unit's actions on the movement phase's menu (none once it has moved, or while the
    phase is ending); reserves arriving are not among them."""
    side = unit.side
    if state.extra["ending_movement"] or unit.flags.get("moved"):
        return []
    if not len(state.on_table(unit.id)):
        return []
    if garrisons.feature_of(state, unit.id) is not None:
        return [
            Action("move", side, unit.id, point=p, choice="leave")
            for p in garrisons.leave_points(state, unit.id)
        ]
    if characteristics.needs_move_roll(state, unit):
        return [Action("roll_move", side, unit.id)]
    allowance = handlers.move_allowance(state, unit)
    if near_enemy(state, unit.id):  # stay, retreat, or retreat running (AOS-M3, AOS-M4)
        return [
            *(
                Action("move", side, unit.id, point=p, choice="retreat")
                for p in move_points(state, unit, allowance, "retreat")
            ),
            Action("run", side, unit.id),
        ]
    return [
        *(
            Action("move", side, unit.id, point=p, choice="normal")
            for p in move_points(state, unit, allowance, "normal")
        ),
        *(
            Action("move", side, unit.id, point=p, choice="file")
            for p in file_points(state, unit, allowance)
        ),
        *(
            Action("garrison", side, unit.id, choice=str(k))
            for k in garrisons.entry_features(state, unit.id)
        ),
        Action("run", side, unit.id),
    ]


def _pending_menu(state: GameState, pending: dict[str, object]) -> list[Action]:
    side = state.active
    kind = pending["kind"]
    if kind == "unbind":
        return magic.unbind_menu(state)
    if kind == "flee":
        from openwar.rulesets.aos.wounds import policies

        unit_id = str(pending["unit"])
        return [
            Action("flee", side, unit_id, choice=p)
            for p in policies(state, unit_id, int(str(pending["flee"])))
        ]
    if kind == "allocate":
        from openwar.rulesets.aos.wounds import policies, touched

        queue = pending["queue"]
        assert isinstance(queue, list)
        target, damage = queue[0]
        return [
            Action("allocate", side, target, choice=p)
            for p in policies(state, target, touched(state, target, int(damage)))
        ]
    unit = state.unit(str(pending["unit"]))
    if kind == "run":
        limit = (
            handlers.move_allowance(state, unit)
            + int(str(pending["roll"]))
            + int(str(pending["bonus"]))
        )
        way = "retreat" if pending.get("retreat") else "run"
        found = [
            Action("run_move", side, unit.id, point=p) for p in move_points(state, unit, limit, way)
        ]
        found.append(Action("run_move", side, unit.id))
        if int(str(pending["roll"])) < 6 and handlers.can_command(state, unit):
            found.append(Action("at_the_double", side, unit.id))
        return found
    from openwar.rulesets.aos.moves import charge_positions

    roll = float(str(pending["roll"]))
    found = [
        Action("charge_move", side, unit.id, target=enemy.id)
        for enemy in state.side_units(1 - side)
        if len(state.on_table(enemy.id))
        and charge_positions(state, unit.id, enemy.id, roll, handlers.flies(unit)) is not None
    ]
    found.append(Action("charge_move", side, unit.id))
    if not pending["rerolled"] and handlers.can_command(state, unit):
        found.append(Action("forward_to_victory", side, unit.id))
    return found


def _shooting(state: GameState, side: int) -> list[Action]:
    found = []
    for unit in state.side_units(side):
        found += unit_shots(state, unit)
    return [*found, _end(side)]


def unit_shots(state: GameState, unit: UnitState) -> list[Action]:
    """One unit's actions on the shooting phase's menu."""
    if not handlers.can_shoot(state, unit):
        return []
    targets = [
        enemy.id
        for enemy in state.side_units(1 - unit.side)
        if len(state.on_table(enemy.id)) and attacks.can_target_missile(state, unit.id, enemy.id)
    ]
    return _attack_actions(state, unit, targets, "shoot", missile=True)


def _attack_actions(
    state: GameState, unit: UnitState, targets: list[str], kind: str, *, missile: bool
) -> list[Action]:
    """One action per target, then (AOS-F3) the splits that aim one weapon of a unit with
    several at another eligible target."""
    side = unit.side
    found = [Action(kind, side, unit.id, target=t) for t in targets]
    word = phases.unused_triumph(state, side)
    if word in ("Inspired", "Bloodthirsty"):
        found += [Action(kind, side, unit.id, target=t, choice=word) for t in targets]
    weapons = [w["name"] for w in unit.profile["missile" if missile else "melee"]]
    if len(weapons) < 2 or len(targets) < 2:
        return found
    after_pile_in = {} if missile else phases.fight_reach(state, unit.id)
    reach = {
        t: (attacks.reach(state, unit.id, t, True) if missile else after_pile_in[t])
        for t in targets
    }
    for primary in targets:
        for other in targets:
            if other == primary:
                continue
            for weapon in weapons:
                if weapon in reach[other] and reach[primary] - {weapon}:
                    choice = attacks.split_choice({weapon: other})
                    found.append(Action(kind, side, unit.id, target=primary, choice=choice))
    return found


def _charge(state: GameState, side: int) -> list[Action]:
    found = [
        Action("charge", side, u.id)
        for u in state.side_units(side)
        if handlers.can_charge(state, u)
    ]
    return [*found, _end(side)]


def _combat(state: GameState, side: int) -> list[Action]:
    found = []
    for unit_id in phases.eligible_fighters(state, side):
        targets = phases.fight_targets(state, unit_id)
        found += _attack_actions(state, state.unit(unit_id), targets, "fight", missile=False)
    return found


def shock_choices(state: GameState, side: int) -> list[Action]:
    """Inspiring Presence for a unit that must test and is in command range, or a warscroll
    command ability (Hold Fast) that spares units near its HERO; both cost 1 command point."""
    if state.extra["cp"][side] <= 0:
        return []
    shock = state.extra["shock"]
    testing = phases.unspared(state, side)
    if not testing:
        return []
    found = [
        Action("inspiring_presence", side, u) for u in testing if phases.in_command_range(state, u)
    ]
    for hero in state.side_units(side):
        if (
            templates(state, hero.id, "command_no_battleshock")
            and hero.id not in shock.get("used", [])
            and phases.issues_commands(state, hero.id)
            and handlers.hold_fast_units(state, hero.id)
        ):
            found.append(Action("hold_fast", side, hero.id))
    return found


def _battleshock(state: GameState, side: int) -> list[Action]:
    return [*shock_choices(state, side), Action("done", side)]
