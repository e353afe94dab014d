"""The flow of an Age of Sigmar battle: battle rounds and their roll-off, turns, entering and
leaving phases, start-of-phase effects (command points, twists, scenery, prizes),
battleshock, the end of a turn (split units, objectives, victory) and the end of the battle."""

from __future__ import annotations

from typing import Any

import numpy as np

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.events import Event
from openwar.engine.game import Dice
from openwar.engine.state import GameState
from openwar.rulesets.aos import characteristics, garrisons, victory
from openwar.rulesets.aos.board import base_to_shape, objectives, terrain
from openwar.rulesets.aos.moves import EPS, coherent_groups, near_enemy, unit_gap
from openwar.rulesets.aos.rules import battle_rules
from openwar.rulesets.aos.wounds import (
    allocate,
    allocation_order,
    has_keyword,
    heal,
    policies,
    roll_expr,
    slay,
    templates,
)

ORDER = ("hero", "movement", "shooting", "charge", "combat", "battleshock")
TURN_FLAGS = ("moved", "ran", "retreated", "charged", "shot", "fought", "charge_tried", "arrived")


# -- rounds and turns ------------------------------------------------------------------------
def start_round(state: GameState, dice: Dice) -> list[Event]:
    """Seed "Battle Rounds": roll off; the winner chooses who takes the first turn. A tie lets
    the player who went first last round choose (in round 1: who finished setting up first)."""
    rules = battle_rules()
    state.round += 1
    events: list[Event] = []
    if state.round == rules.reserves_destroyed_round:
        events += _destroy_reserves(state)
    if state.extra["sight_limit"] is not None and state.round > 1:
        face = int(dice.d6(1)[0])
        if face >= rules.dead_of_night_roll:
            state.extra["sight_limit"] += rules.dead_of_night_step
        events.append(
            Event(
                "twist",
                {"twist": "Dead of Night", "roll": face, "sight": state.extra["sight_limit"]},
            )
        )
    if state.round == 1:
        events += _triumphs(state, dice)
    a, b = (int(v) for v in dice.d6(2))
    if a != b:
        chooser = 0 if a > b else 1
    elif state.round == 1:
        chooser = int(state.extra["finished_first"] or 0)
    else:
        chooser = int(state.extra["first"])
    state.phase = "first_turn"
    state.active = chooser
    return [*events, Event("roll_off", {"round": state.round, "rolls": [a, b], "chooser": chooser})]


def _triumphs(state: GameState, dice: Dice) -> list[Event]:
    """AOS-B10: a side that won a major victory in its previous battle rolls on the Triumphs
    table (when the battle begins: the general is named in the army file)."""
    events = []
    for side, won in enumerate(state.board.get("triumphs") or [False, False]):
        if won:
            face = int(dice.d6(1)[0])
            state.extra["triumph"][side] = battle_rules().triumph(face)
            data = {"side": side, "roll": face, "triumph": state.extra["triumph"][side]}
            events.append(Event("triumph_roll", data))
    return events


def unused_triumph(state: GameState, side: int) -> str | None:
    if "triumph" not in state.extra or state.extra["triumph_used"][side]:
        return None
    found = state.extra["triumph"][side]
    return None if found is None else str(found)


def choose_first(state: GameState, action: Action, dice: Dice) -> list[Event]:
    if action.kind != "first_turn" or action.choice not in ("first", "second"):
        raise IllegalActionError("AOS-B1", "choose to take the first or the second turn")
    first = action.side if action.choice == "first" else 1 - action.side
    state.extra["first"] = first
    events = [Event("round", {"round": state.round, "first": first})]
    return events + start_turn(state, first, dice)


def start_turn(state: GameState, side: int, dice: Dice) -> list[Event]:
    state.extra["turn"] = side
    state.extra["turns"] += 1
    state.extra["spells_cast"] = []
    for unit in state.units:
        for flag in TURN_FLAGS:
            unit.flags.pop(flag, None)
        unit.tokens.pop("slain_turn", None)
        unit.tokens.pop("move_roll", None)
    return [Event("turn", {"round": state.round, "side": side}), *enter(state, "hero", dice)]


