"""Age of Sigmar battle rules added after the first whole battles: garrisons, minimum ranges,
damage tables, random Move, triumphs, split attacks, the Realmvault Key's ban on commands
(docs/rules/aos.md, "Battle"); every die is scripted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.game import ScriptedDice
from openwar.engine.state import GameState
from openwar.errors import OpenWarError
from openwar.rulesets.aos import attacks, handlers, moves, phases
from openwar.rulesets.aos.battle import RULES
from openwar.rulesets.aos.board import first_blood_board, terrain
from openwar.rulesets.aos.wounds import allocate, heal

from .kit import STEP, R, battle, first, in_phase, line, place, play, profile, unit, weapon

HERO = profile(keywords=["HERO", "INFANTRY"], wounds=5, melee=[weapon()])


def open_war(**extra: Any) -> dict[str, Any]:
    plan = first_blood_board()
    plan["victory"] = "Arcane Prize"
    plan.update(extra)
    return plan


def test_aos_v7_realmvault_key_on_a_1_silences_the_hero_until_its_next_hero_phase() -> None:
    state = in_phase(
        battle([unit("a", 5), unit("h", 1, HERO)], [unit("b", 5)], open_war()), "battleshock"
    )
    place(state, "a", line(28.0, 17.6, 5))
    place(state, "h", [(20.0, 10.0)])
    place(state, "b", line(28.0, 40.0, 5))
    state.extra["general"] = ["h", "b"]
    state.extra["objectives"] = [[20.0, 12.0]]
    state.extra["control"] = [0]
    state.extra["prize"] = {"result": "Realmvault Key", "carrier": None}
    assert phases.in_command_range(state, "a")
    events = phases.enter(state, "hero", ScriptedDice([1]))
    assert first(events, "arcane_prize").data["roll"] == 1
    assert state.extra["cp"][0] == 1  # the hero phase's point, none from the key
    assert not phases.in_command_range(state, "a")
    state.extra["turn"] = 1
    phases.enter(state, "hero", ScriptedDice([]))  # the enemy's hero phase: still silenced
    assert not phases.in_command_range(state, "a")
    state.extra["turn"] = 0
    events = phases.enter(state, "hero", ScriptedDice([4]))
    assert state.extra["cp"][0] == 3 and phases.in_command_range(state, "a")


# -- minimum ranges, damage tables, random values ------------------------------------------
MORTAR = weapon("Mortar", rng=30, attacks=1, hit=4, wound=4)
MORTAR["min_range"] = 6


def test_aos_h5_minimum_range_spares_units_wholly_within_it() -> None:
    shooter = profile(missile=[MORTAR])
    state = in_phase(battle([unit("a", 1, shooter)], [unit("b", 3)]), "shooting")
    place(state, "a", [(30.0, 10.0)])
    place(state, "b", line(30.0, 15.0, 3))  # wholly within 6"
    assert Action("shoot", 0, "a", target="b") not in RULES.legal_actions(state)
    with pytest.raises(IllegalActionError, match="AOS-H2"):
        play(state, Action("shoot", 0, "a", target="b"))
    place(state, "b", [(30.0, 15.0), (31.1, 15.0), (30.0, 16.5)])  # one base reaches past 6"
    _, events = play(state, Action("shoot", 0, "a", target="b"), [2])
    assert first(events, "attack").data["weapons"][0]["attacks"] == 1


def row(suffered: int, move: int | str, jaws: dict[str, str], **more: int) -> dict[str, Any]:
    return {"suffered": suffered, "move": move, "bravery": more.get("bravery"),
            "save": more.get("save"), "weapons": {"Jaws": jaws}}  # fmt: skip


DRAKE_TABLE = [
    row(0, 12, {"attacks": "3"}),
    row(4, 10, {"attacks": "2"}, bravery=6, save=5),
    row(8, "D6", {"attacks": "1", "damage": "D3"}),
]


def drake_battle(damage: int) -> GameState:
    drake = profile(
        move=12, wounds=12, bravery=7, save=4, keywords=["MONSTER"],
        melee=[weapon("Jaws", rng=2, attacks=3)],
    )  # fmt: skip
    drake["damage_table"] = DRAKE_TABLE
    state = in_phase(battle([unit("d", 1, drake, radius=1.97)], [unit("b", 5)]), "movement")
    place(state, "d", [(30.0, 10.0)])
    place(state, "b", line(30.0, 40.0, 5))
    if damage:
        allocate(state, "d", damage, ScriptedDice([]), 1, "test")
    return state


def test_aos_d8_damage_table_by_wounds_suffered() -> None:
    from openwar.rulesets.aos import characteristics as ch

    fresh, hurt = drake_battle(0), drake_battle(5)
    assert ch.move(fresh, fresh.unit("d")) == 12 and ch.move(hurt, hurt.unit("d")) == 10
    assert ch.bravery(hurt, hurt.unit("d")) == 6 and ch.save(hurt, hurt.unit("d")) == 5
    assert ch.save(fresh, fresh.unit("d")) == 4
    for state, attacks_made in ((fresh, 3), (hurt, 2)):
        state.phase = "combat"
        place(state, "b", line(30.0, 12.6, 5))
        uses = attacks.attackers(state, "d", "b", False, ScriptedDice([]))
        assert [u.attacks for u in uses] == [attacks_made]
    # healing moves the drake back up the table
    heal(hurt, "d", 2)
    assert ch.move(hurt, hurt.unit("d")) == 12
    # a move longer than the table's Move is illegal
    hurt = drake_battle(4)
    with pytest.raises(IllegalActionError, match="AOS-M1"):
        play(hurt, Action("move", 0, "d", point=(30.0, 21.0), choice="normal"))
    play(hurt, Action("move", 0, "d", point=(30.0, 20.0), choice="normal"))


def test_aos_d8_a_damage_tables_melee_range_decides_who_the_unit_can_fight() -> None:
    """A row that changes the Jaws' Range (2" on the warscroll) changes what a charged drake
    reaches after its 3" pile-in: with 1" Jaws an enemy 4.5" away is out of reach (it was
    taken as within 3" + 2" and the drake was sent at it to strike nothing); with 4" Jaws
    one 6" away is within reach (the drake was passed over)."""
    for jaws, gap in ((1, 4.5), (4, 6.0)):
        for hurt, reached in ((False, jaws == 1), (True, jaws == 4)):
            state = drake_battle(0)
            changed = {"attacks": "2", "range": str(jaws)}
            state.unit("d").profile["damage_table"] = [DRAKE_TABLE[0], row(4, 10, changed)]
            if hurt:
                allocate(state, "d", 5, ScriptedDice([]), 1, "test")
            state.phase = "combat"
            state.unit("d").flags["charged"] = True
            place(state, "b", line(30.0, 10.0 + 1.97 + 0.49 + gap, 5))
            assert phases.longest_melee(state, "d") == (jaws if hurt else 2)
            assert ("d" in phases.eligible_fighters(state, 0)) is reached
            if reached:
                assert phases.fight_reach(state, "d") == {"b": frozenset({"Jaws"})}


