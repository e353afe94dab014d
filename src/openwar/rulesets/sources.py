"""Reading YAML (rule data or army lists) while keeping line numbers for messages.

A problem found later (by pydantic or a rule check) names a path such as ``units.2.size``;
:meth:`YamlDoc.line` turns that path back into the line where the key was written.
"""

from __future__ import annotations

import json
import re
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


MAX_ALIASES = 100  # YAML aliases in one file: enough for any army, too few for an alias bomb
# Values a file with aliases stands for once they are written out (aliases of aliases nine
# deep, under the alias limit, stand for 387 million); a file without aliases is not counted
MAX_VALUES = 500_000


class _Loader(yaml.SafeLoader):
    """The safe loader, counting aliases as it composes (each one may stand for a whole
    subtree, so a few kilobytes of them can expand to gigabytes once validated)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.aliases = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                line = self.peek_event().start_mark.line + 1  # type: ignore[no-untyped-call]
                raise _Refused(f"line {line}: more than {MAX_ALIASES} YAML aliases (*name)")
        return super().compose_node(parent, index)

    def construct_object(self, node: yaml.Node, deep: bool = False) -> object:
        """A value tagged as a kind it cannot be (``!!float abc``, ``!!bool maybe``,
        ``!!int 0x10``) is a YAML error at its line, not the constructor's own exception."""
        try:
            return super().construct_object(node, deep)
        except (ValueError, KeyError, AttributeError, TypeError) as exc:
            kind = str(node.tag).rsplit(":", 1)[-1]
            shown = repr(node.value) if isinstance(node, yaml.ScalarNode) else "this value"
            raise yaml.constructor.ConstructorError(
                None, None, f"{shown} cannot be read as !!{kind}", node.start_mark
            ) from exc


DECIMAL = re.compile(r"^[-+]?[0-9]+$")  # a whole number: decimal digits, a sign or not


