"""The simulation report: a home-made variant is marked where its results are shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


def test_a_variant_unit_is_marked_in_the_units_table_and_its_numbers_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A unit with its own numbers (``profile``) is starred, its numbers in the caption and
    under ``profile`` in the JSON; the other units' rows have no such key."""
    from openwar.cli.app import main

    from .conftest import ARMY_A, ARMY_B

    variant = tmp_path / "variant_legion.yaml"
    variant.write_text(
        ARMY_A.read_text().replace("    size: 10\n", "    size: 10\n    profile: {armor: 5}\n")
    )
    argv = ["simulate", str(variant), str(ARMY_B), "-n", "2", "--players", "random"]
    assert main([*argv, "--workers", "1", "--json"]) == 0
    units = json.loads(capsys.readouterr().out)["units"]
    assert [u.get("profile") for u in units[:3]] == [{"armor": 5}, None, None]
    monkeypatch.setenv("COLUMNS", "200")  # the unit's name on one line
    assert main([*argv, "--workers", "1"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert (
        "Legion Cohort*" in text
        and "*: its own numbers (profile), A Legion Cohort: armor 5" in text
    )


def test_a_variant_unit_is_marked_in_a_battles_units_table_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from openwar.cli.app import main

    from .conftest import ARMY_A, ARMY_B

    variant = tmp_path / "variant_lodge.yaml"
    text = ARMY_B.read_text()
    first = text.index("    type: ")
    end = text.index("\n", first) + 1
    variant.write_text(text[:end] + "    profile: {move: 7}\n" + text[end:])
    argv = ["battle", str(ARMY_A), str(variant), "--seed", "3", "--players", "random"]
    assert main([*argv, "--json"]) == 0
    units = json.loads(capsys.readouterr().out)["units"]
    assert [u.get("profile") for u in units] == [None, None, None, {"move": 7}, None, None]
    monkeypatch.setenv("COLUMNS", "200")
    assert main(argv) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "*: its own numbers (profile), B " in text and ": move 7" in text