def test_aos_d9_random_move_is_rolled_when_the_unit_is_picked() -> None:
    state = drake_battle(9)  # 8+ wounds suffered: Move D6
    menu = RULES.legal_actions(state)
    assert Action("roll_move", 0, "d") in menu
    assert not [a for a in menu if a.unit == "d" and a.kind in ("move", "run")]
    with pytest.raises(IllegalActionError, match="AOS-D9"):
        play(state, Action("move", 0, "d", point=(30.0, 12.0), choice="normal"))
    with pytest.raises(IllegalActionError, match="AOS-D9"):
        play(state, Action("run", 0, "d"), [3])
    state, events = play(state, Action("roll_move", 0, "d"), [4])
    assert first(events, "move_roll").data == {"unit": "d", "move": "D6", "roll": 4}
    with pytest.raises(IllegalActionError, match="AOS-D9"):
        play(state, Action("roll_move", 0, "d"), [4])
    with pytest.raises(IllegalActionError, match="AOS-M1"):
        play(state, Action("move", 0, "d", point=(30.0, 14.5), choice="normal"))
    # the run adds its dice to the rolled Move
    state, _ = play(state, Action("run", 0, "d"), [2])
    state, _ = play(state, Action("run_move", 0, "d", point=(30.0, 16.0)))
    assert "move_roll" in state.unit("d").tokens
    phases.start_turn(state, 1, ScriptedDice([]))
    assert "move_roll" not in state.unit("d").tokens


def test_aos_d8_sample_drake_has_a_damage_table_and_the_catalogue_checks_it() -> None:
    from openwar.rulesets import load_ruleset
    from openwar.rulesets.aos.catalog import AosCatalog

    catalog = load_ruleset("aos").data
    assert isinstance(catalog, AosCatalog)
    drake = catalog.unit("Ember Drake")
    assert drake is not None and [r.suffered for r in drake.damage_table] == [0, 4, 8]
    cannon = catalog.unit("Thunder Cannon")
    assert cannon is not None and cannon.missile_weapons[0].min_range == 6


# -- splitting attacks -----------------------------------------------------------------------
BOW = weapon("Bow", rng=18, attacks=2, hit=4, wound=4)
SLING = weapon("Sling", rng=8, attacks=1, hit=4, wound=4)


def two_targets(phase: str = "shooting") -> GameState:
    shooters = profile(missile=[BOW, SLING], melee=[weapon("Axe"), weapon("Spear", rng=2)])
    state = in_phase(
        battle([unit("a", 1, shooters)], [unit("b", 1, profile(save=None)), unit("c", 1)]), phase
    )
    place(state, "a", [(30.0, 10.0)])
    place(state, "b", [(30.0, 25.0)])  # 15": only the Bow reaches
    place(state, "c", [(36.0, 12.0)])  # 6": both weapons reach
    return state


