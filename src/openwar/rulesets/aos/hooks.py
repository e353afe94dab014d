"""Age of Sigmar hooks: points per block of models, battalions, general, allegiance, allies.

Clause ids (``U9`` ...) are those of docs/rules/aos.md, "Units and army lists".
"""

from __future__ import annotations

from collections import Counter

from openwar.armies.costing import ArmyCost, ExtraCost, UnitCost
from openwar.armies.model import ArmyList, ArmyUnit, BattalionChoice
from openwar.armies.problems import ArmyProblem
from openwar.armies.profile import ProfileKeys
from openwar.armies.suggest import find_name
from openwar.rulesets.aos.catalog import CATALOG_FILE, AosCatalog, Warscroll, check_catalog
from openwar.rulesets.hooks import RulesetHooks, RulesetPlugin, size_problems
from openwar.rulesets.options import price_options
from openwar.words import counted

RULE_TITLES = {
    "U2": "unit size",
    "U4": "command models",
    "U6": "allegiance",
    "U8": "a general",
    "U9": "one allied unit in every four",
    "U10": "battalions from the catalogue",
    "U11": "battalions of two or more units",
    "U12": "battalion membership",
    "U13": "points limit",
    "U14": "known warscrolls and options",
    "U15": "unit names are unique",
    "U17": "a unit's own numbers",
}


