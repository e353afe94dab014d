"""OpenWar plays the scenery rules of a battleplan's features (clauses OW-T2..OW-T5 of
docs/rules/openwar.md). Every die is scripted; a feature's rule reaches 3 cm from its edge."""

from __future__ import annotations

from typing import Any

import pytest

from openwar.engine.actions import Action
from openwar.engine.events import Event
from openwar.engine.state import GameState
from openwar.rulesets.openwar import prize
from openwar.rulesets.openwar.board import default_board
from openwar.rulesets.openwar.rules import battle_rules
from openwar.summary import summarise_events

from .conftest import DIAMETER, battle, first, in_battle, kinds, line, place, play, profile, unit
from .test_prize import CENTRE, command, prize_board

MISS = [1, 1, 1]  # three Sword dice that miss (1 + Melee 0 (+1 Hold) < Difficulty 5)


def feature(rule: str, y: float, x: float = 36.0) -> dict[str, Any]:
    """A 10 x 4 cm feature with a scenery rule, its south edge at ``y``."""
    polygon = [[x, y], [x + 10.0, y], [x + 10.0, y + 4.0], [x, y + 4.0]]
    return {"name": "Ruins", "polygon": polygon, "blocks_sight": False, "scenery": rule}


def board(*features: dict[str, Any]) -> dict[str, Any]:
    made = default_board()
    made["terrain"] = list(features)
    return made


def duel(*features: dict[str, Any]) -> GameState:
    """ "a" (side 0, one miniature) at (40, 40) in base contact with the line "b" (Morale 8) to
    its north at y = 42.5: b's bases reach y = 43.75, a's y = 41.25."""
    state = battle([unit("a", 1)], [unit("b", 3, profile(morale=8))], board(*features))
    place(state, "a", [(40.0, 40.0)])
    place(state, "b", line(37.5, 40.0 + DIAMETER, 3))
    return in_battle(state)


@pytest.mark.parametrize(
    ("features", "morale"),
    [
        ((), 8),
        ((feature("Inspiring", 46.5),), 9),  # 2.75 cm from b's bases
        ((feature("Inspiring", 46.5), feature("Inspiring", 46.5, x=40.0)), 9),  # once
        ((feature("Sinister", 46.5),), 7),
        ((feature("Inspiring", 46.5), feature("Sinister", 46.5, x=40.0)), 8),
        ((feature("Inspiring", 47.0),), 8),  # 3.25 cm away: out of reach
        ((feature("Mystical", 46.5),), 8),  # another rule
    ],
)
def test_ow_t3_inspiring_and_sinister_scenery_add_and_take_1_morale_once_each(
    features: tuple[dict[str, Any], ...], morale: int
) -> None:
    _, events = play(duel(*features), Action("hold", 0, "a", "b"), [*MISS, 4, 5])
    presence = first(events, "presence").data
    assert presence["total"] == 9 and presence["morale"] == morale
    assert presence["beaten"] is (morale < 9)


def test_ow_t3_the_ai_reads_the_morale_scenery_gives() -> None:
    from openwar.ai.openwar_eval import attack_profile

    state = duel(feature("Sinister", 46.5))
    mini = int(state.on_table("a")[0])
    target = int(state.on_table("b")[0])
    made = attack_profile(state, "a", "b", mini, target, 1, ranged=False, holding=True,
                          charged=False, armor_bonus=0)  # fmt: skip
    assert made is not None and made.morale == 7


def test_ow_t5_mystical_scenery_negates_a_wound_on_a_6_within_3cm() -> None:
    sure = profile(melee=5)  # Sword: every die hits (5+ with Melee 5), Armor 4: 4+ wounds
    for y, rolls, wounds in [
        (46.5, [1, 1, 1, 4, 4, 4, 6, 5, 1, 1, 1], 2),  # a Wound die each: the 6 negates one
        (47.0, [1, 1, 1, 4, 4, 4, 1, 1], 3),  # 3.25 cm away: no roll
    ]:
        state = battle([unit("a", 1, sure)], [unit("b", 3)], board(feature("Mystical", y)))
        place(state, "a", [(40.0, 40.0)])
        place(state, "b", line(37.5, 40.0 + DIAMETER, 3))
        _, events = play(in_battle(state), Action("hold", 0, "a", "b"), rolls)
        assert first(events, "attack").data["wounds"] == wounds


def test_ow_t5_mystical_scenery_and_the_ward_make_one_roll() -> None:
    sure = profile(melee=5)
    state = battle([unit("a", 1, sure)], [unit("b", 3)], prize_board())
    state.board["terrain"] = [feature("Mystical", 46.5)]
    place(state, "a", [(40.0, 40.0)])
    place(state, "b", line(37.5, 40.0 + DIAMETER, 3))
    state = in_battle(state)
    state.extra["prize"] = list(CENTRE)  # b stands within 15 cm of the prize under the Ward
    state.extra["arcane"] = {"result": prize.WARD, "side": 1}
    _, events = play(state, Action("hold", 0, "a", "b"), [1, 1, 1, 4, 4, 4, 6, 5, 1, 1, 1])
    assert first(events, "attack").data["wounds"] == 2


