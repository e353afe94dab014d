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


def test_panels_that_count_battles_have_whole_ticks() -> None:
    """The rounds panel of 5 battles (2 and 3 of them) had ticks at 0.5, 1.5 ... battles."""
    import matplotlib.pyplot as plt

    from openwar.sim.plot import _histograms, _rounds

    played = [BattleResult(i, i, 0, "minor", (1, 0), 4 if i < 2 else 5) for i in range(5)]
    fig, (rounds, scores) = plt.subplots(1, 2)
    _rounds(rounds, played)
    _histograms(scores, [[1.0] * 3, [2.0] * 2], ["A", "B"], "score")
    fig.canvas.draw()
    for ax in (rounds, scores):
        ticks = list(ax.get_yticks())
        assert len(ticks) >= 3 and all(t == int(t) for t in ticks), ticks
    plt.close(fig)


def test_the_rounds_panel_keeps_a_round_no_battle_ended_in() -> None:
    """Battles of 1, 2, 3 and 5 rounds: round 4 is a bar of 0, not left out (5 stood next to
    3 as if it came after it)."""
    import matplotlib.pyplot as plt

    from openwar.sim.plot import _rounds

    played = [
        BattleResult(k, k, 0, "minor", (1, 0), rounds) for k, rounds in enumerate([1, 2, 3, 5, 5])
    ]
    fig, ax = plt.subplots()
    try:
        _rounds(ax, played)
        labels = [t.get_text() for t in ax.get_xticklabels()]
        heights = [bar.get_height() for bar in ax.containers[0]]
    finally:
        plt.close(fig)
    assert labels == ["1", "2", "3", "4", "5"] and heights == [1, 1, 1, 0, 2]


def test_units_destroyed_per_point_get_a_panel_with_their_intervals(tmp_path: Path) -> None:
    """With each unit's points destroyed in the summary, a panel below shows them per point
    of its cost, an error bar for the unit with an interval, a line at 1 (its points earned
    back); a summary from before them (or a unit of no points) draws no bar for it."""
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.patches import Rectangle

    from openwar.sim.plot import _per_point

    units = [
        {"side": "A", "unit": "Spears", "destroyed_per_point": {"mean": 0.5, "ci95": [0.2, 0.8]}},
        {"side": "B", "unit": "Bows", "destroyed_per_point": {"mean": 1.5, "ci95": None}},
    ]
    fig, ax = plt.subplots()
    _per_point(ax, units)
    bars = sorted(p.get_width() for p in ax.patches if isinstance(p, Rectangle))
    assert [round(width, 6) for width in bars] == [0.5, 1.5]
    at = {
        float(y): t.get_text() for y, t in zip(ax.get_yticks(), ax.get_yticklabels(), strict=True)
    }
    assert at[max(at)] == "A: Spears" and at[min(at)] == "B: Bows"  # A's first unit on top
    assert len(ax.collections) == 1  # one error bar: Bows has no interval (one battle)
    dashed = [np.asarray(line.get_xdata()) for line in ax.lines if line.get_linestyle() == "--"]
    assert [float(x[0]) for x in dashed] == [1.0]
    plt.close(fig)
    summary = {**SUMMARY, "units": [*units, {"side": "B", "unit": "Banner",
                                             "destroyed_per_point": None}]}  # fmt: skip
    chart = plot_run(summary, RESULTS, tmp_path / "units.svg").read_bytes()
    assert b"earned back" in chart and b"Banner" not in chart
    assert b"earned back" not in plot_run(SUMMARY, RESULTS, tmp_path / "old.svg").read_bytes()
