"""`openwar bench ai --matchup`: any matchup of player names, a goal only where issue 7 sets one."""

from __future__ import annotations

import json
from typing import Any

import pytest

from openwar.bench.ai import goal_of
from openwar.cli.app import main
from openwar.engine.game import apply


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
    assert "--matchup" in err and "--players" not in err  # the option the user typed


def test_a_matchup_of_three_players_names_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ai", "--matchup", "heuristic,random,simple"]) == 2
    err = capsys.readouterr().err
    assert "--matchup 'heuristic,random,simple': expected two players" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["-n", "3"], "'-n': 3 is odd"),
        (["--matchup", "heuristic"], "'--matchup': 'heuristic': expected two players"),
    ],
)
def test_an_odd_count_or_a_one_player_matchup_is_refused(
    capsys: pytest.CaptureFixture[str], argv: list[str], named: str
) -> None:
    """Battles come in pairs with the sides swapped, and a matchup names the player tested
    and its opponent: -n 3 played three and one name played a mirror, without a word."""
    assert main(["bench", "ai", *argv]) == 2
    err = capsys.readouterr().err
    assert named in err and len(err.strip().splitlines()) == 1


def test_json_gives_the_figures_and_a_breakdown_that_adds_up(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "ai", "-n", "6", "--matchup", "simple,random", "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert "simple vs random" in captured.err  # each battle's line, kept off the JSON
    (match,) = data["matchups"]
    assert (match["first"], match["second"], match["goal"]) == ("simple", "random", None)
    assert match["battles"] == 6 and match["won"] + match["drawn"] + match["lost"] == 6
    for kind in ("by_condition", "by_army"):
        parts = match[kind].values()
        for key in ("battles", "won", "drawn", "lost"):
            assert sum(part[key] for part in parts) == match[key], (kind, key)
    assert set(match["by_army"]) == {"iron_road_legion", "hearthhold_lodge"}
    low, high = match["interval"]
    assert low <= match["win_rate"] <= high
    # every battle, in pairs of one seed with the sides swapped, adding up to the figures
    games = match["games"]
    assert [g["side"] for g in games] == [0, 1] * 3
    firsts, seconds = [g["seed"] for g in games[::2]], [g["seed"] for g in games[1::2]]
    assert firsts == seconds and len(set(firsts)) == 3  # three pairs, three battleplans
    for result, key in (("win", "won"), ("draw", "drawn"), ("loss", "lost")):
        assert sum(g["result"] == result for g in games) == match[key]
    assert {g["army"] for g in games} == set(match["by_army"])
    assert all(len(g["scores"]) == 2 and g["condition"] in match["by_condition"] for g in games)


def test_the_figures_are_the_same_for_any_number_of_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    found = []
    for workers in ("1", "2"):
        args = ["bench", "ai", "-n", "4", "--seed", "3", "--matchup", "random,simple"]
        assert main([*args, "--workers", workers, "--json"]) == 0
        match = json.loads(capsys.readouterr().out)["matchups"][0]
        match.pop("ms_per_decision")  # thinking time is the one thing measured, not played
        found.append(match)
    assert found[0] == found[1]


def test_the_tables_break_the_results_down_by_condition_and_army(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "ai", "-n", "2", "--matchup", "simple,random"]) == 0
    out = capsys.readouterr().out
    assert "by victory condition and by army" in out
    assert "iron_road_legion" in out


def test_a_battle_the_engine_fails_is_recorded_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    from openwar.bench import ai
    from openwar.engine.errors import IllegalActionError

    calls = []

    def failing(state: Any, action: Any) -> Any:
        calls.append(action)
        if len(calls) == 30:
            raise IllegalActionError("OW-B4", "a's path to (1, 2) is blocked")
        return apply(state, action)

    monkeypatch.setattr(ai, "apply", failing)
    (game,) = ai.games("simple", "random", 1, 0, ai.SAMPLE_ARMIES)
    result = ai.play_game(game)
    assert result.result == "stuck"
    assert result.error == "IllegalActionError: OW-B4: a's path to (1, 2) is blocked"
    assert "(IllegalActionError: OW-B4" in ai._line(result)


STOPS = [
    (3, "after 3 of 4 battles of simple vs random: its figures are of the first 1 whole pair; "
        "not played: random vs simple"),
    (4, "after 0 of 4 battles of random vs simple: its figures are of the first 0 whole pairs"),
]  # fmt: skip


@pytest.mark.parametrize(("stop_at", "said"), STOPS)
def test_a_stopped_bench_keeps_whole_pairs_and_names_what_it_did_not_play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stop_at: int, said: str
) -> None:
    """Stopped mid-matchup or between two (a stop that fell between them blamed the matchup
    just finished, and the next one was missing from the figures)."""
    from openwar.bench import ai

    ended: list[object] = []

    def played(work: list[Any], workers: int) -> Any:
        for game in work:
            if len(ended) == stop_at:
                raise KeyboardInterrupt
            ended.append(game)
            yield ai.GameResult(game, "win", (1, 0), (1, 1), (0.0, 0.0), "Invasion")

    monkeypatch.setattr(ai, "play_all", played)
    figures = ai.run(4, 0, 1, (("simple", "random", 0.9), ("random", "simple", 0.9)))
    out = " ".join(capsys.readouterr().out.split())
    assert f"Interrupted {said}" in out
    assert [(len(m.results), m.planned, m.stopped) for m in figures] == (
        [(2, 4, "interrupted"), (0, 4, "")] if stop_at == 3 else [(4, 4, ""), (0, 4, "interrupted")]
    )
    assert "not played" in out.split("AI mirror matches")[1]  # the goal column of the empty one
