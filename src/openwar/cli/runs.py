"""``openwar runs``: the simulation runs kept in the results store, read back."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path, PurePath
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from openwar.cli.options import output_file, refuse_inputs
from openwar.errors import OpenWarError
from openwar.sim.locks import being_played
from openwar.sim.report import print_summary
from openwar.sim.store import ENV_STORE, RunStore, StoredRun, default_store
from openwar.words import counted

runs_app = typer.Typer(no_args_is_help=True, help="Simulation runs kept in the results store.")

StoreOption = Annotated[
    Path | None, typer.Option(help="Results store (default: $OPENWAR_STORE or user data).")
]
# run ids are SQLite integers: past 2**63 - 1 the database cannot even be asked
MAX_RUN_ID = 2**63 - 1
RunId = Annotated[
    int,
    typer.Argument(
        min=1,
        max=MAX_RUN_ID,
        metavar="ID",
        show_default=False,
        help="Run id (see `openwar runs list`).",
    ),
]


def _open(store: Path | None) -> RunStore:
    path = store or default_store()
    try:
        found = path.exists()
    except OSError as exc:  # a name too long, a folder we may not look in
        raise OpenWarError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if not found:
        raise OpenWarError(f"{path}: no results store yet (run `openwar simulate` first)")
    return RunStore(path, create=False)


@runs_app.command("list")
def list_runs(
    store: StoreOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the runs as JSON.")] = False,
) -> None:
    """List the runs: id, date, armies, battles done, status and A's win rate."""
    with _open(store) as runs:
        found = runs.runs()
        path = runs.path
    if as_json:
        typer.echo(json.dumps([run.to_json() for run in found], indent=2))
        return
    table = Table(title=escape(f"Runs in {path}"), title_justify="left")
    for column in ("id", "created", "A vs B", "players", "battles", "status", "A wins"):
        # at 80 columns the armies' names and the players wrap, nothing else (the date and
        # the win rate are on two lines each: they were cut to "2026-1…" and "(30%-6…")
        table.add_column(
            column,
            justify="right" if column in ("id", "battles") else "left",
            no_wrap=column not in ("A vs B", "players"),
            ratio={"A vs B": 2, "players": 1}.get(column),
            overflow="fold" if column == "A vs B" else "ellipsis",  # file names folded, not cut
        )
    for run in found:
        players = run.plan.players
        with _summary_of(run, path):
            table.add_row(
                str(run.id),
                f"{run.created[:10]}\n{run.created[11:16]}",
                _armies_cell(run),
                players[0] if players[0] == players[1] else ", ".join(players),
                f"{run.done}/{run.plan.battles}",
                run.status,
                _win_rate(run).replace(" (", "\n(", 1),
            )
    Console(highlight=False).print(table)


def _armies_cell(run: StoredRun) -> str:
    """The armies' names, then their files' names, dim, and the seed (and a sweep's id): runs
    of variant files of one army (the same name) are told apart."""
    files = " vs ".join(PurePath(army.path).name for army in run.plan.armies)
    names = escape(f"{run.army_names[0]} vs {run.army_names[1]}")
    sweep = "" if run.sweep is None else f", sweep {run.sweep.get('id')}"
    return f"{names}\n[dim]{escape(files)}, seed {run.plan.seed}{escape(sweep)}[/dim]"


@runs_app.command("show")
def show_run(
    run_id: RunId,
    store: StoreOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the run as JSON.")] = False,
) -> None:
    """Show a run's inputs and summary."""
    with _open(store) as runs:
        run = runs.run(run_id)
        path = runs.path
    if as_json:
        typer.echo(json.dumps(run.to_json(), indent=2))
        return
    console = Console(highlight=False)
    summary = ""
    if run.summary is not None:  # rendered once, before anything is shown: a summary edited
        with _summary_of(run, path), console.capture() as captured:  # by hand is one line
            print_summary(console, run.summary)
        summary = captured.get()
    console.print(f"[bold]Run {run.id}[/bold] — {run.status}, created {run.created}")
    for name, army in zip(run.army_names, run.plan.armies, strict=True):
        console.print(f"  {name} (sha256 {army.sha256[:16]}):", markup=False)
        console.print(f"    {army.path}", markup=False, soft_wrap=True)  # a path kept whole
    console.print(f"  {run.done}/{run.plan.battles} battles; {run.code_version}", markup=False)
    sweep = run.sweep
    named = store or (path if os.environ.get(ENV_STORE) else None)
    where = "" if named is None else f" --store {shlex.quote(str(named))}"
    if sweep is not None:
        console.print(
            f"  Value {sweep.get('value')} of sweep {sweep.get('id')}: {sweep.get('unit')} "
            f"(army {sweep.get('side')}), {sweep.get('vary')} varied",
            markup=False,
        )
        if run.status == "complete":  # the sweep's table, every value's row
            console.print(
                f"  The whole sweep: openwar sweep --resume {sweep.get('id')}{where}",
                markup=False,
                soft_wrap=True,
            )
    if run.summary is not None:
        console.file.write(summary)
    elif run.status == "running" and being_played(path, run.id):  # openwar.sim.locks
        console.print("Being played now: not complete yet", markup=False)
    else:  # the store named as it was found: another shell may not set $OPENWAR_STORE
        resume = (
            f"simulate --resume {run.id}" if sweep is None else f"sweep --resume {sweep.get('id')}"
        )
        console.print(f"Not complete: openwar {resume}{where}", markup=False, soft_wrap=True)


@runs_app.command("export")
def export_run(
    run_id: RunId,
    csv_file: Annotated[
        Path,
        typer.Option(
            "--csv",
            help="Write one row per battle to FILE ('-': standard output).",
            callback=_csv_file,
        ),
    ],
    store: StoreOption = None,
    units: Annotated[
        bool,
        typer.Option(
            "--units",
            help="One row per unit of each battle: its miniatures lost and enemy points destroyed.",
        ),
    ] = False,
) -> None:
    """Export a run's battles as CSV (battle, seed, winner, victory, scores, casualties...)."""
    to_stdout = str(csv_file) == "-"
    refuse_inputs({"--csv": csv_file}, [store or default_store()])
    with _open(store) as runs:
        count = runs.export_csv(run_id, sys.stdout if to_stdout else csv_file, units)
    where = "standard output" if to_stdout else str(csv_file)
    Console(stderr=True, highlight=False).print(
        f"{counted(count, 'battle')} written to {where}", markup=False
    )


def _csv_file(value: Path) -> Path | None:
    """``-`` is standard output; any other path is checked as every output file is."""
    return value if str(value) == "-" else output_file(value)


@contextlib.contextmanager
def _summary_of(run: StoredRun, path: Path) -> Iterator[None]:
    """A stored summary of another shape (a store edited by hand) is one line, not a
    traceback from deep in the report."""
    try:
        yield
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise OpenWarError(
            f"results store {path}: run {run.id}'s summary is not one openwar wrote "
            f"({type(exc).__name__}: {exc})"
        ) from None


def _win_rate(run: StoredRun) -> str:
    if run.summary is None:
        return "-"
    entry = run.summary["outcomes"]["A wins"]
    low, high = entry["ci95"]
    return f"{entry['rate']:.1%} ({low:.0%}-{high:.0%})"
