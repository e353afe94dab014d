"""OpenWar hooks: unit and option points (cheapest tier), and the army-building rules.

Clause ids (``U7`` ...) are those of docs/rules/openwar.md, "Units and army lists".
"""

from __future__ import annotations

from collections import Counter

from openwar.armies.costing import ArmyCost, OptionCost, UnitCost
from openwar.armies.model import ArmyList, ArmyUnit, OptionChoice
from openwar.armies.problems import ArmyProblem
from openwar.armies.profile import ProfileKeys
from openwar.armies.suggest import find_name
from openwar.rulesets.hooks import RulesetHooks, RulesetPlugin, option_count, size_problems
from openwar.rulesets.openwar.catalog import (
    CATALOG_FILE,
    Armour,
    OpenWarCatalog,
    UnitType,
    Weapon,
    check_catalog,
)
from openwar.rulesets.openwar.points import cheapest, offered_text

RULE_TITLES = {
    "U1": "unit types",
    "U2": "unit size",
    "U7": "cheapest allowed way",
    "U8": "ways marked '-' are not offered",
    "U9": "option taken by 1 to size miniatures",
    "U10": "one armour and one shield per miniature",
    "U11": "alternate profiles come with their weapon",
    "U12": "exactly one Command unit",
    "U13": "points limit",
    "U14": "known options",
    "U15": "fields of other rulesets",
    "U16": "unit names are unique",
    "U20": "a unit's own numbers",
}


