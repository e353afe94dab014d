"""OpenWar battle rules: set-up, rounds, turn order, objectives, the end and the result.

One test per clause of docs/rules/openwar.md, "Battle"; every die is scripted.
"""

from __future__ import annotations

import numpy as np
import pytest

from openwar.engine import apply
from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.state import GameState
from openwar.rulesets.openwar.battle import RULES
from openwar.rulesets.openwar.board import default_board
from openwar.rulesets.openwar.rules import battle_rules

from .conftest import battle, first, in_battle, kinds, place, play, unit


def two_against_one() -> GameState:
    """Side 0: units "a" and "x"; side 1: unit "b"; nobody set up yet, side 0 to set up."""
    state = battle([unit("a", 1), unit("x", 1)], [unit("b", 1)])
    state.active = 0
    return state


def test_ow_b12_set_up_wholly_within_own_territory() -> None:
    state = two_against_one()  # side 0's territory: y from 0 to 20
    with pytest.raises(IllegalActionError, match="OW-B12"):
        play(state, Action("deploy", 0, "a", point=(40.0, 19.0)))  # base reaches y = 20.25
    with pytest.raises(IllegalActionError, match="OW-B12"):
        play(state, Action("deploy", 0, "b", point=(40.0, 80.0)))  # not side 0's unit
    with pytest.raises(IllegalActionError, match="OW-B12"):
        play(state, Action("hold", 0, "a"))  # only deploy during set-up
    after, events = play(state, Action("deploy", 0, "a", point=(40.0, 18.75)))
    assert kinds(events) == ["deployed"]
    with pytest.raises(IllegalActionError, match="OW-B12"):
        after.active = 0
        play(after, Action("deploy", 0, "a", point=(20.0, 10.0)))  # already set up


def test_ow_b12_sides_set_up_alternately_unit_by_unit() -> None:
    state, _ = play(two_against_one(), Action("deploy", 0, "a", point=(40.0, 10.0)))
    assert state.active == 1
    state, _ = play(state, Action("deploy", 1, "b", point=(40.0, 80.0)))
    assert state.active == 0  # side 1 has nothing left: side 0 sets up the rest
    assert state.phase == "setup"


def test_ow_b1_each_round_starts_with_a_roll_off_ties_rolled_again() -> None:
    state, _ = play(two_against_one(), Action("deploy", 0, "a", point=(40.0, 10.0)))
    state, _ = play(state, Action("deploy", 1, "b", point=(40.0, 80.0)))
    state, events = play(state, Action("deploy", 0, "x", point=(10.0, 10.0)), [3, 3, 2, 5])
    assert first(events, "round").data == {"round": 1, "first": 1, "rolls": [(3, 3), (2, 5)]}
    assert (state.phase, state.round, state.active) == ("battle", 1, 1)


def battle_lines() -> GameState:
    state = two_against_one()
    place(state, "a", [(40.0, 10.0)])
    place(state, "x", [(10.0, 10.0)])
    place(state, "b", [(40.0, 80.0)])
    return in_battle(state)


def test_ow_b1_sides_alternate_orders_and_a_side_with_none_left_passes() -> None:
    state, _ = play(battle_lines(), Action("hold", 0, "a"))
    assert state.active == 1
    state, _ = play(state, Action("hold", 1, "b"))
    assert state.active == 0  # side 1 has no unit without an order
    state, events = play(state, Action("hold", 0, "x"), [2, 6])
    assert first(events, "round").data["round"] == 2
    assert (state.round, state.active) == (2, 1)
    assert not any(u.flags["ordered"] for u in state.units)


def test_ow_b13_the_battle_ends_after_the_last_round() -> None:
    state = battle_lines()
    state.round = battle_rules().rounds
    for u in ("a", "b"):
        state.unit(u).flags["ordered"] = True
    state, events = play(state, Action("hold", 0, "x"))
    assert first(events, "battle_over").data["victory"] == "draw"
    assert state.phase == "over"
    with pytest.raises(IllegalActionError, match="OW-B13"):
        play(state, Action("hold", 0, "a"))


def test_ow_b13_the_battle_ends_when_an_army_is_destroyed() -> None:
    state = battle_lines()
    place(state, "b", [(40.0, 12.5)])
    state, events = play(state, Action("hold", 0, "a", "b"), [6, 6, 6, 6, 1, 1, 1, 1])
    assert first(events, "battle_over").data == {
        "winner": 0,
        "victory": "major",
        "scores": [10, 0],
        "reason": "enemy army destroyed",
    }


def test_ow_b14_objectives_score_for_the_side_with_more_miniatures_within_8cm() -> None:
    board = default_board()
    board["objectives"] = [[45.0, 45.0], [20.0, 45.0]]
    board["objective_points"] = 3
    state = battle([unit("a", 2)], [unit("b", 1)], board)
    place(state, "a", [(45.0, 40.0), (45.0 + 9.25, 45.0)])  # 3.75 and 8.0 cm from the first
    place(state, "b", [(45.0, 50.0)])  # 3.75 cm; the second objective is nobody's
    state = in_battle(state)
    state.unit("a").flags["ordered"] = True
    state.active = 1
    _, events = play(state, Action("hold", 1, "b"), [6, 1])
    assert first(events, "objectives").data == {"round": 1, "held": [0, None], "scores": [3, 0]}
    place(state, "a", [(45.0, 40.0), (45.0 + 9.35, 45.0)])  # 8.1 cm: no longer counts
    _, events = play(state, Action("hold", 1, "b"), [6, 1])
    assert first(events, "objectives").data["held"] == [None, None]


