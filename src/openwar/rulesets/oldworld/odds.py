"""The Old World attacks as an exact distribution: to hit, to wound, armour, ward, casualties.

To hit comes from the WS-vs-WS chart in combat or the BS chart when shooting, then modifiers;
to wound from the S-vs-T chart; the armour save is worsened by the weapon's AP; the ward save
is never modified. Each unsaved wound becomes ``damage`` wounds (1 unless the weapon has
Multiple Wounds); casualties are pooled as the quick reference says: each wound takes one
Wound from the unit and a model at zero Wounds is removed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from openwar.dice.allocation import slain_pooled
from openwar.dice.d6 import D6Test, Reroll
from openwar.dice.notation import DiceExpr, parse_dice
from openwar.dice.pmf import FloatArray, bernoulli, compound, point
from openwar.errors import ProfileError
from openwar.rulesets.data import RollRule, RuleData, load_data
from openwar.rulesets.odds import OddsResult


class Charts(RuleData):
    to_hit_ws: list[list[int]]
    to_hit_bs: list[int]
    to_wound: list[list[int | None]]


class AttackRules(RuleData):
    hit: RollRule
    wound: RollRule
    armour: RollRule
    ward: RollRule
    beyond_six: dict[int, int]
    poison_face: int


@cache
def charts() -> Charts:
    return load_data("oldworld", "charts.yaml", Charts)


@cache
def attack_rules() -> AttackRules:
    return load_data("oldworld", "attacks.yaml", AttackRules)


class Mode(StrEnum):
    COMBAT = "combat"
    SHOOTING = "shooting"


def _in(value: int, low: int, high: int) -> bool:
    return low <= value <= high


@dataclass(frozen=True)
class OldWorldAttack:
    models: int = 10
    attacks: int = 1
    mode: Mode = Mode.COMBAT
    ws: int = 3
    target_ws: int = 3
    bs: int = 3
    hit_modifier: int = 0
    strength: int = 3
    toughness: int = 3
    armour: int | None = None
    ap: int = 0
    ward: int | None = None
    damage: DiceExpr = parse_dice(1)
    wounds: int = 1
    target_models: int | None = None
    reroll_hits: Reroll = Reroll.NONE
    reroll_wounds: Reroll = Reroll.NONE
    poisoned: bool = False

    def __post_init__(self) -> None:
        checks = [
            ("models", self.models >= 1, "at least 1 model"),
            ("attacks", self.attacks >= 0, "0 or more attacks per model"),
            ("ws", _in(self.ws, 1, 10), "a Weapon Skill from 1 to 10"),
            ("target-ws", _in(self.target_ws, 1, 10), "a Weapon Skill from 1 to 10"),
            ("bs", _in(self.bs, 1, len(charts().to_hit_bs)), "a Ballistic Skill from 1 to 5"),
            ("strength", _in(self.strength, 1, 10), "a Strength from 1 to 10"),
            ("toughness", _in(self.toughness, 1, 10), "a Toughness from 1 to 10"),
            ("armour", self.armour is None or _in(self.armour, 2, 6), "a save from 2+ to 6+"),
            ("ap", self.ap <= 0, "0 or a negative number such as -1"),
            ("ward", self.ward is None or _in(self.ward, 2, 6), "a save from 2+ to 6+"),
            ("wounds", self.wounds >= 1, "at least 1 Wound per model"),
            ("target-models", self.target_models is None or self.target_models >= 1, "1+"),
        ]
        for name, ok, expected in checks:
            if not ok:
                raise ProfileError(f"--{name}: expected {expected}")

    @property
    def needed_to_hit(self) -> int:
        """The chart's to-hit number before modifiers."""
        table = charts()
        if self.mode is Mode.COMBAT:
            return table.to_hit_ws[self.ws - 1][self.target_ws - 1]
        return table.to_hit_bs[self.bs - 1]

    @property
    def needed_to_wound(self) -> int | None:
        return charts().to_wound[self.strength - 1][self.toughness - 1]


