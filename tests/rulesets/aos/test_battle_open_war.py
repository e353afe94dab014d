"""The Open War battlepack in battle: scenery rules, twists, ruses and the Arcane Prize
(docs/rules/aos.md, "Battle"); every die is scripted."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.game import ScriptedDice
from openwar.engine.state import GameState
from openwar.rulesets.aos import attacks, handlers, magic, phases, victory
from openwar.rulesets.aos.board import first_blood_board

from .kit import WIZARD, battle, first, in_phase, kinds, line, place, play, profile, unit, weapon

HERO = profile(keywords=["HERO", "INFANTRY"], wounds=5, melee=[weapon()])


def board(
    scenery: str | None = None,
    twist: str = "No Twist",
    ruses: tuple[str | None, str | None] = (None, None),
) -> dict[str, Any]:
    plan = first_blood_board()
    plan["victory"] = "Field of Glory"
    plan["twist"] = twist
    plan["ruses"] = list(ruses)
    if scenery is not None:
        plan["terrain"] = [
            {
                "name": "Ruin",
                "polygon": [[28, 19], [34, 19], [34, 21], [28, 21]],
                "blocks_sight": False,
                "scenery": scenery,
            }
        ]
    return plan


def two(plan: dict[str, Any], phase: str, a: Any = None, b: Any = None) -> GameState:
    state = in_phase(battle([unit("a", 5, a), unit("h", 1, HERO)], [unit("b", 5, b)], plan), phase)
    place(state, "a", line(28.0, 17.6, 5))  # 0.91" from the ruin
    place(state, "h", [(20.0, 10.0)])
    place(state, "b", line(28.0, 40.0, 5))
    state.extra["general"] = ["h", "b"]
    return state


def test_aos_t1_damned_sacrifice_d3_mortal_wounds_for_rerolling_hit_ones() -> None:
    state = two(board("Damned"), "hero")
    after, events = play(state, Action("sacrifice", 0, "a"), [2])
    assert first(events, "wounds").data["wounds"] == 2 and after.size("a") == 3
    assert (
        str(attacks.attack_profile(after, "a", "b", weapon(), False, "combat").reroll_hits)
        == "ones"
    )
    after.extra["phase_started"] = False
    with pytest.raises(IllegalActionError, match="AOS-T1"):
        play(after, Action("sacrifice", 0, "a"), [1])


def test_aos_t1_each_damned_feature_takes_one_sacrifice_a_hero_phase() -> None:
    """Each feature's rule picks one friendly unit: a second unit beside the same feature
    was offered and made its sacrifice too."""
    state = in_phase(battle([unit("a", 5), unit("c", 5), unit("h", 1, HERO)],
                            [unit("b", 5)], board("Damned")), "hero")  # fmt: skip
    place(state, "a", line(28.0, 17.6, 5))  # both 0.91" from the ruin
    place(state, "c", line(28.0, 22.4, 5))
    place(state, "h", [(20.0, 10.0)])
    place(state, "b", line(28.0, 40.0, 5))
    state.extra["general"] = ["h", "b"]
    menu = {(a.kind, a.unit) for a in phases_menu(state)}
    assert {("sacrifice", "a"), ("sacrifice", "c")} <= menu
    after, _ = play(state, Action("sacrifice", 0, "a"), [1])
    assert ("sacrifice", "c") not in {(a.kind, a.unit) for a in phases_menu(after)}
    with pytest.raises(IllegalActionError, match="AOS-T1"):
        play(after, Action("sacrifice", 0, "c"), [1])


def test_aos_t1_a_sacrifice_takes_the_feature_no_other_unit_needs() -> None:
    """A unit beside two Damned features took the first, which the other unit needed."""
    plan = board("Damned")
    plan["terrain"].append({**plan["terrain"][0], "name": "Ruin 2",
                            "polygon": [[28, 15], [34, 15], [34, 16.5], [28, 16.5]]})  # fmt: skip
    state = in_phase(battle([unit("a", 5), unit("c", 5), unit("h", 1, HERO)],
                            [unit("b", 5)], plan), "hero")  # fmt: skip
    place(state, "a", line(28.0, 17.6, 5))  # between the two ruins
    place(state, "c", line(28.0, 22.4, 5))  # beside the first only
    place(state, "h", [(20.0, 10.0)])
    place(state, "b", line(28.0, 40.0, 5))
    state.extra["general"] = ["h", "b"]
    after, _ = play(state, Action("sacrifice", 0, "a"), [1])
    assert after.extra["damned_used"] == [1]
    play(after, Action("sacrifice", 0, "c"), [1])  # the first ruin is still there for it


def phases_menu(state: GameState) -> list[Action]:
    from openwar.engine.game import legal_actions

    return legal_actions(state)


def test_aos_t2_arcane_terrain_adds_1_to_casting() -> None:
    state = two(board("Arcane"), "hero", a=profile(keywords=["WIZARD"], abilities=[WIZARD]))
    assert magic.roll_modifier(state, "a", "cast") == 1
    assert magic.roll_modifier(state, "h", "cast") == 0


@pytest.mark.parametrize(("scenery", "change"), [("Inspiring", 1), ("Sinister", -1)])
def test_aos_t3_t6_inspiring_and_sinister_terrain_change_bravery(scenery: str, change: int) -> None:
    state = two(board(scenery), "battleshock")
    assert phases.bravery(state, "a") == 7 + change and phases.bravery(state, "b") == 7


@pytest.mark.parametrize(("scenery", "change"), [("Inspiring", 1), ("Sinister", -1)])
def test_aos_t3_t6_two_features_of_one_kind_count_once(scenery: str, change: int) -> None:
    """ "Within 1 inch of any Inspiring feature": two of them gave +2."""
    plan = board(scenery)
    plan["terrain"].append({**plan["terrain"][0], "name": "Ruin 2",
                            "polygon": [[28, 15], [34, 15], [34, 16.5], [28, 16.5]]})  # fmt: skip
    state = two(plan, "battleshock")
    assert phases.bravery(state, "a") == 7 + change


def test_aos_t4_deadly_terrain_d3_mortal_wounds_on_a_1_after_a_move() -> None:
    state = two(board("Deadly"), "movement")
    state.pos[state.members("a")] -= [0.0, 3.0]
    after, events = play(
        state, Action("move", 0, "a", point=(30.16, 17.6), choice="normal"), [1, 2]
    )
    assert kinds(events)[:3] == ["moved", "deadly", "wounds"] and after.size("a") == 3


def test_aos_x2_dead_of_night_hides_models_beyond_12() -> None:
    state = two(board(twist="Dead of Night"), "shooting", a=profile(missile=[weapon(rng=30)]))
    assert state.extra["sight_limit"] == 12
    assert not attacks.can_target_missile(state, "a", "b")  # 21.5" apart
    state.extra["sight_limit"] = 24
    assert attacks.can_target_missile(state, "a", "b")


def test_aos_x3_lightning_strikes_each_6_hits_a_different_enemy_unit() -> None:
    state = two(board(twist="Lightning Strikes"), "movement")
    events = phases._lightning(state, 0, ScriptedDice([6, 6, 3, 2]))
    assert first(events, "twist").data["rolls"] == [6, 6, 3]
    assert first(events, "wounds").data == {
        "unit": "b",
        "wounds": 2,
        "negated": 0,
        "slain": 2,
        "source": "Lightning Strikes",
        "by": 0,
    }


def test_aos_x4_eager_for_battle_adds_1_to_run_and_charge_rolls() -> None:
    state = two(board(twist="Eager for Battle"), "movement")
    assert handlers.run_bonus(state, state.unit("a")) == 1
    assert handlers.charge_roll(state, ScriptedDice([3, 4])) == 8


def test_aos_x5_healing_winds_heals_d3_wounds() -> None:
    state = two(board(twist="Healing Winds"), "hero")
    state.unit("h").tokens["damage"] = 3
    state.unit("h").flags["wounded"] = int(state.members("h")[0])
    events = phases._healing_winds(state, 0, ScriptedDice([2]))
    assert first(events, "twist").data["healed"] == 2 and state.unit("h").tokens["damage"] == 1


def test_aos_x6_grudge_match_rerolls_a_failed_battleshock_test() -> None:
    state = two(board(twist="Grudge Match"), "battleshock")
    state.unit("b").tokens["slain_turn"] = 2
    events = phases.battleshock_test(state, "b", ScriptedDice([6, 1]))
    assert first(events, "battleshock").data["fled"] == 0


def test_aos_x6_grudge_match_rerolls_only_when_a_reroll_is_expected_to_lose_fewer() -> None:
    """The re-roll is the player's choice ("may"): a low roll with many slain is kept."""
    assert phases.grudge_reroll(face=6, slain=2, brave=6, models=10)  # 2 lost; a re-roll 0.5
    assert not phases.grudge_reroll(face=3, slain=2, brave=6, models=10)  # passed
    assert not phases.grudge_reroll(face=1, slain=10, brave=6, models=20)  # 5 lost; 7.5
    assert not phases.grudge_reroll(face=1, slain=10, brave=6, models=3)  # 3 lost whatever
    state = two(board(twist="Grudge Match"), "battleshock")
    state.unit("b").tokens["slain_turn"] = 7
    assert (phases.bravery(state, "b"), state.size("b")) == (7, 5)  # a 1 loses 1, a 3 loses 3
    events = phases.battleshock_test(state, "b", ScriptedDice([1]))  # no second die is rolled
    shock = first(events, "battleshock").data
    assert (shock["roll"], shock["fled"]) == (1, 1)  # kept: a re-roll would lose 3.3 on average


