"""OpenWar plays the battleplan's victory condition (clauses OW-V1..OW-V7)."""

from __future__ import annotations

from typing import Any

from openwar.engine.game import ScriptedDice
from openwar.engine.state import GameState
from openwar.rulesets.openwar import victory
from openwar.rulesets.openwar.board import default_board

from .conftest import battle, in_battle, place, unit

SOUTH = [[0.0, 0.0], [90.0, 0.0], [90.0, 20.0], [0.0, 20.0]]
NORTH = [[0.0, 70.0], [90.0, 70.0], [90.0, 90.0], [0.0, 90.0]]
NO_DICE = ScriptedDice([])  # boards without an Arcane Prize table roll nothing at the end


def board_for(name: str, objectives: list[list[float]], **extra: Any) -> dict[str, Any]:
    board = default_board()
    board.update(victory=name, objectives=objectives, control_range=8.0, lands=[SOUTH, NORTH])
    board.update(extra)
    return board


def two_units(
    board: dict[str, Any], a_at: tuple[float, float], b_at: tuple[float, float]
) -> GameState:
    state = battle([unit("a", 1)], [unit("b", 1)], board)
    place(state, "a", [a_at])
    place(state, "b", [b_at])
    return in_battle(state)


def test_ow_v1_drawn_and_quartered_scores_one_point_per_objective_each_round() -> None:
    state = two_units(board_for(victory.QUARTERED, [[10.0, 45.0], [80.0, 45.0]]),
                      (10.0, 47.0), (80.0, 47.0))  # fmt: skip
    events, winner = victory.end_of_round(state, NO_DICE)
    assert winner is None
    assert state.scores == [1, 1]
    assert events[0].data["held"] == [0, 1]
    victory.end_of_round(state, NO_DICE)
    assert state.scores == [2, 2]
    assert victory.result(state, (0, 0), None).victory == "draw"


def test_ow_v2_field_of_glory_all_three_major_two_minor_else_draw() -> None:
    points = [[45.0, 45.0], [45.0, 10.0], [45.0, 80.0]]
    state = battle([unit("a", 3)], [unit("b", 1)], board_for(victory.FIELD, points))
    place(state, "a", [(45.0, 47.0), (45.0, 12.0), (45.0, 78.0)])
    place(state, "b", [(5.0, 45.0)])
    result = victory.result(in_battle(state), (0, 0), None)
    assert (result.winner, result.victory) == (0, "major")
    place(state, "b", [(45.0, 76.0)])  # contests the third objective: 1 against 1
    result = victory.result(state, (0, 0), None)
    assert (result.winner, result.victory) == (0, "minor")
    place(state, "a", [(5.0, 45.0), (45.0, 12.0), (85.0, 45.0)])
    assert victory.result(state, (0, 0), None).victory == "draw"


def test_ow_v3_war_of_attrition_compares_points_destroyed() -> None:
    state = two_units(board_for(victory.ATTRITION, []), (10.0, 10.0), (80.0, 80.0))
    assert victory.result(state, (200, 90), None).victory == "major"
    assert victory.result(state, (120, 90), None).victory == "minor"
    assert victory.result(state, (90, 90), None).victory == "draw"


def test_ow_v4_invasion_both_objectives_win_at_once_else_the_nearer_one() -> None:
    board = board_for(victory.INVASION, [[30.0, 10.0], [60.0, 85.0]])
    state = battle([unit("a", 2)], [unit("b", 1)], board)
    place(state, "a", [(30.0, 12.0), (60.0, 83.0)])
    place(state, "b", [(5.0, 45.0)])
    _, winner = victory.end_of_round(in_battle(state), NO_DICE)
    assert winner == 0
    outright = victory.result(state, (120, 30), winner)
    assert outright.reason.endswith("won outright") and outright.victory == "major"
    assert outright.scores == (2, 0)  # objectives held, not points destroyed (OW-B16)
    place(state, "a", [(30.0, 12.0), (5.0, 50.0)])  # the nearer objective (30, 10) only
    result = victory.result(state, (0, 0), None)
    assert (result.winner, result.victory) == (0, "minor")


def test_ow_v5_arcane_prize_is_taken_within_3cm_carried_and_scored() -> None:
    board = board_for(victory.PRIZE, [[45.0, 45.0]], prize_gap=30.0, prize_pickup=3.0)
    state = two_units(board, (45.0, 47.0), (45.0, 80.0))
    victory.end_of_round(state, NO_DICE)
    carrier = state.extra["carrier"]
    assert carrier is not None and state.unit_of[carrier] == state.unit_index("a")
    state.pos[carrier] = (45.0, 10.0)  # carried home, 60 cm from the enemy territory
    victory.end_of_round(state, NO_DICE)
    assert state.extra["prize"] == [45.0, 10.0]
    result = victory.result(state, (0, 0), None)
    assert (result.winner, result.victory) == (0, "major")
    state.alive[carrier] = False  # the carrier falls: the prize stays where it fell
    victory.end_of_round(state, NO_DICE)
    assert state.extra["carrier"] is None and state.extra["prize"] == [45.0, 10.0]


def test_ow_v5_the_prize_moves_with_its_carrier_mid_round_and_stays_where_it_falls() -> None:
    """It moved only at the end of a round: a carrier that ran and was then slain dropped it
    back where the round began, and the Ward and Soul Stone measured from there."""
    from openwar.rulesets.openwar.prize import prize_point

    board = board_for(victory.PRIZE, [[45.0, 45.0]], prize_gap=30.0, prize_pickup=3.0)
    state = two_units(board, (45.0, 47.0), (45.0, 80.0))
    victory.end_of_round(state, NO_DICE)
    carrier = state.extra["carrier"]
    state.pos[carrier] = (45.0, 29.0)  # it runs, mid-round
    assert prize_point(state) == (45.0, 29.0)
    assert victory.live_objectives(state) == [(0, (45.0, 29.0))]
    state.alive[carrier] = False  # and is shot down before the round ends
    assert prize_point(state) == (45.0, 29.0)
    victory.end_of_round(state, NO_DICE)
    assert state.extra["carrier"] is None and state.extra["prize"] == [45.0, 29.0]


