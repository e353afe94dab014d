"""The Arcane Prize table in an OpenWar battle (docs/rules/openwar.md, OW-P0..OW-P6).

Under the Arcane Prize victory condition (OW-V5) the first side to take the prize rolls once
on the battleplan's Arcane Prize table (OW-BP.6 restates the Open War table in OpenWar
terms); the result holds for the rest of the battle. Plague and Trapped strike at once;
Talisman and Realmvault Key act at the start of each round for the side holding the prize;
Ward and Soul Stone act wherever the prize then lies. OpenWar has no player turns, so "the
start of their turn" is the start of each round after the roll-off, as for the twists
(OW-X1), and "that turn" is that round. A board without a table (a hand-made board, a replay
recorded before the table was played) rolls nothing.
"""

from __future__ import annotations

import numpy as np

from openwar.dice.notation import parse_dice
from openwar.dice.rolling import roll
from openwar.engine.events import Event
from openwar.engine.game import Dice
from openwar.engine.state import GameState, UnitState
from openwar.rulesets.openwar import ruses
from openwar.rulesets.openwar.rules import battle_rules
from openwar.rulesets.openwar.twists import strike

PLAGUE, TRAPPED, TALISMAN = "Plague", "Trapped", "Talisman"
REALMVAULT, WARD, SOUL_STONE = "Realmvault Key", "Ward", "Soul Stone"
PRIZE_TABLE = (PLAGUE, TRAPPED, TALISMAN, REALMVAULT, WARD, SOUL_STONE)


def result(state: GameState) -> str | None:
    """The table's result rolled in this battle, None before the prize is first taken."""
    found = state.extra.get("arcane", {}).get("result")
    return None if found is None else str(found)


def prize_point(state: GameState) -> tuple[float, float] | None:
    """Where the Arcane Prize lies now (it moves with its carrier), None without one."""
    from openwar.rulesets.openwar.victory import PRIZE, live_objectives, victory_name

    found = live_objectives(state)
    return found[0][1] if victory_name(state) == PRIZE and found else None


def _gaps(state: GameState, minis: np.ndarray, point: tuple[float, float]) -> np.ndarray:
    """Edge of base to the prize marker's centre (as OW-V5 measures the pickup)."""
    return np.asarray(np.hypot(*(state.pos[minis] - np.asarray(point)).T) - state.radius[minis])


def taken(state: GameState, carrier: int, dice: Dice) -> list[Event]:
    """OW-P0: the first taking of the prize rolls on the table; Plague and Trapped strike."""
    table = [str(name) for name in state.board.get("arcane_prize") or []]
    if not table or "arcane" in state.extra:
        return []
    side = int(state.lookup().side_of[carrier])
    face = int(dice.d6(1)[0])
    name = table[face - 1] if face <= len(table) else None
    state.extra["arcane"] = {"result": name, "side": side}
    events = [Event("arcane_prize", {"side": side, "roll": face, "result": name})]
    if name == PLAGUE:
        events += _plague(state, dice)
    elif name == TRAPPED:
        unit = state.units[int(state.unit_of[carrier])]
        events += strike(state, unit, _roll(battle_rules().trapped_loss, dice), dice, TRAPPED)
    return events


def _roll(expression: str, dice: Dice) -> int:
    """One roll of dice notation such as "D3" or "2D6"."""
    return roll(parse_dice(expression), dice)


def _plague(state: GameState, dice: Dice) -> list[Event]:
    """OW-P1: 2D6 x 2.54 cm, rounded; every unit with a miniature that near loses D3."""
    rules = battle_rules()
    point = prize_point(state)
    rolled = _roll(rules.plague_reach, dice)
    reach = float(round(rolled * rules.plague_scale))
    events = [Event("prize_effect", {"result": PLAGUE, "roll": rolled, "reach": reach})]
    for unit in list(state.units):
        members = state.on_table(unit.id)
        if point is None or len(members) == 0 or float(_gaps(state, members, point).min()) > reach:
            continue
        events += strike(state, unit, _roll(rules.plague_loss, dice), dice, PLAGUE)
    return events