def test_aos_r1_ambush_sets_up_outside_enemy_territory_away_from_enemies() -> None:
    plan = board(ruses=("Ambush", None))
    state = battle([unit("a", 1)], [unit("b", 1)], plan)
    state.active = 1
    state, _ = play(state, Action("deploy", 1, "b", point=(30.0, 40.0)))
    with pytest.raises(IllegalActionError, match="AOS-B2"):
        play(state, Action("deploy", 0, "a", point=(30.0, 38.0), choice="ambush"))
    after, events = play(
        state, Action("deploy", 0, "a", point=(30.0, 22.0), choice="ambush"), [4, 2]
    )
    assert first(events, "deployed").data["ambush"] is True and after.extra["ruse_used"][0]


def test_aos_r2_reinforcements_set_a_destroyed_unit_up_again_at_an_edge() -> None:
    state = two(board(ruses=("Reinforcements", None)), "movement")
    state.alive[state.members("a")] = False
    state.extra["destroyed"].append("a")
    options = handlers.edge_points(state, state.unit("a"))
    assert options
    after, _events = play(state, Action("reinforce", 0, "a", point=options[0]))
    # set up again, it "has been destroyed": War of Attrition still counts it, once (AOS-V3;
    # it was taken off the list, so the enemy lost its points)
    assert after.size("a") == 5 and after.extra["destroyed"] == ["a"]
    assert victory._destroyed_points(after, 1) == after.unit("a").points
    with pytest.raises(IllegalActionError, match="AOS-R2"):
        after.alive[after.members("a")] = False
        play(after, Action("reinforce", 0, "a", point=options[0]))


