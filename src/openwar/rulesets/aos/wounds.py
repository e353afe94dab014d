"""Wounds: allocation one model at a time, negation rolls, slain models, healing, the
bookkeeping every slain model feeds (battleshock, First Blood, victory scores, generals)."""

from __future__ import annotations

from typing import Any

import numpy as np

from openwar.engine.events import Event
from openwar.engine.game import Dice
from openwar.engine.space import unit_gaps
from openwar.engine.state import GameState, IntArray
from openwar.rulesets.aos.board import objectives, terrain
from openwar.rulesets.aos.moves import EPS, enemy_minis, within_of_point
from openwar.rulesets.aos.rules import battle_rules


def templates(state: GameState, unit_id: str, kind: str) -> list[dict[str, Any]]:
    return [a for a in state.unit(unit_id).profile["abilities"] if a["template"] == kind]


def has_keyword(state: GameState, unit_id: str, keyword: str) -> bool:
    return keyword in state.unit(unit_id).profile["keywords"]


def roll_expr(text: str | int, dice: Dice) -> int:
    from openwar.dice.notation import parse_dice

    expr = parse_dice(text)
    if expr.is_constant:
        return expr.modifier
    return int(dice.roll(expr.sides, expr.count).sum()) + expr.modifier


def allocation_order(state: GameState, unit_id: str, policy: str = "rear") -> IntArray:
    """AOS-D3: the order in which models take wounds (or flee). Always the wounded model
    first; then, by the defender's policy: ``rear`` (the default: furthest from the enemy
    first, so the front keeps fighting and the unit stays together), ``front`` (nearest the
    enemy first), or ``keep K`` (as ``rear``, but the models of loadout K last)."""
    members = state.on_table(unit_id)
    unit = state.unit(unit_id)
    enemies = enemy_minis(state, unit.side)
    if len(enemies):
        far = unit_gaps(state, members, enemies).min(axis=1)
        members = members[np.argsort(far if policy == "front" else -far, kind="stable")]
    if policy.startswith("keep "):
        kept = state.loadout[members] == int(policy.split()[1])
        members = np.concatenate([members[~kept], members[kept]])
    wounded = unit.flags.get("wounded")
    if wounded is not None and wounded in members:
        members = np.concatenate([[wounded], members[members != wounded]])
    return np.asarray(members, dtype=np.int64)


def negation_target(state: GameState, unit_id: str, mini: int) -> int | None:
    """The best negation roll for a wound on this model (ward, Mystical terrain, the Ward
    arcane prize); one roll is made with the best of them (AOS-D4)."""
    rules = battle_rules()
    found = [int(t["roll"]) for t in templates(state, unit_id, "ward")]
    one = np.array([mini])
    for feature, shape in zip(state.board.get("terrain", []), terrain(state), strict=True):
        if feature.get("scenery") == "Mystical":
            from openwar.rulesets.aos.board import base_to_shape

            if base_to_shape(shape, state.pos[one], state.radius[one])[0] <= rules.scenery_range:
                found.append(rules.mystical_ward)
    points = objectives(state)
    ward_prize = state.extra.get("prize", {}).get("result") == "Ward" and points
    if ward_prize and bool(within_of_point(state, one, points[0], rules.prize_ward_range)[0]):
        found.append(rules.prize_ward)
    return min(found) if found else None


