"""A generic Old World catalogue: M WS BS S T W I A Ld, troop types, points per model."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from openwar.rulesets.data import RuleData
from openwar.rulesets.hooks import TableData
from openwar.rulesets.options import Named, UnitOption, named_rows, option_text
from openwar.rulesets.problems import DataProblem, problem_at
from openwar.rulesets.sources import YamlDoc

CATALOG_FILE = "catalog.yaml"
CHARACTERISTICS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")


class Profile(RuleData):
    """The nine characteristics; None is '-'."""

    M: int | None = Field(ge=0)
    WS: int | None = Field(ge=0, le=10)
    BS: int | None = Field(ge=0, le=10)
    S: int | None = Field(ge=0, le=10)
    T: int | None = Field(ge=0, le=10)
    W: int | None = Field(ge=0)
    I: int | None = Field(ge=0, le=10)  # noqa: E741 - the game's own name for Initiative
    A: int | None = Field(ge=0)
    Ld: int | None = Field(ge=0, le=10)


class OldWorldUnit(RuleData):
    """A unit entry: troop type, profile, points per model, size range and options."""

    name: str
    troop_type: Literal["infantry", "cavalry", "monster", "war machine", "chariot"]
    character: bool
    wizard_level: int | None = Field(ge=1, le=4)
    profile: Profile
    armour_save: int | None = Field(ge=2, le=6)
    points_per_model: int = Field(ge=0)
    size: int = Field(ge=1)
    min_size: int = Field(ge=1)
    max_size: int = Field(ge=1)
    equipment: list[str]
    special_rules: list[str]
    options: list[UnitOption]


class OldWorldArmyRules(RuleData):
    general_must_be_character: bool
    default_points_limit: int | None = Field(ge=0)
    starter: list[str]


class OldWorldCatalog(RuleData):
    """The whole catalogue file."""

    units: list[OldWorldUnit]
    special_rules: list[Named]
    army: OldWorldArmyRules

    def unit(self, name: str) -> OldWorldUnit | None:
        return next((u for u in self.units if u.name == name), None)

    def unit_names(self) -> list[str]:
        return [u.name for u in self.units]

    def to_json(self) -> dict[str, Any]:
        return self.model_dump()

    def tables(self) -> list[TableData]:
        columns = ("Unit", "Type", *CHARACTERISTICS, "Save", "Pts/model", "Size", "Options")
        rows = tuple(
            (u.name, u.troop_type + (" character" if u.character else ""),
             *(_dash(getattr(u.profile, c)) for c in CHARACTERISTICS),
             "-" if u.armour_save is None else f"{u.armour_save}+", str(u.points_per_model),
             f"{u.size} ({u.min_size}-{u.max_size})", option_text(u.options))
            for u in self.units
        )  # fmt: skip
        return [
            TableData("Units", columns, rows),
            TableData("Special rules", ("Rule", "Effect"), named_rows(self.special_rules)),
        ]


def _dash(value: int | None) -> str:
    return "-" if value is None else str(value)


def check_catalog(catalog: OldWorldCatalog, doc: YamlDoc) -> list[DataProblem]:
    """Sizes fit their range; special rules are in the glossary; wizards have the rule."""
    glossary = {r.name for r in catalog.special_rules}
    problems = []
    for i, unit in enumerate(catalog.units):
        if not unit.min_size <= unit.size <= unit.max_size:
            problems.append(problem_at(doc, ["units", i, "size"], "outside min_size..max_size"))
        for j, rule in enumerate(unit.special_rules):
            if rule not in glossary:
                loc: list[str | int] = ["units", i, "special_rules", j]
                problems.append(problem_at(doc, loc, f"{rule!r} is not in special_rules"))
    for j, name in enumerate(catalog.army.starter):
        if catalog.unit(name) is None:
            problems.append(problem_at(doc, ["army", "starter", j], f"no unit {name!r}"))
    return problems
