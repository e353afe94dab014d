"""Battles per second of ``openwar simulate`` for 1 and 2 local workers on the sample armies.

Each executor is started and warmed up (one untimed battle per worker: imports, caches) before
the clock starts, so the figure is the steady rate a long run sees. Both worker counts play the
same seeded battles.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from openwar.sim.executors import Executor, chunked, make_executor
from openwar.sim.plan import ArmyFile, BattleResult, SimulationPlan
from openwar.sim.seeds import battle_seeds
from openwar.widths import print_whole

SAMPLES = Path(__file__).resolve().parents[3] / "examples" / "armies" / "openwar"
SAMPLE_ARMIES = ("iron_road_legion.yaml", "hearthhold_lodge.yaml")
QUESTION = 10_000  # "a 10,000-battle question"


def sample_plan(battles: int, players: tuple[str, str], seed: int) -> SimulationPlan:
    armies = tuple(ArmyFile.read(SAMPLES / name) for name in SAMPLE_ARMIES)
    return SimulationPlan((armies[0], armies[1]), None, players, seed, battles)


def timed(executor: Executor, plan: SimulationPlan) -> tuple[float, list[BattleResult]]:
    """Seconds to play the plan's battles on a started executor (after a warm-up)."""
    seeds = battle_seeds(plan.seed, plan.battles + executor.workers)
    items = list(enumerate(seeds))
    warm, work = items[plan.battles :], items[: plan.battles]
    for _ in executor.results(plan, [[item] for item in warm]):
        pass
    start = time.perf_counter()
    results = [
        r for chunk in executor.results(plan, chunked(work, executor.workers)) for r in chunk
    ]
    return time.perf_counter() - start, results


def run(battles: int, players: tuple[str, str], seed: int, worker_counts: tuple[int, ...]) -> None:
    console = Console(highlight=False)
    plan = sample_plan(battles, players, seed)
    console.print(
        f"openwar simulate on {' vs '.join(SAMPLE_ARMIES)}: {battles} battles, players "
        f"{','.join(players)}, seed {seed}, a generated battleplan per battle"
    )
    table = Table(title="Battles per second", title_justify="left")
    for column in ("workers", "battles/s", "per worker", "ms per battle", "failed", "10,000 in"):
        table.add_column(column, justify="right")
    baseline: list[BattleResult] | None = None
    for workers in worker_counts:
        with make_executor(workers, None) as executor:
            seconds, results = timed(executor, plan)
        ordered = sorted(results, key=lambda r: r.index)
        same = "" if baseline is None or ordered == baseline else " (results differ!)"
        baseline = baseline or ordered
        rate = battles / seconds
        table.add_row(
            f"{workers}{same}",
            f"{rate:.2f}",
            f"{rate / workers:.2f}",
            f"{1000 * seconds / battles:.0f}",
            str(sum(1 for r in results if r.error is not None)),
            _duration(QUESTION / rate),
        )
    print_whole(console, table)
    load = os.getloadavg()[0]
    cores = os.cpu_count() or 1
    if load > 0.5 * cores:
        console.print(
            f"Load average {load:.1f} on {cores} cores: other processes share the cores, so these "
            "figures (above all for 2 workers) are lower than on a quiet machine."
        )


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
