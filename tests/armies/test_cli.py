"""`openwar army`: exit 0 valid, 1 invalid (every problem listed), 2 unreadable (one line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openwar.cli.app import main
from openwar.rulesets import RULESETS

SAMPLE = Path(__file__).parents[2] / "examples" / "armies" / "openwar" / "iron_road_legion.yaml"
Capture = pytest.CaptureFixture[str]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "army.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_validate_sample_exits_0(capsys: Capture) -> None:
    assert main(["army", "validate", str(SAMPLE)]) == 0
    assert "valid, 950 points (limit 1000)" in capsys.readouterr().out


def test_validate_invalid_army_exits_1_listing_every_problem(
    tmp_path: Path, capsys: Capture
) -> None:
    text = "ruleset: openwar\nname: X\npoints_limit: 50\nunits:\n  - {name: A, type: Brakers}\n"
    text += "  - {name: B, type: Defenders, options: [{name: Dager, models: 2}]}\n"
    path = write(tmp_path, text)
    assert main(["army", "validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert "invalid, 4 problems" in out
    assert "A: unknown unit type 'Brakers' (did you mean 'Breakers'?) [U1 unit types]" in out
    assert "B / Dager: unknown option 'Dager' (did you mean 'Dagger'?)" in out
    assert "[U12 exactly one Command unit]" in out and "[U13 points limit]" in out


def test_validate_json(tmp_path: Path, capsys: Capture) -> None:
    text = "ruleset: opr\nname: X\nunits:\n  - {name: A, type: Warden Captain}\n"
    path = write(tmp_path, text + "  - {name: B, type: Ember Adept}\n")
    assert main(["army", "validate", str(path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is False and data["points"] == 105 and data["points_limit"] == 350
    assert [p["rule"] for p in data["problems"]] == ["U9"]
    assert set(data["problems"][0]) == {"rule", "title", "message", "unit", "option"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ruleset: openwar\nname: X\nunits: [\n", "line 4, column 1: not valid YAML"),
        ("ruleset: openwar\nname: X\nunits:\n  - name: A\n    type: Scouts\n    sise: 3\n",
         "line 6, units.0.sise: is not a known field"),
        ("ruleset: openwar\nname: X\nunits:\n  - {name: A, type: Scouts, size: many}\n",
         "line 4, units.0.size: must be a whole number"),
        ("ruleset: openwar\nname: X\nunits:\n  - {name: A, type: Scouts, size: -3}\n",
         "line 4, units.0.size: must be at least 1"),
        ("ruleset: openwar\nname: X\nunits:\n  - name: A\n    type: Scouts\n"
         "    options: [{name: Sword, models: 0}]\n",
         "units.0.options.0.models: must be at least 1"),
        ("- just a list\n", "line 1: expected a mapping"),
    ],
)  # fmt: skip
def test_malformed_file_is_one_line_naming_file_and_place_exit_2(
    tmp_path: Path, capsys: Capture, text: str, expected: str
) -> None:
    path = write(tmp_path, text)
    assert main(["army", "validate", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and expected in err


def test_validate_lists_every_problem_of_a_malformed_file_one_per_line(
    tmp_path: Path, capsys: Capture
) -> None:
    """`army validate` names them all (other commands name the first and count the rest)."""
    text = (
        "ruleset: openwar\nunits:\n  - name: A\n    type: Scouts\n    sise: 3\n"
        "  - name: B\n    type: Scouts\n    colour: red\n"
    )
    path = write(tmp_path, text)
    assert main(["army", "validate", str(path)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert [line.split(f"{path}: ")[1] for line in lines] == [
        "line 1, name: is missing",
        "line 5, units.0.sise: is not a known field (did you mean 'size'?)",
        "line 8, units.1.colour: is not a known field",
    ]
    assert main(["army", "show", str(path)]) == 2
    assert capsys.readouterr().err.strip().endswith("line 1, name: is missing (and 2 more)")


def test_missing_and_huge_files_are_refused(tmp_path: Path, capsys: Capture) -> None:
    assert main(["army", "show", str(tmp_path / "none.yaml")]) == 2
    assert "cannot be read" in capsys.readouterr().err
    huge = write(tmp_path, "# " + "x" * 1_000_001 + "\n")
    assert main(["army", "cost", str(huge)]) == 2
    assert "over the 1,000,000-byte limit" in capsys.readouterr().err


def test_show_and_cost_print_units_options_and_points(capsys: Capture) -> None:
    assert main(["army", "show", str(SAMPLE)]) == 0
    shown = capsys.readouterr().out
    assert "Third Ironclad Cohort" in shown and "total 950 points" in shown
    assert main(["army", "cost", str(SAMPLE), "--json"]) == 0
    cost = json.loads(capsys.readouterr().out)
    third = next(u for u in cost["units"] if u["unit"] == "Third Ironclad Cohort")
    assert third["options"][0] == {"option": "Heavy Javelin", "models": 12, "points": 48,
                                   "way": "12 x 4 (10+ each)"}  # fmt: skip


def test_show_names_an_option_bought_per_unit_without_a_model_count(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A per-unit upgrade showed the unit's size ("Sergeant x10"), as if ten were bought."""
    monkeypatch.setenv("COLUMNS", "200")
    patrol = Path(__file__).parents[2] / "examples" / "armies" / "opr" / "warden_patrol.yaml"
    assert main(["army", "show", str(patrol)]) == 0
    shown = capsys.readouterr().out
    assert "Sergeant, Musician/Standard" in shown and " x10" not in shown


