"""Data problems, collected with file, path and severity instead of raised one at a time."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from enum import StrEnum
from types import UnionType
from typing import TypeVar, Union, get_args, get_origin

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


def fields_at(model: type[BaseModel] | None, loc: Loc) -> list[str]:
    """The field names of the mapping at ``loc`` of a ``model`` document (nothing where the
    path leaves the models: a table of the file's own keys, a value).

    >>> from openwar.armies.model import ArmyList
    >>> fields_at(ArmyList, ["units", 3, "options", 0])
    ['name', 'models']
    >>> fields_at(ArmyList, ["units", 3, "profile"])  # a table of the file's own keys
    []
    """
    kind: object = model
    for part in loc:
        kind = _one_kind(kind)
        origin, args = get_origin(kind), get_args(kind)
        if isinstance(part, int):
            kind = args[0] if origin is list and args else None
        elif isinstance(kind, type) and issubclass(kind, BaseModel) and part in kind.model_fields:
            kind = kind.model_fields[part].annotation
        elif origin is dict and len(args) == 2:  # a table keyed by names: its values' kind
            kind = args[1]
        else:
            return []
    kind = _one_kind(kind)
    return list(kind.model_fields) if isinstance(kind, type) and issubclass(kind, BaseModel) else []


def _one_kind(kind: object) -> object:
    """``X | None`` as X, and a union as its one model (None when it has several kinds)."""
    while get_origin(kind) in (Union, UnionType):
        members = [a for a in get_args(kind) if a is not type(None)]
        models = [a for a in members if isinstance(a, type) and issubclass(a, BaseModel)]
        kind = members[0] if len(members) == 1 else models[0] if len(models) == 1 else None
    return kind


def _keys_at(data: object, loc: Loc) -> set[str]:
    """The keys written in the mapping at ``loc`` of ``data`` (none if it is not one)."""
    for part in loc:
        if isinstance(data, dict):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return set()
    return {str(key) for key in data} if isinstance(data, dict) else set()


def schema_problems(
    exc: ValidationError, doc: YamlDoc, model: type[BaseModel] | None = None
) -> list[DataProblem]:
    """Every pydantic error of ``exc`` as a problem naming file, path and line. A key that is
    not a known field and close to a field missing beside it is one problem, a misspelling
    with its "did you mean" (``nmae:`` was "name: is missing" first, then "nmae: is not a
    known field")."""
    errors = exc.errors()
    locs = [tuple(part for part in e["loc"] if isinstance(part, str | int)) for e in errors]
    missing = {loc for loc, e in zip(locs, errors, strict=True) if e["type"] == "missing"}
    meant: dict[tuple[str | int, ...], str] = {}  # an unknown key's loc -> the field it misspells
    for loc, error in zip(locs, errors, strict=True):
        if error["type"] == "extra_forbidden" and loc and isinstance(loc[-1], str):
            written = _keys_at(doc.data, loc[:-1])  # a field written already is not meant
            beside = [str(m[-1]) for m in missing if m[:-1] == loc[:-1] and m]
            close = difflib.get_close_matches(loc[-1], beside, n=1, cutoff=0.6)
            fields = [name for name in fields_at(model, loc[:-1]) if name not in written]
            close = close or difflib.get_close_matches(loc[-1], fields, n=1)
            if close:
                meant[loc] = close[0]
    explained = {(*loc[:-1], name) for loc, name in meant.items()}
    found = []
    for loc_, error in zip(locs, errors, strict=True):
        if loc_ in explained and error["type"] == "missing":
            continue
        words = plain_words(error["msg"])
        if loc_ in meant:
            words += f" (did you mean {meant[loc_]!r}?)"
        if error["type"] == "string_type" and isinstance(error["input"], int | float):
            words += " (in quotes if it reads as a number, true or false)"  # name: "1066"
        found.append(problem_at(doc, loc_, words))
    return found


PLAIN_VALUES = (str, int, float, bool, type(None), list, dict)  # what JSON can hold
TAGGED = {"date": "a date", "datetime": "a date and time", "bytes": "binary data", "set": "a set"}


class UnreadableData(ValueError):
    """Values YAML gave that no field takes: a key that is neither text nor a whole number
    (null, true, 1.5), or a value tagged as a date, a set or binary data. ``found``: each
    one's place and what is wrong."""

    def __init__(self, found: list[tuple[tuple[str | int, ...], str]]) -> None:
        super().__init__(f"{dotted(found[0][0])}: {found[0][1]}")
        self.found = found


def unreadable(
    data: object, loc: tuple[str | int, ...] = ()
) -> list[tuple[tuple[str | int, ...], str]]:
    """Where ``data`` holds what a JSON document cannot (see :class:`UnreadableData`)."""
    if isinstance(data, list):
        return [found for k, item in enumerate(data) for found in unreadable(item, (*loc, k))]
    if isinstance(data, dict):
        found = []
        for key, value in data.items():
            if isinstance(key, str) or (isinstance(key, int) and not isinstance(key, bool)):
                found += unreadable(value, (*loc, key))  # a whole number keys a numbered table
            else:  # JSON would make text of it: null as "null", true as "true"
                written = json.dumps(key) if key is None or isinstance(key, bool) else str(key)
                quote = " (in quotes if it reads as a number, true or false)"
                found.append(((*loc, written), f"a key must be text{quote}"))
        return found
    if not isinstance(data, PLAIN_VALUES):
        kind = TAGGED.get(type(data).__name__, f"a {type(data).__name__}")
        return [(loc, f"{kind} (a YAML tag?) is not a value OpenWar reads")]
    return []


def validate_strictly(model: type[Model], data: object) -> Model:
    """``data`` read from YAML as ``model``, strictly: a whole number must be written as one
    (pydantic's lax mode takes "10", 10.0 and true for ten or one). Through JSON, whose strict
    mode still fills a pair from a list and an enum from its value, as Python's does not; what
    JSON cannot hold is refused first (:class:`UnreadableData`)."""
    found = unreadable(data)
    if found:
        raise UnreadableData(found)
    return model.model_validate_json(json.dumps(data), strict=True)


def validate_doc(doc: YamlDoc, model: type[Model]) -> tuple[Model | None, list[DataProblem]]:
    """Validate ``doc`` as ``model``: the model, or None and every schema problem."""
    try:
        return validate_strictly(model, doc.data), []
    except UnreadableData as exc:
        return None, [problem_at(doc, loc, message) for loc, message in exc.found]
    except ValidationError as exc:
        return None, schema_problems(exc, doc, model)


def errors_only(problems: list[DataProblem]) -> list[DataProblem]:
    return [p for p in problems if p.severity is Severity.ERROR]
