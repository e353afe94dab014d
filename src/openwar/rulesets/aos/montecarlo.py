"""Seeded Monte Carlo of the Age of Sigmar attack sequence (checks the exact odds)."""

from __future__ import annotations

import numpy as np

from openwar.dice.vectorised import (
    IntArray,
    chunks,
    empirical,
    negate_points,
    roll_expr,
    roll_test_sparse,
)
from openwar.rulesets.aos.odds import Allocation, AosAttack, AttackRules, attack_rules
from openwar.rulesets.data import RollRule
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
    """One batch of ``n`` sequences, rolling dice only for attacks still going.

    ``alive`` holds the flat (sequence * width + attack) index of each surviving attack;
    wound and save dice are rolled together for the hits, damage dice for the unsaved.
    """
    attacks = roll_expr(rng, p.attacks, (n,))
    width = max(int(attacks.max()), 1)
    if p.attacks.is_constant:
        alive = np.arange(n * width, dtype=np.int32)
    else:
        alive = np.flatnonzero((np.arange(width) < attacks[:, None]).ravel()).astype(np.int32)
    cap = rules.hit_wound_modifier_cap if p.cap_modifiers else None
    hit = roll_test_sparse(rng, len(alive), p.hit, p.hit_modifier, cap=cap,
                           reroll=p.reroll_hits, **_flags(rules.hit))  # fmt: skip
    going = hit.success
    six = hit.faces == 6
    mortal_at = alive[six] if p.mortal_on_6_hit else alive[:0]
    if p.mortal_on_6_hit and p.mortal_ends_sequence:
        going = going & ~six
    # an unmodified 6 to hit scores its extra hits too (AOS-A15): each rolls to wound alone
    alive = np.concatenate([alive[going], np.repeat(alive[going & six], p.extra_hits_on_6)])
    save_mod = p.rend + p.save_modifier + (rules.cover_save_bonus if p.cover else 0)
    wound = roll_test_sparse(rng, len(alive), p.wound, p.wound_modifier, cap=cap,
                             reroll=p.reroll_wounds, **_flags(rules.wound))  # fmt: skip
    save = roll_test_sparse(rng, len(alive), p.save, save_mod, reroll=p.reroll_saves,
                            **_flags(rules.save))  # fmt: skip
    wound_six = (
        (wound.faces == 6) & wound.success if p.mortal_on_6_wound else np.zeros_like(wound.success)
    )
    wound_mortal_at = alive[wound_six]  # AOS-A16
    through = wound.success & ~save.success
    if p.mortal_wound_ends_sequence:
        through = through & ~wound_six
    alive = alive[through]
    damage = roll_expr(rng, p.damage, (len(alive),))
    damage = negate_points(rng, damage, p.ward, p.damage.maximum)
    sequence = alive // width
    mortal_total = np.zeros(n, dtype=np.int64)
    for at, each in ((mortal_at, p.mortal_on_6_hit), (wound_mortal_at, p.mortal_on_6_wound)):
        mortal = negate_points(rng, np.full(len(at), each, dtype=np.int64), p.ward, each)
        mortal_total += np.bincount(at // width, weights=mortal, minlength=n).astype(np.int64)
    total = np.bincount(sequence, weights=damage, minlength=n).astype(np.int64) + mortal_total
    w = p.models_wounds
    limit = p.models * w if p.models is not None else np.iinfo(np.int64).max
    if p.allocation is Allocation.POOLED:
        return total, np.minimum(total, limit) // w
    flat = np.zeros(n * width, dtype=np.int64)
    flat[alive] = damage
    per_attack = flat.reshape(n, width)
    effective = np.zeros(n, dtype=np.int64)
    for column in range(width):
        room = w - effective % w
        effective = np.minimum(effective + np.minimum(per_attack[:, column], room), limit)
    effective = np.minimum(effective + mortal_total, limit)
    return total, effective // w


def _flags(rule: RollRule) -> dict[str, bool]:
    return {"one_fails": rule.one_fails, "six_succeeds": rule.six_succeeds}
