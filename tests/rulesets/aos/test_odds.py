"""Age of Sigmar attack sequence (docs/rules/aos.md, clauses AOS-A1..AOS-A13).

Oracles: an independent die-by-die enumerator (small cases), icepool (re-roll and critical
mechanics on larger cases), a seeded Monte Carlo within 5 standard errors, and hand values.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import Any

import icepool
import numpy as np
import pytest

from openwar.dice.d6 import Reroll
from openwar.dice.notation import parse_dice
from openwar.errors import ProfileError
from openwar.rulesets.aos.montecarlo import simulate
from openwar.rulesets.aos.odds import Allocation, AosAttack, attack_odds
from rulesets.bounds import assert_distribution, assert_monte_carlo_agrees, assert_same_pmf
from rulesets.enumeration import (
    bind,
    certain,
    count_kept,
    d6_after_reroll,
    dice_total,
    fmap,
    pmf_array,
    reroll_rule,
    sequence,
)

# ---------------------------------------------------------------- the rules, written out again


def hit_passes(p: AosAttack) -> Callable[[int], bool]:
    """AOS-A1 (+ AOS-A12 cap): unmodified 1 fails, unmodified 6 hits, else face + mod >= To Hit."""
    mod = max(-1, min(1, p.hit_modifier)) if p.cap_modifiers else p.hit_modifier
    return lambda face: face != 1 and (face == 6 or face + mod >= p.hit)


def wound_passes(p: AosAttack) -> Callable[[int], bool]:
    mod = max(-1, min(1, p.wound_modifier)) if p.cap_modifiers else p.wound_modifier
    return lambda face: face != 1 and (face == 6 or face + mod >= p.wound)


def save_passes(p: AosAttack) -> Callable[[int], bool]:
    """AOS-A3..A5: face + rend + cover bonus >= Save ('-' is 7); an unmodified 1 fails."""
    mod = p.rend + p.save_modifier + (1 if p.cover else 0)
    return lambda face: face != 1 and face + mod >= p.save


@cache
def one_attack(p: AosAttack) -> dict[tuple[int, int], Fraction]:
    """Exact (damage, mortal wounds) of one attack, every die enumerated."""
    hit, wound, save = hit_passes(p), wound_passes(p), save_passes(p)
    wound_face = d6_after_reroll(wound, reroll_rule(p.reroll_wounds))
    save_face = d6_after_reroll(save, reroll_rule(p.reroll_saves))
    damage = dice_total(p.damage.count, p.damage.sides, p.damage.modifier)

    def saved_or_not() -> dict[int, Fraction]:
        return bind(
            save_face,
            lambda s: certain(0) if save(s) else bind(damage, lambda d: count_kept(d, p.ward)),
        )

    def one_hit() -> dict[tuple[int, int], Fraction]:
        """A hit's (damage, mortal wounds): AOS-A16's 6 to wound adds mortal wounds."""

        def after_wound(face: int) -> dict[tuple[int, int], Fraction]:
            if not wound(face):
                return certain((0, 0))
            six = face == 6 and p.mortal_on_6_wound > 0
            mortal = count_kept(p.mortal_on_6_wound if six else 0, p.ward)
            normal = certain(0) if six and p.mortal_wound_ends_sequence else saved_or_not()
            return fmap(sequence([normal, mortal]), lambda pair: (pair[0], pair[1]))

        return bind(wound_face, after_wound)

    def after_hit(face: int) -> dict[tuple[int, int], Fraction]:
        if not hit(face):
            return certain((0, 0))
        six = face == 6 and p.mortal_on_6_hit > 0
        mortal = count_kept(p.mortal_on_6_hit if six else 0, p.ward)
        if six and p.mortal_ends_sequence:
            return fmap(mortal, lambda m: (0, m))
        hits = 1 + (p.extra_hits_on_6 if face == 6 else 0)  # AOS-A15: each rolls to wound
        each = sequence([one_hit()] * hits)
        summed = fmap(each, lambda run: (sum(d for d, _ in run), sum(m for _, m in run)))
        return bind(summed, lambda pair: fmap(mortal, lambda m: (pair[0], pair[1] + m)))

    return bind(d6_after_reroll(hit, reroll_rule(p.reroll_hits)), after_hit)


def slain_by(p: AosAttack, outcomes: tuple[tuple[int, int], ...]) -> int:
    """AOS-A10/A11: pooled, or each attack's damage on one model with its excess lost."""
    w = p.models_wounds
    cap = p.models * w if p.models is not None else 10**9
    total = sum(d + m for d, m in outcomes)
    if p.allocation is Allocation.POOLED:
        return min(total, cap) // w
    allocated = 0
    for damage, _ in outcomes:
        room = w - allocated % w if allocated < cap else 0
        allocated = min(allocated + min(damage, room), cap)
    return min(allocated + sum(m for _, m in outcomes), cap) // w


