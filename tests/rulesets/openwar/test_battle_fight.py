"""OpenWar battle rules: fighting, the attack sequence, Presence, Push, tokens, charges.

One test per clause of docs/rules/openwar.md, "Battle"; every die is scripted.
"""

from __future__ import annotations

import numpy as np
import pytest

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.game import legal_actions
from openwar.engine.space import OVERLAP_TOLERANCE, centroid
from openwar.engine.state import POSITION_DECIMALS, GameState
from openwar.rulesets.openwar import fight, menu, orders
from openwar.rulesets.openwar.rules import battle_rules

from .conftest import (
    DIAMETER,
    SPEAR,
    SWORD,
    WARHAMMER,
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

MISS = [1, 1, 1]  # three Sword dice that miss (1 + Melee 0 (+1 Hold) < Difficulty 5)


def duel(
    attacker: dict[str, object] | None = None,
    defender: dict[str, object] | None = None,
    *,
    defenders: int = 3,
    gap_cm: float = 0.0,
) -> GameState:
    """One attacking miniature ("a", side 0) at (40, 40) facing a line of defenders ("b")
    ``gap_cm`` away along +y."""
    state = battle([unit("a", 1, attacker)], [unit("b", defenders, defender)])
    place(state, "a", [(40.0, 40.0)])
    y = 40.0 + DIAMETER + gap_cm
    place(state, "b", line(40.0 - DIAMETER * (defenders // 2), y, defenders))
    return in_battle(state)


def test_ow_f1_fight_only_a_unit_within_5cm() -> None:
    state = battle([unit("a", 1)], [unit("b", 1), unit("c", 1)])
    place(state, "a", [(40.0, 40.0)])
    place(state, "b", [(40.0, 42.5)])
    place(state, "c", [(40.0, 40.0 + DIAMETER + 5.5)])
    state = in_battle(state)
    with pytest.raises(IllegalActionError, match="OW-F1"):
        play(state, Action("hold", 0, "a", "c"))
    _, events = play(state, Action("hold", 0, "a", "b"), [*MISS, 1, 1])
    assert first(events, "attack").data["attackers"] == 1


def test_ow_f1_a_unit_in_combat_by_the_rounding_tolerance_has_its_fight() -> None:
    """In combat and "the enemies within combat range" are one test: a gap over 5 cm by less
    than the rounding tolerance of touching bases is in combat, and the fight is offered and
    legal (found in a search battle: an Exhausted unit 5.0000016 cm from its enemy was in
    combat, could not Run out, and had no enemy to fight, so its side had no order to give)."""
    state = duel(gap_cm=5.0 + 1.5e-6)
    assert 5.0 + 1e-6 < gap(state, "a", "b") <= 5.0 + OVERLAP_TOLERANCE
    state.unit("a").tokens["exhaustion"] = 1  # no Run out of combat
    assert orders.in_combat(state, "a")
    assert orders.enemies_within(state, "a", battle_rules().combat_range) == ["b"]
    assert legal_actions(state) == [Action("hold", 0, "a", "b")]
    _, events = play(state, Action("hold", 0, "a", "b"), [*MISS, 1, 1])
    assert first(events, "attack").data["attackers"] == 1


@pytest.mark.parametrize("beyond", [0.5e-6, 1.5e-6, 3e-6])
def test_ow_f1_the_menu_never_offers_as_out_of_combat_a_place_the_engine_finds_in_combat(
    beyond: float,
) -> None:
    """A Retreat or a Run to an objective is offered only where it ends out of combat; the
    menu's test must not be stricter than the engine's, which rounds positions and allows
    the tolerance (the Retreat would be refused, the Run turned into a charge)."""
    state = duel(gap_cm=5.0 + beyond)
    unit = state.unit("a")
    here = tuple(centroid(state, state.on_table("a")).tolist())
    assert menu._ends_in_combat(state, unit, [here]) == [True]  # as near as the engine allows
    assert orders.in_combat(state, "a") == (beyond <= OVERLAP_TOLERANCE)


def test_ow_f2_fight_move_5cm_then_attacks_from_base_contact() -> None:
    state = battle([unit("a", 2)], [unit("b", 3, profile(morale=20))])
    place(state, "a", [(37.5, 40.0), (42.5, 37.0)])  # 3 cm and 6 cm from b
    place(state, "b", line(37.5, 40.0 + DIAMETER + 3.0, 3))
    after, events = play(in_battle(state), Action("hold", 0, "a", "b"), [*MISS, 1, 1])
    a = state.members("a")
    assert after.pos[a] - state.pos[a] == pytest.approx(np.array([[0.0, 3.0], [0.0, 5.0]]))
    assert gap(after, "a", "b") == pytest.approx(0.0)
    # a0 reached base contact and attacks (three dice); a1 stopped 1 cm short and does not
    assert first(events, "attack").data["attackers"] == 1


def column(back: list[dict[str, object]]) -> GameState:
    """a0 (Sword) in base contact with b, and miniatures with ``back`` loadouts in a file
    behind it, each touching the one in front."""
    loadouts = [loadout(SWORD), *back]
    prof = profile(loadouts=loadouts)
    state = battle([unit("a", len(loadouts), prof, range(len(loadouts)))], [unit("b", 3)])
    place(state, "a", [(40.0, 40.0 - k * DIAMETER) for k in range(len(loadouts))])
    place(state, "b", line(37.5, 42.5, 3))
    return in_battle(state)


def attackers(state: GameState, rolls: list[int]) -> int:
    _, events = play(state, Action("hold", 0, "a", "b"), rolls)
    return int(first(events, "attack").data["attackers"])


def test_ow_f3_second_rank_attacks_through_a_friend_in_contact() -> None:
    assert attackers(column([loadout(SPEAR)]), [*MISS, 1, 1, 1]) == 2
    assert attackers(column([loadout(SWORD)]), [*MISS, 1, 1]) == 1


def test_ow_f4_third_rank_attacks_through_a_second_rank_attacker() -> None:
    third = loadout(SPEAR, skills=["Third Rank"])
    assert attackers(column([loadout(SPEAR), third]), [*MISS, 1, 1, 1, 1]) == 3
    assert attackers(column([loadout(SPEAR), loadout(SPEAR)]), [*MISS, 1, 1, 1]) == 2


def test_ow_a2_a3_hit_roll_adds_melee_damage_roll_adds_pierce() -> None:
    state = duel(profile(melee=1), profile(morale=20), gap_cm=6.0)
    advance = Action("advance", 0, "a", "b", (40.0, 46.0), "move-fight")
    # hits: 4+1, 3+1, 6+1 against Difficulty 5 -> 2; wounds: 4, 3 against Armor 4 -> 1
    after, events = play(state, advance, [4, 3, 6, 4, 3, 1, 1])
    attack = first(events, "attack").data
    assert (attack["wounds"], attack["slain"]) == (1, 1)
    assert after.size("b") == 2
    _, events = play(state, advance, [4, 3, 6, 3, 3, 1, 1])
    assert first(events, "attack").data["wounds"] == 0


def test_ow_b15_defender_removes_rearmost_miniatures() -> None:
    state = battle([unit("a", 1)], [unit("b", 4, profile(morale=20))])
    place(state, "a", [(40.0, 40.0)])
    rear = (42.5, 45.0)  # the miniature furthest from the attacker
    place(state, "b", [(40.0, 42.5), (42.5, 42.5), (40.0, 45.0), rear])
    after, _ = play(in_battle(state), Action("hold", 0, "a", "b"), [6, 6, 1, 6, 1, 1, 1])
    slain = state.members("b")[~after.alive[state.members("b")]]
    assert [tuple(state.pos[m]) for m in slain] == [rear]


def test_ow_a5_presence_greater_than_morale_shakes_glory_and_pushes_5cm() -> None:
    state = duel(defender=profile(morale=8))
    after, events = play(state, Action("hold", 0, "a", "b"), [*MISS, 4, 5])
    presence = first(events, "presence").data
    assert (presence["total"], presence["morale"], presence["beaten"]) == (9, 8, True)
    assert after.unit("b").tokens["shaken"] == 1
    assert after.unit("a").tokens["glory"] == 1
    push = first(events, "push").data
    assert (push["pushed"], push["followed"]) == (5.0, 5.0)
    b = state.members("b")
    assert after.pos[b] - state.pos[b] == pytest.approx(np.tile([0.0, 5.0], (3, 1)))
    assert gap(after, "a", "b") == pytest.approx(0.0)  # followed up into base contact


def test_ow_f5_a_push_and_its_follow_up_end_on_rounded_positions() -> None:
    """Every move rounds positions to POSITION_DECIMALS (the same bytes on every machine);
    the push and the follow-up did not."""
    state = duel(defender=profile(morale=8), gap_cm=0.123456789)
    after, events = play(state, Action("hold", 0, "a", "b"), [*MISS, 4, 5])
    assert "push" in kinds(events)
    assert np.array_equal(after.pos, np.round(after.pos, POSITION_DECIMALS))


def test_ow_a5_presence_equal_to_morale_fails() -> None:
    state = duel(defender=profile(morale=8))
    after, events = play(state, Action("hold", 0, "a", "b"), [*MISS, 4, 4])
    assert not first(events, "presence").data["beaten"]
    assert "push" not in kinds(events)
    assert after.unit("b").tokens.get("shaken", 0) == 0
    assert after.unit("a").tokens.get("glory", 0) == 0


def test_ow_a5_a_presence_roll_that_succeeds_earns_glory_even_when_the_enemy_is_gone() -> None:
    """The seed gives the Glory token for the roll; the Shaken token and the Push need an
    enemy left (destroying a unit earned no Glory, nearly destroying it did)."""
    state = duel(defender=profile(morale=5), defenders=1)
    after, events = play(state, Action("hold", 0, "a", "b"), [6, 1, 1, 6, 4, 5])
    presence = first(events, "presence").data
    assert after.is_destroyed("b") and presence["total"] == 4 + 5 + 1 > 5
    assert presence["glory"] and not presence["beaten"]
    assert after.unit("a").tokens["glory"] == 1 and "push" not in kinds(events)


def test_ow_a5_each_miniature_slain_adds_1_to_presence() -> None:
    state = duel(defender=profile(morale=20))
    _, events = play(state, Action("hold", 0, "a", "b"), [6, 6, 1, 6, 6, 1, 1])
    assert first(events, "presence").data["total"] == 2 + 2


def test_ow_a6_shock_adds_1_per_miniature_that_hits() -> None:
    hammers = profile(loadouts=[loadout(WARHAMMER)])
    state = battle([unit("a", 2, hammers)], [unit("b", 2, profile(armor=9, morale=20))])
    place(state, "a", line(40.0, 40.0, 2))
    place(state, "b", line(40.0, 42.5, 2))
    # a0 hits twice, a1 once; no wound against Armor 9: Shock adds 2, not 3
    _, events = play(in_battle(state), Action("hold", 0, "a", "b"), [6, 6, 1, 1, 6, 1, 1, 1, 1])
    assert first(events, "attack").data["slain"] == 0
    assert first(events, "presence").data["total"] == 2 + 2


def test_ow_b9_each_shaken_token_lowers_morale_by_1() -> None:
    state = duel(defender=profile(morale=8))
    state.unit("b").tokens["shaken"] = 2
    _, events = play(state, Action("hold", 0, "a", "b"), [*MISS, 3, 4])
    presence = first(events, "presence").data
    assert (presence["morale"], presence["beaten"]) == (6, True)


def test_ow_b9_third_shaken_token_routs_the_unit() -> None:
    state = battle([unit("a", 1), unit("x", 1)], [unit("b", 3), unit("y", 1)])
    place(state, "a", [(40.0, 40.0)])
    place(state, "x", [(5.0, 5.0)])
    place(state, "b", line(37.5, 42.5, 3))
    place(state, "y", [(85.0, 85.0)])
    state = in_battle(state)
    state.unit("b").tokens["shaken"] = 2
    after, events = play(state, Action("hold", 0, "a", "b"), [*MISS, 6, 6])
    assert first(events, "routed").data == {"unit": "b", "miniatures": 3}
    assert after.is_destroyed("b")
    assert "push" not in kinds(events)


def test_ow_b10_glory_adds_1_to_presence_up_to_2_tokens() -> None:
    state = duel(defender=profile(morale=8))
    state.unit("a").tokens["glory"] = 2
    after, events = play(state, Action("hold", 0, "a", "b"), [*MISS, 3, 4])
    assert first(events, "presence").data["total"] == 7 + 2
    assert after.unit("a").tokens["glory"] == 2


def test_ow_m2_charge_run_ending_within_5cm_fights_with_plus_2() -> None:
    state = duel(defender=profile(morale=20), gap_cm=15.0)
    after, events = play(state, Action("run", 0, "a", "b", (40.0, 55.0)), [*MISS, 1, 1])
    assert kinds(events)[:4] == ["order", "moved", "charge", "attack"]
    assert first(events, "presence").data["total"] == 2 + 2
    assert after.unit("a").tokens["exhaustion"] == 1


def test_ow_m2_run_ending_out_of_combat_is_no_charge() -> None:
    state = duel(gap_cm=15.0)
    after, events = play(state, Action("run", 0, "a", None, (40.0, 49.0)))
    assert kinds(events) == ["order", "moved"]
    assert gap(after, "a", "b") == pytest.approx(6.0)


def test_ow_m2_a_run_naming_an_enemy_it_does_not_reach_is_refused_as_a_charge() -> None:
    """A Run that names an enemy is a Charge on it: ending beside another enemy, or out of
    combat, it is refused under OW-M2 (not as a fight the unit is not in, OW-F1)."""
    state = battle([unit("a", 1)], [unit("b", 1), unit("c", 1)])
    place(state, "a", [(40.0, 40.0)])
    place(state, "b", [(40.0, 40.0 + DIAMETER + 15.0)])
    place(state, "c", [(70.0, 40.0)])
    state = in_battle(state)
    with pytest.raises(IllegalActionError, match=r"OW-M2.*a's Run names c to charge"):
        play(state, Action("run", 0, "a", "c", (40.0, 55.0)))  # ends beside b
    with pytest.raises(IllegalActionError, match=r"OW-M2.*ends more than 5 cm from it"):
        play(state, Action("run", 0, "a", "b", (40.0, 45.0)))  # ends out of combat
    _, events = play(state, Action("run", 0, "a", "b", (40.0, 55.0)), [*MISS, 1, 1])
    assert first(events, "charge").data["target"] == "b"


def test_ow_m2_no_charge_from_combat() -> None:
    """A Run from within 5 cm is a Retreat, never a Charge (even towards the enemy)."""
    state = battle([unit("a", 1)], [unit("b", 1), unit("c", 1)])
    place(state, "a", [(40.0, 40.0)])
    place(state, "b", [(40.0, 37.0)])  # in combat behind a
    place(state, "c", [(40.0, 40.0 + DIAMETER + 10.0)])
    with pytest.raises(IllegalActionError, match="OW-M3"):
        play(in_battle(state), Action("run", 0, "a", "c", (40.0, 50.0)))


def test_ow_a2_attacks_use_the_chosen_miniatures_weapon() -> None:
    """Each attacker rolls its own weapon's Attacks: a Spear rolls 1 die, a Sword 3."""
    prof = profile(loadouts=[loadout(SWORD), loadout(SPEAR)])
    state = battle([unit("a", 2, prof, (0, 1))], [unit("b", 2, profile(morale=20))])
    place(state, "a", line(40.0, 40.0, 2))
    place(state, "b", line(40.0, 42.5, 2))
    _, events = play(in_battle(state), Action("hold", 0, "a", "b"), [*MISS, 1, 1, 1])
    assert first(events, "attack").data["attackers"] == 2  # 3 + 1 dice, then 2 for Presence


def test_ow_f3_second_rank_attacks_with_the_weapon_that_has_the_rule() -> None:
    """A second-rank miniature carrying a Sword and a Spear reaches with the Spear only (one
    die), unless Second Rank is its own skill."""
    assert attackers(column([loadout(SWORD, SPEAR)]), [*MISS, 1, 1, 1]) == 2
    own = loadout(SWORD, SPEAR, skills=["Second Rank"])
    assert attackers(column([own]), [*MISS, *MISS, 1, 1]) == 2


def test_ow_b2_bases_within_half_a_cm_are_in_base_contact() -> None:
    state = battle([unit("a", 2)], [unit("b", 2)])
    place(state, "a", [(40.0, 40.0), (42.5, 40.0)])
    place(state, "b", [(40.0, 42.5 + 0.5), (42.5, 42.5 + 0.6)])
    pairs = fight.fighters(state, "a", "b")
    assert pairs == [(int(state.members("a")[0]), int(state.members("b")[0]))]


def test_ow_f2_fight_move_goes_around_a_friend() -> None:
    # a1 stands 1 cm behind a0 (in base contact with b), its straight way to b's middle
    # miniature blocked by a0: it slides past a0 instead of stopping after 1 cm
    state = battle([unit("a", 2)], [unit("b", 3, profile(morale=20))])
    place(state, "a", [(40.0, 40.0), (41.5, 40.0 - DIAMETER - 1.0)])
    place(state, "b", line(37.5, 40.0 + DIAMETER, 3))
    after, _ = play(in_battle(state), Action("hold", 0, "a", "b"), [*MISS, 1, 1])
    a1 = state.members("a")[1]
    moved = float(np.hypot(*(after.pos[a1] - state.pos[a1])))
    assert moved > 2.0
    b = state.members("b")
    before_gap = float(np.min(np.hypot(*(state.pos[b] - state.pos[a1]).T))) - DIAMETER
    after_gap = float(np.min(np.hypot(*(after.pos[b] - after.pos[a1]).T))) - DIAMETER
    assert after_gap < before_gap - 2.0
    everyone = np.concatenate([state.members("a"), b])
    xy = after.pos[everyone]
    apart = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
    assert (apart[np.triu_indices(len(everyone), 1)] >= DIAMETER - 1e-6).all()


def test_ow_f2_a_way_round_a_friend_may_use_the_whole_5_cm_to_reach_contact() -> None:
    """a1 stands 0.5 cm behind a0 (in contact with b), 3 cm from b's nearest miniature: the
    way round a0 is longer than that gap, and the turned steps were cut to it (a1 ended
    0.8 cm short of contact and did not fight); with the whole 5 cm it reaches contact."""
    state = battle([unit("a", 2)], [unit("b", 3, profile(morale=20))])
    place(state, "a", [(40.0, 40.0), (41.5, 40.0 - DIAMETER - 0.5)])
    place(state, "b", line(37.5, 40.0 + DIAMETER, 3))
    a1, b = state.members("a")[1], state.members("b")
    assert float(np.min(np.hypot(*(state.pos[b] - state.pos[a1]).T))) - DIAMETER > 2.5
    orders.fight_move(state, "a", "b")
    gap = float(np.min(np.hypot(*(state.pos[b] - state.pos[a1]).T))) - DIAMETER
    assert gap <= battle_rules().contact
    everyone = np.concatenate([state.members("a"), b])
    xy = state.pos[everyone]
    apart = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
    assert (apart[np.triu_indices(len(everyone), 1)] >= DIAMETER - 1e-6).all()


def test_ow_m2_a_run_naming_no_enemy_charges_the_nearest() -> None:
    """A Run that names nobody and ends within 5 cm of two enemies charges the nearer (it
    charged the first of the army's list: b, 4.5 cm away, rather than c, in base contact)."""
    state = battle(
        [unit("a", 1)], [unit("b", 1, profile(morale=20)), unit("c", 1, profile(morale=20))]
    )
    place(state, "a", [(40.0, 20.0)])
    place(state, "b", [(40.0 + DIAMETER + 4.5, 40.0)])
    place(state, "c", [(40.0, 40.0 + DIAMETER)])
    _, events = play(in_battle(state), Action("run", 0, "a", None, (40.0, 40.0)), [1] * 5)
    assert first(events, "charge").data["target"] == "c"
