"""The click classes Typer runs on. Typer 0.29 (pinned in pyproject.toml) vendors click as
``typer._click``; this is the only module that reaches into it."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, get_args

from typer import Abort, Exit
from typer._click import Command, Context
from typer._click.exceptions import BadParameter, NoArgsIsHelpError, NoSuchOption, UsageError
from typer.core import TyperGroup, TyperOption

from openwar.stopping import Stopped, Terminated

__all__ = [
    "Abort",
    "Command",
    "Context",
    "Exit",
    "NoArgsIsHelpError",
    "StoppableGroup",
    "UsageError",
    "command_path",
    "refuse_empty_paths",
    "refuse_repeats",
    "tidy_help",
    "usage_message",
]


def reflowed(text: str) -> str:
    """``text`` with each paragraph's lines joined, as Typer's rich help keeps a docstring's
    line breaks and then wraps at the terminal's width too (a sentence broken twice: "from
    child i of" / "SeedSequence(seed)..."). A line that starts a command (``openwar ...``) or
    is indented stays on its own.

    >>> reflowed("One sentence\\nbroken.\\n\\nExamples:\\nopenwar a\\n  --b")
    'One sentence broken.\\n\\nExamples:\\nopenwar a\\n  --b'
    """
    paragraphs = []
    for paragraph in text.split("\n\n"):
        lines: list[str] = []
        for line in paragraph.split("\n"):
            if lines and not line.startswith(("openwar ", " ")):
                lines[-1] += " " + line
            else:
                lines.append(line)
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def tidy_help(command: Command, shown: dict[Callable[..., Any], str]) -> None:
    """Help that says what to type: Typer 0.29 shows every option's Python type, so a flag
    reads ``--json <bool>`` (as if it took a value) and a roll parsed from "4+" reads
    ``<int>``. A flag shows no type; an option read by a parser in ``shown`` shows its text.
    The help's paragraphs are :func:`reflowed`."""
    if command.help:
        command.help = reflowed(command.help)
    helper = command.get_help_option(Context(command))  # made now (and kept) to tidy it too
    for param in [*command.params, *([helper] if helper is not None else [])]:
        if not isinstance(param, TyperOption):
            continue
        if param.is_flag:
            param.metavar = ""
            continue
        text = shown.get(param.type_descriptor.parameter_info.parser)  # type: ignore[arg-type]
        if text is not None:
            param.metavar = text
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            tidy_help(sub, shown)


def refuse_repeats(command: Command) -> None:
    """An option that takes one value, given twice, is a usage error naming it: click keeps
    the last silently, so ``sweep --unit A --unit B`` swept B alone. Flags and options that
    take many values may repeat. Every command of ``command``'s tree checks its arguments
    before click reads them."""
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            refuse_repeats(sub)
        return
    parse = command.parse_args

    def parse_args(ctx: Context, args: list[str]) -> list[str]:
        _, _, order = command.make_parser(ctx).parse_args(args=list(args))
        single = [p for p in order if isinstance(p, TyperOption) and not (p.multiple or p.is_flag)]
        for param, times in Counter(single).items():
            if times > 1:
                name = max(param.opts, key=len)
                raise UsageError(f"{name} was given {times} times; it takes one value", ctx)
        return parse(ctx, args)

    command.parse_args = parse_args  # type: ignore[method-assign]


def refuse_empty_paths(command: Command) -> None:
    """A file name given as "" is a usage error naming its parameter: a path made of it is
    the current folder, so the error read ".: cannot be read (Is a directory)"."""
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            refuse_empty_paths(sub)
        return
    for param in command.params:
        annotation = getattr(param, "type_descriptor", None)
        annotation = getattr(annotation, "annotation", None)
        if annotation is Path or Path in get_args(annotation):
            _refuse_empty(param)


def _refuse_empty(param: Any) -> None:
    process = param.process_value

    def process_value(ctx: Context, value: Any) -> Any:
        given = value if isinstance(value, (list, tuple)) else [value]
        if any(v == "" for v in given):
            raise BadParameter("an empty file name", ctx=ctx, param=param)
        return process(ctx, value)

    param.process_value = process_value


def command_path(command: Command, argv: list[str], name: str = "openwar") -> str:
    """The sub-command ``argv`` names (``openwar odds oldworld``), as click's own errors
    name it: an error raised while the command runs carries no context to ask."""
    path = [name]
    for word in argv:
        if not isinstance(command, TyperGroup) or word not in command.commands:
            break
        command = command.commands[word]
        path.append(word)
    return " ".join(path)


class StoppableGroup(TyperGroup):
    """The root command group: a Ctrl-C or SIGTERM that stops a command leaves it as
    :class:`~openwar.stopping.Stopped`, which the CLI reports in one line with the signal's
    exit code, not as the silent exit 130 Typer makes of any ``KeyboardInterrupt``."""

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            raise Stopped(isinstance(exc, Terminated)) from None


def usage_message(exc: UsageError, args: Sequence[str] = ()) -> str:
    """A usage error's words; a negative number where a value was expected (``runs show -1``)
    is read by click as an option, so it says that no option has that name, which misleads.
    Click names only the token's first letter as the option (``-.`` of ``-.5``): the token
    is named whole, as given in ``args``, and one that only starts like a number (``-1.5x``)
    is called neither a number nor an option."""
    name = exc.option_name if isinstance(exc, NoSuchOption) else ""
    if not name or not re.fullmatch(r"-[\d.]", name[:2]):
        return exc.format_message()
    number = r"-(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?"
    tokens = list(args)

    def an_options_value(k: int) -> bool:  # such as the -1 of --rend -1 (a flag looks alike)
        before = tokens[k - 1] if k else ""
        return before.startswith("-") and "=" not in before and not re.fullmatch(number, before)

    found = [k for k, token in enumerate(tokens) if token.startswith(name)]
    given = next((tokens[k] for k in found if not an_options_value(k)),
                 tokens[found[0]] if found else name)  # fmt: skip
    if re.fullmatch(number, given):
        return f"{given}: a negative number is not a value this command takes"
    return f"{given}: neither a value nor an option this command takes"