def brute_force(p: AosAttack) -> tuple[np.ndarray, np.ndarray]:
    attacks = dice_total(p.attacks.count, p.attacks.sides, p.attacks.modifier)
    runs = bind(attacks, lambda n: sequence([one_attack(p)] * n))
    damage = fmap(runs, lambda run: sum(d + m for d, m in run))
    slain = fmap(runs, lambda run: slain_by(p, run))
    return pmf_array(damage), pmf_array(slain)


def icepool_damage(p: AosAttack) -> np.ndarray:
    """The damage distribution built with icepool's own re-roll and map machinery."""
    d6 = icepool.d6

    def face_die(passes: Callable[[int], bool], policy: Reroll) -> Any:
        if policy is Reroll.NONE:
            return d6
        if policy is Reroll.ONES:
            return d6.reroll([1], depth=1)
        return d6.reroll([f for f in range(1, 7) if not passes(f)], depth=1)

    hit, wound, save = hit_passes(p), wound_passes(p), save_passes(p)
    kept = d6.map(lambda f: 0 if p.ward is not None and f >= p.ward else 1)
    dmg = p.damage
    damage_die = (
        icepool.Die([dmg.modifier])
        if dmg.is_constant
        else (dmg.count @ icepool.d(dmg.sides)) + dmg.modifier
    )
    through = icepool.map(
        lambda w, s: wound(w) and not save(s),
        face_die(wound, p.reroll_wounds),
        face_die(save, p.reroll_saves),
    )
    saved = icepool.map(lambda t, d: (d @ kept) if t and d else 0, through, damage_die)
    mortal = (p.mortal_on_6_hit @ kept) if p.mortal_on_6_hit else icepool.Die([0])
    wound_mortal = (p.mortal_on_6_wound @ kept) if p.mortal_on_6_wound else icepool.Die([0])

    def per_wound_face(face: int) -> Any:
        if not wound(face):
            return 0
        if face == 6 and p.mortal_on_6_wound:
            unsaved = save_die.map(lambda s: 0 if save(s) else 1)
            after = icepool.map(lambda u, d: (d @ kept) if u and d else 0, unsaved, damage_die)
            return wound_mortal if p.mortal_wound_ends_sequence else after + wound_mortal
        return saved_given_wound

    save_die = face_die(save, p.reroll_saves)
    saved_given_wound = icepool.map(
        lambda s, d: 0 if save(s) or not d else (d @ kept), save_die, damage_die
    )
    normal = face_die(wound, p.reroll_wounds).map(per_wound_face) if p.mortal_on_6_wound else saved

    def per_hit_face(face: int) -> Any:
        if not hit(face):
            return 0
        if face == 6 and p.mortal_on_6_hit and p.mortal_ends_sequence:
            return mortal
        hits = normal if face != 6 else (1 + p.extra_hits_on_6) @ normal
        return hits + mortal if face == 6 and p.mortal_on_6_hit else hits

    attack = face_die(hit, p.reroll_hits).map(per_hit_face)
    a = p.attacks
    count: Any = a.modifier if a.is_constant else (a.count @ icepool.d(a.sides)) + a.modifier
    total = count @ attack
    out = np.zeros(int(total.max_outcome()) + 1)
    denominator = total.denominator()
    for outcome, quantity in total.items():
        out[int(outcome)] = quantity / denominator
    return out


