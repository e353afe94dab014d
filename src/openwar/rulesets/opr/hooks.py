"""One Page Fantasy hooks: unit and upgrade points, the points limit and the one-Hero rule.

Clause ids (``U9`` ...) are those of docs/rules/opr.md, "Units and army lists".
"""

from __future__ import annotations

from openwar.armies.costing import ArmyCost, UnitCost
from openwar.armies.model import ArmyList, ArmyUnit
from openwar.armies.problems import ArmyProblem
from openwar.rulesets.hooks import RulesetHooks, RulesetPlugin
from openwar.rulesets.opr.catalog import CATALOG_FILE, OprCatalog, OprUnit, check_catalog
from openwar.rulesets.options import price_options

RULE_TITLES = {
    "U2": "unit size",
    "U3": "combined Infantry units",
    "U4": "upgrades",
    "U8": "points limit",
    "U9": "at most one Hero",
    "U10": "at least one unit",
    "U11": "known units and upgrades",
    "U12": "unit names are unique",
    "U13": "fields of other rulesets",
}


class OprHooks(RulesetHooks[OprCatalog]):
    """Points and army rules of One Page Fantasy."""

    ruleset = "opr"
    limit_rule = "U8"
    names_rule = "U12"
    rule_title_table = RULE_TITLES
    other_fields_rule = "U13"

    def price_unit(self, unit: ArmyUnit) -> tuple[UnitCost, list[ArmyProblem]]:
        name, problems = self.lookup("unit", unit.type, self.catalog.unit_names(), unit.name,
                                     "U11")  # fmt: skip
        profile = self.catalog.unit(name) if name else None
        if profile is None:
            return UnitCost(unit.name, unit.type, unit.size or 0, 0), problems
        size = unit.size if unit.size is not None else profile.size
        copies, found = self._copies(unit, profile, size)
        problems += found
        options, more = price_options(self, unit, size, profile.upgrades, ("U11", "U4"), copies)
        problems += more
        if unit.allied:
            problems.append(self.problem("U13", "'allied' is not an OPR rule", unit.name))
        base, way = profile.points * copies, f"{copies} x {profile.points}"
        return UnitCost(unit.name, profile.name, size, base, tuple(options), way), problems

    def _copies(self, unit: ArmyUnit, profile: OprUnit, size: int) -> tuple[int, list[ArmyProblem]]:
        """How many copies of the profile the unit is: 1, or 2 for a combined Infantry unit."""
        combined = self.catalog.army.combine_copies
        if size == profile.size:
            return 1, []
        if profile.infantry and size == profile.size * combined:
            return combined, []
        sizes = f"{profile.size}" + (f" or {profile.size * combined}" if profile.infantry else "")
        return 1, [self.problem("U2", f"size {size}; {profile.name} comes as {sizes}", unit.name)]

    def army_rules(self, army: ArmyList, cost: ArmyCost) -> list[ArmyProblem]:
        rules = self.catalog.army
        heroes = [u.unit for u in cost.units if self._is_hero(u.type)]
        problems = []
        if not army.units:  # U10: the other rulesets refuse it through their general or Command
            problems.append(self.problem("U10", "the army lists no units", option="units"))
        if len(heroes) > rules.max_heroes:
            text = f"{len(heroes)} Hero units ({', '.join(heroes)}); at most {rules.max_heroes}"
            problems.append(self.problem("U9", text))
        for key in ("general", "allegiance"):
            if getattr(army, key) is not None:
                problems.append(self.problem("U13", f"'{key}' is not an OPR rule", option=key))
        return problems

    def _is_hero(self, type_name: str) -> bool:
        profile = self.catalog.unit(type_name)
        return profile is not None and profile.has_rule(self.catalog.army.hero_rule)

    def starter(self, name: str) -> ArmyList:
        units = [ArmyUnit(name=n, type=n) for n in self.catalog.army.starter]
        return ArmyList(ruleset=self.ruleset, name=name, points_limit=self.default_points_limit,
                        units=units)  # fmt: skip


PLUGIN = RulesetPlugin(CATALOG_FILE, OprCatalog, check_catalog, OprHooks)
