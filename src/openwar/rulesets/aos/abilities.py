"""Warscroll abilities as typed templates (data/abilities.yaml), checked when the battle
rules load: every ability and option of the catalogue has exactly one template, and every
weapon, keyword and spell a template names exists (AOS-W1)."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import Field

from openwar.dice.notation import parse_dice
from openwar.errors import OpenWarError
from openwar.rulesets.aos.catalog import AosCatalog, Warscroll
from openwar.rulesets.data import RuleData, load_data

Roll = Literal["hit", "wound", "save", "run", "charge", "cast", "unbind"]
Attacks = Literal["melee", "missile", "all"]
When = Literal["always", "charged", "not_charged", "no_enemy_within", "near_hero"]


class Template(RuleData):
    warscroll: str


class Wizard(Template):
    template: Literal["wizard"]
    ability: str
    casts: int = Field(ge=1)
    unbinds: int = Field(ge=0)
    spells: list[str]


class Fly(Template):
    template: Literal["fly"]
    ability: str


class Reroll(Template):
    template: Literal["reroll"]
    ability: str | None = None
    option: str | None = None
    roll: Literal["hit", "wound", "save"]
    which: Literal["ones", "failed"]
    attacks: Attacks = "all"
    when: When = "always"
    range: float | None = None


class RollModifier(Template):
    template: Literal["roll_modifier"]
    ability: str | None = None
    option: str | None = None
    roll: Roll
    value: int
    attacks: Attacks = "all"
    side: Literal["attacker", "defender"] = "attacker"
    when: When = "always"
    range: float | None = None


class MortalOn6Hit(Template):
    template: Literal["mortal_on_6_hit"]
    ability: str
    mortal: int = Field(ge=1)
    attacks: Attacks = "all"


class Ward(Template):
    template: Literal["ward"]
    ability: str
    roll: int = Field(ge=2, le=6)


class WeaponOnCharge(Template):
    template: Literal["weapon_on_charge"]
    ability: str
    weapon: str
    rend: int | None = None
    damage: int | None = None


class ExtraAttacks(Template):
    template: Literal["extra_attacks"]
    ability: str | None = None
    option: str | None = None
    weapon: str | None = None
    value: int
    when: When = "always"
    range: float | None = None


class Bravery(Template):
    template: Literal["bravery"]
    option: str
    value: int


class RunBonus(Template):
    template: Literal["run_bonus"]
    option: str
    value: int


class NoShootingAfterMoving(Template):
    template: Literal["no_shooting_after_moving"]
    ability: str


class ReturnModels(Template):
    template: Literal["return_models"]
    ability: str
    dice: str


class CommandNoBattleshock(Template):
    template: Literal["command_no_battleshock"]
    ability: str
    range: float


class AuraRollModifier(Template):
    template: Literal["aura_roll_modifier"]
    ability: str
    roll: Roll
    value: int
    keyword: str
    range: float


AnyTemplate = Annotated[
    Wizard
    | Fly
    | Reroll
    | RollModifier
    | MortalOn6Hit
    | Ward
    | WeaponOnCharge
    | ExtraAttacks
    | Bravery
    | RunBonus
    | NoShootingAfterMoving
    | ReturnModels
    | CommandNoBattleshock
    | AuraRollModifier,
    Field(discriminator="template"),
]


class AbilityBook(RuleData):
    abilities: list[AnyTemplate]
    options: list[AnyTemplate]


class AbilityDataError(OpenWarError):
    """The ability templates do not match the catalogue."""


def _where(kind: str, i: int, entry: Template) -> str:
    return f"openwar/rulesets/aos/data/abilities.yaml: {kind}.{i} ({entry.warscroll})"


def check_book(book: AbilityBook, catalog: AosCatalog, spells: set[str]) -> list[str]:
    """Every problem between the templates and the catalogue, one line each."""
    problems: list[str] = []
    seen: set[tuple[str, str, str]] = set()
    keywords = {k for u in catalog.units for k in u.keywords}
    for kind, entries in (("abilities", book.abilities), ("options", book.options)):
        for i, entry in enumerate(entries):
            where = _where(kind, i, entry)
            scroll = catalog.unit(entry.warscroll)
            if scroll is None:
                problems.append(f"{where}: no warscroll {entry.warscroll!r}")
                continue
            name = getattr(entry, "ability" if kind == "abilities" else "option", None)
            known = (
                [a.name for a in scroll.abilities]
                if kind == "abilities"
                else [o.name for o in scroll.options]
            )
            if name not in known:
                problems.append(f"{where}: {scroll.name} has no {kind[:-1]} {name!r}")
            key = (kind, scroll.name, str(name))
            if key in seen:
                problems.append(f"{where}: {name!r} has two templates")
            seen.add(key)
            problems += _check_refs(entry, scroll, keywords, spells, where)
    for scroll in catalog.units:
        for ability in scroll.abilities:
            if ("abilities", scroll.name, ability.name) not in seen:
                problems.append(f"abilities.yaml: no template for {scroll.name}: {ability.name}")
        for option in scroll.options:
            if ("options", scroll.name, option.name) not in seen:
                problems.append(f"abilities.yaml: no template for {scroll.name}: {option.name}")
    return problems


def _check_refs(
    entry: Template, scroll: Warscroll, keywords: set[str], spells: set[str], where: str
) -> list[str]:
    problems = []
    weapons = {w.name for w in scroll.melee_weapons + scroll.missile_weapons}
    weapon = getattr(entry, "weapon", None)
    if weapon is not None and weapon not in weapons:
        problems.append(f"{where}: {scroll.name} has no weapon {weapon!r}")
    if isinstance(entry, AuraRollModifier) and entry.keyword not in keywords:
        problems.append(f"{where}: no warscroll has the keyword {entry.keyword!r}")
    if isinstance(entry, Wizard):
        problems += [f"{where}: unknown spell {s!r}" for s in entry.spells if s not in spells]
    if isinstance(entry, ReturnModels):
        parse_dice(entry.dice)
    if (
        isinstance(entry, (Reroll, RollModifier, ExtraAttacks))
        and entry.when
        in (
            "no_enemy_within",
            "near_hero",
        )
        and entry.range is None
    ):
        problems.append(f"{where}: when {entry.when!r} needs a range")
    return problems


@cache
def ability_book() -> AbilityBook:
    """The templates, checked against the catalogue and the core spells."""
    from openwar.rulesets import load_ruleset
    from openwar.rulesets.aos.rules import battle_rules

    book = load_data("aos", "abilities.yaml", AbilityBook)
    catalog = load_ruleset("aos").data
    assert isinstance(catalog, AosCatalog)
    problems = check_book(book, catalog, {s.name for s in battle_rules().spells})
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise AbilityDataError(problems[0] + more)
    return book


def templates_for(warscroll: str) -> list[dict[str, Any]]:
    """The warscroll's ability templates as JSON (they travel in the unit's profile)."""
    return [a.model_dump() for a in ability_book().abilities if a.warscroll == warscroll]


def option_templates(warscroll: str, option: str) -> list[dict[str, Any]]:
    return [
        o.model_dump()
        for o in ability_book().options
        if o.warscroll == warscroll and getattr(o, "option", None) == option
    ]