def test_aos_f3_a_unit_splits_its_weapons_between_targets() -> None:
    state = two_targets()
    menu = RULES.legal_actions(state)
    split = Action("shoot", 0, "a", target="c", choice="Bow>b")
    assert split in menu
    assert Action("shoot", 0, "a", target="b", choice="Sling>c") in menu
    assert Action("shoot", 0, "a", target="c", choice="Sling>b") not in menu  # out of range
    with pytest.raises(IllegalActionError, match="AOS-F3"):
        play(state, Action("shoot", 0, "a", target="c", choice="Sling>b"))
    with pytest.raises(IllegalActionError, match="AOS-F3"):
        play(state, Action("shoot", 0, "a", target="c", choice="Club>b"))
    # Sling at c first (the primary target), then the Bow's 2 attacks at b; wounds after all
    after, events = play(state, split, [5, 5, 1, 6, 6, 6, 6, 1, 1])
    shots = [e.data for e in events if e.kind == "attack"]
    assert [(d["target"], [w["weapon"] for w in d["weapons"]]) for d in shots] == [
        ("c", ["Sling"]),
        ("b", ["Bow"]),
    ]
    assert [d["slain"] for d in shots] == [1, 1]  # c failed its save (1); b has no save
    assert after.size("b") == 0 and after.size("c") == 0


def test_aos_f3_a_fighter_splits_its_melee_weapons() -> None:
    state = two_targets("combat")
    place(state, "b", [(30.0, 11.5)])
    place(state, "c", [(31.5, 10.0)])
    action = Action("fight", 0, "a", target="b", choice="Spear>c")
    assert action in RULES.legal_actions(state)
    # Axe at b: hit 6, wound 6, save 1 (a save of "-" fails); Spear at c: hit 2 misses
    after, events = play(state, action, [6, 6, 1, 2])
    shots = [e.data for e in events if e.kind == "attack"]
    assert [(d["target"], d["slain"]) for d in shots] == [("b", 1), ("c", 0)]
    assert after.size("b") == 0 and after.size("c") == 1


def test_aos_f3_a_fighter_is_sent_only_at_what_it_reaches_once_piled_in() -> None:
    """Its pile-in goes towards the nearest enemy (b), out of reach of c, 3.3" away before it:
    c was offered all the same, and a fight sent at c struck nothing. A fighter that reaches
    nothing after its pile-in still fights (piles in) at what it could reach before."""
    state = in_phase(battle([unit("a", 1, profile(melee=[weapon("Axe")]))],
                            [unit("b", 1), unit("c", 1)]), "combat")  # fmt: skip
    place(state, "a", [(30.0, 10.0)])
    place(state, "b", [(30.0, 12.0)])  # the nearest: a piles in towards it
    place(state, "c", [(26.5, 10.0)])
    assert phases.within_reach(state, "a") == ["b", "c"]
    assert phases.fight_targets(state, "a") == ["b"]
    assert {a.target for a in RULES.legal_actions(state) if a.kind == "fight"} == {"b"}
    with pytest.raises(IllegalActionError, match="not an enemy unit a can reach"):
        play(state, Action("fight", 0, "a", target="c"))
    unarmed = in_phase(battle([unit("a", 1)], [unit("b", 1)]), "combat")  # no melee weapon
    place(unarmed, "a", [(30.0, 10.0)])
    place(unarmed, "b", [(30.0, 12.0)])
    assert phases.fight_targets(unarmed, "a") == ["b"] and phases.eligible_fighters(unarmed, 0)


def test_aos_f3_a_weapon_is_aimed_only_at_a_unit_it_reaches_once_piled_in() -> None:
    """After its pile-in towards b, c is 1"-2" away: the Spear (2") reaches it, the Axe (1")
    does not, so the Axe is not offered at c (it was, and struck nothing) and is refused."""
    armed = profile(melee=[weapon("Axe"), weapon("Spear", rng=2)])
    state = in_phase(battle([unit("a", 1, armed)], [unit("b", 1), unit("c", 1)]), "combat")
    place(state, "a", [(30.0, 10.0)])
    place(state, "b", [(30.0, 12.0)])
    place(state, "c", [(32.4, 11.0)])
    assert phases.fight_reach(state, "a") == {
        "b": frozenset({"Axe", "Spear"}),
        "c": frozenset({"Spear"}),
    }
    splits = {(a.target, a.choice) for a in RULES.legal_actions(state) if a.choice}
    assert splits == {("b", "Spear>c"), ("c", "Axe>b")}
    with pytest.raises(IllegalActionError, match="a's Axe cannot attack c"):
        play(state, Action("fight", 0, "a", target="b", choice="Axe>c"))


