"""OpenWar plays the battleplan's secret ruses (clauses OW-R1..OW-R6 of docs/rules/openwar.md).

Every die is scripted. Side 0 is the battleplan's side A, side 1 its side B.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from openwar.ai.openwar_eval import EVALUATION
from openwar.battleplans.generator import generate
from openwar.battleplans.report import battleplan_json
from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.space import unit_gaps
from openwar.engine.state import GameState
from openwar.rulesets.openwar import ruses
from openwar.rulesets.openwar.battle import RULES
from openwar.rulesets.openwar.board import board_from_plan, default_board, territory
from openwar.rulesets.openwar.rules import battle_rules
from openwar.rulesets.openwar.setup import ForceUnit

from .conftest import battle, first, in_battle, kinds, line, place, play, unit

RUINS = [[40.0, 40.0], [50.0, 40.0], [50.0, 50.0], [40.0, 50.0]]  # a 10 cm square mid-table


def board_with(side0: str | None, side1: str | None = None, **extra: Any) -> dict[str, Any]:
    board = default_board()
    board["ruses"] = [side0, side1]
    board.update(extra)
    return board


def command(uid: str, size: int = 3) -> ForceUnit:
    return dataclasses.replace(unit(uid, size), kind=battle_rules().command_type, points=0)


def test_ow_r0_a_board_carries_each_sides_ruse_and_a_board_without_has_none() -> None:
    for seed in range(8):
        plan = battleplan_json(generate("openwar", 1000, seed))
        board = board_from_plan(plan)
        assert board["ruses"] == [plan["ruses"]["A"]["name"], plan["ruses"]["B"]["name"]]
        assert set(board["ruses"]) <= set(ruses.RUSES)
    state = battle([unit("a", 1)], [unit("b", 1)])
    assert (ruses.ruse(state, 0), ruses.ruse(state, 1)) == (None, None)
    assert not ruses.any_ruse(state)


def test_ow_r1_ambush_sets_one_unit_up_outside_the_enemy_territory_away_from_the_enemy() -> None:
    state = battle([unit("a", 5), unit("c", 5)], [unit("b", 5)], board_with(ruses.AMBUSH))
    place(state, "b", line(40.0, 85.0, 5))  # side 1 has set up along the north edge
    state.active = 0
    menu = RULES.legal_actions(state)
    ambush = [a for a in menu if a.choice == ruses.AMBUSH]
    assert {a.unit for a in ambush} == {"a", "c"}
    enemy_zone = territory(state, 1).polygon
    gap = battle_rules().ambush_enemy_gap
    for action in ambush:
        assert action.point is not None
        after, events = play(state, action)
        assert first(events, "ruse").data == {"ruse": "Ambush", "side": 0, "unit": action.unit}
        mine = after.members(str(action.unit))
        assert unit_gaps(after, mine, after.members("b")).min() > gap
        assert not any(enemy_zone.intersects(_disc(after, m)) for m in mine)
    # somewhere outside its own territory: the ruse is what allows it
    forward = max(ambush, key=lambda a: a.point[1] if a.point else 0.0)
    assert forward.point is not None and forward.point[1] > battle_rules().deployment_depth
    after, _ = play(state, forward)
    after.active = 0
    assert not [a for a in RULES.legal_actions(after) if a.choice == ruses.AMBUSH]  # once
    with pytest.raises(IllegalActionError, match="OW-R1"):
        play(after, dataclasses.replace(forward, unit="c"))
    # a side without Ambush is offered none and may not use it
    other = battle([unit("a", 5)], [unit("b", 5)], board_with(None, ruses.REVENGE))
    other.active = 0
    assert not [a for a in RULES.legal_actions(other) if a.choice == ruses.AMBUSH]
    with pytest.raises(IllegalActionError, match="OW-R1"):
        play(other, Action("deploy", 0, "a", point=(45.0, 45.0), choice=ruses.AMBUSH))


def test_ow_r1_ambush_may_not_end_within_8cm_of_the_enemy_or_in_its_territory() -> None:
    state = battle([unit("a", 1)], [unit("b", 1)], board_with(ruses.AMBUSH))
    place(state, "b", [(45.0, 60.0)])
    state.active = 0
    for point in ((45.0, 60.0 - 2.5 - 8.0), (45.0, 80.0)):  # 8 cm away; in side 1's zone
        with pytest.raises(IllegalActionError, match="OW-R1"):
            play(state, Action("deploy", 0, "a", point=point, choice=ruses.AMBUSH))
    # set-up is over: the first round's roll-off follows
    play(
        state, Action("deploy", 0, "a", point=(45.0, 60.0 - 2.5 - 8.5), choice=ruses.AMBUSH), [4, 3]
    )


def _disc(state: GameState, mini: int) -> Any:
    from shapely.geometry import Point

    x, y = state.pos[mini]
    return Point(x, y).buffer(float(state.radius[mini]) - 1e-6)


def fallen_state(name: str | None) -> GameState:
    big = dataclasses.replace(unit("big", 10), points=100)
    side0 = [command("cmd"), big, unit("small", 5), unit("guard", 1)]
    state = battle(side0, [unit("b", 5)], board_with(name))
    place(state, "cmd", line(10.0, 10.0, 3))
    place(state, "big", [*line(30.0, 10.0, 5), *line(30.0, 12.5, 5)])
    place(state, "small", line(60.0, 10.0, 5))
    place(state, "guard", [(80.0, 5.0)])
    place(state, "b", line(40.0, 80.0, 5))
    state = in_battle(state, active=1)
    for uid in ("cmd", "big", "small", "guard"):
        state.unit(uid).flags["ordered"] = True
    state.alive[state.members("big")] = False
    state.alive[state.members("small")] = False
    state.alive[state.members("cmd")] = False
    return state


def test_ow_r2_reinforcements_bring_back_the_most_valuable_destroyed_unit_once() -> None:
    state = fallen_state(ruses.REINFORCEMENTS)
    rules = battle_rules()
    # the round's last order ends the round; the next round's roll-off is 4-3
    after, events = play(state, Action("hold", 1, "b"), [4, 3])
    assert first(events, "ruse").data == {"ruse": "Reinforcements", "side": 0, "unit": "big"}
    back = after.members("big")
    assert len(back) == 10 and after.deployed[back].all()
    assert after.is_destroyed("cmd") and after.is_destroyed("small")  # never the Command unit
    xy, r = after.pos[back], after.radius[back]
    edge = np.minimum.reduce([xy[:, 0], 90 - xy[:, 0], xy[:, 1], 90 - xy[:, 1]])
    assert (edge + r <= rules.arrival_edge_band + 1e-6).all()
    assert unit_gaps(after, back, after.members("b")).min() > rules.arrival_enemy_gap
    others = np.flatnonzero(after.alive & after.deployed)
    others = others[~np.isin(others, back)]
    assert unit_gaps(after, back, others).min() >= -1e-6
    # its first destruction still counts for the enemy (OW-B16)
    assert RULES.destroyed_points(after, 1) == 100 + 10 + 0
    # once per battle: "small" stays destroyed at the next end of round
    after.alive[after.members("big")] = False
    for u in after.units:
        u.flags["ordered"] = u.id != "b"
    after.active = 1
    later, events = play(after, Action("hold", 1, "b"), [4, 3])
    assert "ruse" not in kinds(events) and later.is_destroyed("big")
    assert RULES.destroyed_points(later, 1) == 100 + 100 + 10 + 0


def test_ow_r2_without_reinforcements_nothing_comes_back() -> None:
    after, events = play(fallen_state(None), Action("hold", 1, "b"), [4, 3])
    assert "ruse" not in kinds(events) and after.is_destroyed("big")


def test_ow_r3_outflank_keeps_one_unit_in_reserve_until_it_arrives_at_an_edge() -> None:
    board = board_with(ruses.OUTFLANK)
    state = battle([command("cmd"), unit("a", 5), unit("c", 5)], [unit("b", 5)], board)
    place(state, "b", line(40.0, 85.0, 5))
    state.active = 0
    menu = RULES.legal_actions(state)
    waits = [a for a in menu if a.choice == ruses.OUTFLANK]
    assert [a.unit for a in waits] == ["a", "c"]  # never the Command unit
    after, events = play(state, waits[0])
    assert first(events, "ruse").data == {
        "ruse": "Outflank",
        "side": 0,
        "unit": "a",
        "how": "waits",
    }
    assert after.size("a") == 0 and not after.deployed[after.members("a", alive=False)].any()
    assert not ruses.destroyed(after, after.unit("a"))  # waiting is not destroyed
    assert RULES.destroyed_points(after, 1) == 0
    after.active = 0
    assert not [a for a in RULES.legal_actions(after) if a.choice == ruses.OUTFLANK]  # once
    with pytest.raises(IllegalActionError, match="OW-R3"):
        play(after, Action("deploy", 0, "c", choice=ruses.OUTFLANK))
    # set up the rest (roll-off 4-3 starts round 1), then end round 1: "a" arrives
    after, _ = play(after, Action("deploy", 0, "cmd", point=(20.0, 10.0)))
    after, _ = play(after, Action("deploy", 0, "c", point=(60.0, 10.0)), [4, 3])
    assert after.phase == "battle" and "a" not in [u.id for u in after.side_units(0)]
    for u in after.units:
        u.flags["ordered"] = u.id != "b"
    after.active = 1
    arrived, events = play(after, Action("hold", 1, "b"), [4, 3])
    assert first(events, "ruse").data["how"] == "arrives"
    members = arrived.members("a")
    rules = battle_rules()
    xy, r = arrived.pos[members], arrived.radius[members]
    edge = np.minimum.reduce([xy[:, 0], 90 - xy[:, 0], xy[:, 1], 90 - xy[:, 1]])
    assert len(members) == 5 and (edge + r <= rules.arrival_edge_band + 1e-6).all()
    assert unit_gaps(arrived, members, arrived.members("b")).min() > rules.arrival_enemy_gap


def test_ow_r3_a_reserve_with_no_place_by_the_end_of_round_2_is_destroyed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = battle([unit("a", 5), unit("g", 1)], [unit("b", 5)], board_with(ruses.OUTFLANK))
    place(state, "g", [(25.0, 5.0)])
    place(state, "b", line(40.0, 85.0, 5))
    state.active = 0
    waiting, _ = play(state, Action("deploy", 0, "a", choice=ruses.OUTFLANK), [4, 3])
    monkeypatch.setattr(ruses, "_arrival_place", lambda state, unit: None)  # no room anywhere
    for how in (None, "lost"):  # the end of round 1: still waiting; of round 2: lost
        for u in waiting.units:
            u.flags["ordered"] = u.id != "b"
        waiting.active = 1
        waiting, events = play(waiting, Action("hold", 1, "b"), [4, 3])
        assert [e.data.get("how") for e in events if e.kind == "ruse"] == ([how] if how else [])
    assert ruses.destroyed(waiting, waiting.unit("a")) and "destroyed" in kinds(events)
    assert RULES.destroyed_points(waiting, 1) == 10


def fire_state(name: str | None) -> GameState:
    board = board_with(name, terrain=[{"name": "Ruins", "polygon": RUINS, "blocks_sight": False}])
    state = battle([command("cmd"), unit("a", 5)], [unit("b", 5), unit("c", 5)], board)
    place(state, "cmd", line(32.0, 45.0, 3))  # its east end 1.75 cm from the ruins' west side
    place(state, "a", line(30.0, 20.0, 5))
    place(state, "b", line(41.25, 52.0, 5))  # 0.75 cm from the ruins' north side
    place(state, "c", line(41.25, 70.0, 5))
    return in_battle(state)


def test_ow_r4_firestarter_sets_fire_near_the_enemy_and_slays_who_ends_an_order_there() -> None:
    state = fire_state(ruses.FIRESTARTER)
    events = ruses.start_of_round(state)
    assert events[0].data == {"ruse": "Firestarter", "side": 0, "feature": "Ruins"}
    assert state.extra["burning"] == [0]
    assert ruses.start_of_round(state) == []  # once per battle
    state.active = 1
    # "b" holds where it stands: every miniature within 3 cm of the ruins is slain
    after, events = play(state, Action("hold", 1, "b"))
    assert first(events, "burned").data == {"unit": "b", "slain": 5}
    assert after.is_destroyed("b")
    # a unit that moves away in its order is safe; one farther than 3 cm never burns
    after, events = play(state, Action("advance", 1, "b", None, (46.25, 56.0)))
    assert "burned" not in kinds(events) and len(after.on_table("b")) == 5
    after, events = play(state, Action("hold", 1, "c"))
    assert "burned" not in kinds(events)
    # fire burns friend and foe: the Command unit's miniature within 3 cm burns too
    state.active = 0
    after, events = play(state, Action("hold", 0, "cmd"))
    assert first(events, "burned").data == {"unit": "cmd", "slain": 1}


def test_ow_r4_firestarter_waits_while_the_fire_would_slay_more_friends_than_enemies() -> None:
    state = fire_state(ruses.FIRESTARTER)
    place(state, "a", line(41.25, 38.0, 5))  # 5 friends beside the ruins
    place(state, "c", line(41.25, 70.0, 5))
    assert ruses.start_of_round(state) == []  # 5 enemies less 5 friends: no gain yet
    place(state, "cmd", line(10.0, 45.0, 3))  # out of 8 cm of the ruins
    place(state, "a", line(30.0, 20.0, 5))
    assert ruses.start_of_round(state) == []
    assert ruses.start_of_round(fire_state(None)) == []


def test_ow_r4_the_ai_counts_what_a_burning_feature_would_slay() -> None:
    state = fire_state(ruses.FIRESTARTER)
    state.active = 1
    stay = Action("hold", 1, "b")
    before = EVALUATION.action_value(state, stay)
    ruses.start_of_round(state)
    assert EVALUATION.action_value(state, stay) < before - 5  # 5 of its 5 miniatures


def duel(name: str | None, *, command_alive: bool = True) -> GameState:
    """Side 0's "a" (1 miniature, Melee 0) fights side 1's "b" (3 miniatures, Armor 4,
    Morale 8); side 1 has a Command unit far away."""
    state = battle([unit("a", 1)], [unit("b", 3), command("cmd")], board_with(None, name))
    place(state, "a", [(40.0, 40.0)])
    place(state, "b", line(37.5, 42.5, 3))
    place(state, "cmd", line(40.0, 85.0, 3))
    if not command_alive:
        state.alive[state.members("cmd")] = False
    return in_battle(state)


def test_ow_r5_revenge_adds_1_to_damage_rolls_until_the_end_of_the_next_round() -> None:
    def fighting(name: str | None) -> GameState:
        state = battle([unit("a", 1), command("cmd")], [unit("b", 3)], board_with(name))
        place(state, "a", [(40.0, 40.0)])
        place(state, "b", line(37.5, 42.5, 3))
        place(state, "cmd", line(40.0, 5.0, 3))
        state = in_battle(state)
        state.alive[state.members("cmd")] = False  # side 0's Command unit has fallen
        return state

    state = fighting(ruses.REVENGE)
    told = {"ruse": "Revenge", "side": 0, "until": 2, "bonus": 1}
    assert ruses.note_revenge(state)[0].data == told
    assert ruses.note_revenge(state) == []  # noticed once
    assert (ruses.damage_bonus(state, 0), ruses.damage_bonus(state, 1)) == (1, 0)
    # "a" holds and fights (Sword: 3 attacks hitting on 4+ with Hold's +1); two hits, and
    # Damage rolls of 3 reach Armor 4 only with Revenge's +1; Presence 1 + 1 loses
    dice = [4, 4, 1, 3, 3, 1, 1]
    _, events = play(state, Action("hold", 0, "a", "b"), dice)
    assert first(events, "attack").data["wounds"] == 2
    _, events = play(fighting(None), Action("hold", 0, "a", "b"), dice)
    assert first(events, "attack").data["wounds"] == 0
    state.round = 2
    assert ruses.damage_bonus(state, 0) == 1  # still the next round
    state.round = 3
    assert ruses.damage_bonus(state, 0) == 0
    # noticed by the rules after the order in which the Command unit falls: here it holds
    # beside a burning feature (OW-R4) and burns
    fresh = fighting(ruses.REVENGE)
    fresh.alive[fresh.members("cmd", alive=False)] = True
    fresh.board["terrain"] = [{"name": "Ruins", "polygon": RUINS, "blocks_sight": False}]
    fresh.extra["burning"] = [0]
    place(fresh, "cmd", line(42.5, 51.5, 3))  # along the ruins' north side
    assert ruses.note_revenge(fresh) == []
    after, events = play(fresh, Action("hold", 0, "cmd"))
    assert kinds(events)[-2:] == ["destroyed", "ruse"] and after.is_destroyed("cmd")
    assert first(events, "ruse").data["ruse"] == "Revenge"


def test_ow_r6_inspiring_speech_keeps_shaken_tokens_away_while_the_command_unit_stands() -> None:
    beaten = [1, 1, 1, 6, 6]  # "a" misses; Presence 12 beats Morale 8
    after, events = play(duel(ruses.SPEECH), Action("hold", 0, "a", "b"), beaten)
    assert first(events, "presence").data["beaten"]
    assert first(events, "presence").data["no_shaken"]  # the report tells it
    assert after.unit("b").tokens.get("shaken", 0) == 0
    assert after.unit("a").tokens.get("glory", 0) == 1  # the winner still gains Glory
    for state in (duel(ruses.SPEECH, command_alive=False), duel(None)):
        after, _ = play(state, Action("hold", 0, "a", "b"), beaten)
        assert after.unit("b").tokens["shaken"] == 1


def test_the_ai_odds_count_inspiring_speech_and_revenge() -> None:
    from openwar.ai.openwar_eval import WEIGHTS, attack_profile, value_of

    def forecast(state: GameState) -> Any:
        a, b = state.members("a"), state.members("b")
        attack = attack_profile(state, "a", "b", int(a[0]), int(b[0]), 1, ranged=False,
                                holding=False, charged=False, armor_bonus=0)  # fmt: skip
        assert attack is not None
        return attack, value_of(state, "a", "b", attack, WEIGHTS)

    plain, speech = forecast(duel(None)), forecast(duel(ruses.SPEECH))
    assert speech[1].beaten == plain[1].beaten and speech[1].value < plain[1].value
    state = duel(None)
    state.board["ruses"] = [ruses.REVENGE, None]
    state.extra["revenge"] = [1, 0]
    assert forecast(state)[0].armor == plain[0].armor - 1


def test_the_battle_report_says_what_the_ruses_did() -> None:
    from openwar.engine.events import Event
    from openwar.summary import summarise_events

    names, side_of = {"a": "Axes", "b": "Bows"}, {"a": 0, "b": 1}
    events = [
        Event("ruse", {"ruse": "Ambush", "side": 0, "unit": "a"}),  # set-up: told in round 1
        Event("round", {"round": 1, "first": 1}),
        Event("ruse", {"ruse": "Firestarter", "side": 1, "feature": "Ruins"}),
        Event("burned", {"unit": "a", "slain": 4}),
        Event("ruse", {"ruse": "Revenge", "side": 0, "until": 2, "bonus": 1}),
        Event("presence", {"unit": "a", "target": "b", "beaten": True, "no_shaken": True}),
        Event("ruse", {"ruse": "Reinforcements", "side": 1, "unit": "b"}),
    ]
    (current,) = summarise_events(events, names, side_of)
    assert current.number == 1 and current.first == 1
    assert current.ruses == [
        "Ambush (side A): Axes sets up in ambush",
        "Firestarter (side B): Ruins burns",
        "fire: Axes loses 4",
        "Revenge (side A): +1 to Damage rolls to the end of round 2",
        "Inspiring Speech: Bows takes no Shaken token",
        "Reinforcements (side B): Bows returns to the table",
    ]


def test_ow_r2_a_returning_unit_faces_into_the_table_and_leaves_the_prize_where_it_fell() -> None:
    state = fallen_state(ruses.REINFORCEMENTS)
    big = state.members("big", alive=False)
    # carried from (31, 40) since the round began; its carrier fell at its own spot
    state.extra["prize"], state.extra["carrier"] = [31.0, 40.0], int(big[0])
    fell = [float(v) for v in state.pos[big[0]]]
    after, _ = play(state, Action("hold", 1, "b"), [4, 3])
    back = after.members("big")
    assert len(back) == 10
    assert after.extra["carrier"] is None and after.extra["prize"] == fell
    # on the south or north edge band it faces north or south, on the west or east east or west
    x, y = after.pos[back].mean(axis=0)
    if min(y, 90 - y) < min(x, 90 - x):
        expected = np.pi / 2 if y < 45 else -np.pi / 2
    else:
        expected = 0.0 if x < 45 else np.pi
    assert np.allclose(after.facing[back], expected)


def test_ow_r3_an_army_whose_only_unit_left_waits_in_reserve_is_not_wiped_out() -> None:
    state = battle([unit("a", 5), unit("g", 1)], [unit("b", 5)], board_with(ruses.OUTFLANK))
    place(state, "g", [(25.0, 5.0)])
    place(state, "b", line(40.0, 85.0, 5))
    state.active = 0
    waiting, _ = play(state, Action("deploy", 0, "a", choice=ruses.OUTFLANK), [4, 3])
    waiting.alive[waiting.members("g")] = False  # the only unit on the table falls
    for u in waiting.units:
        u.flags["ordered"] = u.id != "b"
    waiting.active = 1
    after, events = play(waiting, Action("hold", 1, "b"), [4, 3])
    assert "battle_over" not in kinds(events) and after.phase == "battle"
    assert first(events, "ruse").data["how"] == "arrives" and after.size("a") == 5


def test_a_whole_battle_with_a_unit_in_reserve_plays_to_its_end() -> None:
    """Random players on a generated battleplan where side A has Outflank; A's first set-up
    choice is the reserve. The battle ends, the unit arrives, and every figure agrees."""
    from pathlib import Path

    from openwar.battles import load_setup, make_players, start
    from openwar.engine.game import apply, legal_actions, outcome
    from openwar.engine.runner import BattleRecord
    from openwar.sim.plan import measure

    seed = next(s for s in range(40) if _plan_ruses(s)[0] == ruses.OUTFLANK)
    army = Path(__file__).parents[3] / "examples" / "armies" / "openwar" / "iron_road_legion.yaml"
    setup = load_setup((army, army), board_from_plan(_plan(seed)), seed)
    initial = state = start(setup)[0]
    players = make_players(("random", "random"), seed, setup.ruleset)
    record = BattleRecord(initial, initial)
    while outcome(state) is None:
        menu = legal_actions(state)
        waits = [a for a in menu if a.choice == ruses.OUTFLANK]
        action = waits[0] if waits else players[state.active].choose(state, menu)
        state, events = apply(state, action)
        record.actions.append(action)
        record.events.append(events)
    record.final = state
    told = [
        e.data.get("how")
        for events in record.events
        for e in events
        if e.kind == "ruse" and e.data["ruse"] == ruses.OUTFLANK
    ]
    assert told[:2] == ["waits", "arrives"]
    assert not any(ruses.in_reserve(u) for u in state.units)
    result = measure(0, seed, setup, record)  # the simulation's figures count what was lost
    back = set(state.extra.get("reinforced", []))
    for i, u in enumerate(state.units):  # per unit: what it lost, or all of it once it fell
        left = len(state.on_table(u.id))
        size = len(state.members(u.id, alive=False))
        assert result.units_lost[i] == (size if u.id in back else size - left)
    minis = sum(n for n, u in zip(result.units_lost, state.units, strict=True) if u.side == 0)
    assert result.miniatures_lost[0] >= minis


def _plan(seed: int) -> dict[str, Any]:
    return battleplan_json(generate("openwar", 1000, seed))


def _plan_ruses(seed: int) -> list[str]:
    plan = _plan(seed)
    return [plan["ruses"]["A"]["name"], plan["ruses"]["B"]["name"]]


def test_the_table_picture_marks_a_burning_feature(tmp_path: Any) -> None:
    from openwar.render.battle import draw_battle

    state = fire_state(ruses.FIRESTARTER)
    cold = draw_battle(state, tmp_path / "cold.svg", "before").read_text()
    ruses.start_of_round(state)
    paths = [draw_battle(state, tmp_path / f"{k}.svg", "burning") for k in (1, 2)]
    hot = paths[0].read_text()
    assert "Ruins (burning)" in hot and "Ruins (burning)" not in cold
    assert paths[0].read_bytes() == paths[1].read_bytes()  # the same state, the same bytes


def test_ow_r2_of_places_equally_near_the_centre_a_unit_comes_on_nearest_its_own_territory() -> (
    None
):
    state = battle([unit("a", 5), unit("g", 1)], [unit("b", 5), unit("h", 1)], board_with(None))
    place(state, "g", [(88.0, 40.0)])
    place(state, "h", [(88.0, 50.0)])
    for uid in ("a", "b"):  # both fallen, far from the centre of every edge but the east
        state.alive[state.members(uid)] = False
    spots = {}
    for uid in ("a", "b"):
        found = ruses._arrival_place(state, state.unit(uid))
        assert found is not None
        spots[uid] = found[0].mean(axis=0)
    assert spots["a"][1] < 15.0  # side 0 on the south edge, its own territory's
    assert spots["b"][1] > 75.0  # side 1 on the north edge


def test_ow_r3_the_players_wait_in_reserve_only_for_want_of_room() -> None:
    from openwar.rulesets.openwar.menu import NO_ROOM
    from openwar.rulesets.openwar.players import score

    state = battle([unit("a", 5)], [unit("b", 5)], board_with(ruses.OUTFLANK))
    wait = Action("deploy", 0, "a", choice=ruses.OUTFLANK)
    no_room = Action("deploy", 0, "a", choice=NO_ROOM)
    somewhere = Action("deploy", 0, "a", point=(45.0, 10.0))
    judges: list[Callable[[GameState, Action], float]] = [EVALUATION.action_value, score]
    for value in judges:
        assert value(state, somewhere) > value(state, wait) > value(state, no_room)