def test_ow_v5_a_prize_out_of_reach_is_not_taken() -> None:
    board = board_for(victory.PRIZE, [[45.0, 45.0]], prize_gap=30.0, prize_pickup=3.0)
    state = two_units(board, (45.0, 50.0), (45.0, 80.0))  # 3.75 cm from the marker's centre
    victory.end_of_round(state, NO_DICE)
    assert state.extra.get("carrier") is None


def test_ow_v6_loot_and_plunder_removes_enemy_objectives_and_all_three_win() -> None:
    enemy = [[20.0, 80.0], [45.0, 80.0], [70.0, 80.0]]
    own = [[20.0, 10.0], [45.0, 10.0], [70.0, 10.0]]
    state = battle([unit("a", 3)], [unit("b", 1)], board_for(victory.LOOT, own + enemy))
    place(state, "a", [(20.0, 78.0), (45.0, 78.0), (5.0, 45.0)])
    place(state, "b", [(85.0, 45.0)])
    _, winner = victory.end_of_round(in_battle(state), NO_DICE)
    assert winner is None and sorted(state.extra["looted"]) == [3, 4]
    assert len(victory.live_objectives(state)) == 4
    place(state, "a", [(70.0, 78.0), (45.0, 78.0), (5.0, 45.0)])
    _, winner = victory.end_of_round(state, NO_DICE)
    assert winner == 0
    # scored by the objectives looted, which decided it (side 1 still holds nothing)
    won = victory.result(state, (0, 0), winner)
    assert (won.winner, won.victory, won.scores) == (0, "major", (3, 0))


def test_ow_v6_both_sides_looting_all_in_one_round_ends_the_battle_as_at_its_end() -> None:
    enemy = [[45.0, 80.0]]
    own = [[45.0, 10.0]]
    state = battle([unit("a", 1)], [unit("b", 1)], board_for(victory.LOOT, own + enemy))
    place(state, "a", [(45.0, 78.0)])
    place(state, "b", [(45.0, 12.0)])
    _, winner = victory.end_of_round(in_battle(state), NO_DICE)
    assert winner is None and victory.ended_early(state)
    drawn = victory.result(state, (0, 0), None)
    assert (drawn.winner, drawn.victory, drawn.scores) == (None, "draw", (0, 0))


def test_ow_v6_and_v4_a_battle_ended_early_is_over_after_the_rounds_last_order() -> None:
    """The ended-early paths played through the rules (not only the condition's own end of
    round): the round's last order ends the battle in round 1, and nothing more is asked."""
    from openwar.engine.actions import Action
    from openwar.rulesets.openwar.battle import RULES

    from .conftest import kinds, play

    loot = battle([unit("a", 1)], [unit("b", 1)],
                  board_for(victory.LOOT, [[45.0, 10.0], [45.0, 80.0]]))  # fmt: skip
    place(loot, "a", [(45.0, 78.0)])  # each side on the other's only objective
    place(loot, "b", [(45.0, 12.0)])
    invasion = battle([unit("a", 2)], [unit("b", 1)],
                      board_for(victory.INVASION, [[30.0, 10.0], [60.0, 85.0]]))  # fmt: skip
    place(invasion, "a", [(30.0, 12.0), (60.0, 83.0)])  # side A on both objectives
    place(invasion, "b", [(5.0, 45.0)])
    for state, expected in ((loot, (None, "draw")), (invasion, (0, "major"))):
        state, _ = play(in_battle(state), Action("hold", 0, "a"))
        assert state.phase == "battle" and RULES.outcome(state) is None
        state, events = play(state, Action("hold", 1, "b"))
        assert state.phase == "over" and kinds(events)[-1] == "battle_over"
        result = RULES.outcome(state)
        assert result is not None and (result.winner, result.victory) == expected
        assert result.rounds == 1 and RULES.legal_actions(state) == []


def test_ow_v7_a_board_without_a_condition_scores_objective_points() -> None:
    board = board_for("", [[45.0, 45.0]], objective_points=5)
    state = two_units(board, (45.0, 47.0), (5.0, 5.0))
    victory.end_of_round(state, NO_DICE)
    assert state.scores == [5, 0]
    assert victory.result(state, (0, 0), None).winner == 0


def test_ow_b16_a_destroyed_army_loses_major_and_the_scores_stay_the_conditions() -> None:
    """Under a battleplan's condition the scores of a battle won by destroying the enemy
    army are that condition's own (objectives held), not points: one scale per condition."""
    from openwar.rulesets.openwar.battle import RULES

    board = board_for(victory.INVASION, [[30.0, 10.0], [60.0, 85.0]])
    state = battle([unit("a", 2)], [unit("b", 1)], board)
    place(state, "a", [(30.0, 12.0), (5.0, 50.0)])  # the nearer objective (30, 10) held
    place(state, "b", [(5.0, 45.0)])
    state = in_battle(state)
    state.alive[state.on_table("b")] = False
    state.phase = "over"
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert (outcome.winner, outcome.victory, outcome.reason) == (0, "major", "enemy army destroyed")
    assert outcome.scores == (1, 0)  # objectives held, as Invasion counts them
