"""OpenWar plays the Arcane Prize table (clauses OW-P0..OW-P6 of docs/rules/openwar.md).

Every die is scripted. The prize lies at the table's centre (45, 45); a miniature whose base
edge is within 3 cm of it takes it at the end of a round (OW-V5), which rolls on the table.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from openwar.battleplans.generator import generate
from openwar.battleplans.report import battleplan_json
from openwar.engine.actions import Action
from openwar.engine.events import Event
from openwar.engine.game import ScriptedDice
from openwar.engine.state import GameState
from openwar.rulesets.openwar import prize, victory
from openwar.rulesets.openwar.board import board_from_plan, default_board
from openwar.rulesets.openwar.rules import battle_rules
from openwar.rulesets.openwar.setup import ForceUnit
from openwar.summary import summarise_events

from .conftest import DIAMETER, battle, in_battle, kinds, line, place, play, profile, unit

CENTRE = (45.0, 45.0)
SOUTH = [[0.0, 0.0], [90.0, 0.0], [90.0, 20.0], [0.0, 20.0]]
NORTH = [[0.0, 70.0], [90.0, 70.0], [90.0, 90.0], [0.0, 90.0]]
LEADER = profile(command_skills=battle_rules().command_skills)


def prize_board(**extra: Any) -> dict[str, Any]:
    board = default_board()
    board.update(
        victory=victory.PRIZE,
        objectives=[list(CENTRE)],
        control_range=8.0,
        lands=[SOUTH, NORTH],
        arcane_prize=list(prize.PRIZE_TABLE),
    )
    board.update(extra)
    return board


def command(uid: str, size: int = 3) -> ForceUnit:
    unit_ = dataclasses.replace(unit(uid, size, LEADER), kind=battle_rules().command_type)
    return dataclasses.replace(unit_, points=0)


def end_round(state: GameState, rolls: list[int]) -> list[Event]:
    dice = ScriptedDice(rolls)
    events, _ = victory.end_of_round(state, dice)
    assert not dice.values, f"scripted dice left over: {dice.values}"
    return events


def start_round(state: GameState, rolls: list[int]) -> list[Event]:
    dice = ScriptedDice(rolls)
    events = prize.start_of_round(state, dice)
    assert not dice.values, f"scripted dice left over: {dice.values}"
    return events


def taker_beside_the_prize(*others: tuple[ForceUnit, int, list[tuple[float, float]]]) -> GameState:
    """Side 0's unit "t" (3 miniatures) stands touching the prize; ``others`` as told."""
    units: list[list[ForceUnit]] = [[unit("t", 3)], []]
    for force, side, _ in others:
        units[side].append(force)
    state = battle(units[0], units[1], prize_board())
    place(state, "t", line(45.0, 46.5, 3))
    for force, _, points in others:
        place(state, force.id, points)
    return in_battle(state)


def test_ow_p0_the_first_taking_rolls_once_on_the_table() -> None:
    for seed in range(30):
        plan = battleplan_json(generate("openwar", 1000, seed))
        if plan["victory"]["name"] == victory.PRIZE:
            assert board_from_plan(plan)["arcane_prize"] == list(prize.PRIZE_TABLE)
            break
    else:
        pytest.fail("no Arcane Prize battleplan in 30 seeds")
    state = taker_beside_the_prize()
    rolled = [e for e in end_round(state, [5]) if e.kind == "arcane_prize"]
    assert rolled[0].data == {"side": 0, "roll": 5, "result": prize.WARD}
    assert prize.result(state) == prize.WARD
    assert "arcane_prize" not in kinds(end_round(state, []))  # never rolled again
    no_table = battle([unit("t", 3)], [], prize_board(arcane_prize=[]))
    place(no_table, "t", line(45.0, 46.5, 3))
    assert "arcane_prize" not in kinds(end_round(in_battle(no_table), []))  # no die rolled
    assert prize.result(no_table) is None


def test_ow_p1_plague_strikes_every_unit_within_2d6_times_2_54_cm() -> None:
    # 2D6 = 5: 12.7 cm, rounded to 13; "near" 12 cm from the prize, "far" 14 cm
    state = taker_beside_the_prize(
        (unit("near", 1), 1, [(45.0 + 12.0 + 1.25, 45.0)]),
        (unit("far", 1), 1, [(45.0 - 14.0 - 1.25, 45.0)]),
    )
    events = end_round(state, [1, 2, 3, 2, 1])  # Plague, 2D6 = 2+3, D3 for t, D3 for near
    reach = next(e for e in events if e.kind == "prize_effect")
    assert reach.data["reach"] == 13.0
    struck = {e.data["unit"]: e.data["slain"] for e in events if e.kind == "struck"}
    assert struck == {"t": 2, "near": 1}
    assert len(state.on_table("t")) == 1 and state.is_destroyed("near")
    assert len(state.on_table("far")) == 1


def test_ow_p2_trapped_the_takers_unit_loses_d3() -> None:
    state = taker_beside_the_prize()
    events = end_round(state, [2, 2])
    assert [e.data["slain"] for e in events if e.kind == "struck"] == [2]
    assert len(state.on_table("t")) == 1


def talisman_state(gap_cm: float) -> GameState:
    """Side 0 holds the prize (result Talisman); its Command unit's farthest miniature
    stands ``gap_cm`` from it; an enemy unit touches the Command unit's front."""
    state = battle([unit("t", 3), command("cmd", 1)], [unit("e", 1)], prize_board())
    place(state, "t", line(45.0, 46.5, 3))
    place(state, "cmd", [(45.0, 45.0 - gap_cm - 1.25)])
    place(state, "e", [(45.0, 45.0 - gap_cm - 1.25 - DIAMETER)])
    state = in_battle(state)
    state.extra["prize"] = list(CENTRE)
    state.extra["arcane"] = {"result": prize.TALISMAN, "side": 0}
    return state


