"""Age of Sigmar attack sequence as an exact distribution: hit, wound, save, damage.

Wound allocation reading (seed 001, "Allocating Wounds"): once *all* of a unit's attacks are
resolved the damage is added up and allocated one wound at a time, keeping on one model until
it is slain. So in the 2nd-edition text damage is pooled and no excess is lost; that is the
default (``allocation="pooled"``). The later reading where each attack's damage stays on one
model and its excess is lost is available as ``allocation="per-attack"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

import numpy as np

from openwar.dice.allocation import slain_packets, slain_pooled
from openwar.dice.d6 import D6Test, Reroll
from openwar.dice.notation import DiceExpr, parse_dice
from openwar.dice.pmf import FloatArray, add, binomial, compound, convolve2d, power, thin
from openwar.errors import ProfileError
from openwar.rulesets.data import RollRule, RuleData, load_data
from openwar.rulesets.odds import OddsResult


class AttackRules(RuleData):
    hit: RollRule
    wound: RollRule
    save: RollRule
    ward: RollRule
    no_save: int
    cover_save_bonus: int
    hit_wound_modifier_cap: int


@cache
def attack_rules() -> AttackRules:
    return load_data("aos", "attacks.yaml", AttackRules)


class Allocation(StrEnum):
    POOLED = "pooled"
    PER_ATTACK = "per-attack"


@dataclass(frozen=True)
class AosAttack:
    """One weapon's attacks against one target unit. Rolls are the needed number (4 = "4+")."""

    attacks: DiceExpr = parse_dice(1)
    hit: int = 4
    wound: int = 4
    rend: int = 0
    damage: DiceExpr = parse_dice(1)
    save: int = 7
    cover: bool = False
    hit_modifier: int = 0
    wound_modifier: int = 0
    save_modifier: int = 0
    reroll_hits: Reroll = Reroll.NONE
    reroll_wounds: Reroll = Reroll.NONE
    reroll_saves: Reroll = Reroll.NONE
    ward: int | None = None
    mortal_on_6_hit: int = 0
    mortal_ends_sequence: bool = False
    extra_hits_on_6: int = 0
    mortal_on_6_wound: int = 0
    mortal_wound_ends_sequence: bool = False
    cap_modifiers: bool = False
    models_wounds: int = 1
    models: int | None = None
    allocation: Allocation = Allocation.POOLED

    def __post_init__(self) -> None:
        checks = [
            ("hit", 2 <= self.hit <= 6, "a roll from 2+ to 6+"),
            ("wound", 2 <= self.wound <= 6, "a roll from 2+ to 6+"),
            ("save", 2 <= self.save <= 7, "a roll from 2+ to 6+ or -"),
            ("rend", self.rend <= 0, "0 or a negative number such as -1"),
            ("ward", self.ward is None or 2 <= self.ward <= 6, "a roll from 2+ to 6+"),
            ("mortal-on-6-hit", self.mortal_on_6_hit >= 0, "0 or more mortal wounds"),
            ("extra-hits-on-6", self.extra_hits_on_6 >= 0, "0 or more extra hits"),
            ("mortal-on-6-wound", self.mortal_on_6_wound >= 0, "0 or more mortal wounds"),
            ("models-wounds", self.models_wounds >= 1, "at least 1 wound per model"),
            ("models", self.models is None or self.models >= 1, "at least 1 model"),
        ]
        for name, ok, expected in checks:
            if not ok:
                raise ProfileError(f"--{name}: expected {expected}")
        if self.extra_hits_on_6 and self.mortal_on_6_hit and self.mortal_ends_sequence:
            raise ProfileError("--extra-hits-on-6: a 6 to hit that ends the attack sequence "
                               "(--mortal-ends-sequence) scores no hits to add to")  # fmt: skip
        if self.extra_hits_on_6 and self.allocation is Allocation.PER_ATTACK:
            raise ProfileError("--extra-hits-on-6: each hit of an attack is its own damage, so "
                               "it is counted with --allocation pooled only")  # fmt: skip

    def tests(self) -> tuple[D6Test, D6Test, D6Test]:
        rules = attack_rules()
        cap = rules.hit_wound_modifier_cap if self.cap_modifiers else None
        bonus = rules.cover_save_bonus if self.cover else 0
        save_modifier = self.rend + self.save_modifier + bonus
        return (
            rules.hit.test(self.hit, self.hit_modifier, cap, self.reroll_hits),
            rules.wound.test(self.wound, self.wound_modifier, cap, self.reroll_wounds),
            rules.save.test(self.save, save_modifier, None, self.reroll_saves),
        )

    def ward_test(self) -> D6Test | None:
        return None if self.ward is None else attack_rules().ward.test(self.ward)

    def describe(self) -> dict[str, Any]:
        raw = dict(vars(self))
        for key in ("attacks", "damage"):
            raw[key] = str(getattr(self, key))
        for key in ("hit", "wound", "save", "ward"):
            value = raw[key]
            raw[key] = None if value is None else ("-" if value == 7 else f"{value}+")
        return {k: (str(v) if isinstance(v, StrEnum) else v) for k, v in raw.items()}