# -- triumphs --------------------------------------------------------------------------------
def test_aos_b10_a_side_with_a_previous_major_victory_rolls_a_triumph() -> None:
    from openwar.battleplans.generator import generate
    from openwar.battleplans.report import battleplan_json
    from openwar.rulesets.aos.board import board_from_plan, triumph_sides

    assert triumph_sides("a") == [True, False] and triumph_sides(["A", "B"]) == [True, True]
    plan = battleplan_json(generate("aos", 1000, 1))
    assert board_from_plan(plan)["triumphs"] == [False, False]
    assert board_from_plan({**plan, "triumphs": ["B"]})["triumphs"] == [False, True]
    with pytest.raises(OpenWarError, match="not a side"):
        triumph_sides("C")
    with pytest.raises(OpenWarError, match="A is named twice"):
        triumph_sides("A,a")  # a typo for A,B is not taken as A
    for empty in ("", "A,", " "):
        with pytest.raises(OpenWarError, match="an empty side name"):
            triumph_sides(empty)
    state = battle([unit("a", 1)], [unit("b", 1)], open_war(triumphs=[False, True]))
    events = phases.start_round(state, ScriptedDice([3, 5, 2]))
    assert first(events, "triumph_roll").data == {"side": 1, "roll": 3, "triumph": "Bloodthirsty"}
    assert first(events, "roll_off").data["rolls"] == [5, 2]
    assert state.extra["triumph"] == [None, "Bloodthirsty"]
    phases.start_round(state, ScriptedDice([5, 2]))  # only when the battle begins


def test_aos_b10_inspired_rerolls_failed_hits_once_per_battle_for_a_phase() -> None:
    state = two_targets()
    state.extra["triumph"] = ["Inspired", None]
    inspired = Action("shoot", 0, "a", target="c", choice="Inspired")
    assert inspired in RULES.legal_actions(state)
    with pytest.raises(IllegalActionError, match="AOS-B10"):
        play(state, Action("shoot", 0, "a", target="c", choice="Bloodthirsty"))
    # Bow: hits 1, 3 re-rolled to 4, 2 (one hit), wound 3 fails; Sling: hit 1 re-rolled to 1
    after, events = play(state, inspired, [1, 3, 4, 2, 3, 1, 1])
    assert first(events, "triumph").data == {"unit": "a", "triumph": "Inspired"}
    assert [w["hits"] for w in first(events, "attack").data["weapons"]] == [1, 0]
    assert after.extra["triumph_used"] == [True, False]
    assert not [a for a in RULES.legal_actions(after) if a.choice == "Inspired"]
    after, _ = play(after, Action("end_phase", 0))
    assert "triumph" not in after.unit("a").flags


def test_aos_b10_indomitable_is_declared_the_first_time_saves_are_needed() -> None:
    state = two_targets()
    state.extra["triumph"] = [None, "Indomitable"]
    # Bow: hits 5, 1; wound 5; c is declared indomitable: save 1 re-rolled to 4; Sling misses
    after, events = play(state, Action("shoot", 0, "a", target="c"), [5, 1, 5, 1, 4, 1])
    assert first(events, "triumph").data == {"unit": "c", "triumph": "Indomitable"}
    assert first(events, "attack").data["weapons"][0]["unsaved"] == 0
    assert after.extra["triumph_used"] == [False, True]


def test_aos_b10_triumphs_from_the_command_line_play_and_replay() -> None:
    from typer.testing import CliRunner

    from openwar.battles import fight_battle, load_setup
    from openwar.cli.app import app
    from openwar.engine.runner import replay_actions

    armies = ("examples/armies/aos/gilded_vanguard.yaml", "examples/armies/aos/ember_court.yaml")
    result = CliRunner().invoke(app, ["battle", *armies, "--seed", "3", "--triumph", "A,B"])
    assert result.exit_code == 0, result.output
    bad = CliRunner().invoke(app, ["battle", *armies, "--triumph", "C"])
    assert bad.exit_code != 0 and "not a side" in bad.output
    setup = load_setup((Path(armies[0]), Path(armies[1])), None, 3)
    setup.board["triumphs"] = [True, True]
    record = fight_battle(setup, ("random", "random"))
    assert all(record.final.extra["triumph"])
    again = replay_actions(record.initial, record.actions)
    assert again.final.state_hash() == record.final.state_hash()


# -- garrisons -------------------------------------------------------------------------------
TOWER = [[28.0, 20.0], [32.0, 20.0], [32.0, 24.0], [28.0, 24.0]]


def tower_board() -> dict[str, Any]:
    plan = first_blood_board()
    plan["terrain"] = [
        {"name": "Ruined Tower", "polygon": TOWER, "blocks_sight": True, "scenery": None},
        {"name": "Hill", "polygon": [[40, 20], [44, 20], [44, 24], [40, 24]],
         "blocks_sight": False, "scenery": None},
    ]  # fmt: skip
    return plan


def garrison_battle(phase: str = "movement", enemy_y: float = 40.0) -> GameState:
    archers = profile(missile=[BOW], melee=[weapon()])
    state = in_phase(battle([unit("a", 5, archers)], [unit("b", 5, archers)], tower_board()), phase)
    place(state, "a", line(27.0, 15.0, 5))
    place(state, "b", line(27.0, enemy_y, 5))
    return state


