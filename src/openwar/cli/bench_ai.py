"""``openwar bench ai``: AI strength in seeded mirror matches (see :mod:`openwar.bench.ai`)."""

from __future__ import annotations

from typing import Annotated

import typer


def bench_ai(
    battles: Annotated[
        int,
        typer.Option("-n", "--battles", min=2, help="Battles per matchup (pairs, sides swapped)."),
    ] = 20,
    seed: Annotated[int, typer.Option(min=0, help="Root seed of the battles.")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    ruleset: Annotated[
        str, typer.Option(help="Ruleset whose sample armies play: openwar or aos.")
    ] = "openwar",
) -> None:
    """Heuristic vs random and search vs heuristic: win rates with Wilson 95% intervals.

    Example: openwar bench ai -n 40 --workers 2 --ruleset aos
    """
    from openwar.bench.ai import RULESET_ARMIES, run
    from openwar.errors import OpenWarError

    if ruleset not in RULESET_ARMIES:
        known = ", ".join(RULESET_ARMIES)
        raise OpenWarError(f"no sample armies for ruleset {ruleset!r} (expected one of: {known})")
    run(battles, seed, workers, armies=RULESET_ARMIES[ruleset], ruleset=ruleset)
