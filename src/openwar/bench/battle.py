"""Whole-battle speed: seeded battles between the two sample OpenWar armies, per player kind.

Every battle is the full thing a user's ``openwar battle`` plays: a battleplan generated from
the seed, set-up unit by unit, rounds of orders until the result. Battles per second count all
of it; actions per second count the actions applied; peak memory is the process's resident
high-water mark (``getrusage``), so a leak across battles shows as growth between the rows.
"""

from __future__ import annotations

import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from openwar.battles import fight_battle, load_setup
from openwar.errors import OpenWarError
from openwar.progress import progress_bar
from openwar.widths import print_whole

SAMPLES = Path(__file__).resolve().parents[3] / "examples" / "armies" / "openwar"
SAMPLE_ARMIES = (SAMPLES / "iron_road_legion.yaml", SAMPLES / "hearthhold_lodge.yaml")


@dataclass(frozen=True)
class BattleFigures:
    """What N battles of one player kind took."""

    players: str
    battles: int
    actions: int
    seconds: float
    peak_mb: float

    @property
    def battles_per_second(self) -> float:
        return self.battles / self.seconds

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds


def peak_memory_mb() -> float:
    """The process's peak resident memory so far, in MB (ru_maxrss is KB on Linux, B on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def play_battles(
    player: str,
    count: int,
    armies: tuple[Path, Path] = SAMPLE_ARMIES,
    progress: Progress | None = None,
) -> BattleFigures:
    """Play ``count`` battles (seeds 0..count-1) with ``player`` on both sides."""
    for path in armies:
        if not path.is_file():
            raise OpenWarError(f"{path}: sample army not found (give --army-a/--army-b)")
    task = progress.add_task(player, total=count) if progress is not None else None
    actions, durations = 0, []  # per-battle times, kept for a look at speed over long runs
    for seed in range(count):
        started = time.perf_counter()
        record = fight_battle(load_setup(armies, None, seed), (player, player))
        durations.append(time.perf_counter() - started)
        actions += len(record.actions)
        if progress is not None and task is not None:
            progress.advance(task)
    return BattleFigures(player, count, actions, sum(durations), peak_memory_mb())


def figures_table(rows: list[BattleFigures]) -> Table:
    table = Table(
        title="OpenWar battles, sample armies, generated battleplans", title_justify="left"
    )
    for column in ("players", "battles", "actions", "battles/s", "actions/s", "peak MB"):
        table.add_column(column, justify="left" if column == "players" else "right")
    for row in rows:
        table.add_row(
            row.players,
            f"{row.battles:,}",
            f"{row.actions:,}",
            f"{row.battles_per_second:.2f}",
            f"{row.actions_per_second:,.0f}",
            f"{row.peak_mb:.0f}",
        )
    return table


def run(count: int, players: list[str], armies: tuple[Path, Path] = SAMPLE_ARMIES) -> None:
    """Play and print one row per player kind."""
    console = Console()
    rows = []
    # the bar on stderr, as simulate's: stdout (a file, a pipe) gets the figures alone
    bar = progress_bar(Console(stderr=True), label="{task.description:>7}", remaining=False)
    with bar as progress:
        for player in players:
            rows.append(play_battles(player, count, armies, progress))
    print_whole(console, figures_table(rows))
    console.print("one core; battleplan generation and set-up included; peak = resident memory")
