"""One Page Fantasy attacks as an exact distribution.

Attackers take one Quality test per Attack (Rapid re-rolls failures; Unwieldy must re-roll
hits). A hit on a 6 with Deadly deals D3+1 automatic wounds to one model; with Poison (and not
Deadly: one face is never resolved twice) one automatic wound. Automatic wounds skip Armored,
cover and blocks. Other hits may be ignored by Armored (4+) or, failing that, by cover (5+,
shooting only), then the target takes a Quality test per hit and each success blocks.
Regeneration ignores each wound on a 5+. Tough(X) models need X wounds; wounds pile on one
model at a time. A Deadly packet goes on one model and its excess is lost; ordinary wounds
are pooled after it. A weapon of the table's x mark (``single_model``) puts all the wounds
each attacking model deals with it on one model, as one packet: its excess is lost too.
Impact(X) (a charge; a Lance counts as Impact(1)) adds X automatic hits per attacking model:
no Quality test and no 6 to trigger anything, but Armored and the target's blocks stop them as
they stop other hits (the weapon's Piercing is not theirs); their wounds are pooled.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from functools import cache
from typing import Any

import numpy as np

from openwar.dice.allocation import slain_packets
from openwar.dice.d6 import D6Test, Reroll
from openwar.dice.notation import DiceExpr, parse_dice
from openwar.dice.pmf import FloatArray, add, binomial, compound, point, thin
from openwar.errors import ProfileError
from openwar.rulesets.data import RollRule, RuleData, load_data
from openwar.rulesets.odds import OddsResult


class AttackRules(RuleData):
    quality_test: RollRule
    armored_ignores_on: int
    cover_ignores_on: int
    regeneration_ignores_on: int
    deadly_wounds: str
    poison_wounds: int
    trigger_face: int

    @property
    def deadly(self) -> DiceExpr:
        return parse_dice(self.deadly_wounds)


class Weapon(RuleData):
    name: str
    range: int | None
    attacks: int
    piercing: bool
    single_model: bool


@cache
def attack_rules() -> AttackRules:
    return load_data("opr", "attacks.yaml", AttackRules)


@cache
def weapons() -> dict[str, Weapon]:
    from pydantic import TypeAdapter

    from openwar.rulesets.data import _read

    table = TypeAdapter(list[Weapon]).validate_python(_read("opr", "weapons.yaml"))
    return {w.name.lower(): w for w in table}


class Piercing(StrEnum):
    NONE = "none"
    AUTO = "auto"
    IGNORE_ARMORED = "ignore-armored"
    REROLL_BLOCKS = "reroll-blocks"


@dataclass(frozen=True)
class OprAttack:
    models: int = 5
    attacks: int = 1
    quality: int = 4
    target_quality: int = 4
    target_models: int = 10
    tough: int = 1
    armored: bool = False
    cover: bool = False
    piercing: Piercing = Piercing.NONE
    deadly: bool = False
    poison: bool = False
    rapid: bool = False
    unwieldy: bool = False
    regeneration: bool = False
    single_model: bool = False  # the table's x: each model's wounds all go on one model
    impact: int = 0  # Impact(X) on a charge: X automatic hits per attacking model

    def __post_init__(self) -> None:
        checks = [
            ("models", self.models >= 1, "at least 1 model"),
            ("attacks", self.attacks >= 0, "0 or more attacks per model"),
            ("quality", 2 <= self.quality <= 6, "a Quality from 2+ to 6+"),
            ("target-quality", 2 <= self.target_quality <= 6, "a Quality from 2+ to 6+"),
            ("target-models", self.target_models >= 1, "at least 1 model"),
            ("tough", self.tough >= 1, "Tough(X) with X of at least 1"),
            ("impact", self.impact >= 0, "Impact(X) with X of 0 or more"),
        ]
        for name, ok, expected in checks:
            if not ok:
                raise ProfileError(f"--{name}: expected {expected}")

    @property
    def hit_reroll(self) -> Reroll:
        """Rapid re-rolls the failed hits, Unwieldy the successful ones; a weapon with both
        (a Rapid weapon of a unit that gets Unwieldy: Wavered, Fear, a charge uphill)
        re-rolls every die once, keeping the second roll (OPR-A7)."""
        if self.rapid and self.unwieldy:
            return Reroll.ALL
        return Reroll.FAILED if self.rapid else Reroll.SUCCESSES if self.unwieldy else Reroll.NONE

    def hit_test(self) -> D6Test:
        return attack_rules().quality_test.test(self.quality, reroll=self.hit_reroll)


def per_attack_outcome(p: OprAttack) -> FloatArray:
    """Joint pmf of one attack's (Deadly packet on one model, other wounds)."""
    rules = attack_rules()
    hit = p.hit_test()
    keep = _kept(p)
    p_face = hit.probability_of_face(rules.trigger_face)
    p_trigger = p_face if (p.deadly or p.poison) and hit.passes(rules.trigger_face) else 0.0
    p_hit = hit.probability - p_trigger
    packet = thin(rules.deadly.distribution, keep) if p.deadly else point(0)
    auto = thin(point(rules.poison_wounds), keep) if (p.poison and not p.deadly) else point(0)
    p_wound = _unblocked(p) * keep
    joint = np.zeros((len(packet), max(len(auto), 2)))
    joint[0, 0] += 1.0 - p_trigger - p_hit * p_wound
    joint[0, 1] += p_hit * p_wound
    if p.deadly:
        joint[:, 0] += p_trigger * packet
    else:
        joint[0, : len(auto)] += p_trigger * auto
    return joint


