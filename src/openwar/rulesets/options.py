"""Options priced per model or per unit, as in the aos, opr and oldworld catalogues."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from openwar.armies.costing import OptionCost
from openwar.armies.model import ArmyUnit, OptionChoice
from openwar.armies.problems import ArmyProblem
from openwar.rulesets.data import RuleData
from openwar.rulesets.hooks import RulesetHooks, option_count


class Named(RuleData):
    """A named ability or special rule with its effect in the project's own words."""

    name: str
    effect: str


class UnitOption(RuleData):
    """An option of a unit: ``points`` per model taking it, or once for the whole unit."""

    name: str
    points: int = Field(ge=0)
    per: Literal["model", "unit"]
    max_models: int | None = Field(default=None, ge=1)
    effect: str
    # what a per-unit option changes: "one" model (a sergeant) is paid once in a unit made of
    # copies of a profile; "all" (the unit as a whole) is paid for each copy
    affects: Literal["all", "one"] = "all"


def price_option(
    hooks: RulesetHooks[Any], choice: OptionChoice, unit: ArmyUnit, size: int,
    options: list[UnitOption], rules: tuple[str, str], multiplier: int = 1,
) -> tuple[list[OptionCost], list[ArmyProblem]]:  # fmt: skip
    """Price one chosen option; ``rules`` are the clause ids for unknown names and counts."""
    known_rule, count_rule = rules
    found, problems = hooks.lookup("option", choice.name, [o.name for o in options], unit.name,
                                   known_rule, choice.name)  # fmt: skip
    option = next((o for o in options if o.name == found), None)
    if option is None:
        return [], problems
    models = option_count(choice.models, size, option.max_models)
    limit = size if option.max_models is None else min(size, option.max_models)
    if option.per == "unit" and option.affects == "one":  # a Sergeant: one model, once
        if choice.models not in (None, 1):
            text = f"{option.name} is one model's, bought once for the unit: not {models} models"
            return [], [hooks.problem(count_rule, text, unit.name, option.name)]
        return [OptionCost(option.name, 1, option.points, "per unit")], []
    if option.per == "unit" and models != size:
        whole = "1 model" if size == 1 else f"{size} models"
        text = f"{option.name} is bought once for the whole unit ({whole}), not for {models}"
        return [], [hooks.problem(count_rule, text, unit.name, option.name)]
    if not 1 <= models <= limit:
        text = f"{option.name} taken by {models} models; at most {limit} may take it"
        return [], [hooks.problem(count_rule, text, unit.name, option.name)]
    if option.per == "unit":
        return [OptionCost(option.name, models, option.points * multiplier, "per unit")], []
    return [OptionCost(option.name, models, option.points * models,
                       f"{models} x {option.points} (each)")], []  # fmt: skip


def price_options(
    hooks: RulesetHooks[Any], unit: ArmyUnit, size: int, options: list[UnitOption],
    rules: tuple[str, str], multiplier: int = 1,
) -> tuple[list[OptionCost], list[ArmyProblem]]:  # fmt: skip
    """Price every option ``unit`` takes (:func:`price_option`); an option listed more than
    once counts its models over every entry (two entries of one Champion each are two)."""
    priced: list[OptionCost] = []
    problems: list[ArmyProblem] = []
    for choice in unit.options:
        found, more = price_option(hooks, choice, unit, size, options, rules, multiplier)
        priced += found
        problems += [p for p in more if p not in problems]  # an entry written twice: once
    for option in options:
        entries = [c for c in priced if c.option == option.name]
        if len(entries) < 2:
            continue
        models = sum(c.models for c in entries)
        limit = size if option.max_models is None else min(size, option.max_models)
        if option.per == "unit":
            text = f"{option.name} is listed {len(entries)} times; it is bought once per unit"
        elif models > limit:
            text = f"{option.name} taken by {models} models in all; at most {limit} may take it"
        else:
            continue
        problems.append(hooks.problem(rules[1], text, unit.name, option.name))
    return priced, problems


def named_rows(items: list[Named]) -> tuple[tuple[str, ...], ...]:
    return tuple((item.name, item.effect) for item in items)


def option_text(options: list[UnitOption]) -> str:
    """Options in one cell: ``"Champion 10/unit, Shields 1/model"``."""
    return ", ".join(f"{o.name} {o.points}/{o.per}" for o in options) or "-"