def start_of_round(state: GameState, dice: Dice) -> list[Event]:
    """OW-P3 Talisman and OW-P4 Realmvault Key, for the side holding the prize now."""
    name = result(state)
    state.extra.get("arcane", {}).pop("talisman", None)
    if name not in (TALISMAN, REALMVAULT):
        return []
    side = _controller(state)
    command = None if side is None else _command_near(state, side)
    if side is None or command is None:
        return []
    if name == TALISMAN:
        state.extra["arcane"]["talisman"] = command.id
        return [Event("prize_effect", {"result": TALISMAN, "side": side, "unit": command.id})]
    return _realmvault(state, side, command, dice)


def _controller(state: GameState) -> int | None:
    from openwar.rulesets.openwar.victory import holder

    point = prize_point(state)
    return None if point is None else holder(state, point)


def _command_near(state: GameState, side: int) -> UnitState | None:
    """The side's Command unit if every one of its miniatures is within 23 cm of the prize."""
    unit = ruses.command_unit(state, side)
    point = prize_point(state)
    if unit is None or point is None:
        return None
    members = state.on_table(unit.id)
    near = (
        len(members)
        and float(_gaps(state, members, point).max()) <= battle_rules().prize_command_range
    )
    return unit if near else None


def _realmvault(state: GameState, side: int, command: UnitState, dice: Dice) -> list[Event]:
    """OW-P4: a 1 Shakes the Command unit, 2+ takes a Shaken token off a friendly unit (the
    one with the most, then the earlier in the army). Design decision: the source's roll is
    a choice ("can"), so a side with no Shaken token to lose does not roll."""
    rules = battle_rules()
    shaken = [u for u in state.side_units(side) if u.tokens.get("shaken", 0) > 0]
    if not shaken:
        return []
    face = int(dice.d6(1)[0])
    data: dict[str, object] = {"result": REALMVAULT, "side": side, "roll": face}
    if face <= rules.key_fail:
        if not ruses.no_shaken(state, side):  # OW-R6 Inspiring Speech
            command.tokens["shaken"] = command.tokens.get("shaken", 0) + 1
            data["shaken"] = command.id
        from openwar.rulesets.openwar.fight import rout_if_broken

        return [Event("prize_effect", data), *rout_if_broken(state, command.id)]
    calmed = min(shaken, key=lambda u: (-u.tokens["shaken"], state.unit_index(u.id)))
    calmed.tokens["shaken"] -= 1
    if not calmed.tokens["shaken"]:
        calmed.tokens.pop("shaken")
    data["calmed"] = calmed.id
    return [Event("prize_effect", data)]


def talisman_unit(state: GameState) -> str | None:
    """The unit whose hit dice showing 1 are rolled again this round (OW-P3), if any."""
    found = state.extra.get("arcane", {}).get("talisman")
    return None if found is None else str(found)


def warded(state: GameState, minis: np.ndarray) -> np.ndarray:
    """Which of ``minis`` stand within 15 cm of the prize under the Ward (OW-P5)."""
    point = prize_point(state) if result(state) == WARD else None
    if point is None or len(minis) == 0:
        return np.zeros(len(minis), dtype=bool)
    return np.asarray(_gaps(state, minis, point) <= battle_rules().ward_range)


def skill_fails_on(state: GameState, unit_id: str) -> int:
    """OW-P6 Soul Stone: the highest face on which the unit's Skill order fails (0: none)."""
    point = prize_point(state) if result(state) == SOUL_STONE else None
    members = state.on_table(unit_id)
    if point is None or len(members) == 0:
        return 0
    rules = battle_rules()
    gap = float(_gaps(state, members, point).min())
    if gap <= rules.soul_stone_near:
        return rules.soul_stone_near_fail
    return rules.soul_stone_fail if gap <= rules.soul_stone_range else 0
