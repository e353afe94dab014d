"""OpenWar attack sequence and Presence roll (docs/rules/openwar.md, clauses OW-A1..OW-A8)."""

from __future__ import annotations

import itertools
from dataclasses import asdict
from fractions import Fraction
from functools import cache
from typing import Any

import icepool
import numpy as np
import pytest

from openwar.dice.pmf import at_least, clamp, die, power, power2d
from openwar.errors import ProfileError
from openwar.rulesets.openwar.montecarlo import simulate
from openwar.rulesets.openwar.odds import (
    OpenWarAttack,
    attack_odds,
    attack_rules,
    miniature_outcome,
    presence_beats,
    presence_tail,
    wounds_and_hitters,
)
from rulesets.bounds import assert_distribution, assert_monte_carlo_agrees, assert_same_pmf
from rulesets.enumeration import bind, certain, faces, fmap, pmf_array, sequence

# ---------------------------------------------------------------- the rules, written out again


@cache
def miniature(p: OpenWarAttack) -> dict[tuple[int, bool], Fraction]:
    """OW-A2/A3: one die per Attack (+ Melee + Accuracy vs Difficulty), one die per Hit
    (+ Pierce vs Armor). Outcome: (wounds, whether the miniature hit at all)."""
    hit_die = bind(faces(1), lambda roll: _hit_face(p, roll[0]))
    hits = fmap(sequence([hit_die] * p.attacks), sum)
    wound_die = fmap(faces(2 if p.ward else 1), lambda roll: _wounds(p, roll))
    return bind(hits, lambda h: fmap(sequence([wound_die] * h), lambda w: (sum(w), h > 0)))


def _hit_face(p: OpenWarAttack, face: int) -> dict[int, Fraction]:
    """OW-A2, and OW-P3 Talisman: a 1 that misses is rolled again, the new face stands."""
    if p.talisman and face == 1 and face + p.melee + p.accuracy < p.difficulty:
        return fmap(faces(1), lambda again: int(again[0] + p.melee + p.accuracy >= p.difficulty))
    return certain(int(face + p.melee + p.accuracy >= p.difficulty))


def _wounds(p: OpenWarAttack, roll: tuple[int, ...]) -> int:
    """OW-A3, and OW-P5 Ward: the Wound's second die negates it on a 6."""
    wounded = roll[0] + p.pierce >= p.armor
    return int(wounded and not (p.ward and roll[1] == 6))


def brute_force(p: OpenWarAttack) -> tuple[dict[int, Fraction], dict[tuple[int, bool], Fraction]]:
    """(slain distribution, joint (slain, Presence roll beats Morale))."""
    runs = sequence([miniature(p)] * p.models)

    def outcome(run: tuple[tuple[int, bool], ...]) -> tuple[int, int]:
        slain = min(sum(w for w, _ in run), p.target_size)  # OW-A4
        hitters = sum(1 for _, hit in run if hit)
        return slain, hitters

    summary = fmap(runs, outcome)
    slain = fmap(summary, lambda s: s[0])

    def presence(s: tuple[int, int]) -> dict[tuple[int, bool], Fraction]:
        bonus = s[0] + (s[1] if p.shock else 0)  # OW-A5, OW-A6

        def won(roll: tuple[int, ...]) -> bool:  # OW-X6: a failed first pair is rolled again
            first = sum(roll[:2]) + p.presence + bonus > p.morale
            return first or (p.grudge and sum(roll[2:]) + p.presence + bonus > p.morale)

        return fmap(faces(4 if p.grudge else 2), lambda roll: (s[0], won(roll)))

    return slain, bind(summary, presence)


def ow(**kw: Any) -> OpenWarAttack:
    return OpenWarAttack(**kw)


# ------------------------------------------------------------------------- every distribution

SWEEP = [
    ow(
        models=m,
        attacks=a,
        melee=mel,
        difficulty=d,
        pierce=pi,
        armor=ar,
        target_size=size,
        shock=shock,
        presence=pr,
        morale=mo,
    )
    for m, a, mel, d, pi, ar, size, shock, pr, mo in itertools.product(
        [1, 10, 20],
        [1, 3],
        [0, 2],
        [4, 7],
        [0, 3],
        [4, 8],
        [5, 20],
        [False, True],
        [0, 2],
        [6, 12],
    )
][::7]