def enter(state: GameState, phase: str, dice: Dice) -> list[Event]:
    """Begin a phase of the current turn; phases with nothing to decide pass at once."""
    side = int(state.extra["turn"])
    state.phase = phase
    state.active = side
    state.extra["phase_started"] = True
    state.extra["ending_movement"] = False
    if phase == "hero":
        return _hero_start(state, side, dice)
    if phase == "combat":
        return _combat_start(state, side, dice)
    if phase == "battleshock":
        return _battleshock_start(state, side, dice)
    return []


def next_phase(state: GameState, dice: Dice) -> list[Event]:
    events = _phase_end(state, dice)
    if state.phase == "over":
        return events
    k = ORDER.index(state.phase)
    if k + 1 < len(ORDER):
        return events + enter(state, ORDER[k + 1], dice)
    return events + end_turn(state, dice)


def _phase_end(state: GameState, dice: Dice) -> list[Event]:
    side = int(state.extra["turn"])
    events: list[Event] = []
    if state.phase == "movement":
        events += _burning(state, side)
    if state.phase == "combat":
        for unit in state.units:
            unit.flags.pop("talisman", None)
    for unit in state.units:
        unit.flags.pop("triumph", None)  # a triumph lasts until the end of the phase
    return events + check_end(state, dice)


# -- the hero phase --------------------------------------------------------------------------
def _hero_start(state: GameState, side: int, dice: Dice) -> list[Event]:
    rules = battle_rules()
    state.extra["cp"][side] += rules.command_points_per_hero_phase
    events = [Event("command_points", {"side": side, "cp": state.extra["cp"][side]})]
    for unit in state.units:
        unit.tokens.pop("casts", None)
        unit.tokens.pop("unbinds", None)
        if unit.flags.get("mystic_shield") == side:
            unit.flags.pop("mystic_shield")
        if unit.side == side:
            unit.flags.pop("damned", None)
            unit.flags.pop("no_commands", None)
    state.extra.pop("damned_used", None)  # each Damned feature takes one sacrifice a hero phase
    twist = state.board.get("twist")
    if twist == "Lightning Strikes":
        events += _lightning(state, side, dice)
    if twist == "Healing Winds":
        events += _healing_winds(state, side, dice)
    if state.extra["prize"].get("result") == "Realmvault Key":
        events += _realmvault(state, side, dice)
    for unit in state.side_units(side):
        for entry in templates(state, unit.id, "return_models"):
            events += _return_models(state, unit.id, roll_expr(entry["dice"], dice))
    return events + check_end(state, dice)


def _lightning(state: GameState, side: int, dice: Dice) -> list[Event]:
    """AOS-X3: each 6 strikes a different enemy unit, the most valuable first."""
    faces = [int(f) for f in dice.d6(battle_rules().lightning_dice)]
    targets = sorted(
        (u for u in state.side_units(1 - side) if len(state.on_table(u.id))),
        key=lambda u: -u.points,
    )
    events = [Event("twist", {"twist": "Lightning Strikes", "side": side, "rolls": faces})]
    for unit in targets[: faces.count(6)]:
        events += allocate(state, unit.id, roll_expr("D3", dice), dice, side, "Lightning Strikes")
    return events


def _healing_winds(state: GameState, side: int, dice: Dice) -> list[Event]:
    """AOS-X5: heal the friendly unit whose wounded model carries the most wounds."""
    hurt = [u for u in state.side_units(side) if u.tokens.get("damage", 0) > 0]
    if not hurt:
        return []
    unit = max(hurt, key=lambda u: u.tokens.get("damage", 0))
    healed = heal(state, unit.id, roll_expr(battle_rules().healing_winds, dice))
    return [Event("twist", {"twist": "Healing Winds", "unit": unit.id, "healed": healed})]


def _realmvault(state: GameState, side: int, dice: Dice) -> list[Event]:
    if not state.extra["control"] or state.extra["control"][0] != side:
        return []
    hero = victory.hero_near(state, side, objectives(state)[0], battle_rules().prize_hero_range)
    if hero is None:
        return []
    face = int(dice.d6(1)[0])
    if face >= 2:
        state.extra["cp"][side] += 1
    else:
        state.unit(hero).flags["no_commands"] = True  # AOS-V7: until this side's next hero phase
    return [Event("arcane_prize", {"result": "Realmvault Key", "hero": hero, "roll": face})]