def aos(**kw: Any) -> AosAttack:
    for key in ("attacks", "damage"):
        if key in kw:
            kw[key] = parse_dice(kw[key])
    for key in ("reroll_hits", "reroll_wounds", "reroll_saves"):
        if key in kw:
            kw[key] = Reroll(kw[key])
    if "allocation" in kw:
        kw["allocation"] = Allocation(kw["allocation"])
    return AosAttack(**kw)


# ------------------------------------------------------------------------- every distribution

SWEEP = [
    aos(
        attacks=attacks,
        hit=hit,
        wound=wound,
        rend=rend,
        damage=damage,
        save=save,
        reroll_hits=rr,
        ward=ward,
        mortal_on_6_hit=mortal,
        models_wounds=w,
        allocation=alloc,
    )
    for attacks, hit, wound, rend, damage, save, rr, ward, mortal, w, alloc in itertools.product(
        ["4", "D6"],
        [3, 5],
        [4],
        [0, -2],
        ["1", "D3", "D6"],
        [4, 7],
        ["none", "failed"],
        [None, 5],
        [0, 1],
        [1, 3],
        ["pooled", "per-attack"],
    )
]


@pytest.mark.parametrize("profile", SWEEP[::3], ids=lambda p: f"{p.attacks}-{p.damage}")
def test_aos_every_distribution_sums_to_one(profile: AosAttack) -> None:
    result = attack_odds(profile)
    assert_distribution(result.distribution)
    assert_distribution(result.slain)


# ----------------------------------------------------------- brute force on small cases

SMALL = [
    aos(attacks="2", hit=4, wound=4, save=4),
    aos(attacks="2", hit=3, wound=3, rend=-1, damage="D3", save=4, models_wounds=2),
    aos(attacks="D3", hit=4, wound=3, damage="2", save=5, models_wounds=3),
    aos(attacks="2", hit=4, wound=4, save=4, reroll_hits="ones"),
    aos(attacks="2", hit=4, wound=4, save=4, reroll_hits="failed"),
    aos(attacks="2", hit=4, wound=4, save=4, reroll_wounds="ones"),
    aos(attacks="2", hit=4, wound=4, save=4, reroll_wounds="failed"),
    aos(attacks="2", hit=4, wound=4, save=4, reroll_saves="ones"),
    aos(attacks="2", hit=4, wound=4, save=3, reroll_saves="failed"),
    aos(attacks="2", hit=3, wound=4, damage="D3", save=4, ward=5),
    aos(attacks="2", hit=4, wound=4, save=5, mortal_on_6_hit=1),
    aos(attacks="2", hit=4, wound=4, save=5, mortal_on_6_hit=2, mortal_ends_sequence=True),
    aos(attacks="2", hit=5, wound=4, save=4, mortal_on_6_hit=1, ward=6, reroll_hits="ones"),
    aos(attacks="2", hit=4, wound=4, save=5, extra_hits_on_6=1),  # AOS-A15
    aos(attacks="2", hit=3, wound=4, damage="D3", save=4, extra_hits_on_6=2, mortal_on_6_hit=1),
    aos(attacks="2", hit=4, wound=4, save=4, extra_hits_on_6=1, reroll_hits="failed", ward=6),
    aos(attacks="2", hit=4, wound=4, save=4, mortal_on_6_wound=1),  # AOS-A16
    aos(
        attacks="2",
        hit=4,
        wound=3,
        damage="2",
        save=4,
        mortal_on_6_wound=2,
        ward=5,
        mortal_wound_ends_sequence=True,
        reroll_wounds="ones",
    ),
    aos(
        attacks="2", hit=4, wound=4, save=5, extra_hits_on_6=1, mortal_on_6_wound=1, models_wounds=2
    ),
    aos(attacks="2", hit=4, wound=4, save=7, cover=True),
    aos(attacks="2", hit=4, wound=4, save=4, cover=True, rend=-2),
    aos(attacks="2", hit=4, wound=4, hit_modifier=-3, save=7),
    aos(attacks="2", hit=4, wound=4, hit_modifier=2, wound_modifier=-2, cap_modifiers=True),
    aos(attacks="2", hit=3, wound=3, damage="D6", save=4, models_wounds=4, models=2),
    aos(attacks="3", hit=3, wound=3, damage="2", save=6, models_wounds=3, allocation="per-attack"),
    aos(
        attacks="2",
        hit=4,
        wound=3,
        damage="D3",
        save=5,
        mortal_on_6_hit=1,
        models_wounds=2,
        allocation="per-attack",
    ),
    aos(
        attacks="D3",
        hit=3,
        wound=4,
        damage="D3+1",
        save=4,
        ward=6,
        models_wounds=3,
        models=2,
        allocation="per-attack",
    ),
]


