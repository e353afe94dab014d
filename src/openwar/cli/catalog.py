"""``openwar rulesets`` and ``openwar catalog RULESET``: what each ruleset offers."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from openwar.rulesets import RULESETS, check_ruleset, load_ruleset
from openwar.rulesets.hooks import TableData
from openwar.rulesets.registry import ruleset_problems
from openwar.words import counted

Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


LONGEST_WORD = 24  # a column may be narrower than a longer word, which then folds


def catalog_view(data: TableData, width: int) -> RenderableType:
    """:class:`TableData` for a terminal ``width`` columns wide (its text shown as written,
    not as markup): a table if every column fits without cutting a word in two, else one
    entry a row, its values named (fifteen columns of The Old World at 80 columns cut
    "character" into "char" and "acte", and words of every column so).

    The table has no lines between its columns and wraps text between words."""
    columns = [(name, *(row[i] for row in data.rows)) for i, name in enumerate(data.columns)]
    least = [min(LONGEST_WORD, max(len(w) for text in c for w in text.split() or [""]))
             for c in columns]  # fmt: skip
    most = [max(len(text) for text in c) for c in columns]
    room = width - 2 * (len(columns) - 1)  # two spaces between columns, no frame
    if sum(least) <= room:
        table = Table(
            title=escape(data.title),
            title_justify="left",
            box=None,
            pad_edge=False,
            header_style="bold underline",
        )
        for name, size in zip(data.columns, _widths(least, most, room), strict=True):
            table.add_column(name, overflow="fold", width=size)
        for row in data.rows:
            table.add_row(*(escape(cell) for cell in row))
        return Group(table, Text(data.note, style="dim")) if data.note else table
    entries: list[RenderableType] = [Text(data.title, style="italic")]
    for row in data.rows:
        entries.append(Text(row[0], style="bold"))
        entries += _named_values(list(zip(data.columns[1:], row[1:], strict=True)), width - 2)
    return Group(*entries, *([Text(data.note, style="dim")] if data.note else []))


def _named_values(pairs: list[tuple[str, str]], width: int) -> list[Text]:
    """``name value · name value ...`` in lines of at most ``width`` (indented by two), a name
    never parted from its value unless the pair alone is longer than a line."""
    lines: list[Text] = []
    line = Text("  ")
    for name, value in pairs:
        if len(line) > 2 and len(line) + 3 + len(name) + 1 + len(value) > width + 2:
            lines.append(line)
            line = Text("  ")
        if len(line) > 2:
            line.append(" · ")
        line.append(name + " ", style="dim")
        line.append(value)
    lines.append(line)
    return lines


def _widths(least: list[int], most: list[int], room: int) -> list[int]:
    """Column widths within ``room``: each its longest word at least and its longest text at
    most, the room left shared in proportion to what each still lacks."""
    if sum(most) <= room:
        return most
    spare, lacking = room - sum(least), [m - n for n, m in zip(least, most, strict=True)]
    widths = [n + spare * gap // sum(lacking) for n, gap in zip(least, lacking, strict=True)]
    return widths


def rulesets_command(
    as_json: Json = False,
    check: Annotated[
        bool, typer.Option("--check", help="Also list every problem in each ruleset's data.")
    ] = False,
) -> None:
    """List the rulesets with their version, unit of length and what each supports."""
    loaded = [load_ruleset(name) for name in RULESETS]
    problems = (
        {name: [str(p) for p in ruleset_problems(name)] for name in RULESETS} if check else {}
    )
    if as_json:
        rows = [
            {"name": r.name, "title": r.title, "version": r.version,
             "length_unit": r.length_unit, "supports": list(r.supports)}
            | ({"problems": problems[r.name]} if check else {})
            for r in loaded
        ]  # fmt: skip
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table(title="Rulesets", title_justify="left")
    for column in ("Name", "Title", "Version", "Length", "Supports"):
        table.add_column(column)
    for r in loaded:
        table.add_row(r.name, r.title, r.version, r.length_unit, ", ".join(r.supports))
    console = Console()
    console.print(table)
    for name, found in problems.items():
        console.print(
            f"{name}: " + ("no data problems" if not found else counted(len(found), "problem"))
        )
        for line in found:
            console.print(f"  {line}", markup=False)


def catalog_command(
    ruleset: Annotated[str, typer.Argument(help=f"One of: {', '.join(RULESETS)}.")],
    as_json: Json = False,
) -> None:
    """Show a ruleset's catalogue: units with profiles, weapons, options and costs.

    Example: openwar catalog openwar --json
    """
    data = load_ruleset(check_ruleset(ruleset)).data
    if as_json:
        typer.echo(json.dumps(data.to_json(), indent=2))
        return
    console = Console()
    for table in data.tables():
        console.print(catalog_view(table, console.width))
