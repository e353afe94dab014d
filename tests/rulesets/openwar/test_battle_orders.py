"""OpenWar battle rules: the five orders, movement, coherency, Exhaustion, command skills.

One test per clause of docs/rules/openwar.md, "Battle"; every die is scripted.
"""

from __future__ import annotations

import numpy as np
import pytest

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.events import Event
from openwar.engine.state import GameState
from openwar.rulesets.openwar import fight, orders

from .conftest import (
    BOW,
    DIAMETER,
    battle,
    first,
    gap,
    in_battle,
    kinds,
    line,
    loadout,
    place,
    play,
    profile,
    unit,
)

HOLD_THE_LINE, HASTE = "Hold the Line!", "With all Haste!"


def facing(gap_cm: float, *, a: dict[str, object] | None = None, b_size: int = 3) -> GameState:
    """Unit "a" (one miniature at (40, 20)) and unit "b" (a line) ``gap_cm`` north of it;
    a second unit per side far away so the round does not end after one order."""
    state = battle([unit("a", 1, a), unit("x", 1)], [unit("b", b_size), unit("y", 1)])
    place(state, "a", [(40.0, 20.0)])
    place(state, "x", [(5.0, 5.0)])
    place(state, "b", line(40.0 - DIAMETER, 20.0 + DIAMETER + gap_cm, b_size))
    place(state, "y", [(85.0, 85.0)])
    return in_battle(state)


def test_ow_o0_an_order_is_given_to_a_living_unit_of_ones_own() -> None:
    state = facing(20.0)
    for action in (
        Action("hold", 0, None),
        Action("hold", 0, "nobody"),
        Action("hold", 0, "b"),
        Action("dance", 0, "a"),
    ):
        with pytest.raises(IllegalActionError, match="OW-O0"):
            play(state, action)
    state.alive[state.members("a")] = False
    with pytest.raises(IllegalActionError, match="OW-O0"):
        play(state, Action("hold", 0, "a"))


def test_ow_b1_only_the_side_to_move_gives_an_order() -> None:
    with pytest.raises(IllegalActionError, match="OW-B1"):
        play(facing(20.0), Action("hold", 1, "b"))


def test_ow_b1_a_unit_gets_one_order_per_round() -> None:
    state, _ = play(facing(20.0), Action("hold", 0, "a"))
    assert state.active == 1
    state, _ = play(state, Action("hold", 1, "b"))
    with pytest.raises(IllegalActionError, match="OW-B1"):
        play(state, Action("hold", 0, "a"))
    play(state, Action("hold", 0, "x"))


def test_ow_o1_advance_not_allowed_in_combat() -> None:
    with pytest.raises(IllegalActionError, match="OW-O1"):
        play(facing(4.0), Action("advance", 0, "a", None, (40.0, 15.0), "move-shoot"))


def test_ow_o1_advance_moves_up_to_move_cm() -> None:
    state = facing(40.0)
    after, events = play(state, Action("advance", 0, "a", None, (40.0, 30.0), "move-shoot"))
    assert first(events, "moved").data["distance"] == 10.0
    assert after.pos[after.members("a")[0]] == pytest.approx([40.0, 30.0])
    with pytest.raises(IllegalActionError, match="OW-O1"):
        play(state, Action("advance", 0, "a", None, (40.0, 30.5), "move-shoot"))


def archers() -> dict[str, object]:
    return profile(loadouts=[loadout(BOW)], move=10)  # Bow: range 20, Attacks 1, Difficulty 4


def test_ow_o1_advance_move_then_shoot() -> None:
    state = facing(25.0, a=archers())  # out of range (20) before the move, in range after
    _, events = play(state, Action("advance", 0, "a", "b", (40.0, 26.0), "move-shoot"), [1] * 3)
    assert kinds(events)[1:4] == ["moved", "attack", "presence"]


def test_ow_o1_advance_shoot_then_move() -> None:
    state = facing(18.0, a=archers())  # in range before the move, out of range after
    action = Action("advance", 0, "a", "b", (40.0, 14.0), "shoot-move")
    _, events = play(state, action, [1, 1, 1])
    assert kinds(events)[1:4] == ["attack", "presence", "moved"]
    _, events = play(state, Action("advance", 0, "a", "b", (40.0, 14.0), "move-shoot"))
    assert kinds(events)[1:3] == ["moved", "no_shot"]