def runner_state(*features: dict[str, Any]) -> GameState:
    """ "r" (side 0, 4 miniatures in a line at y = 20) far from the enemy "e" at y = 80."""
    state = battle([unit("r", 4)], [unit("e", 1)], board(*features))
    place(state, "r", line(36.25, 20.0, 4))
    place(state, "e", [(40.0, 80.0)])
    return in_battle(state)


def test_ow_t4_deadly_scenery_rolls_when_a_move_ends_within_3cm_and_a_1_slays_d3() -> None:
    deadly = feature("Deadly", 30.0)  # a move to y = 26 ends 2.75 cm from it
    advance = Action("advance", 0, "r", None, (40.0, 26.0))
    after, events = play(runner_state(deadly), advance, [1, 2])
    assert first(events, "deadly").data == {"unit": "r", "roll": 1}
    assert first(events, "struck").data == {"unit": "r", "rolled": 2, "slain": 2, "by": "Deadly"}
    assert after.size("r") == 2
    after, events = play(runner_state(deadly), advance, [2])  # no loss but on a 1
    assert first(events, "deadly").data["roll"] == 2 and after.size("r") == 4
    # a Run's move rolls too; a move ending 3.25 cm away, or no move at all, does not
    run = Action("run", 0, "r", None, (40.0, 26.0))
    _, events = play(runner_state(deadly), run, [3])
    assert kinds(events).count("deadly") == 1
    _, events = play(runner_state(deadly), Action("advance", 0, "r", None, (40.0, 25.5)))
    assert "deadly" not in kinds(events)
    _, events = play(runner_state(feature("Deadly", 24.0)), Action("hold", 0, "r"))
    assert "deadly" not in kinds(events)
    # two Deadly features: one roll
    two = (deadly, feature("Deadly", 30.0, x=20.0))
    _, events = play(runner_state(*two), advance, [4])
    assert kinds(events).count("deadly") == 1


def test_ow_t4_a_unit_destroyed_by_deadly_ground_does_not_fight_after_its_move() -> None:
    state = battle([unit("a", 1)], [unit("b", 3)], board(feature("Deadly", 38.0, x=26.0)))
    place(state, "a", [(40.0, 33.0)])  # its move ends in contact with b, 2.75 cm from it
    place(state, "b", line(37.5, 40.0 + DIAMETER, 3))
    move_fight = Action("advance", 0, "a", "b", (40.0, 40.0), "move-fight")
    after, events = play(in_battle(state), move_fight, [1, 3])
    assert after.is_destroyed("a") and "attack" not in kinds(events)
    assert first(events, "destroyed").data == {"unit": "a"}


@pytest.mark.parametrize(
    ("gap_cm", "arcane_y", "rolls", "works"),
    [
        (29.0, 47.0, [1], True),
        (7.0, 47.0, [3], True),
        (7.0, 47.0, [2], False),
        (7.0, 49.5, [3], False),  # the feature 3.25 cm from the Command unit's base
    ],
)
def test_ow_t2_arcane_scenery_adds_1_to_the_roll_a_skill_order_calls_for(
    gap_cm: float, arcane_y: float, rolls: list[int], works: bool
) -> None:
    """The Soul Stone (OW-P6) fails a Skill order on a 1 within 30 cm of the prize, on 1-3
    within 8 cm; +1 within 3 cm of an Arcane feature."""
    state = battle([command("cmd", 1), unit("f", 1)], [unit("e", 1)], prize_board())
    x = 45.0 + gap_cm + 1.25
    place(state, "cmd", [(x, 45.0)])  # its base reaches y = 46.25
    place(state, "f", [(x + DIAMETER + 1.0, 45.0)])
    place(state, "e", [(10.0, 85.0)])
    state.board["terrain"] = [feature("Arcane", arcane_y, x=x - 5.0)]
    state = in_battle(state)
    state.extra["prize"] = list(CENTRE)
    state.extra["arcane"] = {"result": prize.SOUL_STONE, "side": 1}
    skill = battle_rules().command_skills[0]
    after, events = play(state, Action("skill", 0, "cmd", "f", choice=skill), rolls)
    assert bool(after.unit("f").tokens.get("hold_the_line")) is works
    near = arcane_y - 46.25 <= 3.0
    assert first(events, "skill").data.get("arcane") == (1 if near else None)


