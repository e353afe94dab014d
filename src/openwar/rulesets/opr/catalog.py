"""A generic One Page Fantasy catalogue: Quality, models, weapons, special rules, upgrades."""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field

from openwar.rulesets.data import RuleData
from openwar.rulesets.hooks import TableData
from openwar.rulesets.options import Named, UnitOption, named_rows, option_text
from openwar.rulesets.problems import DataProblem, problem_at
from openwar.rulesets.sources import YamlDoc

CATALOG_FILE = "catalog.yaml"
RULE_NAME = re.compile(r"^(?P<name>[^()]+?)(\((?P<value>\d+)\))?$")


class Equipment(RuleData):
    """A weapon a unit carries: its own name and its row of the weapons table."""

    name: str
    weapon: str


class OprUnit(RuleData):
    """A unit profile: Quality, models, points for the whole unit."""

    name: str
    infantry: bool = False
    quality: int = Field(ge=2, le=6)
    size: int = Field(ge=1)
    points: int = Field(ge=0)
    equipment: list[Equipment]
    special_rules: list[str]
    upgrades: list[UnitOption]

    def has_rule(self, rule: str) -> bool:
        return any(rule_name(r) == rule for r in self.special_rules)


class OprArmyRules(RuleData):
    default_points_limit: int | None = Field(ge=0)
    max_heroes: int = Field(ge=0)
    hero_rule: str
    combine_copies: int = Field(ge=1)
    starter: list[str]


class OprCatalog(RuleData):
    """The whole catalogue file."""

    special_rules: list[Named]
    units: list[OprUnit]
    army: OprArmyRules

    def unit(self, name: str) -> OprUnit | None:
        return next((u for u in self.units if u.name == name), None)

    def unit_names(self) -> list[str]:
        return [u.name for u in self.units]

    def to_json(self) -> dict[str, Any]:
        return self.model_dump()

    def tables(self) -> list[TableData]:
        columns = ("Unit", "Models", "Quality", "Equipment", "Special rules", "Points",
                   "Upgrades")  # fmt: skip
        rows = tuple(
            (u.name, str(u.size), f"{u.quality}+",
             ", ".join(f"{e.name} ({e.weapon})" for e in u.equipment),
             ", ".join(u.special_rules) or "-", str(u.points), option_text(u.upgrades))
            for u in self.units
        )  # fmt: skip
        return [
            TableData("Units", columns, rows),
            TableData("Special rules", ("Rule", "Effect"), named_rows(self.special_rules)),
        ]


def rule_name(text: str) -> str:
    """``"Tough(3)"`` -> ``"Tough"``.

    >>> rule_name("Wizard(1)")
    'Wizard'
    """
    match = RULE_NAME.match(text.strip())
    return match.group("name").strip() if match else text


def check_catalog(catalog: OprCatalog, doc: YamlDoc) -> list[DataProblem]:
    """Weapons are rows of the table; special rules are in the glossary."""
    from openwar.rulesets.opr.odds import weapons

    table = weapons()
    glossary = {r.name for r in catalog.special_rules}
    problems = []
    for i, unit in enumerate(catalog.units):
        for j, item in enumerate(unit.equipment):
            if item.weapon.lower() not in table:
                loc: list[str | int] = ["units", i, "equipment", j, "weapon"]
                problems.append(problem_at(doc, loc, f"{item.weapon!r} is not in weapons.yaml"))
        for j, rule in enumerate(unit.special_rules):
            if rule_name(rule) not in glossary:
                loc = ["units", i, "special_rules", j]
                problems.append(problem_at(doc, loc, f"{rule!r} is not in special_rules"))
    for j, name in enumerate(catalog.army.starter):
        if catalog.unit(name) is None:
            problems.append(problem_at(doc, ["army", "starter", j], f"no unit {name!r}"))
    return problems
