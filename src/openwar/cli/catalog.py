"""``openwar rulesets`` and ``openwar catalog RULESET``: what each ruleset offers."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from openwar.rulesets import RULESETS, check_ruleset, load_ruleset
from openwar.rulesets.hooks import TableData
from openwar.rulesets.registry import ruleset_problems
from openwar.words import counted

Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


def rich_table(data: TableData) -> Table:
    """A Rich table from plain :class:`TableData` (its text shown as written, not as markup)."""
    table = Table(title=escape(data.title), title_justify="left")
    for column in data.columns:
        table.add_column(column, overflow="fold")
    for row in data.rows:
        table.add_row(*(escape(cell) for cell in row))
    return table


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
        console.print(rich_table(table))