def impact_wounds(p: OprAttack) -> FloatArray | None:
    """Wounds of the Impact hits (OPR-A15): each is stopped by Armored or a block as any hit
    is, without the weapon's Piercing (cover counts against shooting only), and Regeneration
    ignores the wound on a 5+; None without Impact."""
    if not p.impact:
        return None
    plain = replace(p, piercing=Piercing.NONE, cover=False)
    return binomial(p.models * p.impact, _unblocked(plain) * _kept(p))


def _kept(p: OprAttack) -> float:
    """P(a wound stands): Regeneration ignores each on a 5+."""
    ignored = D6Test(attack_rules().regeneration_ignores_on).probability
    return 1.0 - ignored if p.regeneration else 1.0


def _unblocked(p: OprAttack) -> float:
    """P(an ordinary hit becomes a wound): Armored or cover, then the target's blocks."""
    rules = attack_rules()
    armored = p.armored and p.piercing is not Piercing.IGNORE_ARMORED
    ignore_on = rules.armored_ignores_on if armored else rules.cover_ignores_on if p.cover else 7
    passes = 1.0 - D6Test(ignore_on).probability
    reroll = Reroll.SUCCESSES if p.piercing is Piercing.REROLL_BLOCKS else Reroll.NONE
    block = rules.quality_test.test(p.target_quality, reroll=reroll)
    return passes * (1.0 - block.probability)


def _exact(p: OprAttack) -> OddsResult:
    joint = per_attack_outcome(p)
    count = point(p.models * p.attacks)
    totals = np.add.outer(np.arange(joint.shape[0]), np.arange(joint.shape[1])).ravel()
    per_die = np.bincount(totals, weights=joint.ravel()).astype(np.float64)
    wounds = compound(count, per_die)
    impact = impact_wounds(p)
    if impact is not None:
        wounds = add(wounds, impact)
    if p.single_model:  # one packet per attacking model: its attacks' wounds, on one model
        packet = compound(point(p.attacks), per_die)
        slain = slain_packets(point(p.models), packet[:, None], p.tough, p.target_models, impact)
    else:
        slain = slain_packets(count, joint, p.tough, p.target_models, impact)
    shown = describe(p)
    return OddsResult("opr", shown, "wounds", wounds, slain, {"rolls": rolls_text(shown)})


def attack_odds(profile: OprAttack) -> OddsResult:
    """Exact distribution of wounds and models removed; Piercing "auto" picks the better use."""
    if profile.piercing is not Piercing.AUTO:
        return _exact(profile)
    options = [
        _exact(replace(profile, piercing=choice))
        for choice in (Piercing.IGNORE_ARMORED, Piercing.REROLL_BLOCKS)
    ]
    best = max(options, key=lambda r: (r.mean_slain, r.mean))
    return replace(best, profile={**describe(profile), "piercing_used": best.profile["piercing"]})


def rolls_text(profile: dict[str, Any]) -> str:
    """The rolls the odds were worked out with, each rule that changes one said: the Quality
    test to hit (Rapid re-rolls misses, Unwieldy hits, OPR-A7), what a 6 does (OPR-A5: with
    Deadly and Poison, Deadly only), Armored and cover (and Piercing's use), the blocks,
    Regeneration and Impact's hits."""
    rules = attack_rules()
    rapid, unwieldy = profile["rapid"], profile["unwieldy"]
    hit = f"hits on Quality {profile['quality']}" + (
        ", every die re-rolled once (Rapid and Unwieldy)" if rapid and unwieldy
        else ", misses re-rolled (Rapid)" if rapid
        else ", hits re-rolled (Unwieldy)" if unwieldy
        else ""
    )  # fmt: skip
    parts = [hit]
    face = rules.trigger_face
    for what in ("deadly", "poison"):
        if profile[what]:
            parts.append(f"a {face} to hit is {what.capitalize()} (not blocked)")
            break
    used = str(profile.get("piercing_used") or profile["piercing"])
    if profile["armored"]:
        parts.append("Armored ignored (Piercing)" if used == "ignore-armored"
                     else f"Armored ignores a hit on {rules.armored_ignores_on}+")  # fmt: skip
    if profile["cover"] and (not profile["armored"] or used == "ignore-armored"):  # OPR-A3
        parts.append(f"cover ignores a hit on {rules.cover_ignores_on}+")
    elif profile["cover"]:
        parts.append("cover not added to Armored (OPR-A3)")
    block = f"each blocked on the target's Quality {profile['target_quality']}"
    parts.append(block + (", blocks re-rolled (Piercing)" if used == "reroll-blocks" else ""))
    if profile["regeneration"]:
        parts.append(f"Regeneration ignores a wound on {rules.regeneration_ignores_on}+")
    if profile["impact"]:
        parts.append(f"Impact({profile['impact']}): automatic hits, no 6s, no Piercing")
    return ", ".join(parts)


def describe(p: OprAttack) -> dict[str, Any]:
    raw = asdict(p)
    raw["piercing"] = str(p.piercing)
    raw["quality"], raw["target_quality"] = f"{p.quality}+", f"{p.target_quality}+"
    return raw
