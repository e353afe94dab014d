"""Age of Sigmar attacks in battle: the same roll definitions as the exact odds, wound
allocation, mortal wounds, negation, cover, shooting limits (docs/rules/aos.md, "Battle")."""

from __future__ import annotations

from typing import Any

import pytest

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.game import ScriptedDice
from openwar.engine.state import GameState
from openwar.rulesets.aos import attacks
from openwar.rulesets.aos.board import first_blood_board
from openwar.rulesets.aos.odds import AosAttack
from openwar.rulesets.aos.wounds import allocate

from .kit import battle, first, in_phase, line, place, play, profile, unit, weapon

BOW = weapon("Bow", rng=18, attacks=2, hit=4, wound=4, rend=-1, damage=1)


def archers_and_target(target_prof: dict[str, Any] | None = None, size: int = 3) -> GameState:
    archers = profile(missile=[BOW])
    state = in_phase(battle([unit("a", 1, archers)], [unit("b", size, target_prof)]), "shooting")
    place(state, "a", [(30.0, 10.0)])
    place(state, "b", line(30.0, 20.0, size))
    return state


def test_aos_d1_battle_rolls_are_the_odds_modules_tests() -> None:
    """Hit 4+, wound 4+, save 4+ with rend -1: 2 attacks; faces judged by D6Test.passes."""
    state = archers_and_target(profile(save=4, wounds=2))
    profile_used = attacks.attack_profile(state, "a", "b", BOW, True, "shooting")
    hit, wound, save = profile_used.tests()
    assert (hit, wound, save) == AosAttack(hit=4, wound=4, rend=-1, save=4).tests()
    # hits: 4, 3 -> one hit; wound: 5; save 4 - 1 = 3 fails
    after, events = play(state, Action("shoot", 0, "a", target="b"), [4, 3, 5, 4])
    data = first(events, "attack").data
    assert data["weapons"][0] == {
        "weapon": "Bow",
        "attacks": 2,
        "hits": 1,
        "wounds": 1,
        "unsaved": 1,
        "damage": 1,
        "mortal": 0,
    }
    # the defender allocates the wound (AOS-D10), by the default policy here
    assert after.extra["pending"]["kind"] == "allocate" and after.active == 1
    after, _ = play(after, Action("allocate", 1, "b", choice="rear"))
    assert after.unit("b").tokens["damage"] == 1 and after.active == 0


def test_aos_d1_unmodified_one_fails_six_hits_whatever_the_modifier() -> None:
    state = archers_and_target(profile(save=None))
    hit, _, save = attacks.attack_profile(state, "a", "b", BOW, True, "shooting").tests()
    assert not save.passes(6)  # a Save of '-' needs 7
    assert hit.passes(6) and not hit.passes(1)


def test_aos_d3_wounds_pile_on_the_wounded_model_until_it_is_slain() -> None:
    state = archers_and_target(profile(wounds=3), size=3)
    events = allocate(state, "b", 4, ScriptedDice([]), 0, "test")
    assert first(events, "wounds").data["slain"] == 1
    assert state.size("b") == 2 and state.unit("b").tokens["damage"] == 1
    wounded = state.unit("b").flags["wounded"]
    allocate(state, "b", 1, ScriptedDice([]), 0, "test")
    assert state.unit("b").flags["wounded"] == wounded and state.unit("b").tokens["damage"] == 2


def test_aos_d4_mortal_wounds_skip_rolls_and_ward_negates_each() -> None:
    ward = {"template": "ward", "ability": "Ward", "roll": 5}
    state = archers_and_target(profile(wounds=1, abilities=[ward]), size=3)
    events = allocate(state, "b", 3, ScriptedDice([5, 4, 6]), 0, "test")
    assert first(events, "wounds").data == {
        "unit": "b",
        "wounds": 3,
        "negated": 2,
        "slain": 1,
        "source": "test",
        "by": 0,
    }


def test_aos_t5_mystical_terrain_negates_on_a_6() -> None:
    board = first_blood_board()
    board["terrain"] = [
        {
            "name": "Ruin",
            "polygon": [[28, 19], [34, 19], [34, 21], [28, 21]],
            "blocks_sight": False,
            "scenery": "Mystical",
        }
    ]
    state = in_phase(battle([unit("a", 1)], [unit("b", 1, profile(wounds=2))], board), "shooting")
    place(state, "a", [(30.0, 10.0)])
    place(state, "b", [(30.0, 20.0)])
    events = allocate(state, "b", 2, ScriptedDice([6, 2]), 0, "test")
    assert first(events, "wounds").data["negated"] == 1


def test_aos_d5_cover_adds_1_but_not_after_charging_nor_for_big_monsters() -> None:
    board = first_blood_board()
    board["terrain"] = [
        {
            "name": "Wood",
            "polygon": [[25, 15], [40, 15], [40, 25], [25, 25]],
            "blocks_sight": False,
            "scenery": None,
        }
    ]
    big = profile(wounds=10, keywords=["MONSTER"])
    state = in_phase(
        battle([unit("a", 1, profile(missile=[BOW]))], [unit("b", 3), unit("m", 1, big)], board),
        "shooting",
    )
    place(state, "a", [(30.0, 10.0)])
    place(state, "b", line(30.0, 20.0, 3))
    place(state, "m", [(37.0, 20.0)])
    assert attacks.in_cover(state, "b", "shooting")
    assert not attacks.in_cover(state, "m", "shooting")
    state.unit("b").flags["charged"] = True
    assert attacks.in_cover(state, "b", "shooting") and not attacks.in_cover(state, "b", "combat")