def inside(state: GameState, uid: str) -> bool:
    from openwar.rulesets.aos.board import terrain, wholly_within

    members = state.on_table(uid)
    return wholly_within(terrain(state)[0], state.pos[members], state.radius[members])


def test_aos_g1_a_unit_garrisons_a_feature_instead_of_a_normal_move() -> None:
    state = garrison_battle()
    enter = Action("garrison", 0, "a", choice="0")
    menu = RULES.legal_actions(state)
    assert enter in menu and Action("garrison", 0, "a", choice="1") not in menu  # a hill
    after, events = play(state, enter)
    assert first(events, "garrison").data == {"unit": "a", "terrain": "Ruined Tower"}
    assert after.extra["garrisons"] == {"a": 0} and inside(after, "a")
    assert after.unit("a").flags["moved"]
    # an enemy within 3" of the feature, or models more than 6" away, forbid it
    near = garrison_battle(enemy_y=26.5)
    assert enter not in RULES.legal_actions(near)
    with pytest.raises(IllegalActionError, match="AOS-G1"):
        play(near, enter)
    far = garrison_battle()
    place(far, "a", line(27.0, 12.0, 5))
    with pytest.raises(IllegalActionError, match="AOS-G1"):
        play(far, enter)
    # set up as a garrison: the feature is wholly within the unit's territory
    fresh = battle([unit("a", 5)], [unit("b", 5)], tower_board())
    setup = Action("deploy", 0, "a", choice="garrison 0")
    assert setup in RULES.legal_actions(fresh)
    fresh, _ = play(fresh, setup)
    assert fresh.extra["garrisons"] == {"a": 0} and inside(fresh, "a")


def test_aos_g2_a_garrison_cannot_move_but_leaves_within_6_as_its_move() -> None:
    state, _ = play(garrison_battle(), Action("garrison", 0, "a", choice="0"))
    state.unit("a").flags.pop("moved")
    menu = [a for a in RULES.legal_actions(state) if a.unit == "a"]
    assert menu and {(a.kind, a.choice) for a in menu} == {("move", "leave")}
    with pytest.raises(IllegalActionError, match="AOS-G2"):
        play(state, Action("run", 0, "a"), [3])
    with pytest.raises(IllegalActionError, match="AOS-G2"):
        play(state, Action("move", 0, "a", point=(30.0, 10.0), choice="leave"))
    after, _ = play(state, menu[0])
    assert "a" not in after.extra["garrisons"] and after.unit("a").flags["moved"]
    from openwar.rulesets.aos.board import base_to_shape, terrain, wholly_outside

    members = after.on_table("a")
    shape = terrain(after)[0]
    assert wholly_outside(shape, after.pos[members], after.radius[members])
    assert base_to_shape(shape, after.pos[members], after.radius[members]).max() <= 6.0
    state.phase = "charge"
    assert not handlers.can_charge(state, state.unit("a"))


def test_aos_g3_range_sight_cover_and_minus_1_to_hit_go_by_the_feature() -> None:
    state, _ = play(garrison_battle(), Action("garrison", 0, "a", choice="0"))
    state.phase = "shooting"
    place(state, "b", line(27.0, 41.5, 5))  # 17.5" from the tower, further from its models
    assert moves.unit_gap(state, "a", "b") == pytest.approx(17.5 - R)
    assert attacks.can_target_missile(state, "a", "b")  # the tower does not hide its garrison
    assert attacks.can_target_missile(state, "b", "a")
    shot = attacks.attack_profile(state, "b", "a", BOW, True, "shooting")
    assert shot.hit_modifier == -1 and shot.cover
    # enemies treat the feature as an enemy model: no normal move within 3" of it
    state.phase, state.active, state.extra["turn"] = "movement", 1, 1
    place(state, "b", line(27.0, 31.0, 5))
    # ending 2.81" from the tower but 3.24" from the models in it
    with pytest.raises(IllegalActionError, match="AOS-G2"):
        play(state, Action("move", 1, "b", point=(29.2, 27.3), choice="normal"))
    moves_b = [a for a in RULES.legal_actions(state) if a.unit == "b" and a.kind == "move"]
    assert moves_b and all(moves.unit_gap(play(state, a)[0], "b", "a") > 3.0 for a in moves_b)