def issues_commands(state: GameState, hero_id: str) -> bool:
    """A HERO on the table that the Realmvault Key has not silenced (AOS-V7)."""
    hero = state.unit(hero_id)
    return bool(len(state.on_table(hero_id))) and not hero.flags.get("no_commands")


def _return_models(state: GameState, unit_id: str, count: int) -> list[Event]:
    """Restless Dead: slain models come back next to the unit's living models."""
    from openwar.engine.space import placement_clear

    dead = [int(m) for m in state.members(unit_id, alive=False) if not state.alive[m]]
    alive = state.on_table(unit_id)
    if not len(alive) or not dead:
        return []
    back = 0
    for mini in dead[:count]:
        r = float(state.radius[mini])
        spots = [
            (state.pos[a] + 2.02 * r * np.array([np.cos(t), np.sin(t)]))
            for a in state.on_table(unit_id)
            for t in np.linspace(0, 2 * np.pi, 8, endpoint=False)
        ]
        for spot in spots:
            one = np.array([mini])
            if placement_clear(state, one, spot[None, :]):
                state.pos[mini] = np.round(spot, 6)
                state.alive[mini] = True
                state.deployed[mini] = True
                back += 1
                break
    return [Event("returned", {"unit": unit_id, "models": back})] if back else []


# -- movement end, combat and battleshock starts -------------------------------------------
def _burning(state: GameState, side: int) -> list[Event]:
    """Firestarter: models within 1" of burning terrain at the end of their movement phase."""
    events: list[Event] = []
    shapes = terrain(state)
    for k in state.extra["burning"]:
        for unit in state.side_units(side):
            members = state.on_table(unit.id)
            if not len(members):
                continue
            d = base_to_shape(shapes[k], state.pos[members], state.radius[members])
            burnt = members[d <= battle_rules().burning_range + EPS]
            for mini in burnt:
                slay(state, int(mini), None)
            if len(burnt):
                from openwar.rulesets.aos.wounds import after_casualties

                events.append(Event("burnt", {"unit": unit.id, "slain": len(burnt)}))
                events += after_casualties(state, unit.id, None)
    return events


def eligible_fighters(state: GameState, side: int) -> list[str]:
    """Seed "Combat Phase": within 3" of an enemy unit or charged this turn; once a phase. A
    unit with no enemy left in reach has nothing to fight and is passed over (AOS-F1). Only
    reads the state, so the gaps it measures are worked out once (see ``GameState.reading``)."""
    with state.reading():
        return [
            u.id
            for u in state.side_units(side)
            if len(state.on_table(u.id))
            and not u.flags.get("fought")
            and (u.flags.get("charged") or near_enemy(state, u.id))
            and within_reach(state, u.id)
        ]


def fight_targets(state: GameState, unit_id: str) -> list[str]:
    """The enemy units a fighter may be sent at (AOS-F3): those one of its melee weapons
    reaches once it has piled in (AOS-F2: its pile-in, the same whatever it then attacks,
    towards the nearest enemy model, is made on a copy); when its pile-in leaves none in
    reach, those it could reach before (:func:`within_reach`), so it still piles in and
    strikes nothing, as the rules have it. Until 2026-12-06 these were always offered, so a
    unit could be sent at one its pile-in took it away from while another stood in reach.
    Remembered while the state is read."""
    return state.remembered(("aos.fight_targets", unit_id), lambda: _fight_targets(state, unit_id))


def within_reach(state: GameState, unit_id: str) -> list[str]:
    """Enemy units within 3" (a pile-in) plus the fighter's longest melee range; a garrison,
    which cannot pile in (AOS-G2), has only its weapons' range (until 2026-12-07 it was given
    the 3" too, and sent through the fallback below at a unit none of its weapons reached)."""
    from openwar.rulesets.aos.moves import enemies_within

    allowance = 0.0 if garrisons.feature_of(state, unit_id) is not None else battle_rules().pile_in
    return enemies_within(state, unit_id, allowance + longest_melee(state, unit_id))


