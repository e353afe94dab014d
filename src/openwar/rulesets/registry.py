"""Loading a ruleset: its description, its catalogue (validated, every problem collected)
and its hooks. ``load_ruleset`` refuses data with errors; ``ruleset_problems`` lists them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import Field

from openwar.rulesets.data import DataFileError, RuleData
from openwar.rulesets.hooks import CatalogView, RulesetHooks, RulesetPlugin
from openwar.rulesets.problems import DataProblem, errors_only, validate_doc
from openwar.rulesets.sources import YamlDoc, YamlReadError, read_yaml_text

DESCRIPTION_FILE = "ruleset.yaml"


class RulesetDescription(RuleData):
    """What ``openwar rulesets`` shows: name, title, version, unit of length, support."""

    name: str
    title: str
    version: str
    length_unit: Literal["cm", "inch"]
    supports: list[str] = Field(min_length=1)


@dataclass(frozen=True)
class Ruleset:
    """A loaded ruleset: its description, catalogue data and hooks."""

    name: str
    title: str
    version: str
    length_unit: str
    supports: tuple[str, ...]
    data: CatalogView
    hooks: RulesetHooks[Any]


def plugin(name: str) -> RulesetPlugin[Any]:
    """The ``PLUGIN`` of ``openwar.rulesets.<name>.hooks``."""
    module = importlib.import_module(f"openwar.rulesets.{name}.hooks")
    found: RulesetPlugin[Any] = module.PLUGIN
    return found


def data_doc(name: str, filename: str) -> YamlDoc:
    """Read a packaged data file; an unreadable file or bad YAML raises :class:`DataFileError`."""
    where = f"openwar/rulesets/{name}/data/{filename}"
    try:
        text = (resources.files(f"openwar.rulesets.{name}") / "data" / filename).read_text()
        return read_yaml_text(text, where)
    except OSError as exc:
        raise DataFileError(f"{where}: cannot be read ({exc})") from exc
    except YamlReadError as exc:
        raise DataFileError(str(exc)) from exc


def check_catalog_doc(name: str, doc: YamlDoc) -> tuple[Any, list[DataProblem]]:
    """Validate a catalogue document of ruleset ``name``: schema, then cross-references."""
    spec = plugin(name)
    catalog, problems = validate_doc(doc, spec.catalog_model)
    if catalog is None:
        return None, problems
    return catalog, problems + spec.check_catalog(catalog, doc)


def ruleset_problems(name: str) -> list[DataProblem]:
    """Every problem in a ruleset's packaged data files (an empty list when all is well)."""
    description = data_doc(name, DESCRIPTION_FILE)
    _, problems = validate_doc(description, RulesetDescription)
    _, more = check_catalog_doc(name, data_doc(name, plugin(name).catalog_file))
    return problems + more


@cache
def load_ruleset(name: str) -> Ruleset:
    """Load a registered ruleset, refusing it (one line, first problem) if its data has errors."""
    from openwar.rulesets import check_ruleset

    check_ruleset(name)
    description, problems = validate_doc(data_doc(name, DESCRIPTION_FILE), RulesetDescription)
    spec = plugin(name)
    catalog, more = check_catalog_doc(name, data_doc(name, spec.catalog_file))
    errors = errors_only(problems + more)
    if errors or description is None or catalog is None:
        extra = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise DataFileError(f"{errors[0]}{extra}")
    return Ruleset(
        description.name, description.title, description.version, description.length_unit,
        tuple(description.supports), catalog, spec.make_hooks(catalog),
    )  # fmt: skip