def touched(state: GameState, unit_id: str, wounds: int) -> int:
    """How many models ``wounds`` reach, one model at a time (negation aside)."""
    unit = state.unit(unit_id)
    per = int(unit.profile["wounds"])
    left = per - int(unit.tokens.get("damage", 0)) if unit.flags.get("wounded") is not None else 0
    if left and wounds <= left:
        return 1
    return (1 if left else 0) + -(-(wounds - left) // per)


def policies(state: GameState, unit_id: str, count: int) -> list[str]:
    """AOS-D10: the allocation policies that would pick different models when ``count``
    models are reached (slain, wounded or fleeing); one alone means nothing to decide."""
    members = state.on_table(unit_id)
    if len(members) < 2 or count <= 0:
        return ["rear"]
    unit = state.unit(unit_id)
    names = ["rear", "front"] + [
        f"keep {k}"
        for k in sorted({int(state.loadout[m]) for m in members})
        if unit.profile["loadouts"][k]["options"]
    ]
    found: dict[tuple[int, ...], str] = {}
    for name in names:
        order = allocation_order(state, unit_id, name)
        prefix = tuple(sorted(int(m) for m in order[: min(count, len(order))]))
        found.setdefault(prefix, name)
    return list(found.values())


def allocate(
    state: GameState,
    unit_id: str,
    wounds: int,
    dice: Dice,
    by: int | None,
    source: str,
    policy: str = "rear",
) -> list[Event]:
    """Allocate ``wounds`` to the unit one at a time; ``by`` is the side that caused them
    (None for the unit's own sacrifice or terrain)."""
    if wounds <= 0 or len(state.on_table(unit_id)) == 0:
        return []
    unit = state.unit(unit_id)
    order = list(allocation_order(state, unit_id, policy))
    negated = slain = 0
    wounds_char = int(unit.profile["wounds"])
    for _ in range(wounds):
        if not order:
            break
        mini = int(order[0])
        target = negation_target(state, unit_id, mini)
        if target is not None and int(dice.d6(1)[0]) >= target:
            negated += 1
            continue
        unit.tokens["damage"] = unit.tokens.get("damage", 0) + 1
        unit.flags["wounded"] = mini
        if unit.tokens["damage"] >= wounds_char:
            order.pop(0)
            slain += 1
            slay(state, mini, by)
    events = [
        Event(
            "wounds",
            {
                "unit": unit_id,
                "wounds": wounds,
                "negated": negated,
                "slain": slain,
                "source": source,
                "by": by,
            },
        )
    ]
    return events + after_casualties(state, unit_id, by)


def slay(state: GameState, mini: int, by: int | None) -> None:
    """A model is slain (or flees): off the table, counted for battleshock and victory. Only
    the wounded model takes its wounds with it: another model removed (a split unit's, one
    burnt by Firestarter) leaves them on the wounded one."""
    unit = state.units[int(state.unit_of[mini])]
    state.alive[mini] = False
    wounded = unit.flags.get("wounded")
    if wounded is None or int(wounded) == int(mini):
        unit.tokens["damage"] = 0
        unit.flags["wounded"] = None
    unit.tokens["slain_turn"] = unit.tokens.get("slain_turn", 0) + 1
    enemy = 1 - unit.side
    state.extra["slain_wounds"][enemy] += int(unit.profile["wounds"])
    state.extra["slain_models"][enemy] += 1
    if by == enemy and state.extra.get("first_blood") is None:
        state.extra["first_blood"] = enemy
        if state.board.get("victory") == "First Blood":
            state.extra["cp"][enemy] += battle_rules().first_blood_command_points
            state.extra["log"].append(f"first blood: side {enemy} gains a command point")


def after_casualties(state: GameState, unit_id: str, by: int | None) -> list[Event]:
    from openwar.rulesets.aos.moves import coherent_groups

    unit = state.unit(unit_id)
    events: list[Event] = []
    if state.is_destroyed(unit_id) and unit_id not in state.extra["destroyed"]:
        state.extra["destroyed"].append(unit_id)
        (state.extra.get("garrisons") or {}).pop(unit_id, None)
        events.append(Event("destroyed", {"unit": unit_id, "by": by}))
    if unit.id == state.extra["general"][unit.side] and state.is_destroyed(unit_id):
        events += general_slain(state, unit.side)
    unit.flags["split"] = len(coherent_groups(state, unit_id)) > 1
    return events


def general_slain(state: GameState, side: int) -> list[Event]:
    """Pick a new general (AOS-B7: a HERO if any is left, never an allied unit, none when
    only allies are left) and trigger the Revenge ruse."""
    slain = state.extra["general"][side]
    events = [Event("general_slain", {"side": side, "unit": slain})]
    if state.board["ruses"][side] == "Revenge":
        state.extra["revenge"][side] = state.extra["turns"] + 2
        events.append(Event("ruse", {"side": side, "ruse": "Revenge"}))
    left = [
        u for u in state.side_units(side) if len(state.on_table(u.id)) and not u.profile["allied"]
    ]
    heroes = [u for u in left if "HERO" in u.profile["keywords"]]
    pick = heroes[0] if heroes else (left[0] if left else None)
    state.extra["general"][side] = None if pick is None else pick.id
    events[0].data["next"] = state.extra["general"][side]
    return events


def heal(state: GameState, unit_id: str, amount: int) -> int:
    """Remove up to ``amount`` wounds from the unit's wounded model; returns how many."""
    unit = state.unit(unit_id)
    healed = min(amount, unit.tokens.get("damage", 0))
    unit.tokens["damage"] = unit.tokens.get("damage", 0) - healed
    if unit.tokens["damage"] == 0:
        unit.flags["wounded"] = None
    return healed


def mortal_wounds(
    state: GameState, unit_id: str, amount: int, dice: Dice, by: int | None, source: str
) -> list[Event]:
    """Mortal wounds outside an attack are allocated at once (seed "Mortal Wounds")."""
    return allocate(state, unit_id, amount, dice, by, source)


def close_to(value: float, limit: float) -> bool:
    return value <= limit + EPS
