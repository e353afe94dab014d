"""Reading YAML (rule data or army lists) while keeping line numbers for messages.

A problem found later (by pydantic or a rule check) names a path such as ``units.2.size``;
:meth:`YamlDoc.line` turns that path back into the line where the key was written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from openwar.errors import OpenWarError

MAX_FILE_BYTES = 1_000_000

Loc = Sequence[str | int]


class YamlReadError(OpenWarError):
    """A file cannot be read, is too large, or is not YAML; the message is one line."""


@dataclass(frozen=True)
class YamlDoc:
    """A parsed YAML document, its file name and its node tree (for line numbers)."""

    file: str
    data: object
    root: yaml.Node | None

    def line(self, loc: Loc) -> int | None:
        """The 1-based line of the deepest node of ``loc`` that exists in the file (a key
        missing at the top: where the document starts).

        >>> read_yaml_text("a:\\n  b: [1, 2]\\n", "x.yaml").line(["a", "b", 1])
        2
        >>> read_yaml_text("# army\\na: 1\\n", "x.yaml").line(["name"])
        2
        """
        node = self.root
        found: int | None = None if node is None else node.start_mark.line + 1
        for part in loc:
            child = _child(node, part)
            if child is None:
                break
            node = child
            found = child.start_mark.line + 1
        return found


def _child(node: yaml.Node | None, part: str | int) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == str(part):
                return value if isinstance(value, yaml.Node) else None
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
        item = node.value[part]
        return item if isinstance(item, yaml.Node) else None
    return None


def read_yaml_text(text: str, file: str) -> YamlDoc:
    """Parse ``text``; a syntax error becomes one line naming the file, line and column."""
    try:
        data = yaml.safe_load(text)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
        raise YamlReadError(f"{file}: {where}: not valid YAML ({exc.problem})") from exc
    except yaml.YAMLError as exc:
        raise YamlReadError(f"{file}: not valid YAML ({exc})") from exc
    return YamlDoc(file, data, root)


def read_text_file(path: Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a UTF-8 text file, refusing files larger than ``max_bytes``."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise YamlReadError(f"{path}: {size:,} bytes is over the {max_bytes:,}-byte limit")
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise YamlReadError(f"{path}: not UTF-8 text ({exc.reason})") from exc
    except OSError as exc:
        raise YamlReadError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
