"""`openwar battleplan`: summary, JSON keys, pictures, same seed same bytes, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest

from openwar.cli.app import main

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_summary_names_every_part(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["battleplan", "--points", "1000", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    for part in (
        'Battlefield: 60" x 44"',
        "Terrain:",
        "Map:",
        "Victory:",
        "Twist:",
        "SECRET",
        "Deployment:",
        "Game length",
    ):
        assert part in out


def test_the_seed_is_1_unless_given_as_for_battle_and_simulate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`openwar battle --help` shows this command without a seed (it was required)."""
    plan = ["battleplan", "--ruleset", "openwar", "--points", "1000", "--json"]
    assert main(plan) == 0
    unseeded = capsys.readouterr().out
    assert main([*plan, "--seed", "1"]) == 0
    assert capsys.readouterr().out == unseeded
    assert main([*plan, "--seed", "2"]) == 0
    assert capsys.readouterr().out != unseeded


@pytest.mark.parametrize("ruleset", ["aos", "openwar"])
def test_json_has_the_promised_keys(ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["battleplan", "--ruleset", ruleset, "--points", "1000", "--seed", "3", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert set(data["battlefield"]) == {"width", "depth"}
    assert data["units"] == ("inch" if ruleset == "aos" else "cm")
    assert {"name", "polygon", "scenery"} <= set(data["terrain"][0])
    assert set(data["map"]["territories"]) == {"A", "B"} and {"roll", "name"} <= set(data["map"])
    assert {"roll", "name", "objectives"} <= set(data["victory"])
    assert {"roll", "name"} <= set(data["twist"])
    assert {"roll", "name"} <= set(data["ruses"]["A"]) and {"roll", "name"} <= set(
        data["ruses"]["B"]
    )


def test_same_seed_same_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for run in ("a", "b"):
        svg, png = tmp_path / f"{run}.svg", tmp_path / f"{run}.png"
        argv = [
            "battleplan",
            "--points",
            "2500",
            "--seed",
            "9",
            "--json",
            "--svg",
            str(svg),
            "--png",
            str(png),
        ]
        assert main(argv) == 0
        outputs.append((capsys.readouterr().out, svg.read_bytes(), png.read_bytes()))
    assert outputs[0] == outputs[1]
    assert ElementTree.fromstring(outputs[0][1]).tag.endswith("svg")
    assert outputs[0][2].startswith(PNG_SIGNATURE)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--points", "0", "--seed", "1"], "points"),
        (["--points", "-5", "--seed", "1"], "points"),
        (["--points", "100", "--seed", "1", "--ruleset", "chess"], "unknown ruleset"),
        (["--points", "100", "--seed", "1", "--ruleset", "opr"], "no battleplan generator"),
        (["--points", "100", "--seed", "1", "--png", "plan.jpg"], "ending in .png"),
        (["--points", "100", "--seed", "1", "--svg", "plan.png"], "ending in .svg"),
        (["--points", "many", "--seed", "1"], "points"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["battleplan", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and says in err


def test_too_small_battlefield_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from openwar.battleplans import generator
    from openwar.geometry import Battlefield, LengthUnit

    monkeypatch.setattr(
        generator, "battlefield_for", lambda pack, points: (Battlefield(14, 12, LengthUnit.INCH), 4)
    )
    assert main(["battleplan", "--points", "500", "--seed", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "too small" in err


def test_openwar_bp_8_default_scenario_from_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["battleplan", "--ruleset", "openwar", "--scenario", "default"]
    assert main([*argv, "--points", "1000", "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["victory"]["name"] == "Destroy the Enemy"
    assert data["victory"]["objectives"] == []
    assert data["map"]["name"] == "Battle Lines"
    assert main([*argv, "--points", "1000", "--seed", "4"]) == 0
    text = capsys.readouterr().out
    assert "Map: Battle Lines (set by the scenario)" in text and "rolled" not in text
    assert text.startswith("Default scenario: OpenWar, 1000 points, seed 4")  # not Open War's


def test_default_scenario_is_openwar_only(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["battleplan", "--scenario", "default", "--points", "1000", "--seed", "4"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "only the openwar ruleset has a default scenario" in err[0]