def test_ow_o1_advance_move_then_fight() -> None:
    state = facing(6.0)
    _, events = play(state, Action("advance", 0, "a", "b", (40.0, 26.0), "move-fight"), [1] * 5)
    assert kinds(events)[1:4] == ["moved", "attack", "presence"]
    assert first(events, "presence").data["total"] == 2  # no charge bonus for an Advance


def test_ow_o1_advance_is_one_of_three_choices() -> None:
    with pytest.raises(IllegalActionError, match="OW-O1"):
        play(facing(20.0), Action("advance", 0, "a", None, (40.0, 25.0), "charge"))


def test_ow_o2_hold_gives_plus_1_armor_until_the_units_next_order() -> None:
    state = facing(20.0)
    state.active = 1
    held, _ = play(state, Action("hold", 1, "b"))
    b0 = int(held.members("b")[0])
    assert fight.armor(held, b0) == fight.armor(state, b0) + 1
    # a's attack: one hit (5 on the first die), a damage roll of 4 fails against Armor 4 + 1
    place(held, "a", [(40.0, 20.0 + 20.0 - 6.0)])
    advance = Action("advance", 0, "a", "b", (40.0, 40.0), "move-fight")
    _, events = play(held, advance, [5, 1, 1, 4, 1, 1])
    assert first(events, "attack").data["wounds"] == 0
    held.active, held.unit("b").flags["ordered"] = 1, False  # b's order next round
    again, _ = play(held, Action("advance", 1, "b", None, (40.0, 45.0), "move-shoot"))
    assert fight.armor(again, b0) == fight.armor(state, b0)


def test_ow_o2_hold_fights_with_plus_1_accuracy() -> None:
    state = facing(0.0)
    # Hold: 4 + 1 reaches Difficulty 5: one hit, its damage roll 6 wounds
    _, events = play(state, Action("hold", 0, "a", "b"), [4, 1, 1, 6, 1, 1])
    assert first(events, "attack").data["wounds"] == 1
    # the same first die without Hold misses: no damage roll at all
    state = facing(6.0)
    advance = Action("advance", 0, "a", "b", (40.0, 26.0), "move-fight")
    _, events = play(state, advance, [4, 1, 1, 1, 1])
    assert first(events, "attack").data["wounds"] == 0


def test_ow_o3_run_doubles_move_and_takes_exhaustion() -> None:
    state = facing(60.0)
    after, events = play(state, Action("run", 0, "a", None, (40.0, 40.0)))
    assert first(events, "moved").data == {"unit": "a", "distance": 20.0, "run": True}
    assert after.unit("a").tokens["exhaustion"] == 1
    with pytest.raises(IllegalActionError, match="OW-O3"):
        play(state, Action("run", 0, "a", None, (40.0, 40.5)))
    with pytest.raises(IllegalActionError, match="OW-O3"):
        play(state, Action("run", 0, "a"))


def test_ow_b4_moves_go_straight_through_friends_never_through_enemies_nor_off_the_table() -> None:
    state = facing(60.0)
    place(state, "x", [(40.0, 30.0)])  # a friend in the straight line
    ran, _ = play(state, Action("run", 0, "a", None, (40.0, 40.0)))  # through it
    assert ran.pos[ran.members("a")][0].tolist() == [40.0, 40.0]
    with pytest.raises(IllegalActionError, match="OW-B4"):  # but not ending on it
        play(state, Action("run", 0, "a", None, (40.0, 31.0)))
    with pytest.raises(IllegalActionError, match="OW-B4"):
        play(state, Action("advance", 0, "x", None, (40.0, 30.0 - 10.0), "move-shoot"))
    place(state, "y", [(40.0, 30.0)])  # an enemy in the straight line stops it
    place(state, "x", [(5.0, 5.0)])
    with pytest.raises(IllegalActionError, match="OW-B4"):
        play(state, Action("run", 0, "a", None, (40.0, 40.0)))
    place(state, "x", [(80.0, 5.0)])
    with pytest.raises(IllegalActionError, match="OW-B4"):
        play(state, Action("advance", 0, "x", None, (80.0, 0.5), "move-shoot"))