def test_the_battle_report_tells_what_deadly_ground_did() -> None:
    events = [
        Event("round", {"round": 1, "first": 0}),
        Event("deadly", {"unit": "r", "roll": 1}),
        Event("struck", {"unit": "r", "rolled": 2, "slain": 2, "by": "Deadly"}),
    ]
    (told,) = summarise_events(events, {"r": "Runners"}, {"r": 0})
    assert told.moments == ["Deadly ground: Runners loses 2"] and told.prize == []


def test_ow_t4_a_charge_whose_charger_falls_to_deadly_ground_is_lost_not_refused() -> None:
    """The Run is legal as moved (A ends 0.5 cm from "x"); Deadly ground then slays A, the
    farthest from the enemy ("y" stands 0.1 cm from B): the charge is lost, not refused (it
    raised OW-M2 after the dice, so whether an order was legal hung on them)."""
    deadly = feature("Deadly", 23.5, x=28.0)  # 4 cm deep: its north edge 1.25 cm from r
    state = battle([unit("r", 2)], [unit("x", 1), unit("y", 1)], board(deadly))
    place(state, "r", [(30.0, 20.0), (35.0, 20.0)])
    place(state, "x", [(27.0, 30.0)])
    place(state, "y", [(37.6, 30.0)])
    state.board["terrain"][0]["polygon"] = [[28.0, 26.0], [36.0, 26.0], [36.0, 27.5], [28.0, 27.5]]
    charge = Action("run", 0, "r", "x", (32.5, 30.0))
    after, events = play(in_battle(state), charge, [1, 1])
    assert first(events, "struck").data["slain"] == 1
    assert after.alive[state.members("r")].tolist() == [False, True]  # A, the farther, fell
    assert first(events, "no_fight").data == {"unit": "r", "target": "x"}
    assert "attack" not in kinds(events) and "charge" not in kinds(events)
    # with no loss the same Run charges "x"
    _, events = play(in_battle(state), charge, [2, *MISS, 1, 1])
    assert first(events, "charge").data == {"unit": "r", "target": "x"}


def test_ow_t4_a_retreat_rolls_for_deadly_ground_and_a_move_of_nothing_does_not() -> None:
    state = battle([unit("r", 1)], [unit("e", 1)], board(feature("Deadly", 30.0)))
    place(state, "r", [(40.0, 20.0)])
    place(state, "e", [(40.0, 16.0)])  # 1.5 cm away: r is in combat
    after, events = play(in_battle(state), Action("run", 0, "r", None, (40.0, 26.0)), [1, 1])
    assert kinds(events)[1:4] == ["moved", "retreat", "deadly"] and after.is_destroyed("r")
    state = runner_state(feature("Deadly", 22.0))  # r stands 0.75 cm from it already
    _, events = play(state, Action("advance", 0, "r", None, (40.0, 20.0)))
    assert first(events, "moved").data["distance"] == 0.0 and "deadly" not in kinds(events)


def test_ow_t5_mystical_ground_saves_a_miniature_from_a_loss_on_a_6() -> None:
    """A loss that is not a wound (Deadly ground here; lightning, Plague, Trapped the same) is
    negated on a 6 for a miniature within 3 cm of a Mystical feature, as a mortal wound is;
    the next loss falls on the same, rearmost, miniature."""
    features = (feature("Deadly", 30.0), feature("Mystical", 30.0, x=26.0))
    advance = Action("advance", 0, "r", None, (40.0, 26.0))
    # Deadly 1, D3 = 2; the rearmost miniature stands by the Mystical feature: 6 saves it, 4 not
    after, events = play(runner_state(*features), advance, [1, 2, 6, 4])
    struck = first(events, "struck").data
    assert (struck["slain"], struck["negated"]) == (1, 1) and after.size("r") == 3
    after, events = play(runner_state(feature("Deadly", 30.0)), advance, [1, 2])
    assert "negated" not in first(events, "struck").data and after.size("r") == 2


def test_ow_t5_the_ai_reads_the_mystical_roll_in_its_odds() -> None:
    from openwar.ai.openwar_eval import attack_profile

    for features, ward in [((), False), ((feature("Mystical", 46.5),), True)]:
        state = duel(*features)
        mini, target = int(state.on_table("a")[0]), int(state.on_table("b")[0])
        made = attack_profile(state, "a", "b", mini, target, 1, ranged=False, holding=True,
                              charged=False, armor_bonus=0)  # fmt: skip
        assert made is not None and made.ward is ward


def test_the_battle_report_tells_a_played_deadly_loss() -> None:
    deadly = feature("Deadly", 30.0)
    _, events = play(runner_state(deadly), Action("advance", 0, "r", None, (40.0, 26.0)), [1, 2])
    (told,) = summarise_events(
        [Event("round", {"round": 1, "first": 0}), *events], {"r": "Runners", "e": "E"},
        {"r": 0, "e": 1},
    )  # fmt: skip
    assert "Deadly ground: Runners loses 2" in told.moments
