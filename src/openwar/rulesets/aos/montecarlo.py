"""Seeded Monte Carlo of the Age of Sigmar attack sequence (checks the exact odds)."""

from __future__ import annotations

import numpy as np

from openwar.dice.vectorised import IntArray, chunks, empirical, negate_points, roll_expr, roll_test
from openwar.rulesets.aos.odds import Allocation, AosAttack, AttackRules, attack_rules
from openwar.rulesets.odds import SimulatedOdds


def simulate(profile: AosAttack, trials: int, seed: int) -> SimulatedOdds:
    """Roll ``trials`` whole attack sequences; same seed, same result."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    rules = attack_rules()
    damage_parts, slain_parts = [], []
    for size in chunks(trials):
        damage, slain = _batch(profile, rules, rng, size)
        damage_parts.append(damage)
        slain_parts.append(slain)
    damage_all, slain_all = np.concatenate(damage_parts), np.concatenate(slain_parts)
    return SimulatedOdds(trials, seed, empirical(damage_all), empirical(slain_all))


def _batch(
    p: AosAttack, rules: AttackRules, rng: np.random.Generator, n: int
) -> tuple[IntArray, IntArray]:
    attacks = roll_expr(rng, p.attacks, (n,))
    width = max(int(attacks.max()), 1)
    shape = (n, width)
    live = np.arange(width) < attacks[:, None]
    cap = rules.hit_wound_modifier_cap if p.cap_modifiers else None
    hit = roll_test(
        rng,
        shape,
        p.hit,
        p.hit_modifier,
        cap=cap,
        reroll=p.reroll_hits,
        one_fails=rules.hit.one_fails,
        six_succeeds=rules.hit.six_succeeds,
    )
    wound = roll_test(
        rng,
        shape,
        p.wound,
        p.wound_modifier,
        cap=cap,
        reroll=p.reroll_wounds,
        one_fails=rules.wound.one_fails,
        six_succeeds=rules.wound.six_succeeds,
    )
    save_mod = p.rend + p.save_modifier + (rules.cover_save_bonus if p.cover else 0)
    save = roll_test(
        rng,
        shape,
        p.save,
        save_mod,
        reroll=p.reroll_saves,
        one_fails=rules.save.one_fails,
        six_succeeds=rules.save.six_succeeds,
    )
    six = live & (hit.faces == 6) & (p.mortal_on_6_hit > 0)
    proceeds = live & hit.success & ~(six & p.mortal_ends_sequence)
    unsaved = proceeds & wound.success & ~save.success
    damage = np.where(unsaved, roll_expr(rng, p.damage, shape), 0)
    damage = negate_points(rng, damage, p.ward, p.damage.maximum)
    mortal = negate_points(rng, six * p.mortal_on_6_hit, p.ward, p.mortal_on_6_hit)
    total = damage.sum(axis=1) + mortal.sum(axis=1)
    w = p.models_wounds
    limit = p.models * w if p.models is not None else np.iinfo(np.int64).max
    if p.allocation is Allocation.POOLED:
        return total, np.minimum(total, limit) // w
    effective = np.zeros(n, dtype=np.int64)
    for column in range(width):
        room = w - effective % w
        effective = np.minimum(effective + np.minimum(damage[:, column], room), limit)
    effective = np.minimum(effective + mortal.sum(axis=1), limit)
    return total, effective // w
