"""Seeded Monte Carlo of the OpenWar attack sequence and Presence roll."""

from __future__ import annotations

import numpy as np

from openwar.dice.vectorised import chunks, empirical
from openwar.rulesets.odds import SimulatedOdds
from openwar.rulesets.openwar.odds import OpenWarAttack, attack_rules


def simulate(profile: OpenWarAttack, trials: int, seed: int) -> tuple[SimulatedOdds, float]:
    """Roll ``trials`` attacks; returns the slain frequencies and the Presence pass rate."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    rules = attack_rules()
    slain_parts, passed = [], 0
    for n in chunks(trials):
        shape = (n, profile.models, profile.attacks)
        modifier = profile.melee + profile.accuracy
        faces = rng.integers(1, 7, size=shape)
        if profile.talisman:  # OW-P3: a 1 that misses is rolled again
            again = (faces == 1) & (faces + modifier < profile.difficulty)
            faces = np.where(again, rng.integers(1, 7, size=shape), faces)
        hits = faces + modifier >= profile.difficulty
        wounds = hits & (rng.integers(1, 7, size=shape) + profile.pierce >= profile.armor)
        if profile.ward:  # OW-P5: each Wound is negated on a 6
            wounds &= rng.integers(1, 7, size=shape) < rules.ward_roll
        slain = np.minimum(wounds.sum(axis=(1, 2)), profile.target_size)
        hitters = hits.any(axis=2).sum(axis=1) if profile.shock else 0
        roll = rng.integers(1, 7, size=(n, rules.presence_dice)).sum(axis=1)
        total = roll + profile.presence + slain + rules.shock_bonus * hitters
        won = total > profile.morale
        if profile.grudge:  # OW-X6: a failed roll is rolled again
            again = rng.integers(1, 7, size=(n, rules.presence_dice)).sum(axis=1)
            won |= again + (total - roll) > profile.morale
        passed += int(won.sum())
        slain_parts.append(slain)
    frequencies = empirical(np.concatenate(slain_parts))
    return SimulatedOdds(trials, seed, frequencies, frequencies), passed / trials
