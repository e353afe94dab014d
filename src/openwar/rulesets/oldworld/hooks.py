"""Old World hooks: points per model plus options, the general and the points limit.

Clause ids (``U7`` ...) are those of docs/rules/oldworld.md, "Units and army lists".
"""

from __future__ import annotations

from openwar.armies.costing import ArmyCost, UnitCost
from openwar.armies.model import ArmyList, ArmyUnit
from openwar.armies.problems import ArmyProblem
from openwar.armies.suggest import find_name
from openwar.rulesets.hooks import RulesetHooks, RulesetPlugin, size_problems
from openwar.rulesets.oldworld.catalog import CATALOG_FILE, OldWorldCatalog, check_catalog
from openwar.rulesets.options import price_options

RULE_TITLES = {
    "U2": "unit size",
    "U4": "options",
    "U7": "a general",
    "U8": "points limit",
    "U9": "known units and options",
    "U10": "unit names are unique",
    "U11": "fields of other rulesets",
}


class OldWorldHooks(RulesetHooks[OldWorldCatalog]):
    """Points and army rules of The Old World."""

    ruleset = "oldworld"
    limit_rule = "U8"
    names_rule = "U10"
    rule_title_table = RULE_TITLES
    other_fields_rule = "U11"

    def price_unit(self, unit: ArmyUnit) -> tuple[UnitCost, list[ArmyProblem]]:
        name, problems = self.lookup("unit", unit.type, self.catalog.unit_names(), unit.name,
                                     "U9")  # fmt: skip
        entry = self.catalog.unit(name) if name else None
        if entry is None:
            return UnitCost(unit.name, unit.type, unit.size or 0, 0), problems
        size = unit.size if unit.size is not None else entry.size
        problems += size_problems(self, unit, size, entry.min_size, entry.max_size, "U2")
        options, more = price_options(self, unit, size, entry.options, ("U9", "U4"))
        problems += more
        if unit.allied:
            problems.append(self.problem("U11", "'allied' is not an Old World rule", unit.name))
        base, way = entry.points_per_model * size, f"{size} x {entry.points_per_model}"
        return UnitCost(unit.name, entry.name, size, base, tuple(options), way), problems

    def army_rules(self, army: ArmyList, cost: ArmyCost) -> list[ArmyProblem]:
        problems = self._general(army)
        if army.allegiance is not None:
            text = "'allegiance' is not an Old World rule"
            problems.append(self.problem("U11", text, option="allegiance"))
        return problems

    def _general(self, army: ArmyList) -> list[ArmyProblem]:
        if army.general is None:
            return [self.problem("U7", "the army names no general", option="general")]
        unit = next((u for u in army.units if u.name == army.general), None)
        if unit is None:
            text = f"the general {army.general!r} is not a unit of the army"
            return [self.problem("U7", text, option="general")]
        entry = self.catalog.unit(find_name(unit.type, self.catalog.unit_names()) or unit.type)
        if self.catalog.army.general_must_be_character and entry and not entry.character:
            return [self.problem("U7", f"the general must be a character, not {entry.name}",
                                 unit.name)]  # fmt: skip
        return []

    def starter(self, name: str) -> ArmyList:
        units = [ArmyUnit(name=n, type=n) for n in self.catalog.army.starter]
        limit = self.default_points_limit or sum(self.price_unit(u)[0].total for u in units)
        return ArmyList(ruleset=self.ruleset, name=name, points_limit=limit,
                        general=units[0].name, units=units)  # fmt: skip


PLUGIN = RulesetPlugin(CATALOG_FILE, OldWorldCatalog, check_catalog, OldWorldHooks)