def test_ow_p3_talisman_rolls_the_command_units_hit_dice_showing_1_again() -> None:
    state = talisman_state(22.0)
    told = start_round(state, [])
    assert [e.data["unit"] for e in told] == ["cmd"] and prize.talisman_unit(state) == "cmd"
    # Sword: 3 dice to hit on 5+ (Melee 0); the 1 is rolled again (a 5 hits), the 2 is not
    _, events = play(state, Action("hold", 0, "cmd", "e"), [1, 2, 5, 5, 4, 4, 1, 1])
    attack = next(e for e in events if e.kind == "attack")
    assert attack.data["wounds"] == 2
    far = talisman_state(23.5)
    assert start_round(far, []) == [] and prize.talisman_unit(far) is None
    # the pick lasts the round: the next round's start asks again
    state.extra["prize"] = [45.0, 80.0]
    start_round(state, [])
    assert prize.talisman_unit(state) is None


def test_ow_p4_realmvault_key_calms_a_friend_on_2_plus_shakes_the_command_unit_on_1() -> None:
    state = talisman_state(10.0)
    state.extra["arcane"]["result"] = prize.REALMVAULT
    assert start_round(state.clone(), []) == []  # nobody Shaken: no roll
    state.unit("t").tokens["shaken"] = 2
    calmed = state.clone()
    start_round(calmed, [2])
    assert calmed.unit("t").tokens["shaken"] == 1
    shaken = state.clone()
    events = start_round(shaken, [1])
    assert shaken.unit("cmd").tokens["shaken"] == 1 and events[0].data["shaken"] == "cmd"
    assert shaken.unit("t").tokens["shaken"] == 2


def ward_state(gap_cm: float) -> GameState:
    """Side 1's target stands ``gap_cm`` (base edge) from the prize under the Ward."""
    sure = profile(melee=5)  # Sword: every die hits (5+ with Melee 5), Armor 4: 4+ wounds
    state = battle([unit("a", 1, sure)], [unit("b", 3)], prize_board())
    place(state, "b", line(45.0 + gap_cm + 1.25, 45.0, 3))
    place(state, "a", [(45.0 + gap_cm + 1.25, 45.0 - DIAMETER)])
    state = in_battle(state)
    state.extra["prize"] = list(CENTRE)
    state.extra["arcane"] = {"result": prize.WARD, "side": 1}
    return state


def test_ow_p5_ward_negates_a_wound_within_15cm_on_a_6() -> None:
    # 3 hits, 3 damage dice that wound, then a ward die per Wound: the 6 negates one
    _, events = play(
        ward_state(14.0), Action("hold", 0, "a", "b"), [1, 1, 1, 4, 4, 4, 6, 5, 1, 1, 1]
    )
    assert next(e for e in events if e.kind == "attack").data["wounds"] == 2
    _, events = play(ward_state(16.0), Action("hold", 0, "a", "b"), [1, 1, 1, 4, 4, 4, 1, 1])
    assert next(e for e in events if e.kind == "attack").data["wounds"] == 3


def soul_stone_state(gap_cm: float) -> GameState:
    state = battle([command("cmd", 1), unit("f", 1)], [unit("e", 1)], prize_board())
    place(state, "cmd", [(45.0 + gap_cm + 1.25, 45.0)])
    place(state, "f", [(45.0 + gap_cm + 1.25, 45.0 + DIAMETER + 1.0)])
    place(state, "e", [(10.0, 85.0)])
    state = in_battle(state)
    state.extra["prize"] = list(CENTRE)
    state.extra["arcane"] = {"result": prize.SOUL_STONE, "side": 1}
    return state


@pytest.mark.parametrize(
    ("gap_cm", "rolls", "works"),
    [(29.0, [1], False), (29.0, [2], True), (7.0, [3], False), (7.0, [4], True), (31.0, [], True)],
)
def test_ow_p6_soul_stone_fails_a_skill_on_1_within_30cm_and_1_to_3_within_8cm(
    gap_cm: float, rolls: list[int], works: bool
) -> None:
    skill = battle_rules().command_skills[0]
    after, events = play(
        soul_stone_state(gap_cm), Action("skill", 0, "cmd", "f", choice=skill), rolls
    )
    assert bool(after.unit("f").tokens.get("hold_the_line")) is works
    assert next(e for e in events if e.kind == "skill").data.get("failed", False) is not works
    assert after.unit("cmd").flags["ordered"]


def test_the_battle_report_tells_what_the_prize_table_did() -> None:
    names = {"t": "Taker", "cmd": "Chief"}
    events = [
        Event("round", {"round": 2, "first": 1}),
        Event("arcane_prize", {"side": 0, "roll": 2, "result": prize.TRAPPED}),
        Event("struck", {"unit": "t", "rolled": 2, "slain": 2, "by": prize.TRAPPED}),
        Event("prize_effect", {"result": prize.TALISMAN, "side": 1, "unit": "cmd"}),
        Event("prize_effect", {"result": prize.REALMVAULT, "side": 1, "roll": 4, "calmed": "t"}),
    ]
    (told,) = summarise_events(events, names, {"t": 0, "cmd": 1})
    assert told.prize == [
        "Arcane Prize (side A) rolled 2: Trapped",
        "Trapped: Taker loses 2",
        "Talisman (side B): Chief rolls hit dice showing 1 again",
        "Realmvault Key (side B): Taker loses a Shaken token",
    ]
    assert told.twist == []