def ended(scores: tuple[int, int], destroyed: str | None = None) -> GameState:
    state = battle_lines()
    state.scores = list(scores)
    state.phase = "over"
    if destroyed:
        state.alive[state.members(destroyed)] = False
    return state


def test_ow_b16_result_major_minor_or_draw() -> None:
    major = RULES.outcome(ended((6, 3)))
    assert major is not None and (major.winner, major.victory) == (0, "major")
    minor = RULES.outcome(ended((4, 5)))
    assert minor is not None and (minor.winner, minor.victory) == (1, "minor")
    draw = RULES.outcome(ended((4, 4)))
    assert draw is not None and (draw.winner, draw.victory) == (None, "draw")
    # destroyed units count their points (10 each here) for the enemy
    counted = RULES.outcome(ended((0, 5), destroyed="x"))
    assert counted is not None and counted.scores == (0, 15)
    assert RULES.outcome(battle_lines()) is None


def test_apply_leaves_the_state_unchanged_when_an_action_is_illegal() -> None:
    state = battle_lines()
    place(state, "b", [(40.0, 14.0)])  # in combat with a
    before = state.state_hash()
    for action in (
        Action("hold", 1, "b"),  # not side 1's move
        Action("advance", 0, "a", None, (40.0, 5.0), "move-shoot"),  # in combat
        Action("run", 0, "a", None, (46.0, 10.0)),  # moves, then the retreat ends in combat
    ):
        with pytest.raises(IllegalActionError):
            apply(state, action)
        assert state.state_hash() == before


def test_ow_b3_units_set_up_in_ranks_of_5_facing_the_enemy() -> None:
    state = battle([unit("a", 7)], [unit("b", 1)])
    state.active = 0
    after, _ = play(state, Action("deploy", 0, "a", point=(40.0, 10.0)))
    ys = sorted(after.pos[after.members("a")][:, 1].tolist())
    assert ys == pytest.approx([8.75, 8.75, 11.25, 11.25, 11.25, 11.25, 11.25])
    assert after.facing[after.members("a")] == pytest.approx([3.14159265 / 2] * 7)


def _shallow_board(width: float) -> dict[str, object]:
    board = default_board()
    left = 45.0 - width / 2.0  # centred under the enemy zone: units face straight north
    board["territories"] = [
        [[left, 0.0], [left + width, 0.0], [left + width, 9.0], [left, 9.0]],
        board["territories"][1],
    ]
    return board


def test_ow_b12_a_unit_with_no_room_in_ranks_of_5_sets_up_10_abreast() -> None:
    from openwar.rulesets.openwar.menu import WIDE

    state = battle([unit("a", 30)], [unit("b", 1)], _shallow_board(40.0))
    state.active = 0
    menu = RULES.legal_actions(state)
    assert menu and all(a.choice == WIDE for a in menu)
    after, _ = play(state, menu[0])
    depth = np.ptp(after.pos[after.members("a")][:, 1]) + 2 * battle_rules().base_radius
    assert depth == pytest.approx(3 * 2 * battle_rules().base_radius)  # three ranks of ten


def test_ow_b12_a_unit_that_fits_nowhere_takes_no_part() -> None:
    from openwar.rulesets.openwar.menu import NO_ROOM

    state = battle([unit("a", 30)], [unit("b", 1)], _shallow_board(20.0))
    state.active = 0
    menu = RULES.legal_actions(state)
    assert [a.choice for a in menu] == [NO_ROOM]
    after, events = play(state, menu[0])
    assert kinds(events)[0] == "no_room" and after.is_destroyed("a")


def test_ow_b12_the_battle_report_names_the_units_that_found_no_room() -> None:
    """They count as destroyed before round 1, which the rounds' table does not show (the
    report said nothing of 25 units of 31 left off the table)."""
    from openwar.cli.battle import _no_room_lines, no_room
    from openwar.engine.runner import BattleRecord
    from openwar.rulesets.openwar.menu import NO_ROOM

    state = battle([unit("a", 30)], [unit("b", 1)], _shallow_board(20.0))
    state.active = 0
    action = Action("deploy", 0, "a", choice=NO_ROOM)
    after, events = play(state, action)
    record = BattleRecord(state, after, [action], [events])
    name = state.unit("a").name
    assert no_room(record) == ([name], [])
    assert _no_room_lines(no_room(record)) == [
        f"set-up: 1 A unit found no room in its territory and counts as destroyed: {name}"
    ]
    many = _no_room_lines(([], ["W1", "W2", "W3", "W4", "W5"]))
    assert many == ["set-up: 5 B units found no room in their territory and count as "
                    "destroyed: W1, W2, W3 and 2 more"]  # fmt: skip


def test_ow_bp_7_a_generated_battleplan_plays_five_rounds_the_default_board_six() -> None:
    from openwar.battleplans.generator import generate
    from openwar.battleplans.report import battleplan_json
    from openwar.rulesets.openwar.board import board_from_plan, default_board

    for seed in range(5):
        plan = battleplan_json(generate("openwar", 1000, seed))
        assert plan["game_length"] == 5 and board_from_plan(plan)["rounds"] == 5
    assert "rounds" not in default_board() and battle_rules().rounds == 6  # OW-B13's limit
