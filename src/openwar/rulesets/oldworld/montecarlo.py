"""Seeded Monte Carlo of The Old World attacks."""

from __future__ import annotations

import numpy as np

from openwar.dice.vectorised import IntArray, chunks, empirical, roll_expr, roll_test
from openwar.rulesets.odds import SimulatedOdds
from openwar.rulesets.oldworld.odds import OldWorldAttack, attack_rules


def simulate(profile: OldWorldAttack, trials: int, seed: int) -> SimulatedOdds:
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    parts = [_batch(profile, rng, n) for n in chunks(trials)]
    wounds = np.concatenate([w for w, _ in parts])
    slain = np.concatenate([s for _, s in parts])
    return SimulatedOdds(trials, seed, empirical(wounds), empirical(slain))


def _batch(p: OldWorldAttack, rng: np.random.Generator, n: int) -> tuple[IntArray, IntArray]:
    rules = attack_rules()
    shape = (n, p.models * p.attacks)
    needed = p.needed_to_hit - p.hit_modifier
    beyond = needed > 6  # TOW-D3: a 6 then a second die; only the other faces fail
    hit = roll_test(
        rng,
        shape,
        6 if beyond else p.needed_to_hit,
        0 if beyond else p.hit_modifier,
        reroll=p.reroll_hits,
        one_fails=rules.hit.one_fails,
    )
    if beyond:
        follow_up = rules.beyond_six.get(needed, 7)
        hits = (hit.faces == 6) & (rng.integers(1, 7, size=shape) >= follow_up)
        poisoned = np.zeros(shape, dtype=bool)
    else:
        hits = hit.success
        poisoned = hits & (hit.faces == rules.poison_face) & p.poisoned
    target = p.needed_to_wound
    wounded = poisoned.copy()
    if target is not None:
        rolled = roll_test(
            rng, shape, target, reroll=p.reroll_wounds, one_fails=rules.wound.one_fails
        )
        wounded |= hits & ~poisoned & rolled.success
    if p.armour is not None:
        wounded &= ~roll_test(rng, shape, p.armour, p.ap, one_fails=rules.armour.one_fails).success
    if p.ward is not None:
        wounded &= ~roll_test(rng, shape, p.ward, one_fails=rules.ward.one_fails).success
    total = np.where(wounded, roll_expr(rng, p.damage, shape), 0).sum(axis=1)
    limit = total if p.target_models is None else np.minimum(total, p.target_models * p.wounds)
    return total, limit // p.wounds
