"""Seeded Monte Carlo of One Page Fantasy attacks."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from openwar.dice.d6 import Reroll
from openwar.dice.vectorised import IntArray, chunks, empirical, negate_points, roll_expr, roll_test
from openwar.rulesets.odds import SimulatedOdds
from openwar.rulesets.opr.odds import OprAttack, Piercing, attack_odds, attack_rules


def simulate(profile: OprAttack, trials: int, seed: int) -> SimulatedOdds:
    """Roll ``trials`` attacks; with Piercing "auto" use the option the exact odds picked."""
    if profile.piercing is Piercing.AUTO:
        chosen = attack_odds(profile).profile["piercing_used"]
        profile = replace(profile, piercing=Piercing(chosen))
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    wounds_parts, slain_parts = [], []
    for n in chunks(trials):
        wounds, slain = _batch(profile, rng, n)
        wounds_parts.append(wounds)
        slain_parts.append(slain)
    return SimulatedOdds(
        trials,
        seed,
        empirical(np.concatenate(wounds_parts)),
        empirical(np.concatenate(slain_parts)),
    )


def _batch(p: OprAttack, rng: np.random.Generator, n: int) -> tuple[IntArray, IntArray]:
    rules = attack_rules()
    shape = (n, p.models * p.attacks)
    hit = roll_test(rng, shape, p.quality, reroll=p.hit_reroll)
    trigger = hit.success & (hit.faces == rules.trigger_face) & (p.deadly or p.poison)
    ordinary = hit.success & ~trigger
    armored = p.armored and p.piercing is not Piercing.IGNORE_ARMORED
    ignore_on = rules.armored_ignores_on if armored else rules.cover_ignores_on if p.cover else 7
    ordinary &= rng.integers(1, 7, size=shape) < ignore_on
    block_reroll = Reroll.SUCCESSES if p.piercing is Piercing.REROLL_BLOCKS else Reroll.NONE
    ordinary &= ~roll_test(rng, shape, p.target_quality, reroll=block_reroll).success
    regen = rules.regeneration_ignores_on if p.regeneration else None
    loose = ordinary.astype(np.int64)
    packets = np.zeros(shape, dtype=np.int64)
    if p.deadly:
        packets = np.where(trigger, roll_expr(rng, rules.deadly, shape), 0)
        packets = negate_points(rng, packets, regen, rules.deadly.maximum)
    elif p.poison:
        loose = loose + trigger * rules.poison_wounds
    loose = negate_points(rng, loose, regen, max(rules.poison_wounds, 1))
    if p.single_model:  # the table's x: each model's wounds with it, one packet on one model
        packets = (packets + loose).reshape(n, p.models, p.attacks).sum(axis=2)
        loose = np.zeros((n, 0), dtype=np.int64)
    loose = np.concatenate([loose, _impact(p, rng, n)], axis=1)
    limit = p.target_models * p.tough
    effective = np.zeros(n, dtype=np.int64)
    for column in range(packets.shape[1]):
        room = p.tough - effective % p.tough
        effective = np.minimum(effective + np.minimum(packets[:, column], room), limit)
    effective = np.minimum(effective + loose.sum(axis=1), limit)
    return packets.sum(axis=1) + loose.sum(axis=1), effective // p.tough


def _impact(p: OprAttack, rng: np.random.Generator, n: int) -> IntArray:
    """Wounds of the Impact hits (OPR-A15), one column per hit: Armored (the weapon's
    Piercing is not theirs), the target's block, Regeneration."""
    rules = attack_rules()
    shape = (n, p.models * p.impact)
    if not p.impact:  # no dice drawn: the rolls of a profile without Impact stay as they were
        return np.zeros(shape, dtype=np.int64)
    ignore_on = rules.armored_ignores_on if p.armored else 7
    wounds = (rng.integers(1, 7, size=shape) < ignore_on) & ~roll_test(
        rng, shape, p.target_quality
    ).success
    regen = rules.regeneration_ignores_on if p.regeneration else None
    return negate_points(rng, wounds.astype(np.int64), regen, 1)
