"""``openwar army new | show | cost | validate``: army-list files, their points and problems."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from openwar.armies.files import ArmyFileError, army_yaml, load_army
from openwar.armies.model import printable_name
from openwar.armies.validate import ArmyReport, assess
from openwar.outputs import check_output, write_text
from openwar.rulesets import RULESETS, UnknownRulesetError, check_ruleset, load_ruleset
from openwar.words import counted

army_app = typer.Typer(
    no_args_is_help=True,
    help=(
        "Army lists in YAML: write a starter file, show it, price it, validate it.\n\n"
        "openwar army validate examples/armies/openwar/iron_road_legion.yaml"
    ),
)

Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
ArmyPath = Annotated[Path, typer.Argument(help="An army-list YAML file.")]


def _named(name: str) -> str:
    if not name.strip():
        raise typer.BadParameter("an army needs a name")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # bytes the terminal could not decode, kept as surrogates
        raise typer.BadParameter("the name is not valid UTF-8 text") from None
    try:
        return printable_name(name)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


@army_app.command("new")
def new_army(
    ruleset: Annotated[str, typer.Argument(help=f"One of: {', '.join(RULESETS)}.")],
    file: Annotated[Path, typer.Argument(help="The army file to write.")],
    name: Annotated[str, typer.Option(help="The army's name.", callback=_named)] = "New army",
    force: Annotated[bool, typer.Option(help="Overwrite FILE if it exists.")] = False,
) -> None:
    """Write a small valid army of RULESET to FILE to start from."""
    army = load_ruleset(check_ruleset(ruleset)).hooks.starter(name)
    check_output(file)  # a folder, a missing folder, a name too long: named before anything
    if file.exists() and not force:
        raise ArmyFileError(f"{file}: already exists (use --force to overwrite)")
    heading = f"# {ruleset} army list: see `openwar catalog {ruleset}`\n"
    write_text(file, heading + army_yaml(army))  # whole, or not there at all
    typer.echo(f"wrote {file} ({len(army.units)} units)")


@army_app.command("show")
def show_army(file: ArmyPath, as_json: Json = False) -> None:
    """Show the army's units, their options and points; exit 1 when it has problems (listed
    below the table, as validate lists them)."""
    report = _assessed(file)
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        console = Console()
        console.print(_units_table(report))
        _print_summary(console, report)
    _exit_if_invalid(report)


@army_app.command("cost")
def cost_army(file: ArmyPath, as_json: Json = False) -> None:
    """Price the army option by option, with the way each option is paid; exit 1 when it
    has problems (listed below the table: its points may leave out an option)."""
    report = _assessed(file)
    if as_json:
        typer.echo(json.dumps(report.cost.to_json(), indent=2))
    else:
        console = Console()
        console.print(_cost_table(report))
        _print_summary(console, report)
    _exit_if_invalid(report)


def _exit_if_invalid(report: ArmyReport) -> None:
    """Exit 1 for an army with problems, as ``validate`` does, so a script that prices or
    shows an army learns that it is not legal (2 stays for a file that cannot be read)."""
    if not report.valid:
        raise typer.Exit(1)


def _assessed(file: Path) -> ArmyReport:
    """The army in ``file``, assessed; an army of no known ruleset has no units or points
    to show (``validate`` lists it as a problem), so it is one line naming the file."""
    army = load_army(file)
    try:
        check_ruleset(army.ruleset)
    except UnknownRulesetError as exc:
        raise ArmyFileError(f"{file}: {exc}") from None
    return assess(army)


@army_app.command("validate")
def validate_army(file: ArmyPath, as_json: Json = False) -> None:
    """Check the army: exit 0 when valid, 1 listing every problem, 2 when unreadable.

    An unreadable file lists every problem of its shape, one per line."""
    try:
        army = load_army(file)
    except ArmyFileError as exc:
        if len(exc.problems) == 1:
            raise
        err = Console(stderr=True, highlight=False, soft_wrap=True)
        for line in exc.problems:
            err.print(f"openwar army validate: error: {line}", markup=False)
        raise typer.Exit(2) from None
    report = assess(army)
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        _print_problems(report, file)
    _exit_if_invalid(report)


def _units_table(report: ArmyReport) -> Table:
    title = escape(f"{report.army.name} ({report.army.ruleset})")
    table = Table(title=title, title_justify="left", caption_justify="left")
    for column in ("Unit", "Type", "Size", "Options", "Points"):
        table.add_column(column, justify="right" if column in ("Size", "Points") else "left")
    hooks = load_ruleset(report.army.ruleset).hooks
    carried = [hooks.carried(listed) for listed in report.army.units]
    for unit, listed, free in zip(report.cost.units, report.army.units, carried, strict=True):
        bought = [
            o.option if o.way == "per unit" else f"{o.option} x{o.models}" for o in unit.options
        ]
        options = ", ".join([f"{name} (free)" for name in free] + bought) or "-"
        kind = unit.type + "".join(f"\n{k} {v}" for k, v in listed.profile.items())
        _row(table, unit.unit, kind, str(unit.size), options, str(unit.total))
    for extra in report.cost.extras:
        _row(table, extra.name, "battalion", "", "", str(extra.points))
    notes = ["(free): what every miniature of the type carries without paying"] * any(carried)
    if any(u.profile for u in report.army.units):
        notes.append("under a type: the unit's own numbers in place of the type's (profile)")
    table.caption = "\n".join(notes) or None
    return table


def _cost_table(report: ArmyReport) -> Table:
    table = Table(title=escape(f"Points of {report.army.name}"), title_justify="left")
    for column in ("Unit", "Item", "Miniatures", "Paid as", "Points"):
        table.add_column(column, justify="right" if column in ("Miniatures", "Points") else "left")
    for unit in report.cost.units:
        _row(table, unit.unit, unit.type, str(unit.size), unit.base_way, str(unit.base))
        for o in unit.options:
            _row(table, "", o.option, str(o.models), o.way, str(o.points))
    for extra in report.cost.extras:
        _row(table, extra.name, "battalion", "", "", str(extra.points))
    return table


def _row(table: Table, *cells: str) -> None:
    """A row of names from the army file, shown as written (brackets are not Rich markup)."""
    table.add_row(*(escape(cell) for cell in cells))


def _print_summary(console: Console, report: ArmyReport) -> None:
    limit = "no limit" if report.limit is None else f"limit {report.limit}"
    state = "valid" if report.valid else counted(len(report.problems), "problem") + ":"
    console.print(f"total [bold]{report.cost.total}[/bold] points ({limit}); {state}")
    if report.problems:  # shown, not only counted: an option a problem names is missing above
        for problem in report.problems:
            console.print(f"  - {problem}", markup=False, soft_wrap=True)
        dropped = any(
            len(cost.options) < len(listed.options)
            for cost, listed in zip(report.cost.units, report.army.units, strict=True)
        )
        if dropped:  # an unknown option, or one that cannot be taken so, is not priced
            console.print("(an option that could not be priced is left out of the table and "
                          "the points)")  # fmt: skip


def _print_problems(report: ArmyReport, file: Path) -> None:
    """Plain lines (no wrapping), one per problem, so they can be read and grepped."""
    limit = "no limit" if report.limit is None else f"limit {report.limit}"
    if report.valid:
        typer.echo(f"{file}: valid, {report.cost.total} points ({limit})")
        return
    typer.echo(f"{file}: invalid, {counted(len(report.problems), 'problem')}, "
               f"{report.cost.total} points ({limit})")  # fmt: skip
    for problem in report.problems:
        typer.echo(f"  - {problem}")
