"""``openwar bench simulate``: battles per second for 1 and 2 workers on the sample armies."""

from __future__ import annotations

from typing import Annotated

import typer

from openwar.battles import read_players
from openwar.cli import options
from openwar.sim.seeds import MAX_BATTLES, MAX_SEED


def bench_simulate(
    battles: Annotated[
        int, typer.Option("-n", "--battles", min=1, max=MAX_BATTLES, help="Timed battles.")
    ] = 40,
    players: options.PlayersOption = "simple,simple",
    seed: Annotated[int, typer.Option(min=0, max=MAX_SEED, help="Root seed of the battles.")] = 1,
) -> None:
    """Battles per second of `openwar simulate` with 1 and 2 local workers (sample armies)."""
    from openwar.bench.simulate import run

    run(battles, read_players(players), seed, (1, 2))
