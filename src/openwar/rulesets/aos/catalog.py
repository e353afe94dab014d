"""A generic Age of Sigmar catalogue: warscrolls with characteristics, weapons and keywords."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from openwar.dice.notation import DiceNotationError, parse_dice
from openwar.rulesets.data import ProfileBounds, RuleData
from openwar.rulesets.hooks import TableData
from openwar.rulesets.options import Named, UnitOption, option_text
from openwar.rulesets.problems import DataProblem, problem_at
from openwar.rulesets.sources import YamlDoc

CATALOG_FILE = "catalog.yaml"


class AosWeapon(RuleData):
    """A warscroll weapon: range in inches (``min_range`` for a Range such as 6"-48"),
    attacks, to hit, to wound, rend, damage."""

    name: str
    range: int = Field(ge=1)
    min_range: int = Field(default=0, ge=0)
    attacks: int | str
    to_hit: int = Field(ge=2, le=6)
    to_wound: int = Field(ge=2, le=6)
    rend: int = Field(le=0)
    damage: int | str


class WeaponChange(RuleData):
    """A damage-table row's values for one weapon (only the characteristics it changes)."""

    range: int | None = Field(default=None, ge=1)
    attacks: int | str | None = None
    to_hit: int | None = Field(default=None, ge=2, le=6)
    to_wound: int | None = Field(default=None, ge=2, le=6)
    rend: int | None = Field(default=None, le=0)
    damage: int | str | None = None


class DamageRow(RuleData):
    """One row of a damage table: the values used while a model has suffered at least
    ``suffered`` wounds (and fewer than the next row's)."""

    suffered: int = Field(ge=0)
    move: int | str | None = None
    bravery: int | None = Field(default=None, ge=1)
    save: int | None = Field(default=None, ge=2, le=6)
    weapons: dict[str, WeaponChange] = Field(default_factory=dict)


class Warscroll(RuleData):
    """A unit's warscroll; ``points`` buys a block of ``size`` models. ``move`` may be random
    (2D6); a ``damage_table`` overrides characteristics by wounds suffered."""

    name: str
    grand_alliance: str
    faction: str
    keywords: list[str]
    move: int | str
    wounds: int = Field(ge=1)
    bravery: int = Field(ge=1)
    save: int | None = Field(ge=2, le=6)
    size: int = Field(ge=1)
    max_size: int = Field(ge=1)
    points: int = Field(ge=0)
    missile_weapons: list[AosWeapon]
    melee_weapons: list[AosWeapon]
    abilities: list[Named]
    options: list[UnitOption]
    damage_table: list[DamageRow] = Field(default_factory=list)


class Battalion(RuleData):
    """A warscroll battalion: its points and which unit titles or KEYWORDS may join it."""

    name: str
    points: int = Field(ge=0)
    allowed: list[str]


class AosArmyRules(RuleData):
    allies_in_every: int = Field(ge=1)
    battalion_min_units: int = Field(ge=1)
    general_must_be_hero: bool
    default_points_limit: int | None = Field(default=None, ge=0)
    starter: list[str]
    profile: ProfileBounds  # U17


class AosCatalog(RuleData):
    """The whole catalogue file."""

    units: list[Warscroll]
    battalions: list[Battalion]
    army: AosArmyRules

    def unit(self, name: str) -> Warscroll | None:
        return next((u for u in self.units if u.name == name), None)

    def unit_names(self) -> list[str]:
        return [u.name for u in self.units]

    def to_json(self) -> dict[str, Any]:
        return self.model_dump()

    def tables(self) -> list[TableData]:
        columns = ("Warscroll", "Move", "Wounds", "Bravery", "Save", "Models", "Points",
                   "Keywords", "Options")  # fmt: skip
        rows = tuple(
            (u.name, f'{u.move}"', str(u.wounds), str(u.bravery), _roll(u.save),
             f"{u.size} (max {u.max_size})", str(u.points), ", ".join(u.keywords),
             option_text(u.options))
            for u in self.units
        )  # fmt: skip
        weapon_rows = tuple(
            (u.name, w.name, kind, _range(w), str(w.attacks), _roll(w.to_hit),
             _roll(w.to_wound), str(w.rend or "-"), str(w.damage))
            for u in self.units
            for kind, weapons in (("missile", u.missile_weapons), ("melee", u.melee_weapons))
            for w in weapons
        )  # fmt: skip
        battalions = tuple((b.name, str(b.points), ", ".join(b.allowed)) for b in self.battalions)
        damage_rows = tuple(
            (u.name, f"{row.suffered}+", "-" if row.move is None else f'{row.move}"',
             "; ".join(f"{w}: " + ", ".join(f"{k} {v}" for k, v in c.model_dump().items()
                                            if v is not None)
                       for w, c in row.weapons.items()))
            for u in self.units
            for row in u.damage_table
        )  # fmt: skip
        return [
            TableData("Warscrolls", columns, rows),
            TableData("Weapons", ("Warscroll", "Weapon", "Kind", "Range", "Attacks", "To Hit",
                                  "To Wound", "Rend", "Damage"), weapon_rows),
            TableData("Battalions", ("Battalion", "Points", "Units"), battalions),
            TableData("Damage tables", ("Warscroll", "Wounds suffered", "Move", "Weapons"),
                      damage_rows),
        ]  # fmt: skip