def longest_melee(state: GameState, unit_id: str) -> float:
    """The longest melee range any model of the unit has now (AOS-D8: a damage table may
    change a weapon's Range, so each model's row is read, as the attacks read it)."""
    unit = state.unit(unit_id)
    weapons = unit.profile["melee"]
    if not unit.profile.get("damage_table"):
        return max((float(w["range"]) for w in weapons), default=0.0)
    ranges = [
        float(characteristics.model_weapon(state, int(m), w)["range"])
        for m in state.on_table(unit_id)
        for w in weapons
    ]
    return max(ranges, default=0.0)


def fight_reach(state: GameState, unit_id: str) -> dict[str, frozenset[str]]:
    """Each unit the fighter may be sent at (:func:`fight_targets`) and the melee weapons
    that reach it once the fighter has piled in: none for all of them when its pile-in
    leaves every one out of reach. A weapon may be aimed away from the primary target only
    at a unit it reaches (AOS-F3). Remembered while the state is read."""
    return state.remembered(("aos.fight_reach", unit_id), lambda: _fight_reach(state, unit_id))


def _fight_targets(state: GameState, unit_id: str) -> list[str]:
    return list(fight_reach(state, unit_id))


def _fight_reach(state: GameState, unit_id: str) -> dict[str, frozenset[str]]:
    from openwar.rulesets.aos.attacks import reach
    from openwar.rulesets.aos.moves import pile_in

    near = within_reach(state, unit_id)
    if not near:
        return {}
    trial = state.clone()
    pile_in(trial, unit_id, battle_rules().pile_in)
    weapons = {target: frozenset(reach(trial, unit_id, target, False)) for target in near}
    return {t: w for t, w in weapons.items() if w} or dict.fromkeys(near, frozenset())


def _combat_start(state: GameState, side: int, dice: Dice) -> list[Event]:
    events: list[Event] = []
    if state.extra["prize"].get("result") == "Talisman" and state.extra["control"][:1] == [side]:
        hero = victory.hero_near(state, side, objectives(state)[0], battle_rules().prize_hero_range)
        if hero is not None:
            state.unit(hero).flags["talisman"] = True
            events.append(Event("arcane_prize", {"result": "Talisman", "hero": hero}))
    return events + next_fighter(state, side, dice)


def next_fighter(state: GameState, preferred: int, dice: Dice) -> list[Event]:
    """The players alternate; a player with no eligible unit passes; two passes end it."""
    for side in (preferred, 1 - preferred):
        if eligible_fighters(state, side):
            state.extra["combat_side"] = side
            state.active = side
            return []
    return next_phase(state, dice)


def needs_test(state: GameState, side: int) -> list[str]:
    return [
        u.id
        for u in state.side_units(side)
        if u.tokens.get("slain_turn", 0) > 0 and len(state.on_table(u.id))
    ]


def _battleshock_start(state: GameState, side: int, dice: Dice) -> list[Event]:
    state.extra["shock"] = {"step": side, "immune": [], "asked": []}
    return shock_next(state, dice)


def shock_next(state: GameState, dice: Dice) -> list[Event]:
    """Inspiring Presence is asked of the player whose turn it is, then of the opponent; then
    the tests are made, the player whose turn it is first."""
    from openwar.rulesets.aos.menu import shock_choices

    shock = state.extra["shock"]
    turn = int(state.extra["turn"])
    for side in (turn, 1 - turn):
        if side in shock["asked"]:
            continue
        if shock_choices(state, side):
            state.active = side
            return []
        shock["asked"].append(side)
    events: list[Event] = []
    tested = shock.setdefault("tested", [])
    for side in (turn, 1 - turn):
        for unit_id in needs_test(state, side):
            if unit_id in tested:
                continue
            tested.append(unit_id)
            events += battleshock_test(state, unit_id, dice)
            if state.extra["pending"] is not None:
                return events  # the unit's player picks who flees (AOS-D10)
    return events + next_phase(state, dice)


