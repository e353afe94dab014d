"""Data problems, collected with file, path and severity instead of raised one at a time."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from openwar.errors import plain_words
from openwar.rulesets.sources import Loc, YamlDoc

Model = TypeVar("Model", bound=BaseModel)


class Severity(StrEnum):
    """How bad a problem is: an error stops the data being used, a warning does not."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class DataProblem:
    """One thing wrong with a data file, at a path such as ``weapons.3.cost_1``."""

    file: str
    path: str
    message: str
    severity: Severity = Severity.ERROR
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path}: {self.severity}: {self.message}"


def dotted(loc: Loc) -> str:
    """``("units", 2, "size")`` -> ``"units.2.size"``; the empty path is ``(top)``."""
    return ".".join(str(part) for part in loc) or "(top)"


def problem_at(
    doc: YamlDoc, loc: Loc, message: str, severity: Severity = Severity.ERROR
) -> DataProblem:
    """A problem at ``loc`` of ``doc``, with the line it was written on."""
    return DataProblem(doc.file, dotted(loc), message, severity, doc.line(loc))


def schema_problems(exc: ValidationError, doc: YamlDoc) -> list[DataProblem]:
    """Every pydantic error of ``exc`` as a problem naming file, path and line."""
    found = []
    for error in exc.errors():
        loc = [part for part in error["loc"] if isinstance(part, str | int)]
        words = plain_words(error["msg"])
        if error["type"] == "string_type" and isinstance(error["input"], int | float):
            words += " (in quotes if it reads as a number, true or false)"  # name: "1066"
        found.append(problem_at(doc, loc, words))
    return found


def validate_strictly(model: type[Model], data: object) -> Model:
    """``data`` read from YAML as ``model``, strictly: a whole number must be written as one
    (pydantic's lax mode takes "10", 10.0 and true for ten or one). Through JSON, whose strict
    mode still fills a pair from a list and an enum from its value, as Python's does not."""
    return model.model_validate_json(json.dumps(data), strict=True)


def validate_doc(doc: YamlDoc, model: type[Model]) -> tuple[Model | None, list[DataProblem]]:
    """Validate ``doc`` as ``model``: the model, or None and every schema problem."""
    try:
        return validate_strictly(model, doc.data), []
    except ValidationError as exc:
        return None, schema_problems(exc, doc)


def errors_only(problems: list[DataProblem]) -> list[DataProblem]:
    return [p for p in problems if p.severity is Severity.ERROR]