@pytest.mark.parametrize("profile", SMALL, ids=range(len(SMALL)))
def test_aos_attack_sequence_matches_brute_force_enumeration(profile: AosAttack) -> None:
    damage, slain = brute_force(profile)
    result = attack_odds(profile)
    assert_same_pmf(result.distribution, damage)
    assert_same_pmf(result.slain, slain)


# ------------------------------------------------- icepool: re-rolls, criticals, ward

ICEPOOL = [
    aos(attacks="12", hit=4, wound=4, save=4, reroll_hits="ones"),
    aos(attacks="12", hit=4, wound=4, save=4, reroll_hits="failed"),
    aos(attacks="12", hit=3, wound=4, save=4, reroll_wounds="ones"),
    aos(attacks="12", hit=3, wound=4, save=4, reroll_wounds="failed"),
    aos(attacks="12", hit=3, wound=3, save=4, rend=-1, reroll_saves="ones"),
    aos(attacks="12", hit=3, wound=3, save=3, reroll_saves="failed"),
    aos(attacks="10", hit=4, wound=3, damage="D3", save=4, mortal_on_6_hit=1),
    aos(attacks="10", hit=4, wound=3, save=4, mortal_on_6_hit=2, mortal_ends_sequence=True),
    aos(attacks="10", hit=3, wound=3, damage="D3", save=5, ward=5),
    aos(attacks="2D6", hit=4, wound=4, damage="2", save=4, ward=6, mortal_on_6_hit=1),
    aos(attacks="10", hit=4, wound=3, damage="D3", save=4, extra_hits_on_6=1),
    aos(attacks="10", hit=3, wound=4, save=4, mortal_on_6_wound=1, reroll_wounds="failed"),
    aos(attacks="10", hit=3, wound=4, save=3, mortal_on_6_wound=2, mortal_wound_ends_sequence=True),
    aos(
        attacks="D6",
        hit=4,
        wound=4,
        damage="D3",
        save=5,
        extra_hits_on_6=2,
        mortal_on_6_wound=1,
        mortal_on_6_hit=1,
        ward=6,
        reroll_hits="ones",
    ),
    aos(
        attacks="D6",
        hit=4,
        wound=4,
        hit_modifier=-2,
        damage="D6",
        save=4,
        reroll_hits="failed",
        reroll_wounds="ones",
        reroll_saves="failed",
        mortal_on_6_hit=1,
        ward=6,
    ),
]


@pytest.mark.parametrize("profile", ICEPOOL, ids=range(len(ICEPOOL)))
def test_aos_rerolls_criticals_and_ward_match_icepool(profile: AosAttack) -> None:
    assert_same_pmf(attack_odds(profile).distribution, icepool_damage(profile))


# ------------------------------------------------------------------- seeded Monte Carlo

MONTE_CARLO = [
    aos(attacks="20", hit=4, wound=3, rend=-1, damage="D3", save=4, reroll_hits="ones"),
    aos(attacks="D6", hit=3, wound=4, damage="D3", save=5, ward=6, mortal_on_6_hit=1),
    aos(attacks="8", hit=3, wound=3, damage="D3", save=5, models_wounds=3, models=3),
    aos(attacks="8", hit=3, wound=3, damage="D6", save=6, models_wounds=4, allocation="per-attack"),
    aos(
        attacks="D6",
        hit=4,
        wound=4,
        damage="D3",
        save=5,
        extra_hits_on_6=1,
        mortal_on_6_wound=1,
        ward=6,
        models_wounds=2,
    ),
    aos(
        attacks="10",
        hit=3,
        wound=4,
        damage="2",
        save=4,
        mortal_on_6_wound=2,
        mortal_wound_ends_sequence=True,
        allocation="per-attack",
        models_wounds=3,
    ),
]