@pytest.mark.parametrize("command", ["show", "cost"])
def test_show_and_cost_list_the_problems_an_unpriced_option_among_them(
    command: str, tmp_path: Path, capsys: Capture
) -> None:
    # an option a problem names is left out of the points: once only counted ("1 problem")
    text = SAMPLE.read_text(encoding="utf-8").replace(
        "      - {name: Specialist, models: 2}",
        "      - {name: Specialist, models: 2}\n      - {name: Flaming Sword}",
    )
    assert main(["army", command, str(write(tmp_path, text))]) == 1  # not legal, as validate
    out = capsys.readouterr().out
    assert "total 950 points (limit 1000); 1 problem:\n" in out
    assert "  - Ashwood Skirmishers / Flaming Sword: unknown option 'Flaming Sword'" in out
    assert "(an option that could not be priced is left out of the table and the points)" in out
    assert "Flaming Sword" not in out.split("total 950")[0]  # not in the table


def test_cost_says_nothing_is_left_out_when_every_option_is_priced(
    tmp_path: Path, capsys: Capture
) -> None:
    """An option over the unit's size is priced and shown: the note said it was left out."""
    text = SAMPLE.read_text(encoding="utf-8").replace(
        "      - {name: Specialist, models: 2}",
        "      - {name: Specialist, models: 6}\n      - {name: Specialist, models: 6}",
    )
    assert main(["army", "cost", str(write(tmp_path, text))]) == 1
    out = capsys.readouterr().out
    assert "problem" in out and "left out of the table" not in out


@pytest.mark.parametrize("command", ["show", "cost"])
@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_show_and_cost_exit_1_for_an_army_with_problems_as_validate(
    command: str, as_json: list[str], tmp_path: Path, capsys: Capture
) -> None:
    """They printed the problems and exited 0: a script pricing a list took it for legal."""
    text = SAMPLE.read_text(encoding="utf-8").replace("type: Command", "type: Comand")
    path = write(tmp_path, text)
    assert main(["army", command, str(path), *as_json]) == 1
    out = capsys.readouterr().out
    if not as_json:
        assert "did you mean 'Command'" in out
    elif command == "show":
        assert json.loads(out)["valid"] is False
    else:  # the cost alone, as of a valid army: the exit code says it is not legal
        assert "units" in json.loads(out)
    assert main(["army", command, str(SAMPLE), *as_json]) == 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_new_writes_a_valid_starter_army(ruleset: str, tmp_path: Path, capsys: Capture) -> None:
    path = tmp_path / f"{ruleset}.yaml"
    assert main(["army", "new", ruleset, str(path), "--name", "Mine"]) == 0
    assert main(["army", "validate", str(path)]) == 0
    assert main(["army", "new", ruleset, str(path)]) == 2
    assert "already exists" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["show", "cost"])
