"""What every ruleset module provides: its catalogue model, data checks, points and army rules.

A ruleset is data (a catalogue validated by a pydantic model) plus hooks: an object built
from that catalogue that prices units and checks the ruleset's own army-building rules.
Shared checks (unknown names, sizes, the points limit) live here so every ruleset reports
them the same way.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pydantic import BaseModel

from openwar.armies.costing import ArmyCost, ExtraCost, UnitCost
from openwar.armies.model import ArmyList, ArmyUnit
from openwar.armies.problems import ArmyProblem
from openwar.armies.profile import ProfileKeys
from openwar.armies.suggest import did_you_mean, find_name
from openwar.rulesets.problems import DataProblem
from openwar.rulesets.sources import YamlDoc


@dataclass(frozen=True)
class TableData:
    """A table to show: title, column names and rows of text (the CLI draws it)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""  # what a column's numbers mean, shown under the table


class CatalogView(Protocol):
    """What the registry and the CLI need from any ruleset's catalogue."""

    def tables(self) -> list[TableData]: ...

    def to_json(self) -> dict[str, Any]: ...

    def unit_names(self) -> list[str]: ...


C = TypeVar("C", bound=BaseModel)


class RulesetHooks(ABC, Generic[C]):
    """Points and army-list rules of one ruleset, bound to its loaded catalogue."""

    ruleset: str = ""
    limit_rule: str = ""
    names_rule: str = ""
    other_fields_rule: str = ""
    profile_rule: str = ""  # the clause of a unit's own numbers; "" where battles are not played
    rule_title_table: ClassVar[dict[str, str]] = {}

    def __init__(self, catalog: C) -> None:
        self.catalog = catalog

    @property
    def default_points_limit(self) -> int | None:
        """The limit used when an army file gives none (None: the file must give one): the
        catalogue's ``army.default_points_limit``."""
        limit = getattr(getattr(self.catalog, "army", None), "default_points_limit", None)
        return None if limit is None else int(limit)

    @abstractmethod
    def price_unit(self, unit: ArmyUnit) -> tuple[UnitCost, list[ArmyProblem]]:
        """A unit's points, and every problem with its type, size and options."""

    @abstractmethod
    def army_rules(self, army: ArmyList, cost: ArmyCost) -> list[ArmyProblem]:
        """Problems with the army as a whole (general, Command unit, allies, heroes ...)."""

    @abstractmethod
    def starter(self, name: str) -> ArmyList:
        """A small valid army to start a new file from."""

    def profile_keys(self, unit: ArmyUnit) -> ProfileKeys | None:
        """The numbers ``unit`` may change for itself (its ``profile``); None when its type is
        unknown (that is reported already)."""
        return None

    def carried(self, unit: ArmyUnit) -> list[str]:
        """What every miniature of ``unit`` carries without paying for it (its type's own
        weapons), for ``army show``; nothing where the ruleset has no such thing or the type
        is unknown."""
        return []

    def profile_note(self, unit: ArmyUnit, key: str) -> str | None:
        """What a value of ``key`` of ``unit``'s profile counts, where its name does not say
        (a sweep's table notes it); None when it is plain."""
        return None

    def profile_problems(self, unit: ArmyUnit) -> list[ArmyProblem]:
        """Every problem with ``unit.profile``: unknown keys, numbers out of bounds or fixed."""
        if not unit.profile:
            return []
        if not self.profile_rule:
            from openwar.engine.game import BATTLE_MODULES

            text = (f"'profile' is not a rule of {self.ruleset} (a unit's own numbers are for the "
                    f"rulesets that play battles: {', '.join(BATTLE_MODULES)})")  # fmt: skip
            return [self.problem(self.other_fields_rule, text, unit.name, "profile")]
        keys = self.profile_keys(unit)
        if keys is None:
            return []
        return keys.problems(
            unit, lambda text, option: self.problem(self.profile_rule, text, unit.name, option)
        )

    def price_extras(self, army: ArmyList) -> tuple[list[ExtraCost], list[ArmyProblem]]:
        """Points outside units; by default battalions are not part of the ruleset."""
        text = f"'battalions' is not a rule of {self.ruleset}"
        return [], [
            self.problem(self.other_fields_rule, text, option=b.name) for b in army.battalions
        ]

    def problem(self, rule: str, message: str, unit: str | None = None,
                option: str | None = None) -> ArmyProblem:  # fmt: skip
        """A problem citing clause ``rule`` with the title from :data:`RULE_TITLES`."""
        return ArmyProblem(rule, self.rule_titles().get(rule, ""), message, unit, option)

    def rule_titles(self) -> dict[str, str]:
        """Each clause id's title, as the ruleset's ``rule_title_table`` gives it."""
        return self.rule_title_table

    def lookup(self, kind: str, name: str, known: Sequence[str], unit: str, rule: str,
               option: str | None = None, *, suggested: Sequence[str] | None = None
               ) -> tuple[str | None, list[ArmyProblem]]:  # fmt: skip
        """Find ``name`` among ``known`` ignoring case, else a problem with a suggestion from
        ``suggested`` (what may be chosen; all of ``known`` unless given)."""
        found = find_name(name, known)
        if found is not None:
            return found, []
        hint = did_you_mean(name, known if suggested is None else suggested)
        text = f"unknown {kind} {name!r}{hint}"
        return None, [self.problem(rule, text, unit, option)]


@dataclass(frozen=True)
class RulesetPlugin(Generic[C]):
    """How the registry loads one ruleset: the catalogue file and model, checks and hooks."""

    catalog_file: str
    catalog_model: type[C]
    check_catalog: Callable[[C, YamlDoc], list[DataProblem]]
    make_hooks: Callable[[C], RulesetHooks[C]]


def size_problems(
    hooks: RulesetHooks[Any], unit: ArmyUnit, size: int, low: int, high: int, rule: str
) -> list[ArmyProblem]:
    """A problem when ``size`` is outside ``low..high`` miniatures."""
    if low <= size <= high:
        return []
    text = f"size {size} is outside {low}-{high} for {unit.type}"
    return [hooks.problem(rule, text, unit.name)]


def option_count(models: int | None, size: int, most: int | None = None) -> int:
    """Miniatures an option is taken by: when ``models`` is not given, the one model an
    option for one model at most is for (a Champion), else the whole unit. Until 2026-12-07
    the whole unit in every case: ``{name: Champion}`` on a unit of 10 was refused as "taken
    by 10 models"."""
    if models is not None:
        return models
    return 1 if most == 1 else size