def bravery(state: GameState, unit_id: str) -> int:
    """Bravery with Standard Bearers, +1 per 10 models, Inspiring and Sinister scenery."""
    rules = battle_rules()
    unit = state.unit(unit_id)
    members = state.on_table(unit_id)
    value = characteristics.bravery(state, unit) + state.size(unit_id) // rules.bravery_per_models
    loadouts = {int(state.loadout[m]) for m in members}
    for k in loadouts:
        value += sum(
            int(e["value"])
            for e in unit.profile["loadouts"][k]["effects"]
            if e["template"] == "bravery"
        )
    near = set()  # "within 1 inch of any Inspiring (Sinister) feature": once, however many
    for feature, shape in zip(state.board.get("terrain", []), terrain(state), strict=True):
        gap = float(base_to_shape(shape, state.pos[members], state.radius[members]).min())
        if gap <= rules.scenery_range + EPS:
            near.add(str(feature.get("scenery")))
    return value + ("Inspiring" in near) - ("Sinister" in near)


def unspared(state: GameState, side: int) -> list[str]:
    """The units of ``side`` that must test and nothing spares yet (a command, Inspiring
    Speech): the only ones a command point can help (AOS-K3)."""
    return [u for u in needs_test(state, side) if not immune(state, u)]


def immune(state: GameState, unit_id: str) -> bool:
    unit = state.unit(unit_id)
    if unit_id in state.extra["shock"]["immune"]:
        return True
    general = state.extra["general"][unit.side]
    speech = state.board["ruses"][unit.side] == "Inspiring Speech"
    return bool(speech and general is not None and len(state.on_table(general)))


def battleshock_test(state: GameState, unit_id: str, dice: Dice) -> list[Event]:
    """Seed "Battleshock Phase": D6 + models slain this turn against modified Bravery; each
    point over makes one model flee (slain). Under Grudge Match a failed test may be
    re-rolled (AOS-X6): it is when a re-roll is expected to lose fewer models."""
    unit = state.unit(unit_id)
    if immune(state, unit_id):
        return [Event("battleshock", {"unit": unit_id, "immune": True})]
    slain = unit.tokens.get("slain_turn", 0)
    brave = bravery(state, unit_id)
    face = int(dice.d6(1)[0])
    if state.board.get("twist") == "Grudge Match":
        models = len(state.on_table(unit_id))
        if grudge_reroll(face, slain, brave, models):
            face = int(dice.d6(1)[0])
    total = face + slain
    flee = max(0, total - brave)
    test = {"unit": unit_id, "roll": face, "slain": slain, "bravery": brave, "flee": flee}
    if flee and len(policies(state, unit_id, flee)) > 1:
        state.extra["pending"] = {"kind": "flee", **test}
        state.active = unit.side
        return []
    return flight(state, test, "rear")


def grudge_reroll(face: int, slain: int, brave: int, models: int) -> bool:
    """AOS-X6: whether to re-roll a battleshock roll of ``face``: only a failed test, and only
    when the models a re-roll is expected to lose (a fair D6, at most the unit's ``models``)
    are fewer than the roll made loses. Until 2026-12-07 every failed test was re-rolled,
    though a low roll with many slain loses fewer than a re-roll would on average."""

    def lost(roll: int) -> int:
        return min(models, max(0, roll + slain - brave))

    return lost(face) > 0 and sum(lost(k) for k in range(1, 7)) < 6 * lost(face)


def flight(state: GameState, test: dict[str, Any], policy: str) -> list[Event]:
    """The models that flee a failed battleshock test, picked by the unit's player's policy
    (AOS-D10; AOS-D3's order by default)."""
    unit_id = str(test["unit"])
    order = allocation_order(state, unit_id, policy)[: int(test["flee"])]
    for mini in order:
        slay(state, int(mini), None)
    from openwar.rulesets.aos.wounds import after_casualties

    data = {k: test[k] for k in ("unit", "roll", "slain", "bravery")}
    events = [Event("battleshock", {**data, "fled": len(order)})]
    events += after_casualties(state, unit_id, None)
    if len(order) and state.is_destroyed(unit_id):
        events.append(Event("routed", {"unit": unit_id}))
    return events


