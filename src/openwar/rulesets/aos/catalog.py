"""A generic Age of Sigmar catalogue: warscrolls with characteristics, weapons and keywords."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from openwar.dice.notation import DiceNotationError, parse_dice
from openwar.rulesets.data import RuleData
from openwar.rulesets.hooks import TableData
from openwar.rulesets.options import Named, UnitOption, option_text
from openwar.rulesets.problems import DataProblem, problem_at
from openwar.rulesets.sources import YamlDoc

CATALOG_FILE = "catalog.yaml"


class AosWeapon(RuleData):
    """A warscroll weapon: range in inches, attacks, to hit, to wound, rend, damage."""

    name: str
    range: int = Field(ge=1)
    attacks: int | str
    to_hit: int = Field(ge=2, le=6)
    to_wound: int = Field(ge=2, le=6)
    rend: int = Field(le=0)
    damage: int | str


class Warscroll(RuleData):
    """A unit's warscroll; ``points`` buys a block of ``size`` models."""

    name: str
    grand_alliance: str
    faction: str
    keywords: list[str]
    move: int = Field(ge=0)
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
            (u.name, w.name, kind, f'{w.range}"', str(w.attacks), _roll(w.to_hit),
             _roll(w.to_wound), str(w.rend or "-"), str(w.damage))
            for u in self.units
            for kind, weapons in (("missile", u.missile_weapons), ("melee", u.melee_weapons))
            for w in weapons
        )  # fmt: skip
        battalions = tuple((b.name, str(b.points), ", ".join(b.allowed)) for b in self.battalions)
        return [
            TableData("Warscrolls", columns, rows),
            TableData("Weapons", ("Warscroll", "Weapon", "Kind", "Range", "Attacks", "To Hit",
                                  "To Wound", "Rend", "Damage"), weapon_rows),
            TableData("Battalions", ("Battalion", "Points", "Units"), battalions),
        ]  # fmt: skip


def _roll(value: int | None) -> str:
    return "-" if value is None else f"{value}+"


def check_catalog(catalog: AosCatalog, doc: YamlDoc) -> list[DataProblem]:
    """Dice values parse, sizes fit, battalion entries name units or keywords."""
    problems = []
    for i, unit in enumerate(catalog.units):
        if unit.size > unit.max_size:
            problems.append(problem_at(doc, ["units", i, "size"], "larger than max_size"))
        for kind in ("missile_weapons", "melee_weapons"):
            for j, weapon in enumerate(getattr(unit, kind)):
                for key in ("attacks", "damage"):
                    if _bad_dice(getattr(weapon, key)):
                        loc: list[str | int] = ["units", i, kind, j, key]
                        problems.append(problem_at(doc, loc, "not dice notation (e.g. 2, D3)"))
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


def _bad_dice(value: int | str) -> bool:
    try:
        parse_dice(value)
    except DiceNotationError:
        return True
    return False
