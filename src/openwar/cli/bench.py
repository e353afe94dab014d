"""``openwar bench``: benchmark commands that print figures (never timed tests)."""

from __future__ import annotations

import typer

bench_app = typer.Typer(no_args_is_help=True, help="Benchmarks that print figures.")


@bench_app.command("odds")
def bench_odds(
    repeat: int = typer.Option(200, min=1, help="Timed repetitions (the median is shown)."),
    trials: int = typer.Option(1_000_000, min=1000, help="Monte Carlo attack sequences."),
) -> None:
    """Exact odds vs icepool, and Monte Carlo throughput, for the AoS reference attack."""
    from openwar.bench.odds import run

    run(repeat, trials)