def _core_scalars(loader: type[yaml.SafeLoader]) -> None:
    """Plain scalars read much as YAML 1.2's core schema reads them, not as YAML 1.1 did, and
    whole numbers in decimal only: ``010`` is ten, not eight; ``0x10``, ``0o10``, ``1_0`` and
    ``1:30`` are text, which the schema then refuses where a number is wanted; true and false
    are the only booleans (a unit named Yes or No is a name); a date is text."""
    dropped = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
               "tag:yaml.org,2002:timestamp"}  # fmt: skip
    loader.yaml_implicit_resolvers = {
        first: [(tag, rule) for tag, rule in rules if tag not in dropped]
        for first, rules in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    digits = list("-+0123456789")
    loader.add_implicit_resolver("tag:yaml.org,2002:bool",
                                 re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                 list("tTfF"))  # fmt: skip
    loader.add_implicit_resolver("tag:yaml.org,2002:int", DECIMAL, digits)
    loader.add_implicit_resolver(
        "tag:yaml.org,2002:float",
        re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                   r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
        [*digits, "."],
    )  # fmt: skip
    loader.add_constructor("tag:yaml.org,2002:int", _decimal)


def _decimal(loader: yaml.SafeLoader, node: yaml.Node) -> int:
    """A whole number in decimal, a leading 0 or not (plain scalars reach here only as
    digits; one tagged ``!!int`` may be anything: :meth:`_Loader.construct_object` turns
    the ValueError into a line)."""
    assert isinstance(node, yaml.ScalarNode)
    text = str(loader.construct_scalar(node))
    if not DECIMAL.match(text):
        raise ValueError(f"{text!r} is not a whole number in decimal digits")
    return int(text)


_core_scalars(_Loader)


class _Refused(Exception):
    """A document the reader will not build (its message names the line)."""


def read_yaml_text(text: str, file: str) -> YamlDoc:
    """Parse ``text``; a syntax error, a key given twice in one mapping, more than
    :data:`MAX_ALIASES` aliases, aliases standing for more than :data:`MAX_VALUES` values or
    for a value holding them, or nesting too deep becomes one line naming the file and line."""
    loader: _Loader | None = None
    try:
        loader = _Loader(text)  # its reader refuses control characters at once
        root = loader.get_single_node()
        _check_keys(root)
        if loader.aliases:  # without aliases a file is no bigger than it reads, and no loop
            _check_expansion(root)
        data = None if root is None else loader.construct_document(root)
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow, by offset
        before = text[: exc.position]
        where = f"line {before.count(chr(10)) + 1}, column {exc.position - before.rfind(chr(10))}"
        raise YamlReadError(
            f"{file}: {where}: not valid YAML (character #x{exc.character:04x} is not allowed)"
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
        raise YamlReadError(f"{file}: {where}: not valid YAML ({exc.problem})") from exc
    except yaml.YAMLError as exc:
        raise YamlReadError(f"{file}: not valid YAML ({exc})") from exc
    except _Refused as exc:
        raise YamlReadError(f"{file}: {exc}") from None
    except RecursionError:
        raise YamlReadError(f"{file}: nested too deeply to read") from None
    finally:
        if loader is not None:
            loader.dispose()
    return YamlDoc(file, data, root)


def _check_keys(root: yaml.Node | None) -> None:
    """No mapping gives one key twice (YAML forbids it; the loader would keep the last)."""
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            keys: set[str] = set()
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in keys:
                        line = key.start_mark.line + 1
                        raise _Refused(f"line {line}: {key.value!r} is given twice")
                    keys.add(key.value)
                stack += [key, value]
        elif isinstance(node, yaml.SequenceNode):
            stack += node.value


def _check_expansion(root: yaml.Node | None) -> None:
    """The document, its aliases written out, stands for at most :data:`MAX_VALUES` values
    (every scalar, key, list and mapping counts one), and no alias stands for a value that
    holds it (the value would be endless). Each node is sized once (a depth-first walk that
    remembers the sizes), so an alias bomb is refused in the time its file takes to read."""
    sizes: dict[int, int] = {}
    walking: set[int] = set()  # the nodes whose subtree is being sized: the current path
    stack: list[tuple[yaml.Node, bool]] = [] if root is None else [(root, False)]
    while stack:
        node, done = stack.pop()
        kids = _kids(node)
        if done:
            walking.discard(id(node))
            sizes[id(node)] = size = 1 + sum(sizes[id(kid)] for kid in kids)
            if size > MAX_VALUES:
                line = node.start_mark.line + 1
                raise _Refused(
                    f"line {line}: its YAML aliases (*name) stand for more than "
                    f"{MAX_VALUES:,} values"
                )
        elif id(node) in walking:
            line = node.start_mark.line + 1
            raise _Refused(f"line {line}: a YAML alias (*name) stands for a value that holds it")
        elif id(node) not in sizes:
            walking.add(id(node))
            stack.append((node, True))
            stack += [(kid, False) for kid in kids]


def _kids(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def json_problem(exc: json.JSONDecodeError) -> str:
    """Where and why a text is not JSON, as people say it: "line 3 column 9: not JSON
    (unterminated string)" (the parser's "... starting at" names a place it gives apart).

    >>> try:
    ...     json.loads('{"a": "b')
    ... except json.JSONDecodeError as exc:
    ...     print(json_problem(exc))
    line 1 column 7: not JSON (unterminated string)
    """
    why = exc.msg.lower().removesuffix(" at").removesuffix(" starting")
    return f"line {exc.lineno} column {exc.colno}: not JSON ({why})"


def read_text_file(path: Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a UTF-8 text file, refusing more than ``max_bytes`` (read no further than that, so
    a pipe or a device cannot fill the memory)."""
    try:
        with path.open("rb") as stream:
            raw = stream.read(max_bytes + 1)
        if len(raw) > max_bytes:
            raise YamlReadError(f"{path}: over the {max_bytes:,}-byte limit")
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlReadError(f"{path}: not UTF-8 text ({exc.reason})") from exc
    except OSError as exc:
        raise YamlReadError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
