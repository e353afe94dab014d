"""The OpenWar catalogue: weapons (the seed's table), armour, skills and unit types."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from openwar.rulesets.data import ProfileBounds, RuleData
from openwar.rulesets.hooks import TableData
from openwar.rulesets.openwar.points import Tiers
from openwar.rulesets.problems import DataProblem, problem_at
from openwar.rulesets.sources import YamlDoc

CATALOG_FILE = "catalog.yaml"
WEAPON_JSON_KEYS = (
    "name", "type", "range", "attacks", "difficulty", "pierce",
    "cost_1", "cost_10", "cost_20", "cost_unit", "special",
)  # fmt: skip


class Costed(RuleData):
    """An option's four costs; null is the table's '-' (that way is not offered)."""

    name: str
    cost_1: int | None = Field(ge=0)
    cost_10: int | None = Field(ge=0)
    cost_20: int | None = Field(ge=0)
    cost_unit: int | None = Field(ge=0)

    @property
    def tiers(self) -> Tiers:
        return Tiers(self.cost_1, self.cost_10, self.cost_20, self.cost_unit)


class Weapon(Costed):
    """A row of the weapons table; ``profile_of`` marks an alternate profile."""

    type: Literal["melee", "ranged"]
    range: int | None = Field(ge=0)
    attacks: int = Field(ge=1)
    difficulty: int
    pierce: int
    special: list[str]
    profile_of: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The issue's weapon object: exactly :data:`WEAPON_JSON_KEYS`."""
        data = self.model_dump()
        return {key: data[key] for key in WEAPON_JSON_KEYS}


class Armour(Costed):
    """Armour or a shield: adds to Armor; a miniature wears one of each ``slot``."""

    slot: Literal["armour", "shield"]
    armor: int = Field(ge=1)
    effect: str


class Skill(Costed):
    """A skill with its written effect; weapon skills have no costs of their own."""

    effect: str


class UnitType(RuleData):
    """A unit type's default profile, size range, points and default options."""

    name: str
    role: str
    move: int = Field(ge=0)
    melee: int
    ranged: int
    armor: int
    morale: int
    presence: int
    size: int = Field(ge=1)
    min_size: int = Field(ge=1)
    max_size: int = Field(ge=1)
    points_per_miniature: int = Field(ge=0)
    default_options: list[str]
    engine: Weapon | None = None

    @property
    def cost(self) -> int:
        """Points of the unit at its default size."""
        return self.points_per_miniature * self.size


class ArmyRules(RuleData):
    command_type: str
    command_units: int = Field(ge=0)
    default_points_limit: int | None = Field(default=None, ge=0)
    starter: list[str]
    profile: ProfileBounds  # U20


class OpenWarCatalog(RuleData):
    """The whole OpenWar catalogue file."""

    weapons: list[Weapon]
    armour: list[Armour]
    skills: list[Skill]
    unit_types: list[UnitType]
    army: ArmyRules

    def options(self) -> dict[str, Costed]:
        """Every option by name: weapons, armour and skills."""
        return {o.name: o for o in [*self.weapons, *self.armour, *self.skills]}

    def unit_type(self, name: str) -> UnitType | None:
        return next((t for t in self.unit_types if t.name == name), None)

    def unit_names(self) -> list[str]:
        return [t.name for t in self.unit_types]

    def to_json(self) -> dict[str, Any]:
        data = self.model_dump(exclude={"weapons"})
        data["weapons"] = [w.to_json() for w in self.weapons]
        data["alternate_profiles"] = {w.name: w.profile_of for w in self.weapons if w.profile_of}
        for unit, model in zip(data["unit_types"], self.unit_types, strict=True):
            unit["cost"] = model.cost
        return data

    def tables(self) -> list[TableData]:
        return [self._unit_table(), self._weapon_table(), self._armour_table(), self._skill_table()]

    def _unit_table(self) -> TableData:
        columns = ("Type", "Move (cm)", "Melee", "Ranged", "Armor", "Morale", "Presence",
                   "Size", "Pts/mini", "Cost", "Default options")  # fmt: skip
        rows = tuple(
            (t.name, str(t.move), str(t.melee), str(t.ranged), str(t.armor), str(t.morale),
             str(t.presence), f"{t.size} ({t.min_size}-{t.max_size})",
             str(t.points_per_miniature), str(t.cost),
             ", ".join(t.default_options + ([t.engine.name] if t.engine else [])))
            for t in self.unit_types
        )  # fmt: skip
        note = ("Cost: the unit's points at its default size (size x Pts/mini), before options; "
                "Size: default (least-most). docs/rules/openwar.md U1-U3")  # fmt: skip
        return TableData("Unit types", columns, rows, note)

    def _weapon_table(self) -> TableData:
        columns = ("Name", "Ranged/Melee", "Attacks", "Difficulty", "Pierce",
                   "Cost 1,10,20,U", "Special")  # fmt: skip
        rows = tuple(
            (w.name, "Melee" if w.range is None else f"Ranged ({w.range})", str(w.attacks),
             str(w.difficulty), str(w.pierce), _costs(w), ", ".join(w.special) or "-")
            for w in self.weapons
        )  # fmt: skip
        return TableData("Weapons", columns, rows, COSTS_NOTE)

    def _armour_table(self) -> TableData:
        rows = tuple((a.name, a.slot, a.effect, _costs(a)) for a in self.armour)
        columns = ("Name", "Slot", "Effect", "Cost 1,10,20,U")
        return TableData("Armour and shields", columns, rows, COSTS_NOTE)

    def _skill_table(self) -> TableData:
        rows = tuple((s.name, _costs(s), s.effect) for s in self.skills)
        return TableData("Skills", ("Name", "Cost 1,10,20,U", "Effect"), rows, COSTS_NOTE)


