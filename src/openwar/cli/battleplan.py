"""``openwar battleplan``: generate an Open War battleplan, print it, draw the table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from openwar.battleplans.generator import generate
from openwar.battleplans.report import dumps, summary
from openwar.render.table import draw_battleplan


def battleplan_command(
    points: Annotated[int, typer.Option(help="Points limit agreed by the players (above 0).")],
    seed: Annotated[int, typer.Option(min=0, help="Seed: the same seed gives the same plan.")],
    ruleset: Annotated[str, typer.Option(help="Ruleset: aos (inches) or openwar (cm).")] = "aos",
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of the summary.")
    ] = False,
    svg: Annotated[Path | None, typer.Option(help="Draw the table to FILE.svg.")] = None,
    png: Annotated[Path | None, typer.Option(help="Draw the table to FILE.png.")] = None,
) -> None:
    """Generate an Open War battleplan: terrain, map, victory, twist and secret ruses.

    Example: openwar battleplan --points 1000 --seed 7 --png plan.png
    """
    plan = generate(ruleset, points, seed)
    written = [draw_battleplan(plan, path) for path in (svg, png) if path is not None]
    if as_json:
        typer.echo(dumps(plan))
        return
    typer.echo(summary(plan))
    for path in written:
        typer.echo(f"picture written to {path}")