def test_aos_r3_outflank_reserve_must_arrive_by_the_second_movement_phase() -> None:
    plan = board(ruses=("Outflank", None))
    state = battle([unit("a", 5), unit("h", 1, HERO)], [unit("b", 1)], plan)
    with pytest.raises(IllegalActionError, match="AOS-R3"):
        play(state, Action("reserve", 0, "h"))  # not a HERO
    state, _ = play(state, Action("reserve", 0, "a"))
    assert state.extra["reserves"] == ["a"]
    state = in_phase(state, "movement", round=2)
    place(state, "h", [(20.0, 10.0)])
    place(state, "b", [(30.0, 40.0)])
    with pytest.raises(IllegalActionError, match="AOS-R3"):
        play(state, Action("end_phase", 0))
    point = handlers.edge_points(state, state.unit("a"))[0]
    after, _ = play(state, Action("arrive", 0, "a", point=point))
    assert after.deployed[after.members("a")].all()


def test_aos_r3_reserves_left_at_round_4_are_destroyed() -> None:
    state = two(board(ruses=("Outflank", None)), "battleshock")
    state.extra["reserves"] = ["a"]
    state.deployed[state.members("a")] = False
    state.round = 3
    events = phases.start_round(state, ScriptedDice([4, 2]))
    assert "reserve_lost" in kinds(events) and state.is_destroyed("a")


def test_aos_r4_firestarter_slays_models_near_burning_terrain_after_their_move() -> None:
    state = two(board("Arcane", ruses=("Firestarter", None)), "hero")
    state.pos[state.members("h")] = [[31.0, 16.0]]
    state, _ = play(state, Action("firestarter", 0, choice="0"))
    assert state.extra["burning"] == [0]
    state.phase = "movement"
    _after, events = play(state, Action("end_phase", 0))
    assert first(events, "burnt").data["slain"] >= 5


def test_aos_r5_revenge_adds_1_to_wound_rolls_after_the_general_falls() -> None:
    state = two(board(ruses=("Revenge", None)), "combat")
    from openwar.rulesets.aos.wounds import allocate

    allocate(state, "h", 5, ScriptedDice([]), 1, "test")
    assert state.extra["revenge"][0] == state.extra["turns"] + 2
    assert attacks.attack_profile(state, "a", "b", weapon(), False, "combat").wound_modifier == 1
    assert state.extra["general"][0] == "a"  # B7: a new general is picked


def test_aos_r6_inspiring_speech_no_battleshock_while_the_general_is_on_the_table() -> None:
    state = two(board(ruses=("Inspiring Speech", None)), "battleshock")
    state.unit("a").tokens["slain_turn"] = 3
    events = phases.battleshock_test(state, "a", ScriptedDice([]))
    assert first(events, "battleshock").data == {"unit": "a", "immune": True}


