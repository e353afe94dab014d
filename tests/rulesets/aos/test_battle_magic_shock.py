"""Age of Sigmar wizards, battleshock and split units (docs/rules/aos.md, "Battle")."""

from __future__ import annotations

import pytest

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.game import ScriptedDice
from openwar.engine.state import GameState
from openwar.rulesets.aos import phases

from .kit import WIZARD, battle, first, in_phase, kinds, line, place, play, profile, unit


def wizards(distance: float = 20.0) -> GameState:
    wiz = profile(keywords=["HERO", "WIZARD"], abilities=[WIZARD], wounds=5)
    state = in_phase(battle([unit("w", 1, wiz)], [unit("v", 1, wiz), unit("b", 3)]), "hero")
    place(state, "w", [(30.0, 10.0)])
    place(state, "v", [(30.0 + distance, 10.0)])
    place(state, "b", line(30.0, 20.0, 3))
    return state


def test_aos_s1_casting_roll_meets_the_casting_value() -> None:
    state = wizards(distance=40.0)  # no enemy wizard within 30"
    _, events = play(state, Action("cast", 0, "w", "b", choice="Arcane Bolt"), [2, 2])
    assert first(events, "cast").data["cast"] is False
    _, events = play(state, Action("cast", 0, "w", "b", choice="Arcane Bolt"), [2, 3])
    assert kinds(events) == ["cast", "spell", "wounds"]


def test_aos_s2_each_spell_once_per_turn_and_casts_per_warscroll() -> None:
    state = wizards(distance=40.0)
    after, _ = play(state, Action("cast", 0, "w", "b", choice="Arcane Bolt"), [1, 1])
    with pytest.raises(IllegalActionError, match="AOS-S1"):
        play(after, Action("cast", 0, "w", "w", choice="Mystic Shield"), [6, 6])
    after.unit("w").tokens["casts"] = 0
    with pytest.raises(IllegalActionError, match="AOS-S2"):
        play(after, Action("cast", 0, "w", "b", choice="Arcane Bolt"), [6, 6])


def test_aos_s3_unbinding_within_30_must_beat_the_casting_roll() -> None:
    state = wizards(distance=20.0)
    state, _ = play(state, Action("cast", 0, "w", "b", choice="Arcane Bolt"), [3, 4])
    assert state.active == 1 and state.extra["pending"]["kind"] == "unbind"
    _tied, events = play(state, Action("unbind", 1, "v"), [3, 4])
    assert first(events, "unbind").data["unbound"] is False and "spell" in kinds(events)
    beaten, events = play(state, Action("unbind", 1, "v"), [4, 4])
    assert kinds(events) == ["unbind"] and beaten.active == 0


def test_aos_s4_arcane_bolt_d3_on_10_and_mystic_shield_rerolls_save_ones() -> None:
    state = wizards(distance=15.0)
    state.unit("v").tokens["unbinds"] = 1  # v has used its unbind this phase
    after, events = play(state, Action("cast", 0, "w", "v", choice="Arcane Bolt"), [5, 5, 3])
    assert first(events, "spell").data["mortal_wounds"] == 3  # the D3
    after, _ = play(state, Action("cast", 0, "w", "w", choice="Mystic Shield"), [3, 3])
    assert after.unit("w").flags["mystic_shield"] == 0
    from openwar.rulesets.aos.attacks import attack_profile

    from .kit import weapon

    assert str(attack_profile(after, "v", "w", weapon(), False, "combat").reroll_saves) == "ones"


def test_aos_l1_battleshock_d6_plus_slain_against_bravery_plus_tens() -> None:
    state = in_phase(
        battle([unit("a", 1)], [unit("b", 12, profile(bravery=5))]), "battleshock", turn=0
    )
    place(state, "a", [(30.0, 5.0)])
    place(state, "b", line(20.0, 40.0, 12))
    state.unit("b").tokens["slain_turn"] = 3
    # bravery 5 + 1 for 12 models = 6; roll 5 + 3 slain = 8: two flee
    assert phases.battleshock_test(state, "b", ScriptedDice([5])) == []
    # the unit's player picks who flees (AOS-D10)
    assert state.extra["pending"]["flee"] == 2 and state.active == 1
    state.extra["shock"]["tested"] = ["b"]
    state, events = play(state, Action("flee", 1, "b", choice="rear"))
    assert first(events, "battleshock").data == {
        "unit": "b",
        "roll": 5,
        "slain": 3,
        "bravery": 6,
        "fled": 2,
    }
    assert state.size("b") == 10 and state.phase != "battleshock"


def test_aos_k3_inspiring_presence_spares_a_unit_near_a_hero() -> None:
    hero = profile(keywords=["HERO"])
    state = in_phase(battle([unit("a", 5), unit("h", 1, hero)], [unit("b", 1)]), "battleshock")
    place(state, "a", line(30.0, 5.0, 5))
    place(state, "h", [(30.0, 8.0)])
    place(state, "b", [(30.0, 40.0)])
    state.unit("a").tokens["slain_turn"] = 4
    state.extra["cp"] = [1, 0]
    state.phase = "combat"
    state.extra["combat_side"] = 0
    state = state  # entering battleshock through the phase change asks side 0 first
    events = phases.enter(state, "battleshock", ScriptedDice([]))
    assert state.active == 0 and events == []
    after, events = play(state, Action("inspiring_presence", 0, "a"))
    assert first(events, "battleshock").data == {"unit": "a", "immune": True}
    assert after.extra["cp"][0] == 0


def test_aos_m6_split_units_lose_all_but_the_largest_group_at_the_end_of_the_turn() -> None:
    state = in_phase(battle([unit("a", 5)], [unit("b", 1)]), "battleshock", turn=0)
    state.extra["first"] = 0
    place(state, "a", [*line(30.0, 5.0, 3), (50.0, 5.0), (51.08, 5.0)])
    place(state, "b", [(30.0, 40.0)])
    events = phases.end_turn(state, ScriptedDice([]))
    assert first(events, "split_removed").data == {"unit": "a", "slain": 2}
    assert state.size("a") == 3


def test_aos_m6_removing_a_split_group_leaves_the_wounded_model_its_wounds() -> None:
    """Removing any model healed the unit: its wounded model's wounds went with it."""
    state = in_phase(battle([unit("a", 4, profile(wounds=3))], [unit("b", 1)]), "battleshock")
    state.extra["first"] = 0
    place(state, "a", [*line(30.0, 5.0, 3), (50.0, 5.0)])
    place(state, "b", [(30.0, 40.0)])
    wounded = int(state.members("a")[0])
    state.unit("a").tokens["damage"], state.unit("a").flags["wounded"] = 2, wounded
    phases.end_turn(state, ScriptedDice([]))
    assert state.size("a") == 3 and bool(state.alive[wounded])
    assert state.unit("a").tokens["damage"] == 2 and state.unit("a").flags["wounded"] == wounded
