"""``openwar sweep``: a unit's size against the win rate, and the points where it is even."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from openwar.battleplans.files import read_battleplan
from openwar.battles import PLAYERS_HELP, read_players
from openwar.progress import progress_bar
from openwar.sim.executors import make_executor
from openwar.sim.plan import SIDES, ArmyFile, SimulationPlan
from openwar.sim.sweep import SweepPoint, even_points, parse_values, play_sweep, sweep_plans


def sweep_command(
    army_a: Annotated[Path, typer.Argument(help="Army file of side A (YAML).")],
    army_b: Annotated[Path, typer.Argument(help="Army file of side B (YAML).")],
    unit: Annotated[str, typer.Option(help="Name of the unit to vary, as in its army file.")],
    size: Annotated[str, typer.Option(help="Sizes: START:STOP:STEP or A,B,C.")],
    side: Annotated[str, typer.Option(help="Army holding the unit: A or B.")] = "A",
    battles: Annotated[int, typer.Option("-n", "--battles", min=1, help="Battles per size.")] = 100,
    players: Annotated[
        str, typer.Option(help=f"Players of A and B: {PLAYERS_HELP}.")
    ] = "simple,simple",
    battleplan: Annotated[Path | None, typer.Option(help="One battleplan JSON for all.")] = None,
    seed: Annotated[int, typer.Option(min=0, help="Root seed (the same battles per size).")] = 1,
    workers: Annotated[int | None, typer.Option(min=1, help="Local processes.")] = None,
    scheduler: Annotated[str | None, typer.Option(help="tcp://host:port or local-dask.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the sweep as JSON.")] = False,
) -> None:
    """Vary one unit's size, play the same seeded battles at each, and report the varied side's
    win share (draws count half) with 95% intervals and the points value where it is even.

    Example: openwar sweep examples/armies/openwar/iron_road_legion.yaml
    examples/armies/openwar/hearthhold_lodge.yaml --unit "First Ironclad Cohort"
    --size 10:30:5 -n 50
    """
    if side.upper() not in SIDES:
        raise typer.BadParameter(f"{side!r}: expected A or B", param_hint="'--side'")
    index = SIDES.index(side.upper())
    sizes = parse_values(size)
    plan = SimulationPlan(
        (ArmyFile.read(army_a), ArmyFile.read(army_b)), None, read_players(players), seed, battles
    )
    if battleplan is not None:
        plan = replace(plan, battleplan=read_battleplan(battleplan, plan.ruleset))
    plans = sweep_plans(plan, index, unit, sizes)
    err = Console(stderr=True)
    with (
        make_executor(workers or os.cpu_count() or 1, scheduler) as executor,
        progress_bar(err) as progress,
    ):
        task = progress.add_task(escape(f"{unit}: {len(sizes)} sizes"), total=battles * len(sizes))
        points = play_sweep(plans, index, executor, lambda done: progress.advance(task, done))
    even = even_points(points)
    if as_json:
        data = {
            "unit": unit,
            "side": SIDES[index],
            "battles": battles,
            "seed": seed,
            "players": list(plan.players),
            "sweep": [p.to_json() for p in points],
            "even": even,
        }
        typer.echo(json.dumps(data, indent=2))
        return
    _print(Console(highlight=False), unit, SIDES[index], points, even)


def _print(
    console: Console, unit: str, side: str, points: list[SweepPoint], even: dict[str, float | None]
) -> None:
    title = escape(f"{unit} ({side}): win share of {side}, draws half")
    table = Table(title=title, title_justify="left")
    for column in ("size", "army pts", "wins", "draws", "losses", "share", "95% interval"):
        table.add_column(column, justify="right")
    for p in points:
        low, high = p.interval()
        table.add_row(
            str(p.size),
            str(p.points),
            str(p.wins),
            str(p.draws),
            str(p.losses),
            f"{p.share:.1%}",
            f"{low:.1%} - {high:.1%}",
        )
    console.print(table)
    if even["points"] is None:
        console.print("The matchup is not even anywhere in this range.")
        return
    spread = (
        f" (95%: {even['low']:.0f} - {even['high']:.0f})"
        if even["low"] is not None and even["high"] is not None
        else " (95% range reaches past the sweep)"
    )
    console.print(f"Even matchup at about {even['points']:.0f} army points{spread}.")
