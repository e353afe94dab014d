"""``openwar bench ai``: AI strength in seeded mirror matches (see :mod:`openwar.bench.ai`)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console

from openwar.cli.options import worker_count
from openwar.sim.seeds import MAX_BATTLES, MAX_SEED


def bench_ai(
    battles: Annotated[
        int,
        typer.Option(
            "-n",
            "--battles",
            min=2,
            max=MAX_BATTLES,
            help="Battles per matchup (pairs, sides swapped).",
        ),
    ] = 20,
    seed: Annotated[int, typer.Option(min=0, max=MAX_SEED, help="Root seed of the battles.")] = 0,
    workers: Annotated[
        int, typer.Option(min=1, callback=worker_count, help="Worker processes.")
    ] = 1,
    ruleset: Annotated[
        str, typer.Option(help="Ruleset whose sample armies play: openwar or aos.")
    ] = "openwar",
    matchup: Annotated[
        list[str] | None,
        typer.Option(
            help="Play this matchup instead of the two goals' (repeatable), the tested "
            "player first, such as search:6,heuristic."
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print the figures (with the breakdown by condition and army, and every "
            "battle's army, seed, side and result) as JSON; each battle's line goes to stderr.",
        ),
    ] = False,
) -> None:
    """Heuristic vs random and search vs heuristic: win rates with Wilson 95% intervals.

    Example: openwar bench ai -n 40 --workers 2 --ruleset aos
    """
    from openwar.battles import read_players
    from openwar.bench.ai import MATCHUPS, RULESET_ARMIES, goal_of, run, summary
    from openwar.errors import OpenWarError
    from openwar.stopping import Stopped

    if battles % 2:
        raise typer.BadParameter(
            f"{battles} is odd: battles come in pairs, one seed with the sides swapped",
            param_hint="'-n'",
        )
    if ruleset not in RULESET_ARMIES:
        known = ", ".join(RULESET_ARMIES)
        raise OpenWarError(f"no sample armies for ruleset {ruleset!r} (expected one of: {known})")
    chosen: tuple[tuple[str, str, float | None], ...] = MATCHUPS
    if matchup:
        for text in matchup:
            if "," not in text:
                raise typer.BadParameter(
                    f"{text!r}: expected two players, the tested one first, such as "
                    "search:6,heuristic",
                    param_hint="'--matchup'",
                )
        pairs = [read_players(text, "--matchup") for text in matchup]
        chosen = tuple((first, second, goal_of(first, second)) for first, second in pairs)
    console = Console(stderr=True) if as_json else None
    figures = run(battles, seed, workers, chosen, armies=RULESET_ARMIES[ruleset],
                  console=console, ruleset=ruleset, tables=not as_json)  # fmt: skip
    if as_json:
        typer.echo(json.dumps(summary(figures, ruleset, seed), indent=2))
    if any(m.stopped for m in figures):  # after the figures of the battles played
        raise Stopped(terminated=any(m.stopped == "terminated" for m in figures))
