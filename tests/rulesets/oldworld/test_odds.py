"""The Old World attacks (docs/rules/oldworld.md, clauses TOW-A1..TOW-A9, TOW-D1..TOW-D4)."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import pytest

from openwar.dice.d6 import Reroll
from openwar.dice.notation import parse_dice
from openwar.errors import ProfileError
from openwar.rulesets.oldworld.montecarlo import simulate
from openwar.rulesets.oldworld.odds import Mode, OldWorldAttack, attack_odds, hit_probabilities
from rulesets.bounds import assert_distribution, assert_monte_carlo_agrees, assert_same_pmf
from rulesets.enumeration import (
    bind,
    certain,
    d6_after_reroll,
    dice_total,
    faces,
    fmap,
    pmf_array,
    reroll_rule,
    sequence,
)

BEYOND_SIX = {7: 4, 8: 5, 9: 6}  # TOW-D3: a 6, then this on a second die

# ---------------------------------------------------------------- the rules, written out again


@cache
def one_attack(p: OldWorldAttack) -> dict[int, Fraction]:
    """Exact wounds of one attack, every die enumerated (charts read through the profile)."""
    chart = p.needed_to_hit
    need = chart - p.hit_modifier

    def hit_ok(face: int) -> bool:  # TOW-D1: a natural 1 always misses
        return face != 1 and face + p.hit_modifier >= chart

    def saves(_: None) -> dict[int, Fraction]:
        def after(roll: tuple[int, ...]) -> dict[int, Fraction]:
            armour, ward = roll
            if p.armour is not None and armour != 1 and armour + p.ap >= p.armour:  # TOW-D2
                return certain(0)
            if p.ward is not None and ward != 1 and ward >= p.ward:
                return certain(0)
            return dice_total(p.damage.count, p.damage.sides, p.damage.modifier)

        return bind(faces(2), after)

    def wound_roll(_: None) -> dict[int, Fraction]:
        to_wound = p.needed_to_wound
        if to_wound is None:
            return certain(0)

        def ok(face: int) -> bool:  # TOW-D1: a natural 1 never wounds
            return face != 1 and face >= to_wound

        rolled = d6_after_reroll(ok, reroll_rule(p.reroll_wounds))
        return bind(rolled, lambda face: saves(None) if ok(face) else certain(0))

    def after_hit(face: int) -> dict[int, Fraction]:
        if need > 6:
            if face != 6 or need not in BEYOND_SIX:
                return certain(0)
            return bind(
                faces(1), lambda r: wound_roll(None) if r[0] >= BEYOND_SIX[need] else certain(0)
            )
        if not hit_ok(face):
            return certain(0)
        if p.poisoned and face == 6:  # TOW-D4
            return saves(None)
        return wound_roll(None)

    # TOW-D3: past 6+, a 6 is the first step of a hit, so only the other faces are failures
    first_step = (lambda face: face == 6) if need > 6 else hit_ok
    return bind(d6_after_reroll(first_step, reroll_rule(p.reroll_hits)), after_hit)


def brute_force(p: OldWorldAttack) -> tuple[np.ndarray, np.ndarray]:
    runs = fmap(sequence([one_attack(p)] * (p.models * p.attacks)), sum)
    cap = p.target_models * p.wounds if p.target_models is not None else 10**9
    return pmf_array(runs), pmf_array(fmap(runs, lambda w: min(w, cap) // p.wounds))


def tow(**kw: Any) -> OldWorldAttack:
    if "damage" in kw:
        kw["damage"] = parse_dice(kw["damage"])
    for key in ("reroll_hits", "reroll_wounds"):
        if key in kw:
            kw[key] = Reroll(kw[key])
    if kw.pop("shooting", False):
        kw["mode"] = Mode.SHOOTING
    return OldWorldAttack(**kw)


# ------------------------------------------------------------------------- every distribution

SWEEP = [
    tow(
        models=m,
        attacks=a,
        shooting=shoot,
        ws=ws,
        target_ws=tws,
        bs=bs,
        hit_modifier=hm,
        strength=s,
        toughness=t,
        armour=arm,
        ap=ap,
        ward=ward,
        damage=dmg,
        wounds=w,
        poisoned=poison,
    )
    for m, a, shoot, ws, tws, bs, hm, s, t, arm, ap, ward, dmg, w, poison in itertools.product(
        [1, 10],
        [1, 3],
        [False, True],
        [1, 4, 10],
        [3, 9],
        [1, 3, 5],
        [-3, 0, 1],
        [1, 4, 10],
        [3, 10],
        [None, 4],
        [0, -2],
        [None, 5],
        ["1", "D3"],
        [1, 3],
        [False, True],
    )
][::397]


@pytest.mark.parametrize("profile", SWEEP, ids=range(len(SWEEP)))
def test_oldworld_every_distribution_sums_to_one(profile: OldWorldAttack) -> None:
    result = attack_odds(profile)
    assert_distribution(result.distribution)
    assert_distribution(result.slain)


# ----------------------------------------------------------- brute force on small cases

SMALL = [
    tow(models=2, attacks=1, ws=4, target_ws=3, strength=4, toughness=3, armour=5),
    tow(models=1, attacks=2, ws=3, target_ws=5, strength=3, toughness=4, armour=4, ap=-1, ward=5),
    tow(models=2, attacks=1, shooting=True, bs=3, hit_modifier=-1, strength=3, toughness=3),
    tow(models=2, attacks=1, shooting=True, bs=1, hit_modifier=-1, strength=4, toughness=3),
    tow(models=2, attacks=1, shooting=True, bs=2, hit_modifier=-3, strength=4, toughness=4),
    tow(models=2, attacks=1, shooting=True, bs=1, hit_modifier=-3, strength=5, toughness=3),
    tow(models=2, attacks=1, shooting=True, bs=5, hit_modifier=2, strength=3, toughness=3),
    tow(models=2, attacks=1, ws=3, target_ws=3, strength=2, toughness=9, poisoned=True),
    tow(models=2, attacks=1, ws=3, target_ws=3, strength=3, toughness=3, reroll_hits="ones"),
    tow(models=2, attacks=1, ws=3, target_ws=4, strength=3, toughness=4, reroll_wounds="failed"),
    tow(models=1, attacks=2, ws=5, target_ws=3, strength=5, toughness=4, damage="D3", wounds=3),
    tow(
        models=1,
        attacks=3,
        ws=4,
        target_ws=4,
        strength=6,
        toughness=4,
        armour=3,
        ap=-2,
        damage="2",
        wounds=2,
        target_models=2,
    ),
    tow(
        models=2,
        attacks=1,
        shooting=True,
        bs=1,
        hit_modifier=-1,
        reroll_hits="failed",
        strength=3,
        toughness=3,
    ),
]


@pytest.mark.parametrize("profile", SMALL, ids=range(len(SMALL)))
def test_oldworld_attacks_match_brute_force_enumeration(profile: OldWorldAttack) -> None:
    wounds, slain = brute_force(profile)
    result = attack_odds(profile)
    assert_same_pmf(result.distribution, wounds)
    assert_same_pmf(result.slain, slain)


# ------------------------------------------------------------------- seeded Monte Carlo

MONTE_CARLO = [
    tow(models=20, attacks=1, ws=4, target_ws=3, strength=4, toughness=3, armour=5, ward=6),
    tow(models=10, shooting=True, bs=2, hit_modifier=-2, strength=4, toughness=4, poisoned=True),
    tow(models=5, attacks=2, ws=5, target_ws=4, strength=5, toughness=4, damage="D3", wounds=3),
]


@pytest.mark.parametrize("profile", MONTE_CARLO, ids=range(len(MONTE_CARLO)))
def test_oldworld_seeded_monte_carlo_within_five_standard_errors(profile: OldWorldAttack) -> None:
    trials = 20_000
    exact = attack_odds(profile)
    rolled = simulate(profile, trials, seed=1066)
    assert_monte_carlo_agrees(exact.distribution, rolled.distribution, trials)
    assert_monte_carlo_agrees(exact.slain, rolled.slain, trials)


# --------------------------------------------------------------------- clauses, by hand


def single(**kw: Any) -> float:
    """P(one attack takes exactly one wound)."""
    return float(attack_odds(tow(models=1, attacks=1, **kw)).distribution[1])


@pytest.mark.parametrize(
    ("ws", "target_ws", "needed"),
    [(1, 1, 4), (1, 3, 5), (3, 3, 4), (3, 1, 2), (4, 3, 3), (10, 10, 4), (2, 1, 3), (9, 5, 3)],
)
def test_oldworld_a1_to_hit_in_combat_from_ws_vs_ws(ws: int, target_ws: int, needed: int) -> None:
    profile = tow(ws=ws, target_ws=target_ws)
    assert profile.needed_to_hit == needed
    p_hit, _ = hit_probabilities(profile)
    assert p_hit == pytest.approx((7 - needed) / 6, abs=1e-15)


@pytest.mark.parametrize(("bs", "needed"), [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2)])
def test_oldworld_a2_to_hit_when_shooting_from_bs(bs: int, needed: int) -> None:
    assert tow(shooting=True, bs=bs).needed_to_hit == needed


@pytest.mark.parametrize(
    ("hit_modifier", "p_hit"), [(-1, 1 / 12), (-2, 1 / 18), (-3, 1 / 36), (-4, 0.0)]
)
def test_oldworld_d3_seven_plus_to_hit_is_a_6_then_a_second_roll(
    hit_modifier: int, p_hit: float
) -> None:
    # BS1 needs 6+: with -1 a 7+ (6 then 4+), -2 an 8+ (6 then 5+), -3 a 9+ (6 then 6), -4 none
    profile = tow(shooting=True, bs=1, hit_modifier=hit_modifier, strength=10, toughness=1)
    assert hit_probabilities(profile)[0] == pytest.approx(p_hit, abs=1e-15)
    assert single(shooting=True, bs=1, hit_modifier=hit_modifier, strength=10, toughness=1) == (
        pytest.approx(p_hit * 5 / 6, abs=1e-15)
    )


@pytest.mark.parametrize(
    ("reroll", "p_six"), [("none", 6 / 36), ("ones", 7 / 36), ("failed", 11 / 36)]
)
def test_oldworld_d3_a_re_roll_of_failed_hits_keeps_the_6_that_starts_a_hit(
    reroll: str, p_six: float
) -> None:
    """Past 6+ only a 6 goes on to the second die, so re-rolling failed hits re-rolls the
    other faces (it re-rolled the 6s too, and gained nothing over no re-roll: 1/12 either
    way at BS1 and -1)."""
    profile = tow(shooting=True, bs=1, hit_modifier=-1, reroll_hits=reroll, strength=10,
                  toughness=1)  # fmt: skip
    assert hit_probabilities(profile)[0] == pytest.approx(p_six / 2, abs=1e-15)  # then 4+
    wounds, _ = brute_force(replace(profile, models=1))
    assert_same_pmf(attack_odds(replace(profile, models=1)).distribution, wounds)
    rolled = simulate(replace(profile, models=10), 20_000, seed=5)
    assert_monte_carlo_agrees(attack_odds(replace(profile, models=10)).distribution,
                              rolled.distribution, 20_000)  # fmt: skip


def test_oldworld_d1_natural_1_always_misses_and_never_wounds() -> None:
    # BS5 (2+) with +2 to hit and Strength 10 vs Toughness 1 (2+): only natural 1s fail
    p = single(shooting=True, bs=5, hit_modifier=2, strength=10, toughness=1)
    assert p == pytest.approx(5 / 6 * 5 / 6, abs=1e-15)


@pytest.mark.parametrize(
    ("strength", "toughness", "needed"),
    [(3, 3, 4), (4, 3, 3), (1, 7, None), (10, 10, 4), (3, 9, None)],
)
def test_oldworld_a3_to_wound_from_s_vs_t(
    strength: int, toughness: int, needed: int | None
) -> None:
    profile = tow(strength=strength, toughness=toughness)
    assert profile.needed_to_wound == needed
    p_wound = 0.0 if needed is None else (7 - needed) / 6
    assert single(ws=10, target_ws=1, strength=strength, toughness=toughness) == pytest.approx(
        5 / 6 * p_wound, abs=1e-15
    )


def test_oldworld_a3_strength_that_cannot_wound_never_wounds() -> None:
    assert attack_odds(tow(models=10, strength=1, toughness=10)).distribution[0] == 1.0


def test_oldworld_a4_armour_save_is_worsened_by_ap() -> None:
    # certain-ish hit and wound (2+ each), 4+ armour with AP -1 saves on 5+
    p = single(ws=10, target_ws=1, strength=10, toughness=1, armour=4, ap=-1)
    assert p == pytest.approx(25 / 36 * 2 / 3, abs=1e-15)


def test_oldworld_d2_armour_save_of_1_always_fails() -> None:
    p = single(ws=10, target_ws=1, strength=10, toughness=1, armour=2)
    assert p == pytest.approx(25 / 36 * 1 / 6, abs=1e-15)


def test_oldworld_a5_ward_save_is_not_modified_by_ap() -> None:
    p = single(ws=10, target_ws=1, strength=10, toughness=1, ward=5, ap=-3)
    assert p == pytest.approx(25 / 36 * 2 / 3, abs=1e-15)


def test_oldworld_a5_armour_then_ward() -> None:
    p = single(ws=10, target_ws=1, strength=10, toughness=1, armour=5, ward=5)
    assert p == pytest.approx(25 / 36 * 2 / 3 * 2 / 3, abs=1e-15)


def test_oldworld_d4_poisoned_natural_6_wounds_automatically() -> None:
    # Strength 1 vs Toughness 10 cannot wound, but a poisoned 6 to hit still does
    p = single(ws=3, target_ws=3, strength=1, toughness=10, poisoned=True)
    assert p == pytest.approx(1 / 6, abs=1e-15)


def test_oldworld_a6_casualties_pool_wounds_across_models() -> None:
    # 3 attacks of Damage 2 on 3-Wound models, all pooled: 6 wounds -> 2 models
    profile = tow(
        models=1, attacks=3, ws=10, target_ws=1, strength=10, toughness=1, damage="2", wounds=3
    )
    p = Fraction(25, 36)
    expected = [(1 - p) ** 3 + 3 * p * (1 - p) ** 2, 3 * p**2 * (1 - p), p**3]
    assert_same_pmf(attack_odds(profile).slain, np.array([float(x) for x in expected]))


def test_oldworld_a6_casualties_capped_by_unit_size() -> None:
    profile = tow(models=10, attacks=2, ws=10, target_ws=1, strength=10, toughness=1)
    assert len(attack_odds(replace(profile, target_models=3)).slain) == 4


def test_oldworld_a8_rerolls_happen_once() -> None:
    p = single(ws=3, target_ws=3, strength=10, toughness=1, reroll_hits="failed")
    assert p == pytest.approx((1 / 2 + 1 / 2 * 1 / 2) * 5 / 6, abs=1e-15)


@pytest.mark.parametrize(
    ("field", "value", "option"),
    [
        ("models", 0, "--models"),
        ("ws", 11, "--ws"),
        ("target_ws", 0, "--target-ws"),
        ("bs", 6, "--bs"),
        ("strength", 0, "--strength"),
        ("toughness", 11, "--toughness"),
        ("armour", 1, "--armour"),
        ("ap", 1, "--ap"),
        ("ward", 7, "--ward"),
        ("wounds", 0, "--wounds"),
    ],
)
def test_oldworld_impossible_profile_names_the_option(field: str, value: int, option: str) -> None:
    with pytest.raises(ProfileError, match=f"^{option}: expected"):
        tow(**{field: value})