def test_aos_h2_within_3_a_unit_may_only_shoot_units_within_3() -> None:
    archers = profile(missile=[BOW])
    state = in_phase(battle([unit("a", 1, archers)], [unit("b", 1), unit("c", 1)]), "shooting")
    place(state, "a", [(30.0, 10.0)])
    place(state, "b", [(30.0, 12.0)])
    place(state, "c", [(40.0, 10.0)])
    assert attacks.can_target_missile(state, "a", "b")
    with pytest.raises(IllegalActionError, match="AOS-H2"):
        play(state, Action("shoot", 0, "a", target="c"))


def test_aos_h3_look_out_sir_minus_1_to_hit_a_hero_near_a_unit_of_3() -> None:
    hero = profile(keywords=["HERO", "INFANTRY"])
    state = in_phase(
        battle([unit("a", 1, profile(missile=[BOW]))], [unit("h", 1, hero), unit("g", 3)]),
        "shooting",
    )
    place(state, "a", [(30.0, 10.0)])
    place(state, "h", [(30.0, 20.0)])
    place(state, "g", line(32.0, 20.0, 3))
    assert attacks.attack_profile(state, "a", "h", BOW, True, "shooting").hit_modifier == -1
    assert attacks.attack_profile(state, "a", "g", BOW, True, "shooting").hit_modifier == 0


def test_aos_h4_terrain_that_blocks_sight_hides_a_unit() -> None:
    board = first_blood_board()
    board["terrain"] = [
        {
            "name": "Tower",
            "polygon": [[20, 14], [40, 14], [40, 16], [20, 16]],
            "blocks_sight": True,
            "scenery": None,
        }
    ]
    state = in_phase(
        battle([unit("a", 1, profile(missile=[BOW]))], [unit("b", 1)], board), "shooting"
    )
    place(state, "a", [(30.0, 10.0)])
    place(state, "b", [(30.0, 20.0)])
    assert not attacks.can_target_missile(state, "a", "b")


def test_aos_w2_warscroll_templates_change_attacks() -> None:
    charge = {
        "template": "weapon_on_charge",
        "ability": "Lances",
        "weapon": "Blade",
        "rend": -2,
        "damage": 2,
    }
    shield = {
        "template": "roll_modifier",
        "ability": "Shieldwall",
        "option": None,
        "roll": "save",
        "value": 1,
        "attacks": "melee",
        "side": "defender",
        "when": "not_charged",
        "range": None,
    }
    state = in_phase(
        battle(
            [unit("a", 1, profile(melee=[weapon()], abilities=[charge]))],
            [unit("b", 1, profile(abilities=[shield]))],
        ),
        "combat",
    )
    place(state, "a", [(30.0, 10.0)])
    place(state, "b", [(31.0, 10.0)])
    assert attacks.attack_profile(state, "a", "b", weapon(), False, "combat").save_modifier == 1
    state.unit("a").flags["charged"] = True
    used = attacks.attackers(state, "a", "b", False, None)[0].weapon
    assert (used["rend"], used["damage"]) == (-2, 2)


def test_aos_d2_random_attacks_per_model_and_damage_per_successful_attack() -> None:
    flail = weapon("Flail", rng=1, attacks="D3", hit=2, wound=2, damage="D3")
    champ = {
        "options": ["Champion"],
        "effects": [
            {"template": "extra_attacks", "option": "Champion", "weapon": "Flail", "value": 1}
        ],
    }
    plain: dict[str, Any] = {"options": [], "effects": []}
    prof = profile(melee=[flail], loadouts=[champ, plain])
    state = in_phase(
        battle([unit("a", 2, prof)], [unit("b", 1, profile(wounds=20, save=None))]), "combat"
    )
    state.loadout[state.members("a")] = [0, 1]
    place(state, "a", [(30.0, 10.0), (31.08, 10.0)])
    place(state, "b", [(30.5, 11.0)])
    # attacks: D3 = 2 (+1 champion) and D3 = 1: 4 attacks; hits 2,2,2,1; wounds 2,2,2;
    # a Save of '-' needs 7: the three save rolls all fail; damage D3s roll 3, 1, 2
    _, events = play(
        state, Action("fight", 0, "a", target="b"), [2, 1, 2, 2, 2, 1, 2, 2, 2, 6, 6, 6, 3, 1, 2]
    )
    data = first(events, "attack").data["weapons"][0]
    assert (data["attacks"], data["hits"], data["wounds"], data["damage"]) == (4, 3, 3, 6)


def test_aos_d7_an_obstacle_gives_cover_against_shooters_beyond_it() -> None:
    board = first_blood_board()
    board["terrain"] = [
        {
            "name": "Sigmarite Wall",
            "polygon": [[25, 18], [40, 18], [40, 19], [25, 19]],
            "blocks_sight": False,
            "scenery": None,
        }
    ]
    state = in_phase(
        battle([unit("a", 1, profile(missile=[BOW]))], [unit("b", 3)], board), "shooting"
    )
    place(state, "a", [(30.0, 10.0)])  # 7.5" from the wall, 9.5" from the target
    place(state, "b", line(30.0, 20.0, 3))  # all within 1" of the wall
    assert attacks.attack_profile(state, "a", "b", BOW, True, "shooting").cover
    state.pos[state.members("a")] = [[30.0, 28.0]]  # now the target is between
    assert not attacks.attack_profile(state, "a", "b", BOW, True, "shooting").cover
