"""Age of Sigmar battle flow: set-up, battle rounds, command points, objectives, victory.

One test per clause of docs/rules/aos.md, "Battle"; every die is scripted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.rulesets.aos import phases, victory
from openwar.rulesets.aos.board import first_blood_board

from .kit import battle, first, in_phase, kinds, line, place, play, profile, unit


def two_units() -> object:
    return battle([unit("a", 1), unit("x", 1)], [unit("b", 1)])


def test_aos_b2_set_up_wholly_within_territory_alternating() -> None:
    state = battle([unit("a", 1), unit("x", 1)], [unit("b", 1)])
    assert state.phase == "setup" and state.active == 0
    with pytest.raises(IllegalActionError, match="AOS-B2"):
        play(state, Action("deploy", 0, "a", point=(30.0, 20.0)))  # within 12" of enemy land
    state, events = play(state, Action("deploy", 0, "a", point=(30.0, 5.0)))
    assert kinds(events) == ["deployed"] and state.active == 1
    state, _ = play(state, Action("deploy", 1, "b", point=(30.0, 40.0)))
    assert state.active == 0 and state.extra["finished_first"] == 1
    state, events = play(state, Action("deploy", 0, "x", point=(10.0, 5.0)), [4, 2])
    assert first(events, "roll_off").data == {"round": 1, "rolls": [4, 2], "chooser": 0}
    assert (state.phase, state.active) == ("first_turn", 0)


def test_aos_b1_roll_off_winner_chooses_ties_go_to_who_set_up_first() -> None:
    state = battle([unit("a", 1)], [unit("b", 1)])
    state, _ = play(state, Action("deploy", 0, "a", point=(30.0, 5.0)))
    state, events = play(state, Action("deploy", 1, "b", point=(30.0, 40.0)), [3, 3])
    # a tie in round 1: the player who finished setting up first (side 0) chooses
    assert first(events, "roll_off").data["chooser"] == 0
    state, events = play(state, Action("first_turn", 0, choice="second"))
    assert first(events, "round").data == {"round": 1, "first": 1}
    assert (state.phase, state.extra["turn"], state.active) == ("hero", 1, 1)


def test_aos_b1_later_ties_go_to_who_went_first_last_round() -> None:
    state = in_phase(battle([unit("a", 1)], [unit("b", 1)]), "battleshock", turn=1, round=1)
    place(state, "a", [(30.0, 5.0)])
    place(state, "b", [(30.0, 40.0)])
    state.extra["first"] = 0  # side 0 went first; side 1's turn ends the round
    events = phases.end_turn(
        state, __import__("openwar.engine.game", fromlist=["x"]).ScriptedDice([5, 5])
    )
    assert first(events, "roll_off").data["chooser"] == 0 and state.round == 2


def test_aos_b5_command_points_battalions_and_each_hero_phase() -> None:
    state = battle(
        [unit("a", 1, profile(battalion="Host")), unit("x", 1, profile(battalion="Host"))],
        [unit("b", 1)],
    )
    assert state.extra["cp"] == [1, 0]
    state = in_phase(state, "first_turn", turn=0)
    place(state, "a", [(30.0, 5.0)])
    place(state, "x", [(10.0, 5.0)])
    place(state, "b", [(30.0, 40.0)])
    state, events = play(state, Action("first_turn", 0, choice="first"))
    assert first(events, "command_points").data == {"side": 0, "cp": 2}


def test_aos_b5_two_copies_of_one_battalion_give_two_command_points(tmp_path: Path) -> None:
    """Each copy counts: battalions were told apart by name, so two Warden Hosts gave one."""
    from openwar.rulesets.aos.forces import load_force
    from openwar.rulesets.aos.setup import new_battle

    sample = Path(__file__).parents[3] / "examples" / "armies" / "aos" / "gilded_vanguard.yaml"
    text = sample.read_text().replace("points_limit: 1000", "points_limit: 2000")
    text += "  - name: Warden Host\n    units: [Magister of Cinders, Stormhoof Lances]\n"
    path = tmp_path / "two.yaml"
    path.write_text(text)
    _, force = load_force(path, "a")
    _, other = load_force(sample, "b")
    state, _ = new_battle((force, other), first_blood_board(), seed=0)
    assert state.extra["cp"] == [2, 1]


def test_aos_b6_first_blood_gives_a_command_point() -> None:
    from openwar.engine.game import ScriptedDice
    from openwar.rulesets.aos.wounds import allocate

    state = in_phase(battle([unit("a", 1)], [unit("b", 2)]), "shooting")
    place(state, "a", [(30.0, 5.0)])
    place(state, "b", line(30.0, 40.0, 2))
    allocate(state, "b", 1, ScriptedDice([]), 0, "test")
    assert state.extra["first_blood"] == 0 and state.extra["cp"] == [1, 0]
    allocate(state, "b", 1, ScriptedDice([]), 0, "test")
    assert state.extra["cp"] == [1, 0]  # only the first slain model counts


def test_aos_o1_objective_control_within_6_and_kept_until_taken() -> None:
    board = first_blood_board()
    board["victory"] = "Field of Glory"
    state = in_phase(battle([unit("a", 2)], [unit("b", 1)], board), "battleshock")
    state.extra["objectives"] = [[30.0, 24.0]]
    state.extra["control"] = [None]
    place(state, "a", line(30.0, 30.0, 2))  # base edges 5.51" from the centre
    place(state, "b", [(30.0, 17.0)])  # 6.51" away: does not count
    victory.control(state)
    assert state.extra["control"] == [0]
    state.pos[state.members("a")] += [0.0, 10.0]
    victory.control(state)
    assert state.extra["control"] == [0]  # nobody near: kept
    state.pos[state.members("b")] += [0.0, 3.0]
    victory.control(state)
    assert state.extra["control"] == [1]


def test_aos_o2_a_model_counts_for_one_objective_the_nearest() -> None:
    board = first_blood_board()
    board["victory"] = "Field of Glory"
    state = in_phase(battle([unit("a", 1)], [unit("b", 1)], board), "battleshock")
    state.extra["objectives"] = [[30.0, 24.0], [34.0, 24.0]]
    state.extra["control"] = [None, None]
    place(state, "a", [(31.0, 24.0)])
    place(state, "b", [(50.0, 40.0)])
    victory.control(state)
    assert state.extra["control"] == [0, None]


def test_aos_v1_first_blood_victory_scores_wounds_of_slain_models() -> None:
    state = battle([unit("a", 1)], [unit("b", 1)])
    state.extra["slain_wounds"] = [9, 6]
    assert victory.result(state).victory == "major"  # 9 >= 6 * 1.5
    state.extra["slain_wounds"] = [8, 6]
    assert (victory.result(state).winner, victory.result(state).victory) == (0, "minor")


@pytest.mark.parametrize(
    ("name", "control", "extra", "expected"),
    [
        ("Field of Glory", [0, 0, 0], {}, (0, "major")),
        ("Field of Glory", [1, 1, None], {}, (1, "minor")),
        ("Field of Glory", [1, 0, None], {}, (None, "draw")),
        ("Drawn and Quartered", [], {"vp": [4, 2]}, (0, "major")),
        ("Drawn and Quartered", [], {"vp": [4, 3]}, (0, "minor")),
        ("Loot and Plunder", [0, 1, 1], {}, (1, "minor")),
        ("Loot and Plunder", [0, 1], {"sudden": 0}, (0, "major")),
    ],
)
def test_aos_v2_open_war_victory_conditions(
    name: str, control: list[int | None], extra: dict[str, object], expected: tuple[object, str]
) -> None:
    board = first_blood_board()
    board["victory"] = name
    state = battle([unit("a", 1)], [unit("b", 1)], board)
    state.extra["control"] = control
    state.extra.update(extra)
    got = victory.result(state)
    assert (got.winner, got.victory) == expected


def test_aos_v3_war_of_attrition_counts_points_of_destroyed_units() -> None:
    board = first_blood_board()
    board["victory"] = "War of Attrition"
    state = battle(
        [unit("a", 1, points=100)], [unit("b", 1, points=250), unit("c", 1, points=50)], board
    )
    state.extra["destroyed"] = ["b", "a"]
    got = victory.result(state)
    assert (got.scores, got.winner, got.victory) == ((250, 100), 0, "major")


def test_aos_v4_invasion_holding_both_at_end_of_opponents_turn_wins_at_once() -> None:
    from openwar.engine.game import ScriptedDice

    board = first_blood_board()
    board["victory"] = "Invasion"
    state = in_phase(battle([unit("a", 2)], [unit("b", 1)], board), "battleshock", turn=1)
    state.extra["objectives"] = [[10.0, 10.0], [60.0, 40.0]]
    state.extra["control"] = [0, 0]
    place(state, "a", [(10.0, 10.0), (60.0, 40.0)])
    place(state, "b", [(30.0, 30.0)])
    events = phases.end_turn(state, ScriptedDice([]))
    assert state.phase == "over"
    assert first(events, "battle_over").data["victory"] == "major"


def test_aos_v5_loot_and_plunder_removes_looted_objectives() -> None:
    board = first_blood_board()
    board["victory"] = "Loot and Plunder"
    state = in_phase(battle([unit("a", 1)], [unit("b", 1)], board), "battleshock", turn=0)
    state.extra["objectives"] = [[10.0, 40.0], [60.0, 5.0]]
    state.extra["control"] = [None, None]
    place(state, "a", [(10.0, 42.0)])  # in side 1's territory
    place(state, "b", [(60.0, 30.0)])
    from openwar.engine.game import ScriptedDice

    events = victory.end_of_turn(state, ScriptedDice([]))
    assert "looted" in kinds(events)
    assert state.extra["objectives"] == [[60.0, 5.0]] and state.extra["looted"] == [1, 0]


def test_aos_v2_v5_loot_and_plunder_scores_objectives_held_or_looted() -> None:
    """The score was looted x 10 + held ("B 13" with six objectives on the table): now the
    objectives held, which decide the battle at its end, and a battle won by looting all three
    is scored in objectives looted."""
    board = first_blood_board()
    board["victory"] = "Loot and Plunder"
    state = in_phase(battle([unit("a", 1)], [unit("b", 1)], board), "battleshock", turn=0)
    state.extra["control"] = [1, 1, 0]
    state.extra["looted"] = [0, 1]
    assert victory.scores(state) == (1, 2)
    outcome = victory.result(state)
    assert (outcome.winner, outcome.victory, outcome.scores) == (1, "minor", (1, 2))
    state.extra["looted"] = [3, 1]
    state.extra["sudden"] = 0
    outcome = victory.result(state)
    assert (outcome.winner, outcome.victory, outcome.scores) == (0, "major", (3, 1))
    assert outcome.reason == "Loot and Plunder: looted all 3"


def test_aos_b9_battle_ends_when_a_side_has_no_units_left() -> None:
    state = in_phase(
        battle(
            [
                unit("a", 1, profile(melee=[])),
            ],
            [unit("b", 1)],
        ),
        "hero",
    )
    place(state, "a", [(30.0, 5.0)])
    place(state, "b", [(30.0, 40.0)])
    state.alive[state.members("b")] = False
    from openwar.engine.game import ScriptedDice

    events = phases.check_end(state, ScriptedDice([]))
    assert state.phase == "over" and kinds(events) == ["battle_over"]
    with pytest.raises(IllegalActionError, match="AOS-B9"):
        play(state, Action("end_phase", 0))


def test_aos_b9_open_war_battles_last_five_rounds_even_after_a_wipe_out() -> None:
    from openwar.engine.game import ScriptedDice

    board = first_blood_board()
    board["victory"] = "Field of Glory"
    state = in_phase(battle([unit("a", 1)], [unit("b", 1)], board), "hero")
    place(state, "a", [(30.0, 5.0)])
    place(state, "b", [(30.0, 40.0)])
    state.alive[state.members("b")] = False
    assert phases.check_end(state, ScriptedDice([])) == [] and state.phase == "hero"
