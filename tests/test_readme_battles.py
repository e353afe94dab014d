"""The README shows real output: each `openwar battle` it shows ends in the final state it
prints (a change of the rules that changes a battle must change the README with it)."""

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
