"""One Page Fantasy attacks (docs/rules/opr.md, clauses OPR-A1..OPR-A15)."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import Any

import icepool
import numpy as np
import pytest

from openwar.errors import ProfileError
from openwar.rulesets.opr.montecarlo import simulate
from openwar.rulesets.opr.odds import OprAttack, Piercing, attack_odds, weapons
from rulesets.bounds import assert_distribution, assert_monte_carlo_agrees, assert_same_pmf
from rulesets.enumeration import (
    bind,
    certain,
    count_kept,
    d6_after_reroll,
    dice_total,
    faces,
    fmap,
    pmf_array,
    reroll_rule,
    sequence,
)

REGENERATION_ON = 5

# ---------------------------------------------------------------- the rules, written out again


def hit_reroll(p: OprAttack) -> str:
    """OPR-A6 Rapid re-rolls failed hits; OPR-A7 Unwieldy must re-roll (successful) hits."""
    return "failed" if p.rapid else "successes" if p.unwieldy else "none"


@cache
def one_attack(p: OprAttack) -> dict[tuple[int, int], Fraction]:
    """Exact (Deadly packet on one model, other wounds) of one Attack, every die enumerated."""
    regen = REGENERATION_ON if p.regeneration else None
    hit = d6_after_reroll(lambda f: f >= p.quality, reroll_rule(hit_reroll(p)))
    armored = p.armored and p.piercing is not Piercing.IGNORE_ARMORED
    ignore_on = 4 if armored else 5 if p.cover else None
    block_policy = "successes" if p.piercing is Piercing.REROLL_BLOCKS else "none"
    block = d6_after_reroll(lambda f: f >= p.target_quality, reroll_rule(block_policy))

    def ordinary(_: None) -> dict[tuple[int, int], Fraction]:
        def after_ignore(roll: tuple[int, ...]) -> dict[int, Fraction]:
            if ignore_on is not None and roll[0] >= ignore_on:
                return certain(0)
            return bind(
                block, lambda b: certain(0) if b >= p.target_quality else count_kept(1, regen)
            )

        return fmap(bind(faces(1), after_ignore), lambda n: (0, n))

    def after_hit(face: int) -> dict[tuple[int, int], Fraction]:
        if face < p.quality:
            return certain((0, 0))
        if face == 6 and p.deadly:  # OPR-A4: D3+1 automatic wounds on one model
            packet = bind(dice_total(1, 3, 1), lambda d: count_kept(d, regen))
            return fmap(packet, lambda n: (n, 0))
        if face == 6 and p.poison:  # OPR-A5: one automatic wound
            return fmap(count_kept(1, regen), lambda n: (0, n))
        return ordinary(None)

    return bind(hit, after_hit)


@cache
def one_impact_hit(p: OprAttack) -> dict[tuple[int, int], Fraction]:
    """OPR-A15: an Impact hit, every die enumerated: no Quality test and no 6 to trigger;
    Armored (the weapon's Piercing is not the Impact's), the block, Regeneration."""
    regen = REGENERATION_ON if p.regeneration else None

    def after_ignore(roll: tuple[int, ...]) -> dict[int, Fraction]:
        if p.armored and roll[0] >= 4:
            return certain(0)
        return bind(
            faces(1), lambda b: certain(0) if b[0] >= p.target_quality else count_kept(1, regen)
        )

    return fmap(bind(faces(1), after_ignore), lambda n: (0, n))


def removed(p: OprAttack, run: tuple[tuple[int, int], ...]) -> int:
    """OPR-A11/A12: packets go on one model (excess lost), other wounds pile up after. With
    the table's x mark (OPR-A13) all of each model's wounds are one packet; the Impact hits'
    wounds (the run's last ``models * impact``, OPR-A15) are loose."""
    if p.single_model:
        weapon, impact = run[: p.models * p.attacks], run[p.models * p.attacks :]
        chunks = [weapon[i : i + p.attacks] for i in range(0, len(weapon), max(p.attacks, 1))]
        run = tuple((sum(a + b for a, b in chunk), 0) for chunk in chunks) + impact
    cap = p.target_models * p.tough
    allocated = 0
    for packet, _ in run:
        room = p.tough - allocated % p.tough if allocated < cap else 0
        allocated = min(allocated + min(packet, room), cap)
    return min(allocated + sum(n for _, n in run), cap) // p.tough


def brute_force(p: OprAttack) -> tuple[np.ndarray, np.ndarray]:
    runs = sequence(
        [one_attack(p)] * (p.models * p.attacks) + [one_impact_hit(p)] * (p.models * p.impact)
    )
    wounds = fmap(runs, lambda run: sum(a + b for a, b in run))
    return pmf_array(wounds), pmf_array(fmap(runs, lambda run: removed(p, run)))


def icepool_wounds(p: OprAttack) -> np.ndarray:
    """Total wounds with icepool's re-roll: Rapid, Unwieldy, Deadly, Poison, Armored, blocks."""
    d6 = icepool.d6
    failing = [f for f in range(1, 7) if f < p.quality]
    hit: Any = d6
    if p.rapid:
        hit = d6.reroll(failing, depth=1)
    elif p.unwieldy:
        hit = d6.reroll([f for f in range(1, 7) if f >= p.quality], depth=1)
    kept = d6.map(lambda f: 0 if p.regeneration and f >= REGENERATION_ON else 1)
    armored = p.armored and p.piercing is not Piercing.IGNORE_ARMORED
    ignore_on = 4 if armored else 5 if p.cover else 7
    block: Any = d6
    if p.piercing is Piercing.REROLL_BLOCKS:
        block = d6.reroll([f for f in range(1, 7) if f >= p.target_quality], depth=1)
    ordinary = icepool.map(
        lambda i, b: kept if i < ignore_on and b < p.target_quality else 0, d6, block
    )

    def per_face(face: int) -> Any:
        if face < p.quality:
            return 0
        if face == 6 and p.deadly:
            return (icepool.d3 + 1).map(lambda n: n @ kept)
        if face == 6 and p.poison:
            return kept
        return ordinary

    total = (p.models * p.attacks) @ hit.map(per_face)
    out = np.zeros(int(total.max_outcome()) + 1)
    for outcome, quantity in total.items():
        out[int(outcome)] = quantity / total.denominator()
    return out


def opr(**kw: Any) -> OprAttack:
    if "piercing" in kw:
        kw["piercing"] = Piercing(kw["piercing"])
    return OprAttack(**kw)


# ------------------------------------------------------------------------- every distribution

SWEEP = [
    opr(
        models=m,
        attacks=a,
        quality=q,
        target_quality=tq,
        tough=t,
        armored=arm,
        piercing=pi,
        deadly=dead,
        poison=poi,
        rapid=rap,
        regeneration=reg,
        target_models=tm,
    )
    for m, a, q, tq, t, arm, pi, dead, poi, rap, reg, tm in itertools.product(
        [1, 10],
        [1, 3],
        [3, 5],
        [2, 6],
        [1, 3],
        [False, True],
        ["none", "auto", "reroll-blocks"],
        [False, True],
        [False, True],
        [False, True],
        [False, True],
        [3, 10],
    )
][::11]


@pytest.mark.parametrize("profile", SWEEP, ids=range(len(SWEEP)))
def test_opr_every_distribution_sums_to_one(profile: OprAttack) -> None:
    result = attack_odds(profile)
    assert_distribution(result.distribution)
    assert_distribution(result.slain)


# ----------------------------------------------------------- brute force on small cases

SMALL = [
    opr(models=2, attacks=1, quality=4, target_quality=4),
    opr(models=1, attacks=3, quality=3, target_quality=5, tough=2, target_models=2),
    opr(models=2, attacks=1, quality=4, target_quality=5, armored=True),
    opr(models=2, attacks=1, quality=4, target_quality=5, cover=True),
    opr(models=2, attacks=1, quality=4, target_quality=5, armored=True, cover=True),
    opr(models=2, attacks=1, quality=4, target_quality=4, armored=True, piercing="ignore-armored"),
    opr(models=2, attacks=1, quality=4, target_quality=3, piercing="reroll-blocks"),
    opr(models=2, attacks=1, quality=4, target_quality=5, deadly=True, tough=3, target_models=2),
    opr(models=3, attacks=1, quality=3, target_quality=4, poison=True, armored=True),
    opr(models=2, attacks=1, quality=4, target_quality=4, deadly=True, poison=True, tough=2),
    opr(models=2, attacks=1, quality=4, target_quality=4, rapid=True),
    opr(models=2, attacks=1, quality=3, target_quality=4, unwieldy=True, deadly=True, tough=2),
    opr(models=2, attacks=1, quality=4, target_quality=6, regeneration=True, deadly=True, tough=3),
    opr(models=1, attacks=3, quality=2, target_quality=6, tough=3, target_models=1, deadly=True),
    # the weapons table's x: all of each model's wounds on one model (OPR-A13)
    opr(models=1, attacks=3, quality=3, target_quality=5, single_model=True, target_models=3),
    opr(models=2, attacks=3, quality=3, target_quality=6, tough=2, single_model=True),
    opr(models=2, attacks=2, quality=2, target_quality=5, tough=2, deadly=True, single_model=True),
    # Impact hits on a charge (OPR-A15)
    opr(models=2, attacks=1, quality=4, target_quality=4, impact=1, armored=True),
    opr(models=1, attacks=2, quality=3, target_quality=5, impact=2, deadly=True, tough=2),
    opr(
        models=2,
        attacks=1,
        quality=4,
        target_quality=3,
        impact=1,
        regeneration=True,
        piercing="ignore-armored",
        armored=True,
    ),
    opr(models=1, attacks=2, quality=3, target_quality=5, impact=1, single_model=True, tough=3),
    opr(models=3, attacks=0, quality=4, target_quality=4, impact=1, target_models=2),
    opr(models=3, attacks=0, impact=1, single_model=True, tough=2, target_models=1),
]


@pytest.mark.parametrize("profile", SMALL, ids=range(len(SMALL)))
def test_opr_attacks_match_brute_force_enumeration(profile: OprAttack) -> None:
    wounds, slain = brute_force(profile)
    result = attack_odds(profile)
    assert_same_pmf(result.distribution, wounds)
    assert_same_pmf(result.slain, slain)


# ------------------------------------------- icepool: Deadly, Poison, Rapid, Unwieldy

ICEPOOL = [
    opr(models=10, attacks=2, quality=4, target_quality=5, deadly=True),
    opr(models=10, attacks=2, quality=4, target_quality=4, poison=True, armored=True),
    opr(models=10, attacks=1, quality=5, target_quality=4, rapid=True, poison=True),
    opr(models=10, attacks=1, quality=3, target_quality=5, unwieldy=True, deadly=True),
    opr(models=6, attacks=2, quality=4, target_quality=3, piercing="reroll-blocks", rapid=True),
    opr(models=5, attacks=2, quality=4, target_quality=5, deadly=True, regeneration=True),
]


@pytest.mark.parametrize("profile", ICEPOOL, ids=range(len(ICEPOOL)))
def test_opr_deadly_poison_rapid_unwieldy_match_icepool(profile: OprAttack) -> None:
    assert_same_pmf(attack_odds(profile).distribution, icepool_wounds(profile))


# ------------------------------------------------------------------- seeded Monte Carlo

IMPACT_TOO = {"armored": True, "regeneration": True, "deadly": True}
MONTE_CARLO = [
    opr(models=10, attacks=2, quality=4, target_quality=5, deadly=True, tough=3, target_models=5),
    opr(models=10, attacks=1, quality=3, target_quality=4, poison=True, rapid=True, tough=2),
    opr(models=5, attacks=3, quality=4, target_quality=4, armored=True, piercing="auto"),
    opr(models=3, attacks=6, quality=4, target_quality=5, tough=3, single_model=True, poison=True),
    opr(models=6, attacks=2, quality=3, target_quality=4, deadly=True, rapid=True, unwieldy=True),
    # Impact hits with Deadly packets, Armored and Regeneration (OPR-A15)
    opr(models=5, attacks=2, quality=3, impact=2, tough=2, target_models=5, **IMPACT_TOO),
]


@pytest.mark.parametrize("profile", MONTE_CARLO, ids=range(len(MONTE_CARLO)))
def test_opr_seeded_monte_carlo_within_five_standard_errors(profile: OprAttack) -> None:
    trials = 20_000
    exact = attack_odds(profile)
    rolled = simulate(profile, trials, seed=31)
    assert_monte_carlo_agrees(exact.distribution, rolled.distribution, trials)
    assert_monte_carlo_agrees(exact.slain, rolled.slain, trials)


# --------------------------------------------------------------------- clauses, by hand


def test_opr_a1_quality_test_succeeds_on_quality_or_higher() -> None:
    # Quality 4+ to hit, target Quality 6+ blocks on a 6: P(wound) = 1/2 * 5/6
    result = attack_odds(opr(models=1, attacks=1, quality=4, target_quality=6))
    assert result.distribution[1] == pytest.approx(5 / 12, abs=1e-15)


def test_opr_a1_no_automatic_results_on_quality_tests() -> None:
    # Quality 2+: a 1 misses, nothing else does
    result = attack_odds(opr(models=1, attacks=1, quality=2, target_quality=6))
    assert result.distribution[1] == pytest.approx(5 / 6 * 5 / 6, abs=1e-15)


def test_opr_a2_each_block_stops_one_hit() -> None:
    result = attack_odds(opr(models=1, attacks=1, quality=2, target_quality=2))
    assert result.distribution[1] == pytest.approx(5 / 6 * 1 / 6, abs=1e-15)


def test_opr_a3_armored_ignores_hits_on_4_plus() -> None:
    result = attack_odds(opr(models=1, attacks=1, quality=2, target_quality=6, armored=True))
    assert result.distribution[1] == pytest.approx(5 / 6 * 1 / 2 * 5 / 6, abs=1e-15)


def test_opr_a3_cover_ignores_on_5_plus_and_does_not_stack_with_armored() -> None:
    cover = attack_odds(opr(models=1, attacks=1, quality=2, target_quality=6, cover=True))
    assert cover.distribution[1] == pytest.approx(5 / 6 * 2 / 3 * 5 / 6, abs=1e-15)
    both = attack_odds(
        opr(models=1, attacks=1, quality=2, target_quality=6, cover=True, armored=True)
    )
    assert both.distribution[1] == pytest.approx(5 / 6 * 1 / 2 * 5 / 6, abs=1e-15)


def test_opr_a4_deadly_hit_on_6_deals_d3_plus_1_wounds_past_armored_and_blocks() -> None:
    # Quality 6+: only 6s hit, all Deadly; Armored and 2+ blocks cannot stop them
    result = attack_odds(
        opr(models=1, attacks=1, quality=6, target_quality=2, armored=True, deadly=True)
    )
    assert_same_pmf(result.distribution, np.array([5 / 6, 0, 1 / 18, 1 / 18, 1 / 18]))


def test_opr_a5_poison_hit_on_6_is_one_automatic_wound() -> None:
    result = attack_odds(
        opr(models=1, attacks=1, quality=6, target_quality=2, armored=True, poison=True)
    )
    assert result.distribution[1] == pytest.approx(1 / 6, abs=1e-15)


def test_opr_a4_a5_deadly_and_poison_never_resolve_the_same_6_twice() -> None:
    both = attack_odds(
        opr(models=1, attacks=1, quality=6, target_quality=2, deadly=True, poison=True)
    )
    deadly = attack_odds(opr(models=1, attacks=1, quality=6, target_quality=2, deadly=True))
    assert_same_pmf(both.distribution, deadly.distribution)


def test_opr_a6_rapid_rerolls_failed_hits() -> None:
    result = attack_odds(opr(models=1, attacks=1, quality=4, target_quality=7 - 1, rapid=True))
    assert result.distribution[1] == pytest.approx(3 / 4 * 5 / 6, abs=1e-15)


def test_opr_a7_unwieldy_must_reroll_hits() -> None:
    result = attack_odds(opr(models=1, attacks=1, quality=4, target_quality=6, unwieldy=True))
    assert result.distribution[1] == pytest.approx(1 / 4 * 5 / 6, abs=1e-15)


def test_opr_a8_piercing_ignore_armored() -> None:
    profile = opr(models=1, attacks=1, quality=2, target_quality=6, armored=True)
    pierced = attack_odds(replace(profile, piercing=Piercing.IGNORE_ARMORED))
    assert pierced.distribution[1] == pytest.approx(5 / 6 * 5 / 6, abs=1e-15)


def test_opr_a8_piercing_rerolls_successful_blocks() -> None:
    profile = opr(models=1, attacks=1, quality=2, target_quality=4, piercing="reroll-blocks")
    assert attack_odds(profile).distribution[1] == pytest.approx(5 / 6 * 3 / 4, abs=1e-15)


@pytest.mark.parametrize(
    ("armored", "target_quality", "better"),
    [
        (True, 2, Piercing.IGNORE_ARMORED),
        (True, 6, Piercing.IGNORE_ARMORED),
        (False, 3, Piercing.REROLL_BLOCKS),
        (False, 5, Piercing.REROLL_BLOCKS),
    ],
)
def test_opr_a8_piercing_auto_picks_the_better_option(
    armored: bool, target_quality: int, better: Piercing
) -> None:
    base = opr(models=5, attacks=2, quality=4, target_quality=target_quality, armored=armored)
    auto = attack_odds(replace(base, piercing=Piercing.AUTO))
    options = {c: attack_odds(replace(base, piercing=c)) for c in (better,)}
    other = Piercing.REROLL_BLOCKS if better is Piercing.IGNORE_ARMORED else Piercing.IGNORE_ARMORED
    worse = attack_odds(replace(base, piercing=other))
    assert auto.profile["piercing_used"] == str(better)
    assert_same_pmf(auto.distribution, options[better].distribution)
    assert auto.mean >= worse.mean


def test_opr_a9_regeneration_ignores_each_wound_on_5_plus() -> None:
    result = attack_odds(
        opr(models=1, attacks=1, quality=2, target_quality=7 - 1, regeneration=True)
    )
    assert result.distribution[1] == pytest.approx(5 / 6 * 5 / 6 * 2 / 3, abs=1e-15)


def test_opr_a10_tough_models_need_x_wounds() -> None:
    # 4 attacks that always wound would need Quality 1+; use the pmf: 5 wounds on Tough(3) -> 1
    profile = opr(models=1, attacks=6, quality=2, target_quality=6, tough=3, target_models=5)
    result = attack_odds(profile)
    assert_distribution(result.slain)
    assert len(result.slain) == 6
    assert result.slain[2] == pytest.approx(result.distribution[6], abs=1e-15)
    assert result.slain[1] == pytest.approx(sum(result.distribution[3:6]), abs=1e-15)


def test_opr_a11_deadly_excess_on_one_model_is_lost() -> None:
    # one Deadly hit on Tough(2) models: 2 to 4 wounds, always exactly one model removed
    profile = opr(models=1, attacks=1, quality=6, target_quality=2, deadly=True, tough=2)
    assert attack_odds(profile).slain.tolist()[:2] == pytest.approx([5 / 6, 1 / 6])


def test_opr_weapons_table_pistol_is_piercing() -> None:
    assert weapons()["pistol"].piercing
    assert weapons()["cannon"].single_model


@pytest.mark.parametrize(
    ("field", "value", "option"),
    [
        ("models", 0, "--models"),
        ("attacks", -1, "--attacks"),
        ("quality", 1, "--quality"),
        ("target_quality", 7, "--target-quality"),
        ("target_models", 0, "--target-models"),
        ("tough", 0, "--tough"),
    ],
)
def test_opr_impossible_profile_names_the_option(field: str, value: int, option: str) -> None:
    with pytest.raises(ProfileError, match=f"^{option}: expected"):
        opr(**{field: value})


def test_opr_a7_rapid_and_unwieldy_together_reroll_every_hit_die_once() -> None:
    """They were refused, but a unit with a Rapid weapon gets Unwieldy when Wavered, after a
    failed Fear test or charging uphill: each die is then re-rolled (a miss by Rapid, a hit
    by Unwieldy) and the second roll kept, as if nothing were re-rolled."""
    both = opr(models=1, attacks=1, quality=4, target_quality=6, rapid=True, unwieldy=True)
    assert attack_odds(both).distribution[1] == pytest.approx(1 / 2 * 5 / 6, abs=1e-15)
    profile = opr(models=4, attacks=2, quality=3, target_quality=5, deadly=True, tough=2)
    assert_same_pmf(attack_odds(replace(profile, rapid=True, unwieldy=True)).distribution,
                    attack_odds(profile).distribution)  # fmt: skip


def test_opr_a15_impact_hits_skip_the_quality_test_but_not_armored_or_blocks() -> None:
    """Four Impact hits, no Attacks: each is stopped by Armored on 4+ and by a 4+ block, so
    each wounds with 1/4, whatever the attacker's Quality, Deadly or Piercing."""
    for extra in ({}, {"quality": 6, "deadly": True, "poison": True}, {"piercing": "auto"}):
        result = attack_odds(opr(models=4, attacks=0, impact=1, armored=True, **extra))
        expected = [math.comb(4, k) * 0.25**k * 0.75 ** (4 - k) for k in range(5)]
        assert np.allclose(result.distribution, expected, atol=1e-12)
    # added to the weapon's own wounds: 5 Attacks of 1/8 and 5 Impact hits of 1/4
    both = attack_odds(opr(models=5, attacks=1, impact=1, armored=True))
    assert both.mean == pytest.approx(5 / 8 + 5 / 4)
    assert attack_odds(opr(models=5, attacks=1, armored=True)).mean == pytest.approx(5 / 8)
