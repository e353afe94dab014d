"""Every command's --help says what to type: no Python types where a user types something else."""

from __future__ import annotations

import pytest
import typer.main

from openwar.cli.app import app, main
from openwar.cli.clickcompat import Command


def _paths(command: Command, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [prefix]
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        found += _paths(sub, (*prefix, name))
    return found


PATHS = _paths(typer.main.get_command(app))


def test_every_command_is_reached() -> None:
    assert ("odds", "aos") in PATHS and ("bench", "ai") in PATHS and ("runs", "list") in PATHS


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "openwar")
def test_flags_show_no_type_in_help(
    path: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*path, "--help"]) == 0
    out = capsys.readouterr().out
    assert "--help" in out
    assert "<bool>" not in out  # a flag takes no value; Typer 0.29 would print <bool>


def test_rolls_show_what_to_type(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "aos", "--help"]) == 0
    lines = capsys.readouterr().out.splitlines()
    hit = next(line for line in lines if "│ --hit " in line)
    save = next(line for line in lines if "│ --save " in line)
    assert "<N+>" in hit and "<int>" not in hit
    assert "<N+|->" in save


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["battle", "a.yaml", "b.yaml", "--seed", "-3"], "'--seed': must be at least 0"),
        (["battle", "a.yaml", "b.yaml", "--seed", "x"], "'--seed': must be a whole number"),
        (["odds", "aos", "--rend", "5"], "'--rend': must be at most 0"),
        (["bench", "ai", "-n", "1"], "'--battles': must be at least 2"),
    ],
)
def test_a_bad_option_value_is_said_in_plain_words(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert said in err and "Input should" not in err
    assert len(err.strip().splitlines()) == 1


def test_help_paragraphs_are_wrapped_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typer kept the docstring's line breaks and wrapped at the terminal too: "(SEED_i from
    child i of" then "SeedSequence(seed)..." on the next line, under a short one."""
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["simulate", "--help"]) == 0
    broken = next(line for line in capsys.readouterr().out.splitlines() if "child i of" in line)
    assert "child i of SeedSequence(seed).spawn(N)" in broken
    assert main(["charge", "--help"]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert "openwar charge aos --distance 7.5 --reroll" in lines  # commands keep their lines