COSTS_NOTE = (
    "Cost 1,10,20,U: points a miniature when any, 10 or more, or 20 or more of the unit's "
    "miniatures take it, or U for the whole unit at once; the cheapest way that fits is paid "
    "(U7). '-': that way is not offered; an entry with every way '-' (an alternate profile "
    "or a special rule) comes only with its weapon (U8)"
)


def _costs(option: Costed) -> str:
    costs = (option.cost_1, option.cost_10, option.cost_20, option.cost_unit)
    return ",".join("-" if c is None else str(c) for c in costs)


def check_catalog(catalog: OpenWarCatalog, doc: YamlDoc) -> list[DataProblem]:
    """Cross-references the schema cannot see: names, profiles, specials, sizes."""
    problems = _duplicate_names(catalog, doc)
    skills = {s.name for s in catalog.skills}
    weapons = {w.name for w in catalog.weapons}
    for i, weapon in enumerate(catalog.weapons):
        problems += _weapon_problems(weapon, i, skills, weapons, doc)
    options = catalog.options()
    for i, unit in enumerate(catalog.unit_types):
        problems += _unit_type_problems(unit, i, options, doc)
    if catalog.unit_type(catalog.army.command_type) is None:
        problems.append(problem_at(doc, ["army", "command_type"], "not a unit type"))
    for j, name in enumerate(catalog.army.starter):
        if catalog.unit_type(name) is None:
            problems.append(problem_at(doc, ["army", "starter", j], f"{name!r} is not a unit type"))
    return problems


def _duplicate_names(catalog: OpenWarCatalog, doc: YamlDoc) -> list[DataProblem]:
    seen: set[str] = set()
    problems = []
    for section in ("weapons", "armour", "skills"):
        for i, option in enumerate(getattr(catalog, section)):
            if option.name in seen:
                problems.append(problem_at(doc, [section, i, "name"], f"{option.name!r} twice"))
            seen.add(option.name)
    return problems


def _weapon_problems(
    weapon: Weapon, i: int, skills: set[str], weapons: set[str], doc: YamlDoc
) -> list[DataProblem]:
    problems = []
    for j, special in enumerate(weapon.special):
        if special not in skills:
            problems.append(problem_at(doc, ["weapons", i, "special", j], f"no skill {special!r}"))
    if weapon.profile_of is not None and weapon.profile_of not in weapons:
        text = f"alternate profile of unknown weapon {weapon.profile_of!r}"
        problems.append(problem_at(doc, ["weapons", i, "profile_of"], text))
    if weapon.profile_of is not None and weapon.tiers.offered:
        text = "an alternate profile comes with its weapon and has no costs"
        problems.append(problem_at(doc, ["weapons", i], text))
    if (weapon.type == "ranged") != (weapon.range is not None):
        problems.append(problem_at(doc, ["weapons", i, "range"], "ranged weapons need a range"))
    return problems


def _unit_type_problems(
    unit: UnitType, i: int, options: dict[str, Costed], doc: YamlDoc
) -> list[DataProblem]:
    problems = []
    if not unit.min_size <= unit.size <= unit.max_size:
        problems.append(problem_at(doc, ["unit_types", i, "size"], "outside min_size..max_size"))
    for j, name in enumerate(unit.default_options):
        if name not in options:
            loc: list[str | int] = ["unit_types", i, "default_options", j]
            problems.append(problem_at(doc, loc, f"no option {name!r}"))
    return problems
