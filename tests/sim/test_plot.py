"""`--plot`: the outcome chart is written as SVG with the same bytes every time."""

from __future__ import annotations

from pathlib import Path

import pytest

from openwar.errors import OpenWarError
from openwar.sim.plan import BattleResult
from openwar.sim.plot import plot_run

SUMMARY = {"armies": {"A": {"name": "Legion"}, "B": {"name": "Lodge"}}}
RESULTS = [
    BattleResult(0, 11, 0, "major", (200, 40), 5, "", "", (3, 12), (30.0, 120.0)),
    BattleResult(1, 12, 1, "minor", (90, 140), 5, "", "", (9, 4), (95.5, 40.0)),
    BattleResult(2, 13, None, "draw", (100, 100), 4, "", "", (5, 5), (50.0, 50.0)),
    BattleResult(3, 14, error="ValueError: boom"),
]


def test_svg_is_reproducible(tmp_path: Path) -> None:
    first = plot_run(SUMMARY, RESULTS, tmp_path / "a.svg").read_bytes()
    second = plot_run(SUMMARY, RESULTS, tmp_path / "b.svg").read_bytes()
    assert first == second
    assert b"Outcomes" in first and b"Legion" in first


def test_plot_needs_svg_or_png(tmp_path: Path) -> None:
    with pytest.raises(OpenWarError, match=r"\.png or \.svg"):
        plot_run(SUMMARY, RESULTS, tmp_path / "a.pdf")


def test_several_conditions_show_outcomes_by_condition(tmp_path: Path) -> None:
    """Scores of different victory conditions count different things: with several, the
    second panel shows each condition's outcomes instead of one score histogram."""
    mixed = [
        BattleResult(0, 11, 0, "minor", (3, 2), 5, condition="Loot and Plunder"),
        BattleResult(1, 12, 1, "minor", (120, 400), 5, condition="War of Attrition"),
    ]
    chart = plot_run(SUMMARY, mixed, tmp_path / "mixed.svg").read_bytes()
    assert b"By victory condition" in chart
    alone = plot_run(SUMMARY, RESULTS, tmp_path / "alone.svg").read_bytes()
    assert b"By victory condition" not in alone