class OpenWarHooks(RulesetHooks[OpenWarCatalog]):
    """Points and army rules of OpenWar."""

    ruleset = "openwar"
    limit_rule = "U13"
    names_rule = "U16"
    rule_title_table = RULE_TITLES
    other_fields_rule = "U15"
    profile_rule = "U20"

    def price_unit(self, unit: ArmyUnit) -> tuple[UnitCost, list[ArmyProblem]]:
        name, problems = self.lookup("unit type", unit.type, self.catalog.unit_names(), unit.name,
                                     "U1")  # fmt: skip
        kind = self.catalog.unit_type(name) if name else None
        if kind is None:
            return UnitCost(unit.name, unit.type, unit.size or 0, 0), problems
        size = unit.size if unit.size is not None else kind.size
        problems += size_problems(self, unit, size, kind.min_size, kind.max_size, "U2")
        costs = []
        for choice in unit.options:
            cost, found = self._price_option(choice, unit, kind, size)
            problems += found
            costs.extend(cost)
        problems += self._per_miniature_limits(unit, size)
        problems += _other_fields(self, unit)
        each = unit.profile.get("points_per_miniature", kind.points_per_miniature)
        way = f"{size} x {each}" + (" (profile)" if "points_per_miniature" in unit.profile else "")
        return UnitCost(unit.name, kind.name, size, each * size, tuple(costs), way), problems

    def carried(self, unit: ArmyUnit) -> list[str]:
        """The type's default options (its free weapon) and a Siege engine's engine."""
        kind = self.catalog.unit_type(unit.type)
        if kind is None:
            return []
        return [*kind.default_options, *([kind.engine.name] if kind.engine else [])]

    def profile_keys(self, unit: ArmyUnit) -> ProfileKeys | None:
        """U20: the type's characteristics and cost, and the numbers of every weapon the unit
        carries (its type's, those bought, their alternate profiles, a Siege engine's)."""
        name = find_name(unit.type, self.catalog.unit_names())
        kind = self.catalog.unit_type(name) if name else None
        if kind is None:
            return None
        bounds = self.catalog.army.profile
        keys = ProfileKeys.of(bounds.characteristics)
        for weapon in carried_weapons(self.catalog, kind, unit):
            if weapon.range is None:
                keys.add_weapon(
                    weapon.name, {k: v for k, v in bounds.weapons.items() if k != "range"}
                )
                keys.fixed[f"{weapon.name}.range"] = "a melee weapon has no range"
            else:
                keys.add_weapon(weapon.name, bounds.weapons)
        return keys

    def _price_option(
        self, choice: OptionChoice, unit: ArmyUnit, kind: UnitType, size: int
    ) -> tuple[list[OptionCost], list[ArmyProblem]]:
        options = self.catalog.options()
        bought = [
            n
            for n, o in options.items()  # suggested: what can be bought, not a profile
            if offered_text(o.tiers) != "none" and getattr(o, "profile_of", None) is None
        ]
        name, problems = self.lookup("option", choice.name, list(options), unit.name, "U14",
                                     choice.name, suggested=bought)  # fmt: skip
        if name is None:
            return [], problems
        option, models = options[name], option_count(choice.models, size)
        if not 1 <= models <= size:
            text = f"{name} taken by {models} miniatures; the unit has {size}"
            return [], [self.problem("U9", text, unit.name, name)]
        if name in kind.default_options:
            return [OptionCost(name, models, 0, "default option")], []
        if isinstance(option, Weapon) and option.profile_of is not None:
            text = f"{name} is an alternate profile: it comes with {option.profile_of}"
            return [], [self.problem("U11", text, unit.name, name)]
        way = cheapest(option.tiers, models, size)
        if way is None and offered_text(option.tiers) == "none":  # a weapon's special rule
            carriers = list(dict.fromkeys(  # an alternate profile's special: its weapon's
                w.profile_of or w.name for w in self.catalog.weapons if name in w.special
            ))  # fmt: skip
            text = f"{name} is not bought: it comes with the " + (
                " or ".join(carriers) if carriers else "weapons that have it"
            )
            return [], [self.problem("U8", text, unit.name, name)]
        if way is None:
            text = (f"{name} cannot be taken by {models} of {size} miniatures "
                    f"(offered: {offered_text(option.tiers)})")  # fmt: skip
            return [], [self.problem("U8", text, unit.name, name)]
        return [OptionCost(name, models, way.points, way.text)], []

    def _per_miniature_limits(self, unit: ArmyUnit, size: int) -> list[ArmyProblem]:
        """U9/U10: no option, armour slot or shield slot on more miniatures than the unit has."""
        options = self.catalog.options()
        by_option: Counter[str] = Counter()
        by_slot: Counter[str] = Counter()
        for choice in unit.options:
            known = find_name(choice.name, options)  # as U14 found it: case aside
            option = options[known] if known is not None else None
            if option is None:
                continue
            models = option_count(choice.models, size)
            by_option[option.name] += models
            if isinstance(option, Armour):
                by_slot[option.slot] += models
        problems = [
            self.problem("U9", f"{name} is listed {_listed(unit, name)} times, for {n} miniatures "
                         f"in all; the unit has {size}", unit.name, name)
            for name, n in by_option.items() if n > size and _listed(unit, name) > 1
        ]  # fmt: skip
        problems += [
            self.problem("U10", f"{n} {slot} options for {size} miniatures", unit.name, slot)
            for slot, n in by_slot.items() if n > size
        ]  # fmt: skip
        return problems

    def army_rules(self, army: ArmyList, cost: ArmyCost) -> list[ArmyProblem]:
        rules = self.catalog.army
        commands = [u.unit for u in cost.units if u.type == rules.command_type]
        problems = []
        if len(commands) != rules.command_units:
            text = (
                f"the army has {len(commands)} {rules.command_type} units "
                f"({', '.join(commands) or 'none'}); it needs exactly {rules.command_units}"
            )
            problems.append(self.problem("U12", text))  # fmt: skip
        for key in ("general", "allegiance"):
            if getattr(army, key) is not None:
                problems.append(self.problem("U15", f"'{key}' is not an OpenWar rule", option=key))
        return problems

    def starter(self, name: str) -> ArmyList:
        units = []
        for type_name in self.catalog.army.starter:
            kind = self.catalog.unit_type(type_name)
            size = kind.size if kind else None
            units.append(ArmyUnit(name=f"{type_name} 1", type=type_name, size=size))
        return ArmyList(ruleset=self.ruleset, name=name, points_limit=self._starter_limit(units),
                        units=units)  # fmt: skip

    def _starter_limit(self, units: list[ArmyUnit]) -> int:
        return self.default_points_limit or sum(self.price_unit(u)[0].total for u in units)


def carried_weapons(catalog: OpenWarCatalog, kind: UnitType, unit: ArmyUnit) -> list[Weapon]:
    """The weapons ``unit`` carries: its type's default ones and those bought (names as the
    catalogue spells them), each with its alternate profiles, and a Siege engine's."""
    options = catalog.options()
    names = [*kind.default_options]
    names += [n for c in unit.options if (n := find_name(c.name, list(options))) is not None]
    found: list[Weapon] = []
    for name in dict.fromkeys(names):
        weapon = options[name]
        if isinstance(weapon, Weapon):
            found += [weapon, *(w for w in catalog.weapons if w.profile_of == weapon.name)]
    return found + ([kind.engine] if kind.engine is not None else [])


def _listed(unit: ArmyUnit, name: str) -> int:
    """How many times the army file lists an option for the unit (case aside, as U14 finds)."""
    return sum(1 for c in unit.options if c.name.casefold() == name.casefold())


def _other_fields(hooks: OpenWarHooks, unit: ArmyUnit) -> list[ArmyProblem]:
    if unit.allied:
        return [hooks.problem("U15", "'allied' is not an OpenWar rule", unit.name, "allied")]
    return []


PLUGIN = RulesetPlugin(CATALOG_FILE, OpenWarCatalog, check_catalog, OpenWarHooks)