@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_show_and_cost_of_an_army_of_no_known_ruleset_is_one_line(
    tmp_path: Path, capsys: Capture, command: str, as_json: list[str]
) -> None:
    # once a traceback (show) or an empty table and exit 0 (cost)
    path = write(
        tmp_path, SAMPLE.read_text(encoding="utf-8").replace("ruleset: openwar", "ruleset: chess")
    )
    assert main(["army", command, str(path), *as_json]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}: unknown ruleset 'chess'" in err


def test_new_names_a_file_it_cannot_write_and_leaves_nothing(
    tmp_path: Path, capsys: Capture
) -> None:
    missing = tmp_path / "no-such-folder" / "army.yaml"
    assert main(["army", "new", "openwar", str(missing)]) == 2
    assert f"{missing}: the folder {missing.parent} does not exist" in capsys.readouterr().err
    assert main(["army", "new", "openwar", str(tmp_path), "--force"]) == 2
    assert f"{tmp_path}: is a folder, not a file" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no half-written file left


def test_new_refuses_a_name_that_is_not_text(tmp_path: Path, capsys: Capture) -> None:
    # bytes a terminal could not decode reach Python as surrogates: once a traceback
    path = tmp_path / "n.yaml"
    assert main(["army", "new", "oldworld", str(path), "--name", "\udcff\udcfe"]) == 2
    assert "the name is not valid UTF-8 text" in capsys.readouterr().err
    assert not path.exists()


def test_an_army_of_more_than_1000_units_is_one_line(tmp_path: Path, capsys: Capture) -> None:
    # a 1 MB file of 27,808 units took 25 s to show
    units = "".join(f"  - {{name: Unit {i}, type: Breakers}}\n" for i in range(1001))
    path = write(tmp_path, f"ruleset: openwar\nname: Horde\npoints_limit: 1000\nunits:\n{units}")
    assert main(["army", "show", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "units: List should have at most 1000 items" in err


def test_show_names_the_weapons_a_type_carries_without_paying(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Breakers unit fights with its Axe as well as what it bought: the table named only
    the bought options, so an odds check of the unit's attack could take the wrong weapon."""
    monkeypatch.setenv("COLUMNS", "200")  # every cell on one line
    assert main(["army", "show", str(SAMPLE)]) == 0
    words = " ".join(capsys.readouterr().out.split())
    assert "Axe (free), Heavy Javelin x20" in words and "Dagger (free), Siege" in words
    assert "(free): what every miniature of the type carries without paying" in words
    assert main(["army", "show", str(SAMPLE), "--json"]) == 0
    carried = {c["unit"]: c["carried"] for c in json.loads(capsys.readouterr().out)["carried"]}
    assert carried["First Ironclad Cohort"] == ["Axe"] and "Siege Engine" in carried["Bolt Engine"]


def test_cost_says_how_each_units_base_was_reckoned(tmp_path: Path, capsys: Capture) -> None:
    """It said "base 140" for 20 miniatures at 7 points each from the unit's own profile."""
    text = SAMPLE.read_text(encoding="utf-8").replace(
        "    type: Breakers\n", "    type: Breakers\n    profile: {points_per_miniature: 7}\n", 1
    )
    assert main(["army", "cost", str(write(tmp_path, text)), "--json"]) == 0
    units = json.loads(capsys.readouterr().out)["units"]
    first = next(u for u in units if u["type"] == "Breakers")
    assert (first["base"], first["base_way"]) == (140, "20 x 7 (profile)")
    assert next(u for u in units if u["type"] == "Skirmishers")["base_way"] == "10 x 10"
