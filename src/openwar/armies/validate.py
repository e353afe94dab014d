"""Costing and validating an army list: every problem at once, never an exception on bad data."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from openwar.armies.costing import ArmyCost, UnitCost
from openwar.armies.model import ArmyList
from openwar.armies.problems import ArmyProblem
from openwar.armies.suggest import did_you_mean
from openwar.rulesets import RULESETS, load_ruleset
from openwar.rulesets.hooks import RulesetHooks


@dataclass(frozen=True)
class ArmyReport:
    """An army's points, its effective points limit and every problem found."""

    army: ArmyList
    cost: ArmyCost
    limit: int | None
    problems: tuple[ArmyProblem, ...]

    @property
    def valid(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        data = {
            "ruleset": self.army.ruleset, "name": self.army.name, "valid": self.valid,
            "points": self.cost.total, "points_limit": self.limit,
            "problems": [p.to_json() for p in self.problems], "cost": self.cost.to_json(),
        }  # fmt: skip
        own = [{"unit": u.name, "profile": dict(u.profile)} for u in self.army.units if u.profile]
        data |= {"profiles": own} if own else {}  # units' own numbers (U20, aos U17)
        hooks = load_ruleset(self.army.ruleset).hooks if self.army.ruleset in RULESETS else None
        free = [
            {"unit": u.name, "carried": found}
            for u in self.army.units
            if hooks is not None and (found := hooks.carried(u))
        ]
        return data | ({"carried": free} if free else {})  # what a type carries without paying


def assess(army: ArmyList) -> ArmyReport:
    """Price ``army`` and check it against its ruleset's rules."""
    if army.ruleset not in RULESETS:
        text = f"unknown ruleset {army.ruleset!r}{did_you_mean(army.ruleset, RULESETS)}"
        problem = ArmyProblem("ruleset", "", text, option="ruleset")
        return ArmyReport(army, ArmyCost(()), army.points_limit, (problem,))
    hooks = load_ruleset(army.ruleset).hooks
    units: list[UnitCost] = []
    problems: list[ArmyProblem] = []
    for unit in army.units:
        unit_cost, found = hooks.price_unit(unit)
        units.append(unit_cost)
        problems += found + hooks.profile_problems(unit)
    extras, found = hooks.price_extras(army)
    cost = ArmyCost(tuple(units), tuple(extras))
    limit = army.points_limit if army.points_limit is not None else hooks.default_points_limit
    problems += found + _unique_names(hooks, army) + _limit(hooks, cost, limit)
    problems += hooks.army_rules(army, cost)
    return ArmyReport(army, cost, limit, tuple(problems))


def _unique_names(hooks: RulesetHooks[Any], army: ArmyList) -> list[ArmyProblem]:
    counts = Counter(unit.name for unit in army.units)
    return [
        hooks.problem(hooks.names_rule, f"{n} units are named {name!r}", name)
        for name, n in counts.items() if n > 1
    ]  # fmt: skip


def _limit(hooks: RulesetHooks[Any], cost: ArmyCost, limit: int | None) -> list[ArmyProblem]:
    if limit is None:
        text = "the army file gives no points_limit and the ruleset has no default"
        return [hooks.problem(hooks.limit_rule, text, option="points_limit")]
    if cost.total > limit:
        text = (
            f"{cost.total} points is over the limit of {limit} by {cost.total - limit} (to play "
            "it all the same, raise the file's points_limit)"
        )
        return [hooks.problem(hooks.limit_rule, text)]
    return []