def test_aos_g2_a_normal_move_ends_more_than_3_from_a_garrison_as_aos_m2() -> None:
    """Its path is checked to a thousandth, its end strictly: a move that ends a hair within
    3" of the tower is refused (it was let through, and the unit then fought the garrison
    without a charge); one a thousandth short of the zone is not."""
    import numpy as np

    from openwar.engine.space import centroid
    from openwar.rulesets.aos import garrisons

    state, _ = play(garrison_battle(), Action("garrison", 0, "a", choice="0"))
    state.phase, state.active, state.extra["turn"] = "movement", 1, 1
    place(state, "b", line(27.0, 31.0, 5))
    start = centroid(state, state.on_table("b"))
    way = np.array([0.6, -0.8])  # 5" towards the tower, stopped by its 3" zone
    reach = garrisons.path_fraction(state, "b", way * 5.0) * 5.0
    assert 0.0 < reach < 5.0

    def to(distance: float) -> tuple[float, float]:
        end = start + way * distance
        return (float(end[0]), float(end[1]))

    after, _ = play(state, Action("move", 1, "b", point=to(reach - 0.001), choice="normal"))
    assert not moves.near_enemy(after, "b")
    with pytest.raises(IllegalActionError, match="AOS-M2"):
        play(state, Action("move", 1, "b", point=to(reach + 0.0005), choice="normal"))  # a hair in
    with pytest.raises(IllegalActionError, match="AOS-G2"):
        play(state, Action("move", 1, "b", point=to(reach + 0.01), choice="normal"))
    towards = [a for a in RULES.legal_actions(state) if a.unit == "b" and a.kind == "move"]
    assert towards and not any(moves.near_enemy(play(state, a)[0], "b") for a in towards)


@pytest.mark.parametrize("open_y", [26.0, 50.0])
def test_aos_g2_the_nearest_enemy_is_a_garrisons_feature_or_an_open_units_model(
    open_y: float,
) -> None:
    """With a garrison on the table, a unit's gap to the nearest enemy is the least of its gap
    to each enemy unit, a garrison measured from its feature; the garrison's own gap too."""
    archers = profile(missile=[BOW], melee=[weapon()])
    state = in_phase(
        battle([unit("a", 5, archers), unit("c", 3)], [unit("b", 5, archers)], tower_board()),
        "movement",
    )
    place(state, "a", line(27.0, 15.0, 5))
    place(state, "c", line(10.0, open_y, 3))
    place(state, "b", line(12.0, 31.0, 5))
    state, _ = play(state, Action("garrison", 0, "a", choice="0"))
    for uid, enemies in (("b", ("a", "c")), ("a", ("b",)), ("c", ("b",))):
        each = [moves.unit_gap(state, uid, e) for e in enemies]
        assert moves.enemy_gap(state, uid) == min(each)
    nearer = "c" if open_y < 30 else "a"
    assert moves.enemy_gap(state, "b") == moves.unit_gap(state, "b", nearer)


def test_aos_g3_a_charge_at_a_garrison_ends_within_half_an_inch_of_the_feature() -> None:
    state, _ = play(garrison_battle(), Action("garrison", 0, "a", choice="0"))
    state = in_phase(state, "charge", turn=1)
    place(state, "b", line(27.0, 31.0, 5))  # 6.5" from the tower
    state, _ = play(state, Action("charge", 1, "b"), [3, 4])
    state, events = play(state, Action("charge_move", 1, "b", target="a"))
    assert first(events, "charge").data["target"] == "a"
    assert moves.unit_gap(state, "b", "a") <= 0.5
    assert not inside(state, "b") and "a" in phases.fight_targets(state, "b")


def test_aos_g2_a_garrison_fights_only_what_its_weapons_reach_for_it_cannot_pile_in() -> None:
    """The garrison's 1" weapons are measured from its feature; an enemy 2" from the tower is
    within 3" (so the garrison is near an enemy) but out of reach: nothing to fight (it was
    given a pile-in's 3" and sent at it). At half an inch it fights."""
    state, _ = play(garrison_battle(), Action("garrison", 0, "a", choice="0"))
    state = in_phase(state, "combat")
    place(state, "b", line(27.0, 26.0 + R, 5))  # 2" beyond the tower's far edge
    assert moves.near_enemy(state, "a") and moves.unit_gap(state, "a", "b") == pytest.approx(2.0)
    assert phases.within_reach(state, "a") == [] and "a" not in phases.eligible_fighters(state, 0)
    place(state, "b", line(27.0, 24.5 + R, 5))
    assert phases.fight_targets(state, "a") == ["b"] and phases.eligible_fighters(state, 0)


def test_aos_g3_a_pile_in_goes_towards_a_garrisons_feature_as_towards_an_enemy_model() -> None:
    """b's only enemy is the garrison, 2" beyond the tower's edge: its models pile in towards
    the feature's nearest point, as towards an enemy model, and stop within 1/2" of it, off
    its area; its 1" weapons then reach the garrison (b piled in towards no one before)."""
    from openwar.rulesets.aos import garrisons

    state, _ = play(garrison_battle(), Action("garrison", 0, "a", choice="0"))
    state = in_phase(state, "combat")
    front = line(28.5, 26.0 + R, 4)  # beyond the tower's north edge
    place(state, "b", [*front, (30.0, 26.0 + R + STEP)])
    assert moves.unit_gap(state, "b", "a") == pytest.approx(2.0)
    assert not attacks.reach(state, "b", "a", False)  # 2" away before it piles in
    after = state.clone()
    moved = moves.pile_in(after, "b", 3.0)
    assert moved >= 2.0 - garrisons.feature_stop() - 1e-3
    gaps = garrisons.gap_to(after, terrain(after)[0], after.on_table("b"))
    assert gaps[:4] == pytest.approx([garrisons.feature_stop()] * 4, abs=1e-3)  # the front row
    assert gaps[4] < 2.0 + STEP - 1.0  # the rear model nearer too
    assert not inside(after, "b") and moves.unit_gap(after, "b", "a") <= 0.5
    assert phases.fight_reach(state, "b")["a"] == {"Blade"}