def per_attack_outcome(profile: AosAttack) -> FloatArray:
    """Joint pmf of one attack's (normal damage, mortal wounds), negation rolls applied: its
    hit roll, then each hit's wound roll, save and damage (AOS-A1..A6); an unmodified 6 to hit
    may add mortal wounds (AOS-A8) or hits (AOS-A15), an unmodified 6 to wound mortal wounds
    (AOS-A16)."""
    hit = profile.tests()[0]
    ward = profile.ward_test()
    keep = 1.0 if ward is None else 1.0 - ward.probability
    if not (profile.extra_hits_on_6 or profile.mortal_on_6_wound):
        return _plain_attack(profile, keep)  # the arithmetic of before, to the last bit
    one_hit = _one_hit(profile, keep)
    mortal = binomial(profile.mortal_on_6_hit, keep)
    special = bool(profile.mortal_on_6_hit or profile.extra_hits_on_6)
    p_six = hit.probability_of_face(6) if special else 0.0
    p_hit_other = hit.probability - (p_six if hit.passes(6) else 0.0)
    joint = _padded(p_hit_other * one_hit, one_hit.shape)
    joint[0, 0] += 1.0 - p_six - p_hit_other
    if profile.extra_hits_on_6:  # pooled allocation only (AOS-A15): the totals are enough
        return _extra_hits(profile, one_hit, mortal, p_six, p_hit_other)[:, None]
    if p_six:
        if profile.mortal_ends_sequence:
            six = _padded(mortal[None, :], one_hit.shape)
        else:
            six = convolve2d(one_hit, mortal[None, :])
        joint = _sum(joint, p_six * six)
    return joint


def _extra_hits(
    profile: AosAttack, one_hit: FloatArray, mortal: FloatArray, p_six: float, p_other: float
) -> FloatArray:
    """The pmf of one attack's whole damage (normal and mortal together) when an unmodified 6
    to hit scores 1 + N hits, each rolling to wound on its own (AOS-A15), plus any mortal
    wounds of that 6 (AOS-A8). Worked on totals, not on (damage, mortal) pairs: extra hits
    are refused with per-attack allocation, the only reader of the pairs, and the pairs grew
    as the square of the hits (100 extra hits with a ward took minutes)."""
    hit = _totals(one_hit)
    six = add(power(hit, 1 + profile.extra_hits_on_6), mortal)
    total = np.zeros(len(six))
    total[: len(hit)] += p_other * hit
    total += p_six * six
    total[0] += 1.0 - p_six - p_other
    return total


def _totals(joint: FloatArray) -> FloatArray:
    """The pmf of damage plus mortal wounds of a (damage, mortal) joint pmf."""
    rows, cols = joint.shape
    cells = np.add.outer(np.arange(rows), np.arange(cols)).ravel()
    return np.bincount(cells, weights=joint.ravel()).astype(np.float64)


def _plain_attack(profile: AosAttack, keep: float) -> FloatArray:
    """One attack without AOS-A15/A16, in the order of products the odds were pinned with
    (``tests/dice/test_portable.py``): the sample battles' choices read these bits."""
    hit, wound, save = profile.tests()
    through = wound.probability * (1.0 - save.probability)
    return _six_joint(
        profile, hit, profile.mortal_on_6_hit, through, profile.mortal_ends_sequence, keep
    )


def _one_hit(profile: AosAttack, keep: float) -> FloatArray:
    """Joint pmf of one hit's (normal damage, mortal wounds): wound roll, save, damage, and
    the mortal wounds of an unmodified 6 to wound (AOS-A16)."""
    _, wound, save = profile.tests()
    ends = profile.mortal_wound_ends_sequence
    return _six_joint(profile, wound, profile.mortal_on_6_wound, 1.0 - save.probability, ends, keep)


def _six_joint(
    profile: AosAttack, test: D6Test, mortal_wounds: int, through: float, ends: bool, keep: float
) -> FloatArray:
    """Joint pmf of (normal damage, mortal wounds) of one roll of ``test`` whose unmodified 6
    inflicts ``mortal_wounds`` (in addition, or instead with ``ends``), a pass going on to the
    damage with chance ``through`` (the rest of the sequence): a hit roll (AOS-A8) or a wound
    roll (AOS-A16)."""
    damage = thin(profile.damage.distribution, keep)
    mortal = binomial(mortal_wounds, keep)
    p_six = test.probability_of_face(6) if mortal_wounds else 0.0
    p_other = test.probability - (p_six if test.passes(6) else 0.0)
    joint = np.zeros((len(damage), len(mortal)))
    joint[:, 0] += p_other * through * damage
    joint[0, 0] += 1.0 - p_six - p_other * through
    if p_six:
        carried = 0.0 if ends else through
        joint += p_six * np.outer(carried * damage, mortal)
        joint[0, :] += p_six * (1.0 - carried) * mortal
    return joint


def _padded(a: FloatArray, shape: tuple[int, ...]) -> FloatArray:
    out = np.zeros((max(a.shape[0], shape[0]), max(a.shape[1], shape[1])))
    out[: a.shape[0], : a.shape[1]] = a
    return out


def _sum(a: FloatArray, b: FloatArray) -> FloatArray:
    out = _padded(a, b.shape)
    out[: b.shape[0], : b.shape[1]] += b
    return out


def attack_odds(profile: AosAttack) -> OddsResult:
    """Exact distribution of damage inflicted and of models slain."""
    joint = per_attack_outcome(profile)
    count = profile.attacks.distribution
    total_per_attack = _totals(joint)
    damage = compound(count, total_per_attack)
    if profile.allocation is Allocation.POOLED:
        slain = slain_pooled(damage, profile.models_wounds, profile.models)
    else:
        slain = slain_packets(count, joint, profile.models_wounds, profile.models)
    return OddsResult("aos", profile.describe(), "damage", damage, slain)