@pytest.mark.parametrize("profile", MONTE_CARLO, ids=range(len(MONTE_CARLO)))
def test_aos_seeded_monte_carlo_within_five_standard_errors(profile: AosAttack) -> None:
    trials = 20_000
    exact = attack_odds(profile)
    rolled = simulate(profile, trials, seed=2024)
    assert_monte_carlo_agrees(exact.distribution, rolled.distribution, trials)
    assert_monte_carlo_agrees(exact.slain, rolled.slain, trials)


def test_aos_monte_carlo_same_seed_same_result() -> None:
    profile = MONTE_CARLO[1]
    a, b = simulate(profile, 5000, seed=7), simulate(profile, 5000, seed=7)
    assert a.distribution.tolist() == b.distribution.tolist()
    assert a.slain.tolist() == b.slain.tolist()


# --------------------------------------------------------------------- clauses, by hand


def test_aos_issue_example_mean_is_280_over_27() -> None:
    profile = aos(attacks="20", hit=4, wound=3, rend=-1, damage="D3", save=4, reroll_hits="ones")
    result = attack_odds(profile)
    assert result.mean == pytest.approx(280 / 27, abs=1e-12)
    assert_distribution(result.distribution)


def test_aos_attack_1_hit_roll_of_1_always_fails() -> None:
    # even +5 to hit cannot turn an unmodified 1 into a hit
    profile = aos(hit=2, hit_modifier=5, wound=2, wound_modifier=5, save=7)
    assert attack_odds(profile).distribution[1] == pytest.approx(25 / 36, abs=1e-15)


def test_aos_attack_1_hit_roll_of_6_always_hits() -> None:
    profile = aos(hit=6, hit_modifier=-4, wound=2, save=7)
    assert attack_odds(profile).distribution[1] == pytest.approx(1 / 6 * 5 / 6, abs=1e-15)


def test_aos_attack_2_wound_roll_of_1_always_fails() -> None:
    profile = aos(hit=2, wound=2, wound_modifier=3, save=7)
    assert attack_odds(profile).distribution[1] == pytest.approx(5 / 6 * 5 / 6, abs=1e-15)


def test_aos_attack_2_wound_roll_of_6_always_wounds() -> None:
    profile = aos(hit=2, wound=6, wound_modifier=-3, save=7)
    assert attack_odds(profile).distribution[1] == pytest.approx(5 / 6 * 1 / 6, abs=1e-15)


def test_aos_attack_3_save_roll_of_1_always_fails() -> None:
    # a 2+ save with +1 cover and no rend still fails on an unmodified 1
    profile = aos(hit=2, wound=2, save=2, cover=True)
    assert attack_odds(profile).distribution[1] == pytest.approx(25 / 36 * 1 / 6, abs=1e-15)


def test_aos_attack_3_rend_worsens_the_save() -> None:
    # 4+ save, rend -2: saves only on 6
    profile = aos(hit=2, wound=2, save=4, rend=-2)
    assert attack_odds(profile).distribution[1] == pytest.approx(25 / 36 * 5 / 6, abs=1e-15)


def test_aos_save_of_dash_needs_a_seven_made_possible_by_cover() -> None:
    no_save = attack_odds(aos(hit=2, wound=2, save=7))
    covered = attack_odds(aos(hit=2, wound=2, save=7, cover=True))
    assert no_save.distribution[1] == pytest.approx(25 / 36, abs=1e-15)
    assert covered.distribution[1] == pytest.approx(25 / 36 * 5 / 6, abs=1e-15)


def test_aos_cover_adds_1_to_save_rolls() -> None:
    plain = attack_odds(aos(hit=2, wound=2, save=4)).distribution[1]
    covered = attack_odds(aos(hit=2, wound=2, save=4, cover=True)).distribution[1]
    assert plain == pytest.approx(25 / 36 / 2, abs=1e-15)
    assert covered == pytest.approx(25 / 36 / 3, abs=1e-15)


def test_aos_attack_4_random_damage_is_rolled_for_each_successful_attack() -> None:
    # two certain-ish attacks of D3 damage: the total is the sum of two separate D3 rolls
    profile = aos(attacks="2", hit=2, wound=2, save=7, damage="D3")
    p = 25 / 36
    dist = attack_odds(profile).distribution
    assert dist[6] == pytest.approx(p * p / 9, abs=1e-15)  # both roll a 3, not one roll doubled
    assert dist[5] == pytest.approx(p * p * 2 / 9, abs=1e-15)


