"""Text in [square brackets] (an army's or unit's name, a hint like openwar[bench]) is printed
as written: Rich must not take it for markup and drop it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from openwar.cli.app import main

DATA = Path(__file__).parents[1] / "sim" / "data"
ARMY = "Legion [bold]X"
UNIT = "Legion Cohort [veterans]"


@pytest.fixture
def bracketed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The small legion, renamed with brackets in its own and its first unit's name."""
    monkeypatch.setenv("COLUMNS", "200")  # no table cell wraps a name
    text = (DATA / "small_legion.yaml").read_text()
    text = text.replace("name: Small Legion", f"name: {ARMY}")
    text = text.replace("name: Legion Cohort", f"name: {UNIT}")
    path = tmp_path / "legion.yaml"
    path.write_text(text)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "Traceback" not in captured.out + captured.err
    return captured.out


@pytest.mark.parametrize("command", ["show", "cost"])
def test_army_names_with_brackets_show_verbatim(
    capsys: pytest.CaptureFixture[str], bracketed: Path, command: str
) -> None:
    out = run(capsys, "army", command, str(bracketed))
    assert ARMY in out and UNIT in out


def test_battle_shows_an_army_name_with_brackets_verbatim(
    capsys: pytest.CaptureFixture[str], bracketed: Path
) -> None:
    out = run(capsys, "battle", str(bracketed), str(DATA / "small_lodge.yaml"), "--seed", "3")
    assert f"A: {ARMY} (simple)" in out


def test_sweep_shows_a_unit_name_with_brackets_verbatim(
    capsys: pytest.CaptureFixture[str], bracketed: Path
) -> None:
    argv = ["sweep", str(bracketed), str(DATA / "small_lodge.yaml"), "--unit", UNIT]
    out = run(capsys, *argv, "--size", "10,20", "-n", "1", "--players", "random", "--workers", "1")
    assert f"{UNIT} (A): win share" in out


def test_bench_odds_hint_names_the_bench_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "icepool", None)  # as if installed without extras
    out = run(capsys, "bench", "odds", "--repeat", "1", "--trials", "1000")
    assert "pip install -e '.[bench]'" in out


def test_simulate_and_runs_show_names_with_brackets_verbatim(
    capsys: pytest.CaptureFixture[str], bracketed: Path, tmp_path: Path
) -> None:
    store = str(tmp_path / "runs.sqlite3")
    argv = ["simulate", str(bracketed), str(DATA / "small_lodge.yaml"), "-n", "1"]
    out = run(capsys, *argv, "--players", "random", "--workers", "1", "--store", store)
    assert f"A: {ARMY} (" in out and f"A wins ({ARMY})" in out and UNIT in out
    assert f"{ARMY} vs Small Lodge" in run(capsys, "runs", "list", "--store", store)