# -- the end of a turn and of the battle -----------------------------------------------------
def end_turn(state: GameState, dice: Dice) -> list[Event]:
    side = int(state.extra["turn"])
    events = _split_units(state)
    events += victory.end_of_turn(state, dice)
    state.extra["shock"] = None
    state.extra["combat_side"] = None
    if _battle_over(state, final=False):
        return events + finish(state)
    if side == state.extra["first"]:
        return events + start_turn(state, 1 - side, dice)
    if state.round >= int(state.board.get("rounds", battle_rules().rounds)):
        return events + finish(state)
    return events + start_round(state, dice)


def _split_units(state: GameState) -> list[Event]:
    """Seed "Split Units": keep the largest group, the rest are slain."""
    events = []
    for unit in state.units:
        parts = coherent_groups(state, unit.id)
        if len(parts) > 1:
            keep = max(parts, key=len)
            removed = [int(m) for part in parts if part is not keep for m in part]
            for mini in removed:
                slay(state, mini, None)
            events.append(Event("split_removed", {"unit": unit.id, "slain": len(removed)}))
        unit.flags["split"] = False
    return events


def _battle_over(state: GameState, final: bool) -> bool:
    """A sudden victory ends the battle; so does a side with no units left on the battlefield
    or in reserve, but only in First Blood: Open War battles last their five rounds (AOS-B9)."""
    if state.extra.get("sudden") is not None:
        return True
    if state.board.get("victory") in victory.OPEN_WAR:
        return final
    for side in (0, 1):
        on_table = any(len(state.on_table(u.id)) for u in state.side_units(side))
        waiting = any(
            u in state.extra["reserves"] and not state.is_destroyed(u)
            for u in (x.id for x in state.side_units(side))
        )
        if not on_table and not waiting:
            return True
    return final


def check_end(state: GameState, dice: Dice) -> list[Event]:
    """AOS-B9: the battle may end mid-turn (First Blood: a side has nothing left)."""
    if state.phase != "over" and _battle_over(state, final=False):
        return finish(state)
    return []


def finish(state: GameState) -> list[Event]:
    state.phase = "over"
    state.extra["pending"] = None
    result = victory.result(state)
    return [
        Event(
            "battle_over",
            {
                "winner": result.winner,
                "victory": result.victory,
                "scores": list(result.scores),
                "reason": result.reason,
            },
        )
    ]


def _destroy_reserves(state: GameState) -> list[Event]:
    events = []
    for unit_id in state.extra["reserves"]:
        members = state.members(unit_id)
        if len(members) and not state.deployed[members].any():
            for mini in members:
                slay(state, int(mini), None)
            state.extra["destroyed"].append(unit_id)
            events.append(Event("reserve_lost", {"unit": unit_id}))
    return events


def in_command_range(state: GameState, unit_id: str) -> bool:
    """Within 6" of a friendly HERO or 12" of the general if a HERO (seed "Command
    Abilities")."""
    rules = battle_rules()
    side = state.unit(unit_id).side
    general = state.extra["general"][side]
    for hero in state.side_units(side):
        if not has_keyword(state, hero.id, "HERO") or not issues_commands(state, hero.id):
            continue
        reach = rules.general_command_range if hero.id == general else rules.command_range
        if unit_gap(state, unit_id, hero.id) <= reach + EPS or hero.id == unit_id:
            return True
    return False


def deadly(state: GameState, unit_id: str, dice: Dice) -> list[Event]:
    """Deadly scenery: a unit ending a normal or charge move within 1" rolls; a 1 is D3
    mortal wounds."""
    rules = battle_rules()
    members = state.on_table(unit_id)
    for feature, shape in zip(state.board.get("terrain", []), terrain(state), strict=True):
        if feature.get("scenery") != "Deadly" or not len(members):
            continue
        if (
            float(base_to_shape(shape, state.pos[members], state.radius[members]).min())
            <= rules.scenery_range + EPS
        ):
            face = int(dice.d6(1)[0])
            events = [Event("deadly", {"unit": unit_id, "roll": face})]
            if face <= rules.deadly_roll:
                events += allocate(state, unit_id, roll_expr("D3", dice), dice, None, "Deadly")
            return events
    return []