def test_aos_rerolls_happen_once_before_modifiers() -> None:
    # re-roll failed 4+ with -1 to hit: a 4 fails after the modifier, so it is re-rolled too
    profile = aos(hit=4, hit_modifier=-1, wound=2, wound_modifier=5, save=7, reroll_hits="failed")
    p_hit = 2 / 6 + 4 / 6 * 2 / 6
    assert attack_odds(profile).distribution[1] == pytest.approx(p_hit * 5 / 6, abs=1e-15)


def test_aos_mortal_wounds_on_unmodified_6_to_hit_are_counted_once() -> None:
    # hit 4+, wound 2+ no save, 1 mortal on a 6: a 6 gives the mortal and continues the sequence
    profile = aos(hit=4, wound=2, save=7, mortal_on_6_hit=1)
    dist = attack_odds(profile).distribution
    assert dist[2] == pytest.approx(1 / 6 * 5 / 6, abs=1e-15)
    assert dist[1] == pytest.approx(2 / 6 * 5 / 6 + 1 / 6 * 1 / 6, abs=1e-15)
    assert dist.sum() == pytest.approx(1.0, abs=1e-15)


def test_aos_a15_a_6_to_hit_scores_its_extra_hits_each_rolling_to_wound() -> None:
    """10 attacks hitting on 4+, a 6 scoring 2 hits: 10 x (2/6 + 2 x 1/6) = 6 2/3 hits; each
    wounds on 4+ and goes unsaved (no save): 3 1/3 damage."""
    profile = aos(attacks="10", hit=4, wound=4, save=7, extra_hits_on_6=1)
    assert attack_odds(profile).mean == pytest.approx(10 / 3)
    assert attack_odds(replace(profile, extra_hits_on_6=0)).mean == pytest.approx(2.5)


def test_aos_a16_a_6_to_wound_adds_mortal_wounds_or_ends_the_sequence() -> None:
    """Hits on 2+ (5/6), wounds on 4+; a save of 2+ stops all but the rolls of 1: in addition
    (1/6 of hits x 2 mortal) or instead (a 6 to wound is only its mortal wounds)."""
    base = aos(attacks="6", hit=2, wound=4, save=2, mortal_on_6_wound=2)
    hits, saved_through = 6 * 5 / 6, 1 / 6
    plus = hits * (3 / 6 * saved_through + 1 / 6 * 2)
    assert attack_odds(base).mean == pytest.approx(plus)
    ends = replace(base, mortal_wound_ends_sequence=True)
    assert attack_odds(ends).mean == pytest.approx(hits * (2 / 6 * saved_through + 1 / 6 * 2))


def test_aos_a15_a16_a_hundred_extra_hits_each_with_a_hundred_mortal_wounds_by_hand() -> None:
    """Worked on (damage, mortal) pairs this took minutes (a reviewer's case); on totals it
    is a repeated squaring. One hit: wound 4+ (a 5 normal, a 6 normal and 100 mortal), no
    save, D6 damage, every wound kept on a 5+ ward's 2/3: 2/6 x 3.5 x 2/3 + 1/6 x (3.5 + 100)
    x 2/3 = 221/18; a hit on 4+ scores 1 hit on a 4 or 5 and 101 on a 6."""
    profile = aos(hit=4, wound=4, save=7, damage="D6", ward=5, extra_hits_on_6=100,
                  mortal_on_6_wound=100)  # fmt: skip
    result = attack_odds(profile)
    assert_distribution(result.distribution)
    assert result.mean == pytest.approx((2 + 101) / 6 * 221 / 18)


def test_aos_extra_hits_are_refused_where_they_cannot_be_counted() -> None:
    with pytest.raises(ProfileError, match="--extra-hits-on-6: a 6 to hit that ends"):
        aos(extra_hits_on_6=1, mortal_on_6_hit=1, mortal_ends_sequence=True)
    with pytest.raises(ProfileError, match="--extra-hits-on-6: each hit of an attack"):
        aos(extra_hits_on_6=1, allocation="per-attack")


