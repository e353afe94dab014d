"""``openwar battleplan``: generate an Open War battleplan, print it, draw the table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from openwar.battleplans.generator import generate, generate_default_scenario
from openwar.battleplans.report import dumps, summary
from openwar.cli.options import png_file, svg_file
from openwar.outputs import together
from openwar.sim.seeds import MAX_SEED

SCENARIOS = ("open-war", "default")


def battleplan_command(
    points: Annotated[int, typer.Option(help="Points limit agreed by the players (above 0).")],
    seed: Annotated[
        int, typer.Option(min=0, max=MAX_SEED, help="Seed: the same seed gives the same plan.")
    ] = 1,
    ruleset: Annotated[str, typer.Option(help="Ruleset: aos (inches) or openwar (cm).")] = "aos",
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of the summary.")
    ] = False,
    svg: Annotated[
        Path | None, typer.Option(help="Draw the table to FILE.svg.", callback=svg_file)
    ] = None,
    png: Annotated[
        Path | None, typer.Option(help="Draw the table to FILE.png.", callback=png_file)
    ] = None,
    scenario: Annotated[
        str,
        typer.Option(
            help="open-war (the generator) or default (openwar only: deployment zones, "
            "destroy the enemy)."
        ),
    ] = "open-war",
) -> None:
    """Generate an Open War battleplan: terrain, map, victory, twist and secret ruses.

    Example: openwar battleplan --points 1000 --seed 7 --png plan.png
    """
    if scenario not in SCENARIOS:
        raise typer.BadParameter(
            f"{scenario!r}: expected one of {', '.join(SCENARIOS)}", param_hint="'--scenario'"
        )
    if scenario == "default" and ruleset != "openwar":
        raise typer.BadParameter(
            "only the openwar ruleset has a default scenario", param_hint="'--scenario'"
        )
    plan = generate_default_scenario(points, seed) if scenario == "default" else None
    plan = plan or generate(ruleset, points, seed)
    from openwar.render.table import draw_battleplan  # matplotlib: a second to import

    with together():  # both pictures, or neither
        written = [draw_battleplan(plan, path) for path in (svg, png) if path is not None]
    if as_json:
        typer.echo(dumps(plan))
        return
    typer.echo(summary(plan))
    for path in written:
        typer.echo(f"picture written to {path}")
