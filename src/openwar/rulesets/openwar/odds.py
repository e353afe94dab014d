"""OpenWar attack sequence and Presence roll as exact distributions.

Each attacking miniature rolls one die per Attack of its weapon, adding its Melee (or
Ranged) and any Accuracy; a result of Difficulty or more hits. Each hit rolls one die plus
the weapon's Pierce; Armor or more wounds, and a wound slays a miniature, so wounds are
capped at the target's size. Then the Presence roll: 2D6 + Presence + slain (+1 for each
miniature that hit with a Shock weapon) must be *greater* than the enemy's Morale.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

import numpy as np

from openwar.dice.d6 import D6Test
from openwar.dice.pmf import FloatArray, at_least, binomial, clamp, die, power, power2d
from openwar.errors import ProfileError
from openwar.rulesets.data import RollRule, RuleData, load_data
from openwar.rulesets.odds import OddsResult


class AttackRules(RuleData):
    hit: RollRule
    damage: RollRule
    presence_dice: int
    shock_bonus: int
    hold_accuracy: int
    talisman_reroll: str
    ward_roll: int


@cache
def attack_rules() -> AttackRules:
    return load_data("openwar", "attacks.yaml", AttackRules)


@dataclass(frozen=True)
class OpenWarAttack:
    """``models`` miniatures attacking with one weapon; Melee stands for Ranged when shooting."""

    models: int = 10
    attacks: int = 1
    melee: int = 0
    accuracy: int = 0
    difficulty: int = 5
    pierce: int = 0
    armor: int = 4
    target_size: int = 10
    shock: bool = False
    presence: int = 0
    morale: int = 8
    grudge: bool = False  # OW-X6 Grudge Match: a failed Presence roll is rolled again
    talisman: bool = False  # OW-P3 Talisman: hit dice showing 1 are rolled again
    ward: bool = False  # OW-P5 Ward: each Wound is negated on a 6

    def __post_init__(self) -> None:
        for name in ("models", "attacks", "target-size"):
            if getattr(self, name.replace("-", "_")) < 1:
                raise ProfileError(f"--{name}: expected a whole number of at least 1")

    def tests(self) -> tuple[D6Test, D6Test]:
        rules = attack_rules()
        again = rules.talisman_reroll if self.talisman else "none"
        return (
            rules.hit.test(self.difficulty, self.melee + self.accuracy, reroll=again),
            rules.damage.test(self.armor, self.pierce),
        )

    @property
    def wound_stands(self) -> float:
        """P(a Wound is not negated): 1, or under the Ward (OW-P5) the chance its die fails."""
        return (attack_rules().ward_roll - 1) / 6.0 if self.ward else 1.0


def miniature_outcome(profile: OpenWarAttack) -> FloatArray:
    """Joint pmf of one miniature's (wounds, whether it hit at least once); a Wound the Ward
    negates (OW-P5) is no Wound, but its miniature still hit (Shock counts hits, OW-A6)."""
    hit, wound = profile.tests()
    hits = binomial(profile.attacks, hit.probability)
    joint = np.zeros((profile.attacks + 1, 2))
    for j, p_j in enumerate(hits):
        joint[: j + 1, min(j, 1)] += p_j * binomial(j, wound.probability * profile.wound_stands)
    return joint


def presence_beats(profile: OpenWarAttack, bonus: int) -> float:
    """P(2D6 + Presence + bonus > Morale)."""
    tail = presence_tail(attack_rules().presence_dice, profile.grudge)
    needed = profile.morale - profile.presence - bonus + 1
    return float(tail[max(needed, 0)]) if needed < len(tail) else 0.0


@cache
def presence_tail(dice: int, grudge: bool = False) -> FloatArray:
    """P(the Presence roll of ``dice`` D6 >= n) for every n (worked out once); with
    ``grudge`` a roll below n is rolled once more (OW-X6), so it fails only if both do."""
    tail = at_least(power(die(6), dice))
    if grudge:
        tail = 1.0 - (1.0 - tail) ** 2
    tail.flags.writeable = False
    return tail


def attack_odds(profile: OpenWarAttack) -> OddsResult:
    """Exact distribution of wounds (= miniatures slain) and of the Presence roll."""
    slain, by_slain, probability = slain_and_presence(profile)
    presence = {"probability": probability, "by_slain": by_slain}
    return OddsResult("openwar", asdict(profile), "wounds", slain, slain, {"presence": presence})


def slain_and_presence(profile: OpenWarAttack) -> tuple[FloatArray, list[float | None], float]:
    """What :func:`attack_odds` works out, without its record: P(k slain) for k = 0..target
    size, P(Presence roll wins | k slain) (None where k cannot happen) and P(it wins)."""
    joint = wounds_and_hitters(profile)
    shock_bonus = attack_rules().shock_bonus if profile.shock else 0
    size = profile.target_size
    slain_by_hitters = np.zeros((size + 1, joint.shape[1]))
    for wounds in range(joint.shape[0]):
        slain_by_hitters[min(wounds, size)] += joint[wounds]
    slain = slain_by_hitters.sum(axis=1)
    joint_pass = (slain_by_hitters * _passing(profile, size, joint.shape[1], shock_bonus)).sum(
        axis=1
    )
    by_slain = [float(p / s) if s > 0 else None for p, s in zip(joint_pass, slain, strict=True)]
    return clamp(slain, size), by_slain, float(joint_pass.sum())


def _passing(profile: OpenWarAttack, size: int, hitters: int, shock_bonus: int) -> FloatArray:
    """(size + 1, hitters): :func:`presence_beats` with k slain and h hitters, ``k + shock_bonus
    * h`` (the same numbers of the tail, gathered at once)."""
    tail = presence_tail(attack_rules().presence_dice, profile.grudge)
    bonus = np.arange(size + 1)[:, None] + shock_bonus * np.arange(hitters)[None, :]
    needed = profile.morale - profile.presence - bonus + 1
    found = tail[np.clip(needed, 0, len(tail) - 1)]
    return np.asarray(np.where(needed < len(tail), found, 0.0), dtype=np.float64)


JOINTS: dict[tuple[int, ...], FloatArray] = {}  # wounds_and_hitters' answers, by its inputs
JOINTS_LIMIT = 4096


def wounds_and_hitters(profile: OpenWarAttack) -> FloatArray:
    """The joint pmf of the attack's wounds and of how many miniatures hit at least once;
    remembered (read-only) by what it depends on, as attacks that differ only in the target's
    size, Presence, Morale or Shock share it."""
    key = (profile.models, profile.attacks, profile.melee, profile.accuracy,
           profile.difficulty, profile.pierce, profile.armor, profile.talisman,
           profile.ward)  # fmt: skip
    found = JOINTS.get(key)
    if found is None:
        found = power2d(miniature_outcome(profile), profile.models)
        found.flags.writeable = False
        if len(JOINTS) >= JOINTS_LIMIT:
            JOINTS.clear()
        JOINTS[key] = found
    return found


def describe(profile: OpenWarAttack) -> dict[str, Any]:
    return asdict(profile)
