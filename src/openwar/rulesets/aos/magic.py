"""Wizards: casting 2D6 against the casting value, each spell once a turn, unbinding by an
enemy wizard within 30", Arcane Bolt and Mystic Shield (seed "WIZARDS")."""

from __future__ import annotations

from typing import Any

import numpy as np

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.events import Event
from openwar.engine.game import Dice
from openwar.engine.state import GameState
from openwar.rulesets.aos.attacks import visible
from openwar.rulesets.aos.board import base_to_shape, objectives, terrain
from openwar.rulesets.aos.moves import EPS, unit_gap
from openwar.rulesets.aos.rules import battle_rules
from openwar.rulesets.aos.wounds import mortal_wounds, roll_expr, templates


def wizard(state: GameState, unit_id: str) -> dict[str, Any] | None:
    found = templates(state, unit_id, "wizard")
    return found[0] if found else None


def can_see(state: GameState, a: str, b: str) -> bool:
    ours, theirs = state.on_table(a), state.on_table(b)
    if a == b:
        return True
    from openwar.rulesets.aos.attacks import garrison_skip

    skip = garrison_skip(state, a, b)
    return bool(len(ours) and len(theirs) and visible(state, ours, theirs, skip).any())


def targets(state: GameState, caster: str, spell: str) -> list[str]:
    rules = battle_rules()
    side = state.unit(caster).side
    wanted = side if rules.spell(spell).target == "friend" else 1 - side
    return [
        u.id
        for u in state.side_units(wanted)
        if len(state.on_table(u.id))
        and unit_gap(state, caster, u.id) <= rules.spell_range + EPS
        and can_see(state, caster, u.id)
    ]


def cast_menu(state: GameState, side: int) -> list[Action]:
    menu = []
    for unit in state.side_units(side):
        known = wizard(state, unit.id)
        if known is None or not len(state.on_table(unit.id)):
            continue
        if unit.tokens.get("casts", 0) >= int(known["casts"]):
            continue
        for spell in known["spells"]:
            if spell in state.extra["spells_cast"]:
                continue
            menu += [
                Action("cast", side, unit.id, t, choice=spell)
                for t in targets(state, unit.id, spell)
            ]
    return menu


def roll_modifier(state: GameState, unit_id: str, roll: str) -> int:
    """Arcane terrain (+1 within 1"), the Soul Stone prize, and warscroll modifiers."""
    rules = battle_rules()
    members = state.on_table(unit_id)
    total = sum(
        int(t["value"]) for t in templates(state, unit_id, "roll_modifier") if t["roll"] == roll
    )
    for feature, shape in zip(state.board.get("terrain", []), terrain(state), strict=True):
        if feature.get("scenery") == "Arcane" and (
            float(base_to_shape(shape, state.pos[members], state.radius[members]).min())
            <= rules.scenery_range
        ):
            total += 1
            break
    if roll == "cast" and state.extra["prize"].get("result") == "Soul Stone" and objectives(state):
        point = np.asarray(objectives(state)[0])
        d = float((np.hypot(*(state.pos[members] - point).T) - state.radius[members]).min())
        for band in sorted(rules.soul_stone, key=lambda b: b.range):
            if d <= band.range:
                total += band.modifier
                break
    return total


def cast(state: GameState, action: Action, dice: Dice) -> list[Event]:
    caster, spell, target = str(action.unit), str(action.choice), action.target
    known = wizard(state, caster)
    unit = state.unit(caster)
    if known is None or unit.side != action.side or spell not in known["spells"]:
        raise IllegalActionError(
            "AOS-S1", f"{caster} is not a wizard of side {action.side} that knows {spell!r}"
        )
    if unit.tokens.get("casts", 0) >= int(known["casts"]):
        raise IllegalActionError("AOS-S1", f"{caster} has no casts left this hero phase")
    if spell in state.extra["spells_cast"]:
        raise IllegalActionError("AOS-S2", f"{spell} was already attempted this turn")
    if target not in targets(state, caster, spell):
        raise IllegalActionError(
            "AOS-S4", f'{target} is not a visible target within 18" for {spell}'
        )
    unit.tokens["casts"] = unit.tokens.get("casts", 0) + 1
    state.extra["spells_cast"].append(spell)
    faces = dice.d6(2)
    roll = int(faces.sum()) + roll_modifier(state, caster, "cast")
    value = battle_rules().spell(spell).casting_value
    event = Event(
        "cast",
        {
            "unit": caster,
            "spell": spell,
            "target": target,
            "roll": roll,
            "needed": value,
            "cast": roll >= value,
        },
    )
    if roll < value:
        return [event]
    pending = {"kind": "unbind", "caster": caster, "spell": spell, "target": target, "roll": roll}
    if unbinders(state, pending):
        state.extra["pending"] = pending
        state.active = 1 - unit.side
        return [event]
    return [event, *effect(state, pending, dice)]


def unbinders(state: GameState, pending: dict[str, Any]) -> list[str]:
    caster = str(pending["caster"])
    side = 1 - state.unit(caster).side
    found = []
    for unit in state.side_units(side):
        known = wizard(state, unit.id)
        if known is None or not len(state.on_table(unit.id)):
            continue
        if unit.tokens.get("unbinds", 0) >= int(known["unbinds"]):
            continue
        if unit_gap(state, caster, unit.id) <= battle_rules().unbind_range + EPS:
            found.append(unit.id)
    return found


def unbind_menu(state: GameState) -> list[Action]:
    pending = state.extra["pending"]
    side = state.active
    return [Action("unbind", side, w) for w in unbinders(state, pending)] + [
        Action("no_unbind", side)
    ]


def unbind(state: GameState, action: Action, dice: Dice) -> list[Event]:
    pending = state.extra["pending"]
    state.extra["pending"] = None
    state.active = state.unit(str(pending["caster"])).side
    if action.kind == "no_unbind":
        return effect(state, pending, dice)
    if action.unit not in unbinders(state, pending):
        raise IllegalActionError(
            "AOS-S3", f'{action.unit} cannot unbind (a wizard within 30" with an unbind left)'
        )
    wizard_unit = state.unit(str(action.unit))
    wizard_unit.tokens["unbinds"] = wizard_unit.tokens.get("unbinds", 0) + 1
    roll = int(dice.d6(2).sum()) + roll_modifier(state, wizard_unit.id, "unbind")
    beaten = roll > int(pending["roll"])
    event = Event(
        "unbind",
        {
            "unit": wizard_unit.id,
            "spell": pending["spell"],
            "roll": roll,
            "against": pending["roll"],
            "unbound": beaten,
        },
    )
    return [event] if beaten else [event, *effect(state, pending, dice)]


def effect(state: GameState, pending: dict[str, Any], dice: Dice) -> list[Event]:
    spell = battle_rules().spell(str(pending["spell"]))
    target = str(pending["target"])
    caster = str(pending["caster"])
    caster_side = state.unit(caster).side
    if spell.target == "friend":
        state.unit(target).flags["mystic_shield"] = caster_side
        return [Event("spell", {"spell": spell.name, "target": target, "caster": caster})]
    amount = spell.mortal_wounds
    if (
        spell.big_roll is not None
        and int(pending["roll"]) >= spell.big_roll
        and spell.big_mortal_wounds
    ):
        amount = roll_expr(spell.big_mortal_wounds, dice)
    told = {"spell": spell.name, "target": target, "caster": caster, "mortal_wounds": amount}
    events = [Event("spell", told)]
    return events + mortal_wounds(state, target, amount, dice, caster_side, spell.name)