def test_aos_k3_no_command_point_is_offered_for_a_unit_inspiring_speech_spares() -> None:
    from openwar.rulesets.aos.menu import shock_choices

    for ruses, offered in (((None, None), True), (("Inspiring Speech", None), False)):
        state = two(board(ruses=ruses), "battleshock")
        state.unit("a").tokens["slain_turn"] = 3
        state.extra["cp"][0] = 1
        presence = Action("inspiring_presence", 0, "a")
        assert (presence in shock_choices(state, 0)) is offered


def test_aos_k3_hold_fast_is_offered_only_while_it_would_spare_a_unit() -> None:
    """The warscroll command spares the units wholly within its range that must test; once
    every one of them is spared already, it buys nothing."""
    from openwar.rulesets.aos.abilities import templates_for
    from openwar.rulesets.aos.menu import shock_choices

    warden = profile(keywords=["HERO", "INFANTRY"], wounds=5, melee=[weapon()],
                     abilities=templates_for("Gilded Warden"))  # fmt: skip
    state = in_phase(battle([unit("a", 5), unit("h", 1, warden)], [unit("b", 5)], board()),
                     "battleshock")  # fmt: skip
    place(state, "a", line(28.0, 17.6, 5))
    place(state, "h", [(24.0, 14.0)])
    place(state, "b", line(28.0, 40.0, 5))
    state.extra["general"] = ["h", "b"]
    state.unit("a").tokens["slain_turn"] = 2
    state.extra["cp"][0] = 2
    hold = Action("hold_fast", 0, "h")
    assert handlers.hold_fast_units(state, "h") == ["a"] and hold in shock_choices(state, 0)
    state.extra["shock"]["immune"].append("a")  # spared by Inspiring Presence
    assert handlers.hold_fast_units(state, "h") == [] and hold not in shock_choices(state, 0)
    with pytest.raises(IllegalActionError, match="AOS-K3"):
        play(state, hold)


def _prize_board() -> GameState:
    """Arcane Prize at its end-of-turn check: the prize at (30, 16.5), held by nobody."""
    plan = board()
    plan["victory"] = "Arcane Prize"
    plan["arcane_prize"] = ["Plague", "Trapped", "Talisman", "Realmvault Key", "Ward", "Soul Stone"]
    state = two(plan, "battleshock")
    state.extra["objectives"] = [[30.0, 16.5]]
    state.extra["control"] = [None]
    return state


def test_aos_v6_arcane_prize_is_taken_and_rolled_for_once() -> None:
    state = _prize_board()
    events = victory.end_of_turn(state, ScriptedDice([5]))
    assert first(events, "arcane_prize").data == {"side": 0, "roll": 5, "result": "Ward"}
    carrier = state.extra["prize"]["carrier"]
    state.pos[carrier] += [0.0, -2.0]
    victory.follow_prize(state)
    assert state.extra["objectives"][0][1] == pytest.approx(state.pos[carrier][1] + 0.49)


def test_aos_v6_plague_is_measured_from_the_marker_on_its_taker() -> None:
    """Plague was measured from where the marker lay before its taker picked it up: a hero
    4.1" from its own marker was struck by a 2D6 of 3."""
    state = _prize_board()
    place(state, "h", [(30.0, 13.5)])
    events = victory.end_of_turn(state, ScriptedDice([1, 1, 2, 1, 1, 1, 1]))
    assert first(events, "arcane_prize").data["result"] == "Plague"
    marker = np.asarray(state.extra["objectives"][0])
    carrier = state.extra["prize"]["carrier"]
    assert np.hypot(*(state.pos[carrier] - marker)) == pytest.approx(state.radius[carrier])
    struck = {e.data["unit"] for e in events if e.kind == "wounds"}
    hero = state.members("h")[0]
    assert np.hypot(*(state.pos[hero] - marker)) - state.radius[hero] > 3  # out of a 3" reach
    assert "h" not in struck and state.unit_of[carrier] in [state.unit_index(u) for u in struck]


def test_aos_b7_an_allied_unit_never_becomes_the_general() -> None:
    """When the general falls and no HERO is left, the first unit of the army that is not
    allied leads; with only allies left, nobody does."""
    from openwar.rulesets.aos.wounds import general_slain

    state = two(board(), "combat")
    state.unit("a").profile["allied"] = True
    assert general_slain(state, 0)[0].data["next"] == "h"  # the HERO, not allied
    state.unit("h").profile["keywords"] = ["INFANTRY"]  # no HERO left
    assert general_slain(state, 0)[0].data["next"] == "h"  # not "a", listed first but an ally
    state.unit("h").profile["allied"] = True
    assert general_slain(state, 0)[0].data["next"] is None
    assert state.extra["general"][0] is None