def test_ow_b4_a_move_ending_between_a_friend_passed_and_an_enemy_met_is_legal() -> None:
    """The knife edge a search rollout found: a destination touching the friend it passed
    and the enemy it meets, a rounding short of the contact, is a legal end (it was refused
    as blocked: the way there, asked again, stepped back before the friend)."""
    state = facing(60.0)
    place(state, "x", [(40.0, 24.0)])  # a friend on the way
    place(state, "y", [(40.0, 29.0)])  # an enemy met at (40, 26.5), touching the friend too
    end = (40.0, 26.5 - 3e-7)  # three tenths of a micrometre into the friend's base
    moved, _ = play(state, Action("advance", 0, "a", None, end, "move-shoot"))
    assert moved.pos[moved.members("a")][0].tolist() == [40.0, 26.5]  # rounded to the micron
    with pytest.raises(IllegalActionError, match="OW-B4"):  # well into the friend: refused
        play(state, Action("advance", 0, "a", None, (40.0, 25.5), "move-shoot"))


def test_ow_b4_a_move_along_the_table_edge_is_not_refused_for_a_rounding() -> None:
    """The knife edge a benchmark battle found (there a Charge): a unit touching the north
    edge moves along it; the destination, rounded to 1e-6 cm, lies a nanometre outward, and
    the way there was refused as blocked by the edge at its very start."""
    state = facing(60.0)
    north = float(state.board["depth"]) - DIAMETER / 2
    place(state, "a", [(40.0, north)])
    place(state, "b", [(30.0, north), (30.0, north - DIAMETER), (30.0, north - 2 * DIAMETER)])
    end = (46.0, north + 1e-7)  # within the overlap tolerance of the edge
    moved, _ = play(state, Action("advance", 0, "a", None, end, "move-shoot"))
    assert moved.pos[moved.members("a")][0].tolist() == [46.0, round(north + 1e-7, 6)]
    with pytest.raises(IllegalActionError, match="OW-B4"):  # off the table: refused
        play(state, Action("advance", 0, "a", None, (46.0, north + 0.5), "move-shoot"))
    with pytest.raises(IllegalActionError, match="OW-B4"):  # through an enemy: refused
        play(state, Action("run", 0, "a", None, (22.0, north + 1e-7)))


def test_ow_b8_exhaustion_gives_minus_1_to_hit() -> None:
    state = facing(6.0)
    advance = Action("advance", 0, "a", "b", (40.0, 26.0), "move-fight")
    _, events = play(state, advance, [5, 5, 5, 6, 6, 6, 1, 1])  # three hits, three wounds
    assert first(events, "attack").data["wounds"] == 3
    state.unit("a").tokens["exhaustion"] = 1
    _, events = play(state, advance, [5, 5, 5, 1, 1])  # 5 - 1 misses Difficulty 5
    assert first(events, "attack").data["wounds"] == 0


def test_ow_b8_exhausted_unit_may_not_run_until_it_holds_or_regroups() -> None:
    state = facing(60.0)
    state.unit("a").tokens["exhaustion"] = 1
    run = Action("run", 0, "a", None, (40.0, 30.0))
    with pytest.raises(IllegalActionError, match="OW-B8"):
        play(state, run)
    advanced, _ = play(state, Action("advance", 0, "a", None, (40.0, 25.0), "move-shoot"))
    assert advanced.unit("a").tokens["exhaustion"] == 1
    for rest in (Action("hold", 0, "a"), Action("regroup", 0, "a")):
        rested, _ = play(state, rest)
        assert "exhaustion" not in rested.unit("a").tokens
        rested.unit("a").flags["ordered"] = False
        rested.active = 0
        play(rested, run)


def commander() -> dict[str, object]:
    return profile(command_skills=[HOLD_THE_LINE, HASTE])


def command_post(distance: float) -> GameState:
    """Command unit "c" and a friendly unit "f" ``distance`` cm apart; an enemy far away."""
    state = battle([unit("c", 1, commander()), unit("f", 2)], [unit("b", 1), unit("y", 1)])
    place(state, "c", [(40.0, 10.0)])
    place(state, "f", line(40.0 + DIAMETER + distance, 10.0, 2))
    place(state, "b", [(40.0, 80.0)])
    place(state, "y", [(85.0, 85.0)])
    return in_battle(state)