def test_aos_mortal_wounds_ignore_the_save() -> None:
    ends = aos(hit=4, wound=2, save=2, rend=0, mortal_on_6_hit=3, mortal_ends_sequence=True)
    dist = attack_odds(ends).distribution
    assert dist[3] == pytest.approx(1 / 6, abs=1e-15)


def test_aos_ward_rolls_once_for_each_wound_and_mortal_wound() -> None:
    # one unsaved attack of 2 damage with a 5+ ward: each point negated on its own roll
    profile = aos(hit=2, hit_modifier=5, wound=2, wound_modifier=5, save=7, damage="2", ward=5)
    through = 25 / 36
    dist = attack_odds(profile).distribution
    assert dist[2] == pytest.approx(through * (2 / 3) ** 2, abs=1e-15)
    assert dist[1] == pytest.approx(through * 2 * (2 / 3) * (1 / 3), abs=1e-15)


def test_aos_hit_and_wound_modifier_cap_is_plus_or_minus_1() -> None:
    capped = aos(hit=4, hit_modifier=-3, wound=2, save=7, cap_modifiers=True)
    assert attack_odds(capped).distribution[1] == pytest.approx(2 / 6 * 5 / 6, abs=1e-15)
    uncapped = replace(capped, cap_modifiers=False)
    assert attack_odds(uncapped).distribution[1] == pytest.approx(1 / 6 * 5 / 6, abs=1e-15)


def test_aos_allocating_wounds_pooled_vs_per_attack_hand_checked() -> None:
    # three attacks of Damage 2 on 3-wound models, each getting through with p = 25/36.
    # pooled (seed text: damage added up, then allocated one wound at a time): 6 damage -> 2 slain
    # per attack (excess lost): 2 on model A, 2 more slays A (1 lost), 2 on B -> 1 slain
    p = Fraction(25, 36)
    k = [Fraction(1) * (1 - p) ** 3, 3 * p * (1 - p) ** 2, 3 * p**2 * (1 - p), p**3]
    base = aos(attacks="3", hit=2, wound=2, save=7, damage="2", models_wounds=3)
    pooled = attack_odds(base).slain
    per_attack = attack_odds(replace(base, allocation=Allocation.PER_ATTACK)).slain
    assert_same_pmf(pooled, np.array([float(k[0] + k[1]), float(k[2]), float(k[3])]))
    assert_same_pmf(per_attack, np.array([float(k[0] + k[1]), float(k[2] + k[3])]))
    assert (
        attack_odds(base).mean == attack_odds(replace(base, allocation=Allocation.PER_ATTACK)).mean
    )


def test_aos_per_attack_one_wound_models_are_slain_one_per_damage_mortal_wounds_included() -> None:
    # one-wound models and no unit size: nothing is lost, so models slain = damage, even when
    # a 6 brings its Damage and a mortal wound at once (before 2026-11-27 the unlimited target
    # was sized by the larger of the two, so 2 attacks could slay 3 at most, never 4)
    base = aos(attacks="2", hit=2, wound=2, save=7, damage="1", models_wounds=1,
               mortal_on_6_hit=1, allocation=Allocation.PER_ATTACK)  # fmt: skip
    odds = attack_odds(base)
    assert_same_pmf(odds.slain, odds.distribution)
    assert len(odds.slain) == 5


def test_aos_slain_models_capped_by_unit_size() -> None:
    profile = aos(attacks="10", hit=2, wound=2, save=7, damage="3", models_wounds=2, models=3)
    slain = attack_odds(profile).slain
    assert len(slain) == 4
    assert_distribution(slain)


@pytest.mark.parametrize(
    ("field", "value", "option"),
    [
        ("hit", 1, "--hit"),
        ("wound", 7, "--wound"),
        ("save", 8, "--save"),
        ("rend", 1, "--rend"),
        ("ward", 1, "--ward"),
        ("mortal_on_6_hit", -1, "--mortal-on-6-hit"),
        ("models_wounds", 0, "--models-wounds"),
        ("models", 0, "--models"),
    ],
)
def test_aos_impossible_profile_names_the_option(field: str, value: int, option: str) -> None:
    with pytest.raises(ProfileError, match=f"^{option}: expected"):
        aos(**{field: value})