class AosHooks(RulesetHooks[AosCatalog]):
    """Points and army rules of Age of Sigmar."""

    ruleset = "aos"
    limit_rule = "U13"
    names_rule = "U15"
    rule_title_table = RULE_TITLES
    profile_rule = "U17"

    def price_unit(self, unit: ArmyUnit) -> tuple[UnitCost, list[ArmyProblem]]:
        name, problems = self.lookup("warscroll", unit.type, self.catalog.unit_names(), unit.name,
                                     "U14")  # fmt: skip
        scroll = self.catalog.unit(name) if name else None
        if scroll is None:
            return UnitCost(unit.name, unit.type, unit.size or 0, 0), problems
        size = unit.size if unit.size is not None else scroll.size
        problems += size_problems(self, unit, size, 1, scroll.max_size, "U2")
        blocks = max(1, -(-size // scroll.size))
        options, more = price_options(self, unit, size, scroll.options, ("U14", "U4"))
        problems += more
        points = unit.profile.get("points", scroll.points)
        per = "model" if scroll.size == 1 else f"{scroll.size} models"
        way = f"{blocks} x {points} (per {per})"
        way += " (profile)" if "points" in unit.profile else ""
        cost = UnitCost(unit.name, scroll.name, size, points * blocks, tuple(options), way)
        return cost, problems

    def profile_note(self, unit: ArmyUnit, key: str) -> str | None:
        """A warscroll's points are for each block of its size (U3); a save, to-hit or
        to-wound number is the roll needed (4 is 4+)."""
        if key == "save" or key.endswith((".to_hit", ".to_wound")):
            return f"{key}: the roll needed on a dice (4 is 4+; a lower number is better)"
        name = find_name(unit.type, self.catalog.unit_names())
        scroll = self.catalog.unit(name) if name else None
        if key != "points" or scroll is None:
            return None
        size = unit.size if unit.size is not None else scroll.size
        blocks = max(1, -(-size // scroll.size))
        times = {1: "once", 2: "twice"}.get(blocks, f"{blocks} times")
        if size == 1:
            return "points: the warscroll's points (a unit of one model)"
        each = "each model" if scroll.size == 1 else f"each {scroll.size} models"
        return f"points: the warscroll's points for {each} (a unit of {size} pays them {times})"

    def profile_keys(self, unit: ArmyUnit) -> ProfileKeys | None:
        """U17: the warscroll's characteristics and points, and its weapons' numbers; what its
        damage table changes as wounds are suffered stays the table's."""
        name = find_name(unit.type, self.catalog.unit_names())
        scroll = self.catalog.unit(name) if name else None
        if scroll is None:
            return None
        bounds = self.catalog.army.profile
        keys = ProfileKeys.of(bounds.characteristics)
        for weapon in [*scroll.missile_weapons, *scroll.melee_weapons]:
            reach = (weapon.min_range + 1, bounds.weapons["range"][1])  # beyond its minimum
            keys.add_weapon(weapon.name, {**bounds.weapons, "range": reach})
        table = "it changes with the warscroll's damage table"
        for row in scroll.damage_table:
            for key in ("move", "bravery", "save"):
                if getattr(row, key) is not None:
                    keys.fixed[key] = table
            for changed, change in row.weapons.items():
                for field, value in change.model_dump().items():
                    if value is not None:
                        keys.fixed[f"{changed}.{field}"] = table
        if isinstance(scroll.move, str):
            keys.fixed["move"] = f"it is rolled ({scroll.move})"
        return keys

    def price_extras(self, army: ArmyList) -> tuple[list[ExtraCost], list[ArmyProblem]]:
        extras, problems = [], []
        known = [b.name for b in self.catalog.battalions]
        for choice in army.battalions:
            name, found = self.lookup("battalion", choice.name, known, "", "U10", choice.name)
            problems += found
            battalion = next((b for b in self.catalog.battalions if b.name == name), None)
            if battalion is not None:
                extras.append(ExtraCost(battalion.name, battalion.points))
        return extras, problems

    def army_rules(self, army: ArmyList, cost: ArmyCost) -> list[ArmyProblem]:
        scrolls = {u.unit: self.catalog.unit(u.type) for u in cost.units}
        sizes = {u.unit: u.size for u in cost.units}
        problems = self._general(army, scrolls)
        problems += self._allegiance(army, scrolls)
        problems += self._allies(army)
        for choice in army.battalions:
            problems += self._battalion(choice, scrolls, sizes)
        problems += self._one_battalion_each(army)
        return problems

    def _general(self, army: ArmyList, scrolls: dict[str, Warscroll | None]) -> list[ArmyProblem]:
        if army.general is None:
            return [self.problem("U8", "the army names no general", option="general")]
        unit = next((u for u in army.units if u.name == army.general), None)
        if unit is None:
            return [self.problem("U8", f"the general {army.general!r} is not a unit of the army",
                                 option="general")]  # fmt: skip
        if unit.allied:
            return [self.problem("U8", "an allied model cannot be the general", unit.name)]
        scroll = scrolls.get(unit.name)
        if self.catalog.army.general_must_be_hero and scroll and "HERO" not in scroll.keywords:
            return [self.problem("U8", "the general must be a HERO", unit.name)]
        return []

    def _allegiance(
        self, army: ArmyList, scrolls: dict[str, Warscroll | None]
    ) -> list[ArmyProblem]:
        if army.allegiance is None:
            return []
        problems = []
        for unit in army.units:
            scroll = scrolls.get(unit.name)
            if unit.allied or scroll is None:
                continue
            if army.allegiance not in (scroll.grand_alliance, scroll.faction):
                text = (
                    f"{scroll.name} ({scroll.faction}, {scroll.grand_alliance}) does not "
                    f"share the allegiance {army.allegiance!r}; mark it allied: true"
                )
                problems.append(self.problem("U6", text, unit.name))  # fmt: skip
        return problems

    def _allies(self, army: ArmyList) -> list[ArmyProblem]:
        in_battalions = {name for b in army.battalions for name in b.units}
        allied = [u.name for u in army.units if u.allied and u.name not in in_battalions]
        allowed = len(army.units) // self.catalog.army.allies_in_every
        if len(allied) <= allowed:
            return []
        text = (f"{len(allied)} allied units ({', '.join(allied)}) but {len(army.units)} units "
                f"allow {allowed}")  # fmt: skip
        return [self.problem("U9", text)]

    def _battalion(
        self, choice: BattalionChoice, scrolls: dict[str, Warscroll | None], sizes: dict[str, int]
    ) -> list[ArmyProblem]:
        problems = []
        minimum = self.catalog.army.battalion_min_units
        units = len(set(choice.units))  # a unit named twice is one unit
        for name, named in Counter(choice.units).items():
            if named > 1:
                text = f"{name!r} is named {named} times; a unit counts once"
                problems.append(self.problem("U11", text, name, choice.name))
        if units < minimum:
            text = f"{counted(units, 'unit')}; a battalion needs at least {minimum}"
            problems.append(self.problem("U11", text, option=choice.name))
        known = find_name(choice.name, [b.name for b in self.catalog.battalions])  # as U10 did
        battalion = next((b for b in self.catalog.battalions if b.name == known), None)
        for name in dict.fromkeys(choice.units):  # each unit once, however often named
            if name not in scrolls:
                text = f"{name!r} is not a unit of the army"
                problems.append(self.problem("U12", text, name, choice.name))
                continue
            scroll = scrolls[name]
            if scroll is None:
                continue
            if sizes[name] < scroll.size:
                text = f"understrength ({sizes[name]} of {scroll.size}) units cannot join"
                problems.append(self.problem("U12", text, name, choice.name))
            if battalion and not {scroll.name, *scroll.keywords} & set(battalion.allowed):
                text = f"{scroll.name} may not join (allowed: {', '.join(battalion.allowed)})"
                problems.append(self.problem("U12", text, name, choice.name))
        return problems

    def _one_battalion_each(self, army: ArmyList) -> list[ArmyProblem]:
        counts = Counter(name for b in army.battalions for name in set(b.units))
        return [
            self.problem("U12", f"in {n} battalions; a unit belongs to one", name)
            for name, n in counts.items() if n > 1
        ]  # fmt: skip

    def starter(self, name: str) -> ArmyList:
        units = [ArmyUnit(name=n, type=n) for n in self.catalog.army.starter]
        limit = self.default_points_limit or sum(self.price_unit(u)[0].total for u in units)
        return ArmyList(ruleset=self.ruleset, name=name, points_limit=limit,
                        general=units[0].name, units=units)  # fmt: skip


PLUGIN = RulesetPlugin(CATALOG_FILE, AosCatalog, check_catalog, AosHooks)
