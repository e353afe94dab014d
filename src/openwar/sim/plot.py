"""Charts of a run's outcomes with matplotlib (PNG or SVG, reproducible bytes)."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
from matplotlib.ticker import MaxNLocator

from openwar.outputs import PICTURES, check_output, save_figure
from openwar.render.backend import plain_text  # and Agg
from openwar.sim.plan import BattleResult
from openwar.sim.stats import wilson
from openwar.words import counted

COLOURS = ("#4a6fa5", "#c0504d")


@plain_text
def plot_run(summary: dict[str, Any], results: list[BattleResult], path: Path) -> Path:
    """Four panels: outcomes with their intervals, scores (by victory condition when the
    battles had several: their scores count different things), points lost, rounds played;
    and below them, when the run measured it, each unit's enemy points destroyed per point of
    its cost with its 95% interval."""
    check_output(path, "--plot", PICTURES)
    played = [r for r in results if r.error is None]
    units = [u for u in summary.get("units", []) if u.get("destroyed_per_point")]
    if units:
        fig = plt.figure(figsize=(10, 7 + 0.3 * len(units) + 1), dpi=100)
        grid = fig.add_gridspec(3, 2, height_ratios=(7, 7, 0.6 * len(units) + 2))
        axes = [[fig.add_subplot(grid[row, col]) for col in (0, 1)] for row in (0, 1)]
        _per_point(fig.add_subplot(grid[2, :]), units)
    else:
        fig, axes = plt.subplots(2, 2, figsize=(10, 7), dpi=100)
    names = [summary["armies"][side]["name"] for side in ("A", "B")]
    _outcomes(axes[0][0], played)
    if len({r.condition for r in played}) > 1:
        _by_condition(axes[0][1], played)
    else:
        _histograms(axes[0][1], [[r.scores[i] for r in played] for i in (0, 1)], names, "score")
    _histograms(
        axes[1][0], [[r.points_lost[i] for r in played] for i in (0, 1)], names, "points lost"
    )
    _rounds(axes[1][1], played)
    fig.suptitle(f"{names[0]} (A) vs {names[1]} (B): {counted(len(played), 'battle')}")
    fig.tight_layout()
    return save_figure(fig, path, "--plot")


def _per_point(ax: Any, units: list[dict[str, Any]]) -> None:
    """Each unit's enemy points destroyed per point of its cost, with its 95% interval (none
    for a single battle), side A's units in A's colour; a line at 1: its points earned back."""
    labels = [f"{u['side']}: {u['unit']}" for u in units]
    means = [u["destroyed_per_point"]["mean"] for u in units]
    rows = list(range(len(units)))[::-1]  # the first unit at the top
    colours = [COLOURS[0] if u["side"] == "A" else COLOURS[1] for u in units]
    ax.barh(rows, means, color=colours)
    for row, mean, unit in zip(rows, means, units, strict=True):
        interval = unit["destroyed_per_point"]["ci95"]
        if interval is not None:
            low, high = interval
            ax.errorbar([mean], [row], xerr=[[mean - low], [high - mean]], fmt="none",
                        ecolor="black", capsize=3, lw=1)  # fmt: skip
    ax.axvline(1.0, color="#555555", lw=1, ls="--")
    ax.set_yticks(rows, labels)
    ax.set_xlabel("enemy points destroyed per point of its cost, a battle (95% interval)")
    ax.set_title("Units: what each destroyed for its points (right of the line: earned back)")


def _outcomes(ax: Any, played: list[BattleResult]) -> None:
    """A wins, draws, B wins as bars split into major and minor victories, with Wilson 95%
    intervals as error bars."""
    n = max(len(played), 1)
    counts = Counter((r.winner, r.victory) for r in played)
    labels = ("A wins", "draw", "B wins")
    major = [counts[(0, "major")] / n, 0.0, counts[(1, "major")] / n]
    minor = [counts[(0, "minor")] / n, 0.0, counts[(1, "minor")] / n]
    draws = [0.0, sum(v for (w, _), v in counts.items() if w is None) / n, 0.0]
    ax.bar(labels, major, color=[COLOURS[0], "#888888", COLOURS[1]], label="major")
    ax.bar(labels, minor, bottom=major, color=[COLOURS[0], "#888888", COLOURS[1]], alpha=0.55,
           label="minor")  # fmt: skip
    ax.bar(labels, draws, color="#888888")
    totals = [major[0] + minor[0], draws[1], major[2] + minor[2]]
    intervals = [wilson(round(t * len(played)), len(played)) for t in totals]
    errors = [[t - low for t, (low, _) in zip(totals, intervals, strict=True)],
              [high - t for t, (_, high) in zip(totals, intervals, strict=True)]]  # fmt: skip
    ax.errorbar(labels, totals, yerr=errors, fmt="none", ecolor="black", capsize=6, lw=1)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of battles")
    ax.set_title("Outcomes (solid: major, light: minor; 95% Wilson)")


def _by_condition(ax: Any, played: list[BattleResult]) -> None:
    """Per victory condition: the shares of A wins, draws and B wins, as stacked bars."""
    names = sorted({r.condition for r in played})
    counts = Counter((r.condition, r.winner) for r in played)
    totals = [max(sum(counts[(name, w)] for w in (0, None, 1)), 1) for name in names]
    left = [0.0] * len(names)
    labels = [f"{name or '(none)'} ({total})" for name, total in zip(names, totals, strict=True)]
    for winner, colour, label in ((0, COLOURS[0], "A wins"), (None, "#888888", "draw"),
                                  (1, COLOURS[1], "B wins")):  # fmt: skip
        share = [counts[(name, winner)] / t for name, t in zip(names, totals, strict=True)]
        ax.barh(labels, share, left=left, color=colour, label=label)
        left = [a + b for a, b in zip(left, share, strict=True)]
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_title("By victory condition (battles)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, fontsize="small")


def _bins(everything: list[float], low: float, high: float) -> list[float]:
    """Bin edges: whole numbers (scores, models) each in a bar of its own, a bar a few
    numbers wide over a long range; other numbers (points) in 20 bars.

    >>> _bins([0, 1, 3], 0, 3)
    [-0.5, 0.5, 1.5, 2.5, 3.5]
    >>> len(_bins([0.5, 9.25], 0.5, 9.25)), _bins([229.244, 465.04], 229.244, 465.04)[-1]
    (21, 465.04)
    """
    if all(float(v).is_integer() for v in everything):
        step = max(1, math.ceil((high - low + 1) / 40))
        edges = [low - 0.5 + k * step for k in range(int((high - low) // step) + 2)]
        return [float(e) for e in edges]
    if high <= low:
        return [low - 0.5, low + 0.5]
    return [low + (high - low) * k / 20 for k in range(20)] + [high]  # the largest in the last


def _histograms(ax: Any, values: list[list[float]], names: list[str], what: str) -> None:
    everything = values[0] + values[1]
    if everything:
        low, high = min(everything), max(everything)
        for side, (series, name) in enumerate(zip(values, names, strict=True)):
            ax.hist(
                series,
                bins=_bins(everything, low, high),
                alpha=0.6,
                color=COLOURS[side],
                label=f"{'AB'[side]}: {name}",
            )
        ax.legend(fontsize=8)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(what)
    ax.set_ylabel("battles")
    ax.set_title(f"Distribution of {what}")


def _rounds(ax: Any, played: list[BattleResult]) -> None:
    counts = Counter(r.rounds for r in played)
    # every round from the shortest to the longest, a round no battle ended in at 0 (rounds 1,
    # 2, 3 and 5 stood side by side as if evenly spaced)
    rounds = range(min(counts, default=1), max(counts, default=0) + 1)  # none: no bar
    ax.bar([str(k) for k in rounds], [counts[k] for k in rounds], color="#2e7d32")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # battles: no 2.5 ticks
    ax.set_xlabel("rounds played")
    ax.set_ylabel("battles")
    ax.set_title("Length of the battles")