def test_ow_o4_skill_order_uses_a_command_skill_of_the_unit_on_another_friendly_unit() -> None:
    state = command_post(5.0)
    _, events = play(state, Action("skill", 0, "c", "f", choice=HASTE))
    assert first(events, "skill").data == {"unit": "c", "skill": HASTE, "target": "f"}
    for action in (
        Action("skill", 0, "f", "c", choice=HASTE),  # f has no command skills
        Action("skill", 0, "c", None, choice=HASTE),
        Action("skill", 0, "c", "c", choice=HASTE),
        Action("skill", 0, "c", "b", choice=HASTE),
        Action("skill", 0, "c", "f", choice="Fireball"),
    ):
        with pytest.raises(IllegalActionError, match="OW-S1"):
            play(state, action)


def test_ow_b11_command_skills_reach_friendly_units_within_15cm() -> None:
    play(command_post(15.0), Action("skill", 0, "c", "f", choice=HASTE))
    with pytest.raises(IllegalActionError, match="OW-B11"):
        play(command_post(15.1), Action("skill", 0, "c", "f", choice=HASTE))


def test_ow_b11_hold_the_line_gives_plus_1_armor_until_the_units_next_order() -> None:
    state = command_post(5.0)
    f0 = int(state.members("f")[0])
    after, _ = play(state, Action("skill", 0, "c", "f", choice=HOLD_THE_LINE))
    assert fight.armor(after, f0) == fight.armor(state, f0) + 1
    after.active = 0
    moved, _ = play(after, Action("advance", 0, "f", None, (50.0, 15.0), "move-shoot"))
    assert fight.armor(moved, f0) == fight.armor(state, f0)


def test_ow_b11_with_all_haste_adds_6cm_to_the_next_move() -> None:
    state = command_post(5.0)
    hasted, _ = play(state, Action("skill", 0, "c", "f", choice=HASTE))
    hasted.active = 0
    centre = hasted.pos[hasted.members("f")].mean(axis=0)
    far = (float(centre[0]), float(centre[1]) + 16.0)
    moved, _ = play(hasted, Action("advance", 0, "f", None, far, "move-shoot"))
    assert "haste" not in moved.unit("f").tokens
    with pytest.raises(IllegalActionError, match="OW-O1"):
        play(state, Action("advance", 0, "f", None, far, "move-shoot"))
    run = (float(centre[0]), float(centre[1]) + 32.0)
    play(hasted, Action("run", 0, "f", None, run))


def test_ow_u1_a_unit_beyond_5cm_coherency_is_split() -> None:
    state = battle([unit("a", 3), unit("x", 1)], [unit("b", 1), unit("y", 1)])
    place(state, "a", [(20.0, 10.0), (22.5, 10.0), (30.0 + 0.1, 10.0)])  # 5.1 cm gap
    place(state, "x", [(5.0, 5.0)])
    place(state, "b", [(40.0, 80.0)])
    place(state, "y", [(85.0, 85.0)])
    after, events = play(in_battle(state), Action("hold", 0, "a"))
    assert first(events, "split").data == {"unit": "a", "groups": 2}
    assert after.unit("a").flags["split"]
    place(state, "a", [(20.0, 10.0), (22.5, 10.0), (30.0, 10.0)])  # exactly 5 cm: coherent
    after, events = play(state, Action("hold", 0, "a"))
    assert "split" not in kinds(events) and not after.unit("a").flags["split"]


def test_ow_u2_split_unit_may_only_regroup() -> None:
    state = facing(40.0)
    state.unit("a").flags["split"] = True
    for action in (
        Action("hold", 0, "a"),
        Action("advance", 0, "a", None, (40.0, 25.0), "move-shoot"),
        Action("run", 0, "a", None, (40.0, 25.0)),
    ):
        with pytest.raises(IllegalActionError, match="OW-U2"):
            play(state, action)
    _, events = play(state, Action("regroup", 0, "a"))
    assert "coherent" in kinds(events)


def regrouped(spots: list[tuple[float, float]]) -> tuple[GameState, list[Event]]:
    """Unit "a" split, its miniatures at ``spots`` (the other units far away), regrouped."""
    state = battle([unit("a", len(spots)), unit("x", 1)], [unit("b", 1), unit("y", 1)])
    place(state, "a", spots)
    place(state, "x", [(5.0, 5.0)])
    place(state, "b", [(40.0, 80.0)])
    place(state, "y", [(85.0, 85.0)])
    state = in_battle(state)
    state.unit("a").flags["split"] = True
    return play(state, Action("regroup", 0, "a"))


