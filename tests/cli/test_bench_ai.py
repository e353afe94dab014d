"""`openwar bench ai --matchup`: any matchup of player names, a goal only where issue 7 sets one."""

from __future__ import annotations

import pytest

from openwar.bench.ai import goal_of
from openwar.cli.app import main


def test_a_chosen_matchup_plays_instead_of_the_goals(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "ai", "-n", "2", "--matchup", "simple,random"])
    out = capsys.readouterr().out
    assert code == 0
    assert "simple vs random" in out  # the per-battle lines name the matchup
    assert "heuristic vs random" not in out and "search vs heuristic" not in out


def test_a_matchup_keeps_its_goal_whatever_the_search_budget() -> None:
    assert goal_of("search:6", "heuristic") == goal_of("search", "heuristic") == 0.60
    assert goal_of("heuristic", "random") == 0.90
    assert goal_of("heuristic", "search") is None


def test_an_unknown_player_in_a_matchup_gets_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ai", "-n", "2", "--matchup", "chess,random"]) == 2
    err = capsys.readouterr().err
    assert "unknown player 'chess'" in err and len(err.strip().splitlines()) == 1
