"""Charts of attack distributions with matplotlib (PNG or SVG, reproducible bytes)."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from openwar.outputs import PICTURES, check_output, save_figure
from openwar.render.backend import plain_text  # and Agg
from openwar.rulesets.odds import OddsResult, SimulatedOdds, pad

VISIBLE = 1e-4  # the x axis ends where P(at least k) drops below this


@plain_text
def plot_odds(result: OddsResult, path: Path, simulated: SimulatedOdds | None = None) -> Path:
    """Draw P(exactly k) as bars and P(at least k) as a line; write ``path`` (.png or .svg)."""
    check_output(path, "--plot", PICTURES)
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    last = max(int(np.nonzero(result.at_least >= VISIBLE)[0][-1]), 1)
    k = range(last + 1)
    ax.bar(
        k,
        result.distribution[: last + 1],
        color="#4a6fa5",
        label=f"P(exactly k) — mean {result.mean:.3f}",
    )
    if simulated is not None:
        sim = pad(simulated.distribution, last + 1)[: last + 1]
        ax.plot(k, sim, "o", color="#c0504d", ms=4, label=f"Monte Carlo ({simulated.trials:,})")
    twin = ax.twinx()
    twin.plot(k, result.at_least[: last + 1], color="#2e7d32", lw=2, label="P(at least k)")
    twin.set_ylim(0, 1.02)
    twin.set_ylabel("P(at least k)")
    ax.set_xlabel(f"{result.quantity} k")
    ax.set_ylabel("P(exactly k)")
    ax.set_title(f"{result.ruleset}: {result.quantity} inflicted")
    lines = ax.get_legend_handles_labels()
    extra = twin.get_legend_handles_labels()
    ax.legend(lines[0] + extra[0], lines[1] + extra[1], loc="upper right", fontsize=8)
    fig.tight_layout()
    return save_figure(fig, path, "--plot")