def test_ow_o5_regroup_moves_each_miniature_up_to_5cm_towards_the_leader() -> None:
    after, events = regrouped([(20.0, 10.0), (22.5, 10.0), (35.0, 10.0)])  # 10 cm gap: split
    a = after.members("a")
    assert after.pos[a] == pytest.approx(np.array([[20.0, 10.0], [22.5, 10.0], [30.0, 10.0]]))
    assert kinds(events)[1:] == ["regroup", "coherent"]


def test_ow_b6_equally_near_miniatures_regroup_in_the_units_order_on_any_machine() -> None:
    """Two miniatures equally far from the leader whose ways meet: the one earlier in the unit
    moves first, the full 5 cm, and the other stops against it. numpy's default sort orders
    ties as the machine's vector unit happens to (with AVX-512, the other way round), so
    a tie must be broken by a stable sort for a battle to replay the same everywhere."""
    pair = [(40.0 - 1.3, 22.0), (40.0 + 1.3, 22.0)]  # 0.1 cm apart, 10.1 cm from the leader
    ranks = [(35.0 + 2.5 * k, 10.0 + 2.5 * r) for r in range(2) for k in range(5)]
    after, _ = regrouped(pair + ranks)  # the leader: (40, 10), first nearest the ranks' centre
    first, second = after.pos[after.members("a")][:2]
    assert np.hypot(*(first - np.array(pair[0]))) == pytest.approx(5.0)
    assert np.hypot(*(second - np.array(pair[1]))) < 4.0
    assert first == pytest.approx([39.239, 17.029], abs=1e-3)
    assert second == pytest.approx([40.958, 18.844], abs=1e-3)


def test_ow_m3_retreat_may_not_end_within_5cm() -> None:
    state = facing(2.0)
    with pytest.raises(IllegalActionError, match="OW-M3"):
        play(state, Action("run", 0, "a", None, (40.0, 17.5)))  # 4.5 cm from b
    after, events = play(state, Action("run", 0, "a", None, (40.0, 16.5)))
    assert kinds(events) == ["order", "moved", "retreat"]
    assert gap(after, "a", "b") == pytest.approx(5.5)
    assert after.unit("a").tokens["exhaustion"] == 1


def _moves_of(state: GameState, uid: str) -> list[Action]:
    from openwar.rulesets.openwar.menu import unit_orders

    return [a for a in unit_orders(state, state.unit(uid)) if a.point is not None]


def test_menu_moves_go_around_a_friend_where_the_straight_move_would_end() -> None:
    # b is 30 cm north of a and x stands where a's straight advance would end: a may pass
    # through x (OW-B4) but not stop on it, so the straight way gets only 7.5 cm; the menu
    # offers turned moves that get nearer b (each a straight line, and legal)
    state = facing(30.0)
    place(state, "x", [(40.0, 30.0)])
    moves = [a for a in _moves_of(state, "a") if a.kind == "advance"]
    assert moves
    before = gap(state, "a", "b")
    assert min(gap(play(state, action)[0], "a", "b") for action in moves) < before - 8.0


def test_menu_offers_falling_back_away_from_the_enemy() -> None:
    state = facing(20.0)
    before = gap(state, "a", "b")
    after = [gap(play(state, a)[0], "a", "b") for a in _moves_of(state, "a") if a.kind == "advance"]
    assert max(after) > before + 9.0  # nearly a full Move (10 cm) away from the enemy army


def test_menu_charge_reaches_another_miniature_when_the_nearest_is_blocked() -> None:
    # the enemy y stands between a and the middle miniature of b, out of a's combat range:
    # the straight charge stops at y; a charges b's left miniature instead, into base contact
    state = facing(12.0)
    place(state, "b", line(34.0, 20.0 + DIAMETER + 12.0, 3, step=6.0))
    place(state, "y", [(40.0, 28.5)])
    charges = [a for a in _moves_of(state, "a") if a.kind == "run" and a.choice == "charge"]
    assert [a.target for a in charges] == ["b", "y"]
    for action in charges[:1]:
        assert action.point is not None
        moved = state.clone()
        orders.translate(moved, "a", action.point, 20.0, "test")  # legal: unblocked
        assert gap(moved, "a", "b") == pytest.approx(0.0, abs=1e-3)  # base contact
