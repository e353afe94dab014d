"""`openwar bench battle`: it runs and prints its figures (a benchmark is never a timed test)."""

from __future__ import annotations

import pytest

from openwar.bench.battle import SAMPLE_ARMIES, BattleFigures, figures_table, play_battles
from openwar.cli.app import main


def test_bench_battle_runs_one_battle_per_player(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "battle", "-n", "1"])
    captured = capsys.readouterr()
    assert code == 0
    for word in ("random", "simple", "battles/s", "actions/s", "peak MB"):
        assert word in captured.out
    # the progress bar on stderr, as simulate's: it was the first lines of a saved report
    assert "━" not in captured.out.split("OpenWar battles")[0] and "1/1" in captured.err


def test_bench_battle_refuses_an_unknown_player(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "battle", "-n", "1", "--players", "clever"]) == 2
    assert "--players" in capsys.readouterr().err


def test_figures_count_every_action() -> None:
    figures = play_battles("random", 1, SAMPLE_ARMIES)
    assert figures.battles == 1 and figures.actions > 0 and figures.peak_mb > 0
    assert figures.actions_per_second == pytest.approx(figures.actions / figures.seconds)
    table = figures_table([figures, BattleFigures("simple", 2, 10, 4.0, 100.0)])
    assert table.row_count == 2
