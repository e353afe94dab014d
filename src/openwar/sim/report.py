"""A run's summary as Rich tables: who wins how often (with intervals), and at what cost."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from openwar.sim.plan import DESTROYED_BY_UNIT
from openwar.widths import fit_numbers
from openwar.words import counted

SIDES = ("A", "B")


def print_summary(console: Console, summary: dict[str, Any]) -> None:
    """Print the summary made by :func:`openwar.sim.summary.summarise`."""
    armies = summary["armies"]
    players = summary["players"]
    for side in SIDES:
        army = armies[side]
        console.print(
            f"{side}: [bold]{escape(army['name'])}[/bold] ({army['points']} pts, {players[side]})"
        )
    console.print(
        f"{counted(summary['played'], 'battle')}, seed {summary['seed']}, "
        f"on {summary['battleplan']}",
        markup=False,
    )
    console.print(fit_numbers(_outcomes(summary), console))
    conditions = summary.get("conditions", {})
    console.print(fit_numbers(_sides(summary, scores=len(conditions) <= 1), console))
    if len(conditions) > 1:
        console.print(fit_numbers(_conditions(conditions), console))
    if summary["units"]:
        console.print(fit_numbers(_units(summary), console))
    rounds = summary["rounds"]
    if rounds.get("counts"):
        counts = ", ".join(f"{k}: {v}" for k, v in rounds["counts"].items())
        console.print(f"Rounds played: mean {rounds['mean']:.2f} ({counts})")
    if summary["failed"]:
        first = summary["failures"][0]
        console.print(
            f"[red]{counted(summary['failed'], 'battle')} failed[/red], left out; first: battle "
            f"{first['battle']} (openwar battle ... --seed {first['seed']}): "
            f"{escape(first['error'])}",
            markup=True,
            highlight=False,
        )


def _outcomes(summary: dict[str, Any]) -> Table:
    table = Table(title="Outcomes (95% Wilson intervals)", title_justify="left")
    for column in ("result", "battles", "rate", "95% interval", "major", "minor"):
        table.add_column(column, justify="left" if column == "result" else "right")
    victories = summary["victories"]
    for key, side in (("A wins", "A"), ("draws", None), ("B wins", "B")):
        entry = summary["outcomes"][key]
        low, high = entry["ci95"]
        major = minor = ""
        if side is not None:
            major = str(victories[side]["major"]["count"])
            minor = str(victories[side]["minor"]["count"])
        name = key if side is None else f"{key} ({summary['armies'][side]['name']})"
        table.add_row(
            escape(name),
            str(entry["count"]),
            f"{entry['rate']:.1%}",
            f"{low:.1%} - {high:.1%}",
            major,
            minor,
        )
    return table


def _sides(summary: dict[str, Any], *, scores: bool = True) -> Table:
    """Casualties per side, and the score when every battle scored the same way (with
    several victory conditions the scores are shown per condition instead)."""
    table = Table(title="Per side: mean (10th - 90th percentile)", title_justify="left")
    table.add_column("side")
    columns = ("score",) * scores + ("miniatures lost", "points lost", "destroyed/pt")
    for column in columns:
        table.add_column(column, justify="right")
    table.caption = "destroyed/pt: enemy points slain or fled per point of one's own army"
    for side in SIDES:
        casualties = summary["casualties"][side]
        table.add_row(
            side,
            *(_spread(summary["scores"][side]),) * scores,
            _spread(casualties["miniatures_lost"]),
            _spread(casualties["points_lost"]),
            _spread(summary["points_destroyed_per_point"][side], digits=2),
        )
    return table


def _conditions(conditions: dict[str, dict[str, Any]]) -> Table:
    title = "By victory condition (each scores its own way; mean scores)"
    table = Table(title=title, title_justify="left")
    columns = ("condition", "battles", "A wins", "draws", "B wins", "score A", "score B")
    for column in columns:
        table.add_column(column, justify="left" if column == "condition" else "right")
    for name, entry in conditions.items():
        table.add_row(
            escape(name),
            str(entry["battles"]),
            *(f"{entry[key]['rate']:.0%}" for key in ("A wins", "draws", "B wins")),
            *(f"{entry['scores'][side]['mean']:.1f}" for side in SIDES),
        )
    return table


def _units(summary: dict[str, Any]) -> Table:
    measured = all("points_destroyed" in unit for unit in summary["units"])  # not in older runs
    caption = "lost: mean share of its miniatures" + (
        f"; pts destroyed: {DESTROYED_BY_UNIT}, mean a battle; destroyed/pt: that over its own "
        "points, with its 95% interval (- for a unit of no points)"
        if measured
        else ""
    )
    caption += variants_note(summary["units"])
    table = Table(
        title="Units", title_justify="left", caption=escape(caption), caption_justify="left"
    )
    columns = ["side", "unit", "pts", "minis", "lost", "wiped out"]
    for column in columns + (["pts destroyed", "destroyed/pt"] if measured else []):
        table.add_column(column, justify="left" if column == "unit" else "right")
    for unit in summary["units"]:
        cells = [
            unit["side"],
            escape(unit["unit"] + ("*" if unit.get("profile") else "")),
            str(unit["points"]),
            str(unit["miniatures"]),
            f"{unit['share_lost']:.0%}",
            f"{unit['destroyed']['rate']:.0%}",
        ]
        if measured:
            per_point = unit["destroyed_per_point"]
            cells += [
                f"{unit['points_destroyed']['mean']:.1f}",
                with_interval(per_point and per_point["mean"], per_point and per_point["ci95"]),
            ]
        table.add_row(*cells)
    return table


def variants_note(units: list[dict[str, Any]]) -> str:
    """The caption's line for units with numbers of their own (``profile``), starred in the
    table: "; *: its own numbers (profile), A First Cohort: armor 5"; "" when none has."""
    variants = [unit for unit in units if unit.get("profile")]
    if not variants:
        return ""
    return "; *: its own numbers (profile), " + "; ".join(
        f"{unit['side']} {unit['unit']}: "
        + ", ".join(f"{key} {value}" for key, value in unit["profile"].items())
        for unit in variants
    )


def with_interval(mean: float | None, interval: Sequence[float] | None) -> str:
    """A mean and its 95% interval, "0.42 (0.31-0.55)"; "-" for none; the mean alone
    without an interval (one battle)."""
    if mean is None:
        return "-"
    if interval is None:
        return f"{mean:.2f}"
    low, high = interval
    return f"{mean:.2f} ({low:.2f}-{high:.2f})"


def _spread(stats: dict[str, float], digits: int = 1) -> str:
    if not stats:
        return "-"
    return f"{stats['mean']:.{digits}f} ({stats['p10']:.{digits}f} - {stats['p90']:.{digits}f})"
