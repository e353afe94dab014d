"""``openwar bench``: benchmark commands that print figures (never timed tests)."""

from __future__ import annotations

import typer

from openwar.cli.bench_ai import bench_ai
from openwar.cli.bench_simulate import bench_simulate
from openwar.sim.seeds import MAX_BATTLES

bench_app = typer.Typer(no_args_is_help=True, help="Benchmarks that print figures.")
bench_app.command("simulate")(bench_simulate)
bench_app.command("ai")(bench_ai)


@bench_app.command("odds")
def bench_odds(
    repeat: int = typer.Option(
        200, min=1, max=100_000, help="Timed repetitions (the median is shown)."
    ),
    trials: int = typer.Option(
        1_000_000, min=1000, max=10_000_000, help="Monte Carlo attack sequences (20 dice each)."
    ),
) -> None:
    """Exact odds vs icepool, and Monte Carlo throughput, for the AoS reference attack."""
    from openwar.bench.odds import run

    run(repeat, trials)


@bench_app.command("battle")
def bench_battle(
    count: int = typer.Option(
        20, "-n", "--battles", min=1, max=MAX_BATTLES, help="Seeded battles per player."
    ),
    players: str = typer.Option(
        "random,simple",
        help="Player kinds, one row each (both sides): random, simple, heuristic, search or "
        "search:N, such as random,simple.",
    ),
) -> None:
    """Whole OpenWar battles between the two sample armies: battles/s, actions/s, peak memory."""
    from openwar.battles import player_kind
    from openwar.bench.battle import run
    from openwar.errors import OpenWarError

    kinds = [name.strip() for name in players.split(",") if name.strip()]
    if not kinds:
        raise typer.BadParameter(
            f"{players!r}: expected such as random,simple", param_hint="'--players'"
        )
    for name in kinds:
        try:
            player_kind(name)
        except OpenWarError as exc:
            raise typer.BadParameter(str(exc), param_hint="'--players'") from None
    run(count, kinds)