def test_aos_g3_a_model_piles_in_towards_the_feature_when_it_is_nearer_than_any_enemy_model() -> (
    None
):
    """With an open enemy unit 2.5" away and the garrison's feature 2" away, b goes to the
    feature; with the feature further than the open unit, towards the open unit."""
    state = in_phase(
        battle(
            [unit("a", 5, profile(melee=[weapon()])), unit("c", 1)], [unit("b", 1)], tower_board()
        ),
        "movement",
    )
    place(state, "a", line(27.0, 15.0, 5))
    place(state, "c", [(30.0, 40.0)])
    place(state, "b", [(30.0, 45.0)])
    state, _ = play(state, Action("garrison", 0, "a", choice="0"))
    state = in_phase(state, "combat")
    place(state, "b", [(30.0, 26.0 + R)])
    place(state, "c", [(30.0, 26.0 + 2 * R + 2.5 + R)])
    to_tower = state.clone()
    moves.pile_in(to_tower, "b", 3.0)
    assert to_tower.pos[to_tower.on_table("b")][0][1] < 26.0 + R  # towards the tower (south)
    place(state, "c", [(30.0, 26.0 + 2 * R + 1.5 + R)])
    to_unit = state.clone()
    moves.pile_in(to_unit, "b", 3.0)
    assert to_unit.pos[to_unit.on_table("b")][0][1] > 26.0 + R  # towards c (north)


def test_aos_g3_a_unit_piling_in_as_a_block_towards_a_feature_stops_within_half_an_inch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the models' own moves would split the unit it piles in as a block (AOS-F2): towards
    the garrison's feature too it stops just within 1/2", no model on the feature."""
    from openwar.rulesets.aos import garrisons

    state, _ = play(garrison_battle(), Action("garrison", 0, "a", choice="0"))
    state = in_phase(state, "combat")
    place(state, "b", line(28.5, 26.0 + R, 5))  # 2" beyond the tower's north edge
    split = [np.array([0]), np.array([1])]
    monkeypatch.setattr(moves, "groups", lambda *_: split)  # every per-model pile-in "splits"
    after = state.clone()
    moves.pile_in(after, "b", 3.0)
    gaps = garrisons.gap_to(after, terrain(after)[0], after.on_table("b"))
    assert gaps.min() == pytest.approx(garrisons.feature_stop(), abs=0.01) and gaps.min() > 0.4
    shift = after.pos[after.on_table("b")] - state.pos[state.on_table("b")]
    assert np.allclose(shift, shift[0])  # one block


def test_aos_g3_a_block_already_by_a_feature_still_piles_in_towards_a_nearer_enemy_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """b stands 0.3" from the garrison's tower (as after a charge at it); c, in the open, is
    nearer still, along the tower's edge: the block piles in towards c, never onto the tower
    (it did not move at all: its path was held 1/2" from the feature it already stood within)."""
    from openwar.rulesets.aos import garrisons

    armies = [unit("a", 5, profile(melee=[weapon()])), unit("c", 1)], [unit("b", 3)]
    state = in_phase(battle(*armies, tower_board()), "movement")
    place(state, "a", line(27.0, 15.0, 5))
    place(state, "c", [(30.0, 40.0)])
    place(state, "b", [(30.0, 45.0), (31.1, 45.0), (32.2, 45.0)])
    state, _ = play(state, Action("garrison", 0, "a", choice="0"))
    state = in_phase(state, "combat")
    place(state, "b", [(28.5, 24.3 + R), (29.6, 24.3 + R), (30.7, 24.3 + R)])  # 0.3" off
    place(state, "c", [(30.7 + 2 * R + 0.25, 24.3 + R)])  # east of b, 0.25" from its last
    monkeypatch.setattr(moves, "groups", lambda *_: [np.array([0]), np.array([1])])
    after = state.clone()
    assert moves.pile_in(after, "b", 3.0) > 0.0
    assert garrisons.gap_to(after, terrain(after)[0], after.on_table("b")).min() > 0.0


# -- the defender's choices ------------------------------------------------------------------
def spears_with_a_champion() -> GameState:
    champion = {"options": ["Champion"], "effects": []}
    spears = profile(loadouts=[{"options": [], "effects": []}, champion])
    from openwar.rulesets.aos.forces import ForceUnit

    force = ForceUnit("c", "c", "Test", 100, spears, (1, 0, 0, 0), R)
    state = in_phase(battle([unit("a", 1, profile(missile=[BOW]))], [force]), "shooting")
    place(state, "a", [(30.0, 10.0)])
    place(state, "c", [(30.0, 20.0), (30.0, 21.1), (30.0, 22.2), (30.0, 23.3)])  # champion first
    return state