@pytest.mark.parametrize("profile", SWEEP, ids=range(len(SWEEP)))
def test_openwar_every_distribution_sums_to_one(profile: OpenWarAttack) -> None:
    result = attack_odds(profile)
    assert_distribution(result.distribution)
    presence = result.extras["presence"]
    assert -1e-12 <= presence["probability"] <= 1.0 + 1e-12
    recombined = sum(
        p * s for p, s in zip(presence["by_slain"], result.slain, strict=True) if p is not None
    )
    assert recombined == pytest.approx(presence["probability"], abs=1e-12)


# ----------------------------------------------------------- brute force on small cases

SMALL = [
    ow(models=1, attacks=1, difficulty=4, armor=4, target_size=1, morale=7),
    ow(models=2, attacks=2, melee=1, difficulty=5, pierce=1, armor=4, target_size=3, morale=8),
    ow(models=3, attacks=1, difficulty=5, armor=5, target_size=2, presence=1, morale=9),
    ow(models=2, attacks=3, difficulty=5, pierce=2, armor=6, target_size=4, shock=True, morale=9),
    ow(models=2, attacks=2, melee=3, accuracy=1, difficulty=6, armor=3, target_size=10),
    ow(models=2, attacks=2, difficulty=9, armor=4, morale=4, presence=-2),
    ow(models=3, attacks=2, melee=-1, difficulty=3, pierce=-1, armor=4, shock=True, morale=10),
    ow(
        models=2, attacks=2, difficulty=5, armor=4, target_size=3, presence=1, morale=9, grudge=True
    ),
    ow(models=2, attacks=1, difficulty=4, armor=5, shock=True, morale=11, grudge=True),
    ow(models=2, attacks=2, difficulty=5, armor=4, target_size=3, morale=8, talisman=True),
    ow(models=2, attacks=2, melee=2, difficulty=4, armor=4, target_size=3, talisman=True),
    ow(models=2, attacks=2, difficulty=4, pierce=1, armor=4, shock=True, morale=9, ward=True),
    ow(models=2, attacks=1, difficulty=5, armor=3, morale=8, talisman=True, ward=True),
]


@pytest.mark.parametrize("profile", SMALL, ids=range(len(SMALL)))
def test_openwar_attack_sequence_and_presence_match_brute_force(profile: OpenWarAttack) -> None:
    slain, joint = brute_force(profile)
    result = attack_odds(profile)
    assert_same_pmf(result.distribution, pmf_array(slain))
    assert_same_pmf(result.slain, pmf_array(slain))
    presence = result.extras["presence"]
    passed = sum((q for (_, ok), q in joint.items() if ok), Fraction(0))
    assert presence["probability"] == pytest.approx(float(passed), abs=1e-12)
    for k, given in enumerate(presence["by_slain"]):
        p_k = slain.get(k, Fraction(0))
        if p_k == 0:
            assert given is None
        else:
            assert given == pytest.approx(float(joint.get((k, True), Fraction(0)) / p_k), abs=1e-12)


# ------------------------------------------------------- icepool: the Presence roll