def hit_probabilities(p: OldWorldAttack) -> tuple[float, float]:
    """(P(hit that is not a poisoned 6), P(poisoned automatic wound))."""
    rules = attack_rules()
    test = rules.hit.test(p.needed_to_hit, p.hit_modifier, reroll=p.reroll_hits)
    p_hit = test.probability
    needed = p.needed_to_hit - p.hit_modifier
    if needed > 6:  # TOW-D3: a 6, then a second die; a 6 is not a failed roll to re-roll
        follow_up = rules.beyond_six.get(needed)
        six = rules.hit.test(6, reroll=p.reroll_hits).probability_of_face(6)
        p_hit = 0.0 if follow_up is None else six * D6Test(follow_up).probability
        return p_hit, 0.0
    face = rules.poison_face
    p_poison = test.probability_of_face(face) if p.poisoned and test.passes(face) else 0.0
    return p_hit - p_poison, p_poison


def per_attack_outcome(p: OldWorldAttack) -> FloatArray:
    """pmf of the wounds one attack takes from the target, after saves."""
    rules = attack_rules()
    p_hit, p_poison = hit_probabilities(p)
    needed = p.needed_to_wound
    wound = 0.0
    if needed is not None:
        wound = rules.wound.test(needed, reroll=p.reroll_wounds).probability
    armour = (
        0.0 if p.armour is None else D6Test(p.armour, p.ap, **rules.armour.model_dump()).probability
    )
    ward = 0.0 if p.ward is None else rules.ward.test(p.ward).probability
    p_unsaved = (p_hit * wound + p_poison) * (1.0 - armour) * (1.0 - ward)
    return compound(bernoulli(p_unsaved), p.damage.distribution)


def attack_odds(profile: OldWorldAttack) -> OddsResult:
    wounds = compound(point(profile.models * profile.attacks), per_attack_outcome(profile))
    slain = slain_pooled(wounds, profile.wounds, profile.target_models)
    shown = describe(profile)
    return OddsResult("oldworld", shown, "wounds", wounds, slain, {"rolls": rolls_text(shown)})


def rolls_text(profile: dict[str, Any]) -> str:
    """The rolls the odds were worked out with, which the options do not show: the charts'
    numbers with their modifiers (TOW-D1's natural 1, TOW-D3's second die), the wound roll,
    Poisoned's 6s and the save AP leaves; read from the ruleset's data, as the odds are."""
    rules = attack_rules()
    chart, modifier = int(str(profile["needed_to_hit"]).rstrip("+")), profile["hit_modifier"]
    need = max(chart - int(modifier), 2 if rules.hit.one_fails else 1)  # TOW-D1
    follow = rules.beyond_six.get(need)
    hit = f"to hit {chart}+" + (f" {modifier:+d}" if modifier else "")
    if need > 6:  # TOW-D3: a 6, then a second die; past the table, no hit at all
        hit += f": a 6, then {follow}+ (TOW-D3)" if follow else ": cannot hit"
    elif modifier:
        hit += f": {need}+"
    hit += _rerolled(profile["reroll_hits"])
    wound = profile["needed_to_wound"]
    if wound is None:
        parts = [hit, "no wound roll (the chart's -)"]
    else:
        parts = [hit, f"to wound {wound}" + _rerolled(profile["reroll_wounds"])]
    if profile["poisoned"]:  # TOW-D4: past 6+ the 6 only earns the second die (TOW-D3)
        parts.append(f"a {rules.poison_face} to hit wounds automatically (Poisoned)"
                     if need <= 6 else "Poisoned does nothing past 6+ (TOW-D3)")  # fmt: skip
    if profile["armour"] is not None:
        save = int(str(profile["armour"]).rstrip("+")) - int(profile["ap"])
        armour = f"armour {profile['armour']}"
        if profile["ap"]:
            armour += f" AP {profile['ap']}: " + (f"{save}+" if save <= 6 else "no save")
        parts.append(armour)
    if profile["ward"] is not None:
        parts.append(f"ward {profile['ward']}")
    return ", ".join(parts)


def _rerolled(which: str) -> str:
    """What the options re-roll, said after the roll: " (failed re-rolled)"; nothing for none."""
    return "" if which == "none" else f" ({which} re-rolled)"


def describe(p: OldWorldAttack) -> dict[str, Any]:
    raw = asdict(p)
    raw.update(
        mode=str(p.mode),
        damage=str(p.damage),
        reroll_hits=str(p.reroll_hits),
        reroll_wounds=str(p.reroll_wounds),
        armour=None if p.armour is None else f"{p.armour}+",
        ward=None if p.ward is None else f"{p.ward}+",
        needed_to_hit=f"{p.needed_to_hit}+",
        needed_to_wound=None if p.needed_to_wound is None else f"{p.needed_to_wound}+",
    )
    return raw