def test_aos_d10_the_defender_picks_which_models_take_the_wounds() -> None:
    state = spears_with_a_champion()
    # Bow: 2 hits, 2 wounds, 2 failed saves: 2 wounds to allocate
    after, events = play(state, Action("shoot", 0, "a", target="c"), [5, 5, 5, 5, 1, 1])
    assert first(events, "attack").data["damage"] == 2 and after.active == 1
    menu = RULES.legal_actions(after)
    assert {a.choice for a in menu} == {"rear", "front"}  # keeping the champion = rear here
    with pytest.raises(IllegalActionError, match="AOS-D10"):
        play(after, Action("allocate", 1, "c", choice="keep 0"))
    front, _ = play(after, Action("allocate", 1, "c", choice="front"))
    assert sorted(front.on_table("c").tolist()) == [3, 4] and front.active == 0
    rear, _ = play(after, Action("allocate", 1, "c", choice="rear"))
    assert sorted(rear.on_table("c").tolist()) == [1, 2]
    # the champion kept: with the champion at the rear, keep 1 is a third choice
    state = spears_with_a_champion()
    place(state, "c", [(30.0, 23.3), (30.0, 20.0), (30.0, 21.1), (30.0, 22.2)])
    after, _ = play(state, Action("shoot", 0, "a", target="c"), [5, 5, 5, 5, 1, 1])
    assert {a.choice for a in RULES.legal_actions(after)} == {"rear", "front", "keep 1"}
    kept, _ = play(after, Action("allocate", 1, "c", choice="keep 1"))
    assert 1 in kept.on_table("c").tolist() and kept.size("c") == 2
    # nothing to decide when every model is reached, or for a single model
    from openwar.rulesets.aos.wounds import policies, touched

    state = spears_with_a_champion()
    assert policies(state, "c", touched(state, "c", 4)) == ["rear"]
    assert policies(state, "a", touched(state, "a", 1)) == ["rear"]


def test_aos_d10_in_combat_the_next_fighter_comes_after_the_allocation() -> None:
    state = in_phase(
        battle([unit("a", 1, profile(melee=[weapon(attacks=2)]))], [unit("b", 3)]), "combat"
    )
    place(state, "a", [(30.0, 10.0)])
    place(state, "b", [(30.0, 11.5), (31.1, 11.5), (32.2, 11.5)])
    after, _ = play(state, Action("fight", 0, "a", target="b"), [6, 1, 6, 1])
    assert after.extra["pending"]["kind"] == "allocate" and after.active == 1
    after, events = play(after, Action("allocate", 1, "b", choice="front"))
    assert first(events, "wounds").data["slain"] == 1
    assert after.extra["pending"] is None
    assert after.active == 1 and after.extra["combat_side"] == 1  # b fights back next


def test_aos_d10_the_player_picks_who_flees() -> None:
    state = in_phase(battle([unit("a", 1)], [unit("b", 5, profile(bravery=4))]), "battleshock")
    place(state, "a", [(30.0, 10.0)])
    place(state, "b", line(26.0, 20.0, 5))
    state.unit("b").tokens["slain_turn"] = 1
    events = phases.shock_next(state, ScriptedDice([5]))  # 5 + 1 against 4: two flee
    assert events == [] and state.extra["pending"]["kind"] == "flee" and state.active == 1
    assert {a.choice for a in RULES.legal_actions(state)} == {"rear", "front"}
    after, events = play(state, Action("flee", 1, "b", choice="front"))
    assert first(events, "battleshock").data["fled"] == 2 and after.size("b") == 3
    from openwar.rulesets.aos.moves import unit_gap

    assert unit_gap(after, "a", "b") > unit_gap(state, "a", "b")  # the nearest fled


def test_aos_b2_set_up_points_checked_at_once_match_one_by_one() -> None:
    """Menu speed-up: the vectorised set-up check gives exactly the per-point answers."""
    from openwar.battles import load_setup, start
    from openwar.engine.game import apply, legal_actions
    from openwar.rulesets.aos.board import grid, zone
    from openwar.rulesets.aos.setup import fits, fits_zone, waiting

    armies = (Path("examples/armies/aos/gilded_vanguard.yaml"),
              Path("examples/armies/aos/ember_court.yaml"))  # fmt: skip
    state, _ = start(load_setup(armies, None, 5))
    for _ in range(4):  # some units already set up
        state, _ = apply(state, legal_actions(state)[0])
    for waiting_unit in waiting(state, state.active):
        points = grid(zone(state, waiting_unit.side), 17, 7)
        each = [fits(state, waiting_unit, p, False) for p in points]
        assert fits_zone(state, waiting_unit, points) == each and any(each) and not all(each)
