"""OpenWar battle rules: shooting, line of sight, range, casualties, thrown weapons.

One test per clause of docs/rules/openwar.md, "Battle"; every die is scripted.
"""

from __future__ import annotations

from typing import Any

import pytest

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.state import GameState
from openwar.rulesets.openwar import fight
from openwar.rulesets.openwar.battle import RULES
from openwar.rulesets.openwar.board import default_board

from .conftest import (
    BOW,
    DIAMETER,
    HEAVY_JAVELIN,
    HEAVY_JAVELIN_THROWN,
    JAVELIN,
    JAVELIN_THROWN,
    SWORD,
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

SKIRMISHERS = profile(ranged=1, loadouts=[loadout(JAVELIN, JAVELIN_THROWN)])
WALL = {"name": "wall", "polygon": [[30.0, 29.0], [50.0, 29.0], [50.0, 31.0], [30.0, 31.0]]}


def range_test(
    gap_cm: float,
    shooter: dict[str, Any] = SKIRMISHERS,
    *,
    target: dict[str, Any] | None = None,
    size: int = 3,
    board: dict[str, Any] | None = None,
) -> GameState:
    """Shooter "a" (one miniature at (40, 20)), target "b" (a line) ``gap_cm`` north of it."""
    state = battle([unit("a", 1, shooter), unit("x", 1)], [unit("b", size, target)], board)
    place(state, "a", [(40.0, 20.0)])
    place(state, "x", [(5.0, 5.0)])
    place(state, "b", line(40.0 - DIAMETER * (size // 2), 20.0 + DIAMETER + gap_cm, size))
    return in_battle(state)


def test_ow_h1_no_shooting_in_combat() -> None:
    state = battle([unit("a", 1, SKIRMISHERS)], [unit("b", 1), unit("c", 1)])
    place(state, "a", [(40.0, 20.0)])
    place(state, "b", [(40.0, 17.0)])  # in combat
    place(state, "c", [(40.0, 20.0 + DIAMETER + 8.0)])  # in range
    state = in_battle(state)
    with pytest.raises(IllegalActionError, match="OW-F1"):
        play(state, Action("hold", 0, "a", "c"))
    menu = RULES.legal_actions(state)
    assert {a.target for a in menu if a.unit == "a" and a.kind == "hold"} == {"b"}
    # an Advance that ends in combat does not take its shot
    state = range_test(12.0)
    _, events = play(state, Action("advance", 0, "a", "b", (40.0, 30.0), "move-shoot"))
    assert kinds(events)[1:3] == ["moved", "no_shot"]


def test_ow_h2_range_is_weapon_range_plus_ranged() -> None:
    _, events = play(range_test(11.0), Action("hold", 0, "a", "b"), [1, 1, 1])
    assert first(events, "attack").data["attackers"] == 1
    with pytest.raises(IllegalActionError, match="OW-H2"):
        play(range_test(11.1), Action("hold", 0, "a", "b"))


def test_ow_h2_each_shooter_uses_a_weapon_that_reaches_the_target() -> None:
    """A miniature with a Bow (20 cm) and Javelins (10 cm) 15 cm from an Armor 6 target threw
    a Javelin (the better against armour) that could not reach it."""
    archer = profile(ranged=1, loadouts=[loadout(BOW, JAVELIN, JAVELIN_THROWN)])
    state = range_test(15.0, archer, target=profile(armor=6))
    after, _ = play(state, Action("hold", 0, "a", "b"), [1, 1, 1])  # a miss, then Presence
    assert not after.unit("a").flags.get("thrown")  # the Bow shot
    near = range_test(8.0, archer, target=profile(armor=6))  # both reach: the Javelin is thrown
    after, _ = play(near, Action("hold", 0, "a", "b"), [1, 1, 1])
    assert after.unit("a").flags.get("thrown")


def test_ow_t1_terrain_that_blocks_sight_blocks_shooting() -> None:
    board = default_board()
    board["terrain"] = [WALL]
    with pytest.raises(IllegalActionError, match="OW-H2"):
        play(range_test(10.0, board=board), Action("hold", 0, "a", "b"))
    board["terrain"] = [{**WALL, "blocks_sight": False}]
    play(range_test(10.0, board=board), Action("hold", 0, "a", "b"), [1, 1, 1])


def test_ow_h3_shots_are_not_split() -> None:
    """Every shooter aims at the named unit; one that cannot reach it does not shoot."""
    state = battle([unit("a", 2, SKIRMISHERS)], [unit("b", 1), unit("c", 1)])
    place(state, "a", line(40.0, 20.0, 2))
    place(state, "b", [(40.0, 20.0 + DIAMETER + 10.0)])
    place(state, "c", [(60.0, 20.0)])  # only a1 (at 42.5) reaches c
    _, events = play(in_battle(state), Action("hold", 0, "a", "b"), [1, 1, 1, 1])
    assert first(events, "attack").data == {
        "unit": "a",
        "target": "b",
        "attackers": 2,
        "wounds": 0,
        "slain": 0,
        "ranged": True,
    }
    place(state, "b", [(40.0, 20.0 + DIAMETER + 11.0)])  # now only a0 reaches b
    _, events = play(state, Action("hold", 0, "a", "b"), [1, 1, 1])
    assert first(events, "attack").data["attackers"] == 1


def test_ow_o2_hold_shoots_with_plus_1_accuracy() -> None:
    # Javelin (Thrown) Difficulty 5: 3 + Ranged 1 + Hold 1 hits; damage 6 + Pierce 1 wounds
    _, events = play(range_test(8.0), Action("hold", 0, "a", "b"), [3, 6, 1, 1])
    assert first(events, "attack").data["wounds"] == 1


def test_ow_b15_the_defender_removes_its_rearmost_miniatures() -> None:
    state = range_test(8.0, profile(loadouts=[loadout(BOW)]), target=profile(morale=20))
    b = state.members("b")
    state.pos[b[2]] = (state.pos[b[2]][0], state.pos[b[2]][1] + DIAMETER)  # a rear rank
    after, _ = play(state, Action("hold", 0, "a", "b"), [6, 6, 1, 1])
    assert list(after.alive[b]) == [True, True, False]


def test_ow_h4_shooting_presence_gives_tokens_but_no_push() -> None:
    state = range_test(8.0, target=profile(morale=6))
    after, events = play(state, Action("hold", 0, "a", "b"), [1, 3, 4])
    assert first(events, "presence").data["beaten"]
    assert after.unit("b").tokens["shaken"] == 1 and after.unit("a").tokens["glory"] == 1
    assert "push" not in kinds(events)
    assert (after.pos == state.pos).all()


def test_ow_h5_a_thrown_weapon_is_thrown_once_then_lost() -> None:
    state = range_test(8.0)
    a0 = int(state.members("a")[0])
    assert [w.name for w in fight.weapons(state, a0, ranged=False)] == ["Javelin"]
    after, _ = play(state, Action("hold", 0, "a", "b"), [1, 1, 1])
    assert fight.weapons(after, a0, ranged=True) == []
    assert fight.weapons(after, a0, ranged=False) == []  # the javelin is gone
    after.unit("a").flags["ordered"], after.active = False, 0
    with pytest.raises(IllegalActionError, match="OW-H2"):
        play(after, Action("hold", 0, "a", "b"))


def test_ow_h6_shieldstick_hit_that_does_not_wound_takes_the_shield_away() -> None:
    shooter = profile(ranged=1, loadouts=[loadout(HEAVY_JAVELIN, HEAVY_JAVELIN_THROWN, SWORD)])
    target = profile(armor=3, morale=20, loadouts=[loadout(SWORD, shield=2)])
    state = range_test(8.0, shooter, target=target, size=1)
    b0 = int(state.members("b")[0])
    assert fight.armor(state, b0) == 5
    # hit: 5 + Ranged 1 + Hold 1 >= 6; damage: 1 + Pierce 2 < Armor 5, but the shield is stuck
    after, _ = play(state, Action("hold", 0, "a", "b"), [5, 1, 1, 1])
    assert fight.armor(after, b0) == 3


def test_ow_h5_only_the_miniatures_that_threw_lose_their_javelins() -> None:
    state = battle([unit("a", 2, SKIRMISHERS)], [unit("b", 1), unit("c", 1)])
    place(state, "a", line(40.0, 20.0, 2))
    place(state, "b", [(40.0, 20.0 + DIAMETER + 11.0)])  # only a0 reaches b
    place(state, "c", [(60.0, 20.0)])
    a0, a1 = (int(m) for m in state.members("a"))
    after, _ = play(in_battle(state), Action("hold", 0, "a", "b"), [1, 1, 1])
    assert fight.weapons(after, a0, ranged=True) == []
    assert [w.name for w in fight.weapons(after, a1, ranged=True)] == ["Javelin (Thrown)"]
    assert [w.name for w in fight.weapons(after, a1, ranged=False)] == ["Javelin"]


def test_ow_h7_a_specialist_that_cannot_reach_the_target_shoots_another_unit() -> None:
    """a1 is a Specialist: out of reach of b, it shoots c; a0 (no skill) still only shoots b."""
    specialist = profile(
        ranged=1,
        loadouts=[
            loadout(JAVELIN, JAVELIN_THROWN),
            loadout(JAVELIN, JAVELIN_THROWN, skills=["Specialist"]),
        ],
    )
    state = battle([unit("a", 2, specialist, loadouts=(0, 1))], [unit("b", 1), unit("c", 1)])
    place(state, "a", line(40.0, 20.0, 2))
    place(state, "b", [(40.0, 20.0 + DIAMETER + 11.0)])  # only a0 reaches b
    place(state, "c", [(55.0, 20.0)])  # 10 cm from a1 (at 42.5), 12.5 cm from a0
    # b: a0 hits (6) and wounds (6), Presence 1+1; c: a1 misses (1), Presence 1+1
    _, events = play(in_battle(state), Action("hold", 0, "a", "b"), [6, 6, 1, 1, 1, 1, 1])
    attacks = [e.data for e in events if e.kind == "attack"]
    assert [(a["target"], a["attackers"]) for a in attacks] == [("b", 1), ("c", 1)]
    assert [e.data["target"] for e in events if e.kind == "presence"] == ["b", "c"]


def test_ow_h7_a_specialist_that_reaches_the_target_shoots_it() -> None:
    specialist = profile(
        ranged=1, loadouts=[loadout(JAVELIN, JAVELIN_THROWN, skills=["Specialist"])]
    )
    state = battle([unit("a", 2, specialist)], [unit("b", 1), unit("c", 1)])
    place(state, "a", line(40.0, 20.0, 2))
    place(state, "b", [(40.0, 20.0 + DIAMETER + 10.0)])  # both reach b
    place(state, "c", [(60.0, 20.0)])
    _, events = play(in_battle(state), Action("hold", 0, "a", "b"), [1, 1, 1, 1])
    assert [e.data["target"] for e in events if e.kind == "attack"] == ["b"]