def _range(weapon: AosWeapon) -> str:
    return f'{weapon.min_range}"-{weapon.range}"' if weapon.min_range else f'{weapon.range}"'


def _roll(value: int | None) -> str:
    return "-" if value is None else f"{value}+"


def check_catalog(catalog: AosCatalog, doc: YamlDoc) -> list[DataProblem]:
    """Dice values parse, sizes fit, battalion entries name units or keywords."""
    problems = []
    for i, unit in enumerate(catalog.units):
        if unit.size > unit.max_size:
            problems.append(problem_at(doc, ["units", i, "size"], "larger than max_size"))
        if _bad_dice(unit.move):
            problems.append(
                problem_at(doc, ["units", i, "move"], "not dice notation (e.g. 5, 2D6)")
            )
        for kind in ("missile_weapons", "melee_weapons"):
            for j, weapon in enumerate(getattr(unit, kind)):
                for key in ("attacks", "damage"):
                    if _bad_dice(getattr(weapon, key)):
                        loc: list[str | int] = ["units", i, kind, j, key]
                        problems.append(problem_at(doc, loc, "not dice notation (e.g. 2, D3)"))
                if weapon.min_range >= weapon.range:
                    loc = ["units", i, kind, j, "min_range"]
                    problems.append(problem_at(doc, loc, "not shorter than the range"))
        problems += _damage_table_problems(doc, i, unit)
    titles = set(catalog.unit_names())
    keywords = {k for u in catalog.units for k in u.keywords}
    for i, battalion in enumerate(catalog.battalions):
        for j, entry in enumerate(battalion.allowed):
            if entry not in titles | keywords:
                text = f"{entry!r} is neither a warscroll nor a keyword"
                problems.append(problem_at(doc, ["battalions", i, "allowed", j], text))
    for j, name in enumerate(catalog.army.starter):
        if name not in titles:
            problems.append(problem_at(doc, ["army", "starter", j], f"no warscroll {name!r}"))
    return problems


def _damage_table_problems(doc: YamlDoc, i: int, unit: Warscroll) -> list[DataProblem]:
    """Rows start at 0 wounds suffered, go up, stay below Wounds, name the unit's weapons."""
    problems = []
    weapons = {w.name for w in unit.missile_weapons + unit.melee_weapons}
    last = -1
    for r, row in enumerate(unit.damage_table):
        loc: list[str | int] = ["units", i, "damage_table", r]
        if (r == 0 and row.suffered != 0) or row.suffered <= last or row.suffered >= unit.wounds:
            text = "rows start at 0 wounds suffered and go up, below the Wounds characteristic"
            problems.append(problem_at(doc, [*loc, "suffered"], text))
        last = row.suffered
        if row.move is not None and _bad_dice(row.move):
            problems.append(problem_at(doc, [*loc, "move"], "not dice notation (e.g. 8, 2D6)"))
        for name, change in row.weapons.items():
            if name not in weapons:
                problems.append(problem_at(doc, [*loc, "weapons", name], f"no weapon {name!r}"))
            for key in ("attacks", "damage"):
                value = getattr(change, key)
                if value is not None and _bad_dice(value):
                    text = "not dice notation (e.g. 2, D3)"
                    problems.append(problem_at(doc, [*loc, "weapons", name, key], text))
    return problems


def _bad_dice(value: int | str) -> bool:
    try:
        parse_dice(value)
    except DiceNotationError:
        return True
    return False