def icepool_presence(p: OpenWarAttack) -> float:
    """P(Presence roll beats Morale), built with icepool (pairs encoded as wounds*1000+hit)."""

    def hit_of(face: int) -> int:
        return 1 if face + p.melee + p.accuracy >= p.difficulty else 0

    hit = icepool.d6.map(hit_of)
    if p.talisman:  # OW-P3: a 1 that misses is rolled again
        hit = icepool.d6.map(lambda f: hit if f == 1 and not hit_of(f) else hit_of(f))
    wound = icepool.d6.map(lambda f: 1 if f + p.pierce >= p.armor else 0)
    if p.ward:  # OW-P5: a Wound stands unless its ward die shows 6
        wound = icepool.map(lambda w, ward: w if ward < 6 else 0, wound, icepool.d6)
    hits = p.attacks @ hit
    mini = hits.map(lambda h: ((h @ wound) * 1000 if h else 0) + (1 if h else 0))
    unit = p.models @ mini
    shock = 1 if p.shock else 0
    again = 2 @ icepool.d6 if p.grudge else icepool.Die([0])  # OW-X6: a second roll if failed

    def won(e: int, r: int, r2: int) -> bool:
        bonus = p.presence + min(e // 1000, p.target_size) + shock * (e % 1000)
        return r + bonus > p.morale or (p.grudge and r2 + bonus > p.morale)

    passed = icepool.map(won, unit, 2 @ icepool.d6, again)
    return float(passed.probability(True))


ICEPOOL = [
    ow(models=10, attacks=2, melee=1, difficulty=5, pierce=1, armor=4, presence=1, morale=9),
    ow(models=8, attacks=3, difficulty=5, armor=5, shock=True, target_size=6, morale=10),
    ow(models=5, attacks=1, difficulty=4, armor=4, shock=True, presence=-1, morale=7),
    ow(models=6, attacks=2, difficulty=5, armor=4, shock=True, presence=1, morale=10, grudge=True),
    ow(models=8, attacks=2, difficulty=5, armor=4, presence=1, morale=10, talisman=True),
    ow(models=8, attacks=2, difficulty=4, pierce=1, armor=5, shock=True, morale=10, ward=True),
]


@pytest.mark.parametrize("profile", ICEPOOL, ids=range(len(ICEPOOL)))
def test_openwar_presence_roll_matches_icepool(profile: OpenWarAttack) -> None:
    assert attack_odds(profile).extras["presence"]["probability"] == pytest.approx(
        icepool_presence(profile), abs=1e-12
    )


# ------------------------------------------------------------------- seeded Monte Carlo


@pytest.mark.parametrize("profile", ICEPOOL, ids=range(len(ICEPOOL)))
def test_openwar_seeded_monte_carlo_within_five_standard_errors(profile: OpenWarAttack) -> None:
    trials = 20_000
    exact = attack_odds(profile)
    rolled, passed = simulate(profile, trials, seed=99)
    assert_monte_carlo_agrees(exact.distribution, rolled.distribution, trials)
    p = exact.extras["presence"]["probability"]
    assert abs(passed - p) <= 5 * np.sqrt(p * (1 - p) / trials) + 3 / trials


def test_openwar_monte_carlo_same_seed_same_result() -> None:
    a, pa = simulate(ICEPOOL[1], 3000, seed=5)
    b, pb = simulate(ICEPOOL[1], 3000, seed=5)
    assert a.distribution.tolist() == b.distribution.tolist()
    assert pa == pb


# --------------------------------------------------------------------- clauses, by hand


def test_openwar_a1_no_automatic_results_a_6_can_miss() -> None:
    # Difficulty 7 with Melee 0: even a 6 misses (no automatic success)
    result = attack_odds(ow(models=3, attacks=2, difficulty=7))
    assert result.distribution[0] == pytest.approx(1.0, abs=1e-15)


def test_openwar_a1_no_automatic_results_a_1_can_hit() -> None:
    # Melee 3 against Difficulty 4: every die hits, including a 1; Pierce 3 vs Armor 4 likewise
    result = attack_odds(ow(models=2, attacks=1, melee=3, difficulty=4, pierce=3, armor=4))
    assert result.distribution[2] == pytest.approx(1.0, abs=1e-15)


def test_openwar_a2_hit_roll_adds_melee_to_each_die() -> None:
    # one die, Melee 1, Difficulty 5: hits on 4+; Pierce 0 vs Armor 1: every hit wounds
    result = attack_odds(ow(models=1, attacks=1, melee=1, difficulty=5, armor=1, target_size=1))
    assert result.distribution[1] == pytest.approx(1 / 2, abs=1e-15)


def test_openwar_a2_accuracy_adds_to_the_hit_roll() -> None:
    held = attack_odds(ow(models=1, attacks=1, accuracy=1, difficulty=5, armor=1))
    assert held.distribution[1] == pytest.approx(1 / 2, abs=1e-15)


def test_openwar_a3_damage_roll_adds_pierce_against_armor() -> None:
    # hits certain (Melee 5), Pierce 1 vs Armor 5: wounds on 4+
    result = attack_odds(ow(models=1, attacks=1, melee=5, difficulty=6, pierce=1, armor=5))
    assert result.distribution[1] == pytest.approx(1 / 2, abs=1e-15)


def test_openwar_a4_wounds_slay_at_most_the_target_size() -> None:
    result = attack_odds(ow(models=10, attacks=3, melee=5, difficulty=2, armor=1, target_size=4))
    assert result.distribution.tolist() == [0.0, 0.0, 0.0, 0.0, 1.0]


def test_openwar_a5_presence_roll_must_be_greater_than_morale() -> None:
    # nothing can hit; 2D6 + 1 > 8 means 2D6 >= 8: 15/36 (a total equal to Morale fails)
    profile = ow(models=1, attacks=1, difficulty=20, presence=1, morale=8)
    assert attack_odds(profile).extras["presence"]["probability"] == pytest.approx(15 / 36)
    assert presence_beats(profile, 0) == pytest.approx(15 / 36, abs=1e-15)
    assert presence_beats(profile, 2) == pytest.approx(26 / 36, abs=1e-15)
    assert presence_beats(ow(presence=0, morale=12), 0) == 0.0
    assert presence_beats(ow(presence=0, morale=1), 0) == 1.0


def test_openwar_a5_each_miniature_slain_adds_1_to_presence() -> None:
    # one certain kill: 2D6 + 1 > 8
    profile = ow(models=1, attacks=1, melee=5, difficulty=2, armor=1, target_size=5, morale=8)
    presence = attack_odds(profile).extras["presence"]
    assert presence["probability"] == pytest.approx(15 / 36, abs=1e-15)
    assert attack_odds(profile).slain[0] == pytest.approx(0.0, abs=1e-15)


def test_openwar_a6_shock_adds_1_per_miniature_that_hits_even_without_slaying() -> None:
    # 3 miniatures hit for certain but never wound (Armor 20): +3 from Shock
    base = ow(models=3, attacks=2, melee=5, difficulty=2, armor=20, morale=9)
    plain = attack_odds(base).extras["presence"]["probability"]
    shock = attack_odds(OpenWarAttack(**{**base.__dict__, "shock": True})).extras["presence"]
    assert plain == pytest.approx(6 / 36, abs=1e-15)  # 2D6 > 9
    assert shock["probability"] == pytest.approx(21 / 36, abs=1e-15)  # 2D6 + 3 > 9


@pytest.mark.parametrize("field", ["models", "attacks", "target_size"])
def test_openwar_impossible_profile_names_the_option(field: str) -> None:
    option = "--" + field.replace("_", "-")
    with pytest.raises(ProfileError, match=f"^{option}: expected"):
        ow(**{field: 0})


def test_openwar_brute_force_is_not_trivially_certain() -> None:
    slain, _ = brute_force(SMALL[1])
    assert len(slain) > 2
    assert sum(slain.values()) == 1
    assert certain(0) == {0: Fraction(1)}


def test_the_remembered_presence_tail_is_the_tail_worked_out_afresh() -> None:
    for dice in (1, 2, 3):
        np.testing.assert_array_equal(presence_tail(dice), at_least(power(die(6), dice)))
        assert presence_tail(dice) is presence_tail(dice)


def test_openwar_x6_grudge_match_rolls_a_failed_presence_roll_again() -> None:
    # nothing can hit; 2D6 + 1 > 8 is 15/36, so a failure twice is (21/36)^2
    plain = ow(models=1, attacks=1, difficulty=20, presence=1, morale=8)
    grudge = ow(models=1, attacks=1, difficulty=20, presence=1, morale=8, grudge=True)
    assert presence_beats(grudge, 0) == pytest.approx(1 - (21 / 36) ** 2, abs=1e-15)
    assert attack_odds(grudge).extras["presence"]["probability"] == pytest.approx(
        1 - (1 - attack_odds(plain).extras["presence"]["probability"]) ** 2, abs=1e-15
    )
    assert presence_beats(ow(morale=12, grudge=True), 0) == 0.0


# ------------------------------------------------------------- the quicker arithmetic, to the bit


def attack_odds_as_written(profile: OpenWarAttack) -> tuple[list[float], list[float | None], float]:
    """The attack sequence as :func:`attack_odds` worked it out before its Presence table was
    gathered at once and its joint pmf remembered: one ``presence_beats`` call per cell."""
    joint = power2d(miniature_outcome(profile), profile.models)
    shock_bonus = attack_rules().shock_bonus if profile.shock else 0
    size = profile.target_size
    slain_by_hitters = np.zeros((size + 1, joint.shape[1]))
    for wounds in range(joint.shape[0]):
        slain_by_hitters[min(wounds, size)] += joint[wounds]
    slain = slain_by_hitters.sum(axis=1)
    passing = np.array(
        [
            [presence_beats(profile, k + shock_bonus * h) for h in range(joint.shape[1])]
            for k in range(size + 1)
        ]
    )
    joint_pass = (slain_by_hitters * passing).sum(axis=1)
    by_slain = [float(p / s) if s > 0 else None for p, s in zip(joint_pass, slain, strict=True)]
    return clamp(slain, size).tolist(), by_slain, float(joint_pass.sum())


BIT_SWEEP = [
    ow(models=m, attacks=a, melee=mel, difficulty=d, pierce=pi, armor=ar, target_size=size,
       shock=shock, presence=pr, morale=mo)
    for m, a, mel, d, pi, ar, size, shock, pr, mo in itertools.product(
        [1, 4, 10], [1, 2], [0, 3], [3, 6], [0, 2], [3, 6], [1, 5, 12], [False, True],
        [0, 3], [4, 9, 14],
    )
]  # fmt: skip


def test_openwar_attack_odds_are_the_arithmetic_as_written_to_the_bit() -> None:
    """Each profile twice (the second time from the remembered joint pmf): every probability
    the same float as the cell-by-cell arithmetic, and the same as a fresh one."""
    for _ in range(2):
        for profile in BIT_SWEEP:
            slain, by_slain, probability = attack_odds_as_written(profile)
            result = attack_odds(profile)
            assert result.slain.tolist() == slain
            assert result.distribution.tolist() == slain
            assert result.extras["presence"] == {"probability": probability, "by_slain": by_slain}
            assert result.profile == asdict(profile)


def test_openwar_remembered_joint_pmf_is_read_only_and_a_fresh_one() -> None:
    profile = ow(models=7, attacks=2, melee=1, difficulty=5, pierce=1, armor=5)
    joint = wounds_and_hitters(profile)
    assert not joint.flags.writeable
    fresh = power2d(miniature_outcome(profile), profile.models)
    assert joint.tobytes() == fresh.tobytes() and joint.shape == fresh.shape
    other = ow(models=7, attacks=2, melee=1, difficulty=5, pierce=1, armor=5, target_size=3,
               shock=True, presence=4, morale=11)  # fmt: skip
    assert wounds_and_hitters(other) is joint  # shared by attacks differing only after it


# ---------------------------------------------------------------------- the Arcane Prize


def test_openwar_p3_talisman_rolls_a_hit_die_showing_1_again() -> None:
    # hits on 5+ (1/3); a 1 rolled again adds 1/6 x 1/3; every hit wounds (Armor 1)
    plain = attack_odds(ow(models=1, attacks=1, difficulty=5, armor=1, target_size=1))
    talisman = attack_odds(
        ow(models=1, attacks=1, difficulty=5, armor=1, target_size=1, talisman=True)
    )
    assert plain.distribution[1] == pytest.approx(1 / 3, abs=1e-15)
    assert talisman.distribution[1] == pytest.approx(1 / 3 + 1 / 18, abs=1e-15)
    # a 1 that already hits (Melee 4, Difficulty 5) changes nothing: every die hits
    sure = ow(models=1, attacks=1, melee=4, difficulty=5, armor=1, target_size=1, talisman=True)
    assert attack_odds(sure).distribution[1] == pytest.approx(1.0, abs=1e-15)


def test_openwar_p5_ward_negates_a_wound_on_a_6() -> None:
    # every die hits and wounds; the Ward leaves 5/6 of the Wounds
    profile = ow(models=1, attacks=1, melee=5, difficulty=2, armor=1, target_size=1, ward=True)
    assert attack_odds(profile).distribution[1] == pytest.approx(5 / 6, abs=1e-15)
    # a negated Wound still hit: Shock counts it (OW-A6), 2D6 + 1 > 9 is 10/36
    shock = ow(models=1, attacks=1, melee=5, difficulty=2, armor=1, target_size=1, ward=True,
               shock=True, morale=9)  # fmt: skip
    presence = attack_odds(shock).extras["presence"]
    assert presence["by_slain"][0] == pytest.approx(10 / 36, abs=1e-15)
