"""OpenWar plays the battleplan's twist (clauses OW-X1..OW-X6 of docs/rules/openwar.md).

Every die is scripted; the start-of-round effects are resolved as the round starts (the last
order of a round) or, where a test looks at one side's roll, by ``twists.start_of_round``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from openwar.battleplans.generator import generate
from openwar.battleplans.report import battleplan_json
from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.game import ScriptedDice
from openwar.engine.space import unit_gaps
from openwar.engine.state import GameState
from openwar.rulesets.openwar import twists
from openwar.rulesets.openwar.battle import RULES
from openwar.rulesets.openwar.board import board_from_plan, default_board
from openwar.rulesets.openwar.rules import battle_rules

from .conftest import (
    BOW,
    DIAMETER,
    battle,
    first,
    in_battle,
    kinds,
    line,
    loadout,
    place,
    play,
    profile,
    unit,
)

LONGBOW = {**BOW, "name": "Longbow", "range": 60}
ARCHERS = profile(ranged=0, loadouts=[loadout(LONGBOW)])


def board_with(name: str) -> dict[str, Any]:
    board = default_board()
    board["twist"] = name
    return board


def start_round(state: GameState, rolls: list[int]) -> list[Any]:
    """Resolve the start-of-round effects with exactly ``rolls`` (``state.active`` first)."""
    dice = ScriptedDice(rolls)
    events = twists.start_of_round(state, dice)
    assert not dice.values, f"scripted dice left over: {dice.values}"
    return events


def test_ow_x1_a_board_names_its_twist_and_a_board_without_one_has_none() -> None:
    for seed in range(12):
        plan = battleplan_json(generate("openwar", 1000, seed))
        board = board_from_plan(plan)
        assert board["twist"] == (plan["twist"] or {}).get("name", "No Twist")
        assert board["twist"] in twists.TWISTS
    state = in_battle(battle([unit("a", 1)], [unit("b", 1)]))
    assert twists.twist(state) == twists.NO_TWIST
    assert start_round(state, []) == []  # no die is rolled for No Twist


def archers_at(gap_cm: float, twist: str) -> GameState:
    state = battle([unit("a", 1, ARCHERS)], [unit("b", 1)], board_with(twist))
    place(state, "a", [(40.0, 10.0)])
    place(state, "b", [(40.0, 10.0 + DIAMETER + gap_cm)])
    return in_battle(state)


def test_ow_x2_dead_of_night_hides_units_more_than_30cm_apart() -> None:
    play(archers_at(30.0, twists.DEAD_OF_NIGHT), Action("hold", 0, "a", "b"), [1, 1, 1])
    with pytest.raises(IllegalActionError, match="OW-H2"):
        play(archers_at(30.5, twists.DEAD_OF_NIGHT), Action("hold", 0, "a", "b"))
    play(archers_at(30.5, twists.NO_TWIST), Action("hold", 0, "a", "b"), [1, 1, 1])


def test_ow_x2_from_round_2_a_4_or_more_widens_the_night_by_15cm() -> None:
    state = archers_at(40.0, twists.DEAD_OF_NIGHT)
    assert start_round(state, []) == []  # round 1: nothing rolled
    state.round = 2
    assert start_round(state, [3])[0].data == {"twist": "Dead of Night", "roll": 3, "sight": 30}
    assert twists.sight_limit(state) == 30
    state.round = 3
    assert start_round(state, [4])[0].data["sight"] == 45
    play(state, Action("hold", 0, "a", "b"), [1, 1, 1])  # 40 cm apart: seen now


def struck_armies() -> GameState:
    big, small = unit("big", 10), unit("small", 5)
    big = big.__class__(**{**big.__dict__, "points": 100})
    state = battle([unit("a", 1)], [small, big, unit("tiny", 1)], board_with(twists.LIGHTNING))
    place(state, "a", [(40.0, 10.0)])
    place(state, "big", [*line(20.0, 80.0, 5), *line(20.0, 82.5, 5)])
    place(state, "small", line(60.0, 80.0, 5))
    place(state, "tiny", [(80.0, 60.0)])
    return in_battle(state)


def test_ow_x3_lightning_each_6_strikes_a_different_enemy_unit_most_valuable_first() -> None:
    state = struck_armies()
    # side 0: 6, 2, 6 -> two strikes: "big" (100 points) loses 3, then "small" loses 2
    # side 1: 1, 1, 5 -> nothing
    events = start_round(state, [6, 2, 6, 3, 2, 1, 1, 5])
    assert [e.data for e in events if e.kind == "struck"] == [
        {"unit": "big", "rolled": 3, "slain": 3},
        {"unit": "small", "rolled": 2, "slain": 2},
    ]
    assert (len(state.on_table("big")), len(state.on_table("small"))) == (7, 3)
    assert len(state.on_table("tiny")) == 1
    # the rearmost go first: big's back rank (y = 82.5) is farther from "a"
    assert not state.alive[state.members("big", alive=False)][5:8].any()


def test_ow_x3_lightning_that_destroys_the_last_enemy_unit_ends_the_battle() -> None:
    state = battle([unit("a", 1)], [unit("b", 1)], board_with(twists.LIGHTNING))
    place(state, "a", [(40.0, 10.0)])
    place(state, "b", [(40.0, 80.0)])
    state = in_battle(state)
    state.unit("b").flags["ordered"] = True
    # the round's last order; roll-off 5-2 (side 0 first), side 0's dice 6, 1, 1 and D3 = 1
    after, events = play(state, Action("hold", 0, "a"), [5, 2, 6, 1, 1, 1])
    assert "destroyed" in kinds(events)
    assert first(events, "battle_over").data["winner"] == 0
    assert after.phase == "over"


def test_ow_x4_eager_for_battle_runs_3cm_further() -> None:
    def runner(twist: str) -> GameState:
        state = battle([unit("a", 1)], [unit("b", 1)], board_with(twist))
        place(state, "a", [(40.0, 10.0)])
        place(state, "b", [(80.0, 80.0)])
        return in_battle(state)

    far = Action("run", 0, "a", None, (40.0, 33.0))  # Move 10: a Run is 20 cm, 23 with it
    after, _ = play(runner(twists.EAGER), far)
    assert after.pos[after.members("a")][0].tolist() == [40.0, 33.0]
    with pytest.raises(IllegalActionError, match="OW-O3"):
        play(runner(twists.NO_TWIST), far)
    assert battle_rules().eager_bonus == 3

    def charges(twist: str) -> list[Action]:
        state = runner(twist)
        place(state, "b", [(40.0, 10.0 + DIAMETER + 22.0)])  # 22 cm: beyond 20, within 23
        return [a for a in RULES.legal_actions(state) if a.kind == "run" and a.target == "b"]

    assert charges(twists.NO_TWIST) == []
    assert [a.choice for a in charges(twists.EAGER)] == ["charge"]


def test_ow_x5_healing_winds_returns_d3_miniatures_to_the_unit_that_lost_most() -> None:
    state = battle([unit("a", 5), unit("c", 5)], [unit("b", 1)], board_with(twists.HEALING))
    place(state, "a", line(30.0, 20.0, 5))
    place(state, "c", line(30.0, 40.0, 5))
    place(state, "b", [(36.0, 27.0)])  # within 5 cm of a's left end, not of its right end
    state = in_battle(state)
    a, c = state.members("a"), state.members("c")
    state.alive[a[[0, 1, 4]]] = False  # a lost 3
    state.alive[c[0]] = False  # c lost 1
    # side 0 rolls a D3 of 2; side 1 has lost nobody and rolls nothing
    events = start_round(state, [2])
    assert events[0].data == {
        "twist": "Healing Winds", "side": 0, "unit": "a", "roll": 2,
        "returned": [int(a[0]), int(a[1])],
    }  # fmt: skip
    back = np.array([a[0], a[1]])
    assert state.alive[back].all() and not state.alive[a[4]] and not state.alive[c[0]]
    rest = np.flatnonzero(state.alive & state.deployed)
    for mini in back:
        others = rest[rest != mini]
        gaps = unit_gaps(state, np.array([mini]), others)[0]
        assert gaps.min() >= -1e-6  # clear of every base
        assert unit_gaps(state, np.array([mini]), a[[2, 3]]).min() <= 5.0
        assert unit_gaps(state, np.array([mini]), state.members("b")).min() > 5.0


def test_ow_x6_grudge_match_rolls_a_failed_presence_roll_again() -> None:
    def duel(twist: str) -> GameState:
        state = battle([unit("a", 1)], [unit("b", 3, profile(morale=8))], board_with(twist))
        place(state, "a", [(40.0, 40.0)])
        place(state, "b", line(37.5, 42.5, 3))
        return in_battle(state)

    miss = [1, 1, 1]
    _, events = play(duel(twists.GRUDGE), Action("hold", 0, "a", "b"), [*miss, 4, 4, 5, 5])
    roll = first(events, "presence").data
    assert (roll["first_roll"], roll["roll"], roll["beaten"]) == (8, 10, True)
    _, events = play(duel(twists.GRUDGE), Action("hold", 0, "a", "b"), [*miss, 4, 5])
    assert "first_roll" not in first(events, "presence").data  # a roll that wins stands
    _, events = play(duel(twists.NO_TWIST), Action("hold", 0, "a", "b"), [*miss, 4, 4])
    assert not first(events, "presence").data["beaten"]


def test_ow_x5_healing_winds_passes_over_a_unit_with_no_room_away_from_the_enemy() -> None:
    state = battle([unit("a", 3), unit("c", 3)], [unit("b", 10)], board_with(twists.HEALING))
    place(state, "a", line(40.0, 40.0, 3))
    place(state, "b", [*line(35.0, 42.5, 5), *line(35.0, 37.5, 5)])  # a is hemmed in
    place(state, "c", line(10.0, 10.0, 3))
    state = in_battle(state)
    a, c = state.members("a"), state.members("c")
    state.alive[a[[1, 2]]] = False  # a lost 2, but every place near it is near the enemy
    state.alive[c[2]] = False  # c lost 1
    events = start_round(state, [3])  # side 1 has lost nobody
    assert (events[0].data["unit"], events[0].data["returned"]) == ("c", [int(c[2])])
    assert not state.alive[a[[1, 2]]].any()


def test_the_battle_report_says_what_the_twist_did() -> None:
    from openwar.engine.events import Event
    from openwar.summary import summarise_events

    names, side_of = {"a": "Axes", "b": "Bows"}, {"a": 0, "b": 1}
    rerolled = {"unit": "a", "target": "b", "roll": 9, "beaten": True, "first_roll": 4}
    told = summarise_events(
        [
            Event("round", {"round": 2, "first": 0}),
            Event("twist", {"twist": "Dead of Night", "roll": 5, "sight": 45.0}),
            Event("struck", {"unit": "b", "rolled": 2, "slain": 2}),
            Event("presence", rerolled),
            Event("presence", {**rerolled, "beaten": False}),
            Event(
                "twist",
                {"twist": "Healing Winds", "side": 1, "unit": "b", "roll": 2, "returned": [7, 8]},
            ),
            Event(
                "twist",
                {"twist": "Healing Winds", "side": 0, "unit": None, "roll": 1, "returned": []},
            ),
        ],
        names,
        side_of,
    )
    (current,) = told  # round 2 only
    assert current.number == 2
    assert current.twist == [
        "Dead of Night: units see 45 cm (rolled 5)",
        "lightning strikes Bows: 2 slain",
        "Grudge Match: Axes rolls Presence again (won)",
        "Grudge Match: Axes rolls Presence again (failed again)",
        "Healing Winds: 2 return to Bows (side B)",
    ]
    assert current.sides[0].presence_won == 1


def test_the_battle_report_tells_a_round_in_the_order_it_happened() -> None:
    """The highlights were grouped by kind (twist, A's charges and whom A routed, then B's),
    so a unit fled before the charge that broke it; a lightning strike's slain count for the
    side whose lightning it was, as in the Age of Sigmar report."""
    from openwar.engine.events import Event
    from openwar.summary import summarise_events

    names, side_of = {"a": "Axes", "b": "Bows", "c": "Clubs"}, {"a": 0, "b": 1, "c": 1}
    told = summarise_events(
        [
            Event("round", {"round": 1, "first": 1}),
            Event("charge", {"unit": "b", "target": "a"}),
            Event("routed", {"unit": "b"}),
            Event("struck", {"unit": "c", "rolled": 2, "slain": 2}),
            Event("charge", {"unit": "a", "target": "c"}),
        ],
        names,
        side_of,
    )
    assert told[0].moments == [
        "B charges Bows -> Axes",
        "Bows flees the table",
        "lightning strikes Clubs: 2 slain",
        "A charges Axes -> Clubs",
    ]
    assert told[0].sides[0].slain == 2 and told[0].sides[1].slain == 0
    assert told[0].to_json()["moments"] == told[0].moments  # battle --json tells it too


def test_ow_x1_an_army_waiting_in_reserve_still_stands_so_the_other_side_gets_its_twist() -> None:
    state = battle([unit("a", 5)], [unit("b", 5)], board_with(twists.HEALING))
    state.unit("a").flags["reserve"] = True  # waiting to arrive (OW-R3): nothing on the table
    place(state, "b", line(40.0, 80.0, 5))
    state.alive[state.members("b")[:2]] = False
    state = in_battle(state, active=0)
    events = start_round(state, [2])  # side 0 has nobody to heal; side 1 rolls its D3
    assert [e.data["side"] for e in events] == [1] and len(state.on_table("b")) == 5
