"""Rich tables and JSON for attack odds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from openwar.dice.pmf import at_least
from openwar.rulesets.odds import OddsResult, SimulatedOdds, pad

SHOWN = 5e-5  # rows from the first k whose P(at least k) rounds to 0.0000 are summarised


def odds_table(title: str, values: np.ndarray, simulated: np.ndarray | None, label: str) -> Table:
    """One table: k, P(exactly k), P(at least k) and optionally the Monte Carlo estimate."""
    table = Table(title=title, title_justify="left")
    table.add_column(label, justify="right")
    table.add_column("P(exactly k)", justify="right")
    table.add_column("P(at least k)", justify="right")
    if simulated is not None:
        table.add_column("simulated", justify="right", style="dim")
        simulated = pad(simulated, len(values))
    cumulative = at_least(values)
    last = shown_up_to(values)
    for k, p in enumerate(values[: last + 1]):
        row = [str(k), f"{p:.4f}", f"{cumulative[k]:.4f}"]
        if simulated is not None:
            row.append(f"{simulated[k]:.4f}")
        table.add_row(*row)
    if last < len(values) - 1 and cumulative[last + 1] > 0.0:  # a tail of exact zeros: no row
        table.add_row(
            f">{last}", f"{cumulative[last + 1]:.1e}", "", *([""] if simulated is not None else [])
        )
    return table


def shown_up_to(values: np.ndarray) -> int:
    """The last k worth a row: P(at least k) still shows as at least 0.0001."""
    visible = np.nonzero(at_least(values) >= SHOWN)[0]
    return int(visible[-1]) if len(visible) else 0


def print_odds(result: OddsResult, simulated: SimulatedOdds | None, console: Console) -> None:
    sim_values = None if simulated is None else simulated.distribution
    console.print(odds_table(f"{result.quantity} inflicted", result.distribution, sim_values, "k"))
    slain_label = "removed" if result.ruleset == "opr" else "slain"
    same = len(result.slain) == len(result.distribution) and np.allclose(
        result.slain, result.distribution, atol=1e-15
    )
    if not same:
        sim_slain = None if simulated is None else simulated.slain
        console.print(odds_table(f"models {slain_label}", result.slain, sim_slain, "k"))
    line = f"mean {result.quantity} [bold]{result.mean:.4f}[/bold]"
    line += f", mean models {slain_label} [bold]{result.mean_slain:.4f}[/bold]"
    if simulated is not None:
        line += f" (Monte Carlo: {simulated.mean:.4f} ± {simulated.mean_error:.4f} at 95%, "
        line += f"from {simulated.trials:,} rolls, seed {simulated.seed})"
    console.print(line)
    rolls = result.extras.get("rolls")  # the rolls a chart or a test gave (each ruleset's own)
    if rolls:
        console.print(f"Rolls: {rolls}", markup=False, soft_wrap=True)  # whole, for grep
    used = result.profile.get("piercing_used")
    if used:  # OPR-A8: --piercing auto (or a weapon with p or x) kept the better reading
        readings = {"ignore-armored": "ignores Armored", "reroll-blocks": "re-rolls blocks"}
        console.print(
            f"Piercing: {readings.get(str(used), str(used))} (of its two uses, the one that "
            "removes more models)"
        )
    if result.profile.get("single_model"):  # OPR-A13: the weapons table's x mark
        console.print("x: all the wounds each model deals go on one model (the excess is lost)")


def odds_json(result: OddsResult, simulated: SimulatedOdds | None) -> str:
    data: dict[str, Any] = result.to_json()
    if simulated is not None:
        data["simulation"] = {
            "trials": simulated.trials,
            "seed": simulated.seed,
            "distribution": simulated.distribution.tolist(),
            "mean": simulated.mean,
            "mean_ci95": [
                simulated.mean - simulated.mean_error,
                simulated.mean + simulated.mean_error,
            ],
        }
    return json.dumps(data, indent=2)


def write_plot(result: OddsResult, path: Path, simulated: SimulatedOdds | None) -> None:
    from openwar.render.charts import plot_odds

    plot_odds(result, path, simulated)
