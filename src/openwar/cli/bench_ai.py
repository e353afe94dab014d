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
) -> None:
    """Heuristic vs random and search vs heuristic: win rates with Wilson 95% intervals.

    Example: openwar bench ai -n 40 --workers 2
    """
    from openwar.bench.ai import run

    run(battles, seed, workers)
