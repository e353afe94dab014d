"""The README shows real output: each `openwar battle` it shows ends in the final state it
prints, and its `openwar simulate` gives the figures it prints (a change of the rules that
changes a battle must change the README with it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from openwar.cli.app import main

ROOT = Path(__file__).resolve().parent.parent


def _shown_battles() -> list[tuple[list[str], str, str]]:
    """(arguments, the "Result:" line's start, the final state) of every battle the README
    shows with its output."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        joined = block.replace("\\\n", " ")
        command = re.search(r"^\$ openwar (battle [^\n]*)", joined, re.M)
        state = re.search(r"actions; final state ([0-9a-f]{16})", joined)
        result = re.search(r"^(Result: [^;]*;)", joined, re.M)
        if command and state and result:
            found.append((command.group(1).split(), result.group(1), state.group(1)))
    return found


def test_the_readme_shows_its_battles() -> None:
    assert len(_shown_battles()) >= 2  # the OpenWar and the Age of Sigmar battle


@pytest.mark.parametrize("shown", _shown_battles(), ids=lambda shown: shown[0][1])
def test_a_battle_the_readme_shows_ends_as_it_shows(
    shown: tuple[list[str], str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    args, result, state = shown
    monkeypatch.chdir(ROOT)
    args = [str(tmp_path / Path(a).name) if a.startswith("out/") else a for a in args]
    assert main(args) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert result in out
    assert f"final state {state}" in out


def _table_numbers(text: str) -> list[str]:
    """The numbers in the rows of a console block's tables, in order (wrapping aside)."""
    rows = [line for line in text.splitlines() if line.startswith("│")]
    return re.findall(r"-?\d[\d,.]*%?", "\n".join(rows))


def test_the_simulation_the_readme_shows_gives_its_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`openwar simulate`'s outcomes, losses and conditions as the README shows them (its
    units and rounds are left out there): a rule change that moves them must move the README."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```console\n(.*?)```", text, re.S)
                 if b.startswith("$ openwar simulate"))  # fmt: skip
    command = re.match(r"\$ openwar (simulate [^\n]*)", block.replace("\\\n", " "))
    assert command is not None
    args = command.group(1).split()
    args[args.index("--plot") + 1] = str(tmp_path / "outcomes.png")
    monkeypatch.chdir(ROOT)
    assert main([*args, "--store", str(tmp_path / "runs.sqlite3")]) == 0
    shown = _table_numbers(block)
    assert len(shown) > 50  # the three tables the README shows
    assert _table_numbers(capsys.readouterr().out)[: len(shown)] == shown
