"""Reading and writing army-list files; a malformed file is one line naming file and place."""

from __future__ import annotations

import functools
from pathlib import Path

import yaml

from openwar.armies.model import ArmyList
from openwar.errors import OpenWarError
from openwar.rulesets.problems import validate_doc
from openwar.rulesets.sources import YamlDoc, YamlReadError, read_text_file, read_yaml_text


class ArmyFileError(OpenWarError):
    """An army file cannot be read, is not YAML, or does not have an army list's shape.
    ``problems`` holds one line per problem found (the message names the first)."""

    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems or (message,)

    def __reduce__(self) -> tuple[type[ArmyFileError], tuple[str, tuple[str, ...]]]:
        return type(self), (str(self), self.problems)


@functools.lru_cache(maxsize=32)
def parse_army(text: str, file: str) -> ArmyList:
    """Parse army-list YAML ``text``; ``file`` names it in messages.

    The same text is parsed once per process (a bench, a sweep or a session plays battle
    after battle with the same armies): the army returned is shared, so it must not be
    changed (``model_copy`` makes a changed one)."""
    try:
        doc = read_yaml_text(text, file)
    except YamlReadError as exc:
        raise ArmyFileError(str(exc)) from exc
    return _validated(doc.file, doc)


def load_army(path: Path) -> ArmyList:
    """Read an army-list file (at most 1 MB)."""
    try:
        text = read_text_file(path)
    except YamlReadError as exc:
        raise ArmyFileError(str(exc)) from exc
    return parse_army(text, str(path))


def _validated(file: str, doc: YamlDoc) -> ArmyList:
    if not isinstance(doc.data, dict):
        raise ArmyFileError(f"{file}: line 1: expected a mapping with ruleset, name and units")
    army, problems = validate_doc(doc, ArmyList)
    if army is None:
        lines = tuple(
            f"{file}: {f'line {p.line}, ' if p.line else ''}{p.path}: {p.message}" for p in problems
        )
        more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
        raise ArmyFileError(lines[0] + more, lines)
    return army


def army_yaml(army: ArmyList) -> str:
    """The army as YAML, leaving out empty and default fields."""
    data = army.model_dump(exclude_defaults=True)
    data.setdefault("points_limit", army.points_limit)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
