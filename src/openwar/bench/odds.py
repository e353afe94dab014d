"""Exact-odds speed against icepool, and Monte Carlo throughput, on the reference attack.

Reference (the issue's): Age of Sigmar, hit 4+ re-roll 1s, wound 3+, save 4+ rend -1;
20 attacks of damage D3, and 60 attacks of damage D6.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from rich.console import Console
from rich.table import Table

from openwar.dice.d6 import Reroll
from openwar.dice.notation import parse_dice
from openwar.rulesets.aos.montecarlo import simulate
from openwar.rulesets.aos.odds import AosAttack, attack_odds
from openwar.widths import print_whole

CASES = (("20 attacks, damage D3", 20, "D3"), ("60 attacks, damage D6", 60, "D6"))


def reference(attacks: int, damage: str) -> AosAttack:
    return AosAttack(
        attacks=parse_dice(attacks), hit=4, wound=3, rend=-1, damage=parse_dice(damage),
        save=4, reroll_hits=Reroll.ONES,
    )  # fmt: skip


def median_seconds(work: Callable[[], Any], repeat: int) -> float:
    """Median wall time of ``repeat`` warm calls (one untimed call first)."""
    work()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def openwar_mean(attacks: int, damage: str) -> float:
    """The whole exact computation, profile included, as a user's call makes it."""
    return attack_odds(reference(attacks, damage)).mean


def icepool_mean(attacks: int, damage: str) -> float:
    """The same distribution built with icepool from scratch."""
    import icepool

    d6 = icepool.d6
    hit = d6.reroll([1], depth=1) >= 4
    wound = d6 >= 3
    unsaved = d6.map(lambda face: face == 1 or face - 1 < 4)
    sides = int(damage[1:])
    per_attack = (hit & wound & unsaved).if_else(icepool.d(sides), 0)
    return float((attacks @ per_attack).mean())


def run(repeat: int, trials: int) -> None:
    console = Console()
    table = Table(title="Exact damage distribution (median of warm runs)", title_justify="left")
    for column in ("case", "mean", "openwar", "icepool", "icepool / openwar"):
        table.add_column(column, justify="right" if column != "case" else "left")
    try:
        import icepool  # noqa: F401

        have_icepool = True
    except ImportError:
        have_icepool = False
    for label, attacks, damage in CASES:
        ours = median_seconds(partial(openwar_mean, attacks, damage), repeat)
        mean = openwar_mean(attacks, damage)
        if have_icepool:
            theirs = median_seconds(partial(icepool_mean, attacks, damage), max(repeat // 20, 5))
            agree = abs(icepool_mean(attacks, damage) - mean) < 1e-9
            cells = [
                f"{theirs * 1e3:.3f} ms",
                f"{theirs / ours:,.0f}x" + ("" if agree else " (MEANS DIFFER)"),
            ]
        else:
            cells = ["not installed", "-"]
        table.add_row(label, f"{mean:.6f}", f"{ours * 1e3:.3f} ms", *cells)
    print_whole(console, table)
    if not have_icepool:
        console.print(
            "icepool is not installed: `make bench` (or `pip install -e '.[bench]'` in the "
            "checkout) installs it to compare.",
            markup=False,
        )
    profile = reference(20, "D3")
    simulate(profile, 10_000, 0)
    start = time.perf_counter()
    simulate(profile, trials, 0)
    elapsed = time.perf_counter() - start
    console.print(
        f"Monte Carlo, 20 attacks D3: {trials:,} attack sequences in {elapsed:.2f} s = "
        f"[bold]{trials / elapsed / 1e6:.2f} million sequences/s[/bold] (one core, numpy)"
    )
