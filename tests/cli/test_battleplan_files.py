"""`--battleplan FILE` of `openwar battle`, `simulate` and `sweep`: a plan for the other
ruleset or with a field missing is refused in one line naming the file and the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openwar.battleplans.files import check_battleplan
from openwar.battleplans.generator import generate, generate_default_scenario
from openwar.battleplans.report import battleplan_json
from openwar.cli.app import main
from openwar.errors import OpenWarError

from .kit import one_line_error

EXAMPLES = Path(__file__).parents[2] / "examples" / "armies"
SMALL = Path(__file__).parents[1] / "sim" / "data"
OPENWAR = (str(SMALL / "small_legion.yaml"), str(SMALL / "small_lodge.yaml"))
AOS = (str(EXAMPLES / "aos" / "ember_court.yaml"), str(EXAMPLES / "aos" / "gilded_vanguard.yaml"))
ARMIES = {"openwar": OPENWAR, "aos": AOS}
OTHER = {"openwar": "aos", "aos": "openwar"}


def plan_file(tmp_path: Path, ruleset: str, change: Any = None) -> Path:
    plan = battleplan_json(generate(ruleset, 1000, 3))
    if change is not None:
        change(plan)
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan))
    return path


def commands(armies: tuple[str, str], path: Path) -> list[list[str]]:
    plan = ["--battleplan", str(path)]
    return [
        ["battle", *armies, *plan],
        ["simulate", *armies, "-n", "1", "--workers", "1", *plan],
        ["sweep", *armies, "--unit", "X", "--size", "5,10", "-n", "1", "--workers", "1", *plan],
    ]


@pytest.mark.parametrize("ruleset", ["openwar", "aos"])
@pytest.mark.parametrize("command", ["battle", "simulate", "sweep"])
def test_a_plan_for_the_other_ruleset_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, ruleset: str, command: str
) -> None:
    path = plan_file(tmp_path, OTHER[ruleset])
    argv = next(a for a in commands(ARMIES[ruleset], path) if a[0] == command)
    err = one_line_error(capsys, argv)
    assert str(path) in err
    assert f"the battleplan is for {OTHER[ruleset]!r}" in err
    assert f"openwar battleplan --ruleset {ruleset}" in err


def _drop(*keys: str) -> Any:
    def change(plan: dict[str, Any]) -> None:
        *within, last = keys
        for key in within:
            plan = plan[key]
        del plan[last]

    return change


def _set(key: str, value: Any) -> Any:
    return lambda plan: plan.update({key: value})


def _territory(side: str, corners: list[list[float]]) -> Any:
    return lambda plan: plan["map"]["territories"].update({side: corners})


def _same_territories(plan: dict[str, Any]) -> None:
    plan["map"]["territories"]["B"] = plan["map"]["territories"]["A"]


def _scenery(value: Any) -> Any:
    return lambda plan: plan["terrain"][0].update({"scenery": value})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda plan: plan.clear(), '"ruleset" is missing'),
        (lambda plan: [plan.pop(k) for k in list(plan) if k != "ruleset"],
         '"units" (the unit of its lengths) is missing'),
        (_drop("terrain"), '"terrain" is missing'),
        (_drop("map", "territories", "B"), '"map.territories.B" is missing'),
        (_drop("victory", "objectives"), '"victory.objectives" is missing'),
        (_drop("battlefield", "width"), '"battlefield.width" is missing'),
        (_set("battlefield", {"width": "wide", "depth": 90}), '"battlefield.width" should be a'),
        (_set("units", "inch"), "\"units\" is 'inch'"),
        (_set("ruleset", "chess"), "\"ruleset\" is 'chess'"),
        (_set("terrain", [{"name": "Hill", "polygon": [[1, 2], [3]]}]), '"terrain[0].polygon'),
        (_territory("A", [[0, 0], [10, 10], [10, 0], [0, 10]]), "is not a simple shape"),
        (_territory("A", [[0, 0], [5, 5], [10, 10]]), "is not a simple shape"),
        (_territory("A", [[500, 500], [600, 500], [600, 600]]), "mostly off the battlefield"),
        (_same_territories, "A and B mostly overlap"),
        (_scenery("x"), '"terrain[0].scenery" should be an object'),
        # a feature off the table or with no area was accepted (and drawn with a warning)
        (lambda plan: plan["terrain"][0].update({"polygon": [[-500, -500], [-400, -500],
                                                            [-400, -400]]}),
         '"terrain[0].polygon" lies mostly off the battlefield'),
        (lambda plan: plan["terrain"][0].update({"polygon": [[1, 1], [1, 1], [1, 1]]}),
         '"terrain[0].polygon" is not a simple shape with an area'),
        (_set("game_length", float("inf")), '"game_length" should be a number'),
        (_set("roll_offs", {"terrain": "x"}), '"roll_offs.terrain" should be an object'),
        (_set("triumphs", [1]), '"triumphs" should be side names'),
        (_set("twist", {"name": "Blood Moon"}), '"twist.name" is "Blood Moon", not a twist'),
        (_set("twist", {"roll": 2}), '"twist.name" is missing'),
        (_set("game_length", 2.5), '"game_length" should be a whole number of rounds from 1'),
        (_set("game_length", 10**9), "not 1000000000"),
        (_set("game_length", -3), "not -3"),
        (_set("objective_control_range", -1.0), '"objective_control_range" should be above 0'),
        # a table of a billion took 16 GB; of 1e308, a traceback
        (_set("battlefield", {"width": 1e9, "depth": 90}),
         '"battlefield.width" should be at most 1,000 cm, not 1000000000'),
        (_set("battlefield", {"width": 90, "depth": 1e308}), '"battlefield.depth" should be at'),
        (lambda plan: plan["victory"].update({"objectives": [[1e9, -1e9]]}),
         '"victory.objectives[0]" [1000000000.0, -1000000000.0] is off the 90'),
        (lambda plan: plan["victory"].update({"name": "Capture the Flag"}),
         "\"victory.name\" is \"Capture the Flag\", not a victory condition of openwar"),
        (_set("ruses", {"A": {"name": "Teleport"}}), '"ruses.A.name" is "Teleport", not a ruse'),
        (_set("ruses", {"C": None}), '"ruses.C": the sides are A and B'),
        (_set("ruses", {"A": 5}), '"ruses.A" should be an object, not 5'),
        (_set("ruses", [1]), '"ruses" should be an object'),
        (lambda plan: plan["victory"].update({"objectives": [[1, 1]] * 51}),
         'more than 50 "victory.objectives"'),
        # a plan without its condition's objectives played to a certain draw; an unknown
        # scenery rule was played as none
        (lambda plan: plan["victory"].update({"objectives": []}),
         '"victory.objectives" lists 0 objectives; Drawn and Quartered is played on 4'),
        (lambda plan: plan["victory"].update({"objectives": plan["victory"]["objectives"][:1]}),
         '"victory.objectives" lists 1 objective; Drawn and Quartered is played on 4'),
        (lambda plan: plan["victory"].update({"name": "War of Attrition"}),
         '"victory.objectives" lists 4 objectives; War of Attrition is played on 0'),
        (_scenery({"name": "Nonsense"}),
         '"terrain[0].scenery.name" is "Nonsense", not a scenery rule of openwar (one of'),
    ],
)  # fmt: skip
def test_an_incomplete_plan_names_the_field_and_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: Any, message: str
) -> None:
    path = plan_file(tmp_path, "openwar", change)
    for argv in commands(OPENWAR, path):
        err = one_line_error(capsys, argv)
        assert str(path) in err and message in err, err
        assert "the battleplan is for" not in err


def test_a_plan_nested_too_deeply_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    err = one_line_error(capsys, commands(OPENWAR, path)[0])
    assert f"{path}: not a readable battleplan JSON (nested too deeply)" in err


def test_a_missing_plan_file_is_named_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """It read 'x.json: not a readable battleplan JSON (x.json: cannot be read (...))'."""
    path = tmp_path / "x.json"
    for argv in commands(OPENWAR, path):
        err = one_line_error(capsys, argv)
        assert err.count(str(path)) == 1 and f"{path}: cannot be read (No such file" in err, err


def test_an_army_file_given_as_the_plan_says_where_it_stops_being_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Not the JSON parser's own words: the file, its line and column, and what a plan is."""
    army = OPENWAR[0]
    err = one_line_error(capsys, ["battle", *OPENWAR, "--battleplan", army])
    assert f"{army}, line 1 column 1: not JSON (expecting value)" in err, err
    assert "`openwar battleplan --ruleset openwar --json`" in err
    path = tmp_path / "cut.json"
    path.write_text('{"ruleset": "openwar",\n  "map": ')
    err = one_line_error(capsys, ["battle", *OPENWAR, "--battleplan", str(path)])
    assert f"{path}, line 2 column 10: not JSON" in err, err


def test_a_replay_given_as_the_plan_is_called_a_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """It said '"units" is missing', read as the army's units (it is the lengths' unit)."""
    from openwar.cli.app import main

    replay = tmp_path / "r.json"
    assert main(["battle", *OPENWAR, "--seed", "3", "--replay", str(replay)]) == 0
    capsys.readouterr()
    err = one_line_error(capsys, ["battle", *OPENWAR, "--battleplan", str(replay)])
    assert f"{replay}: a battle's replay, not a battleplan (`openwar replay FILE`" in err, err


def test_a_plan_that_is_not_an_object_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "plan.json"
    path.write_text("[1, 2]")
    err = one_line_error(capsys, ["battle", *OPENWAR, "--battleplan", str(path)])
    assert str(path) in err and "expected a JSON object" in err


@pytest.mark.parametrize(
    "plan",
    [
        battleplan_json(generate("openwar", 1000, 3)),
        battleplan_json(generate("aos", 2000, 8)),
        battleplan_json(generate_default_scenario(1000, 3)),
    ],
)
def test_generated_plans_pass_the_check(plan: dict[str, Any]) -> None:
    check_battleplan(json.loads(json.dumps(plan)), plan["ruleset"])


def test_the_check_refuses_the_other_ruleset() -> None:
    with pytest.raises(OpenWarError, match="an OpenWar battle needs"):
        check_battleplan(battleplan_json(generate("aos", 1000, 3)), "openwar")


def test_battle_plays_on_a_plan_of_its_own_ruleset(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = plan_file(tmp_path, "openwar")
    code = main(["battle", *OPENWAR, "--battleplan", str(path), "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert json.loads(captured.out)["battleplan"]


@pytest.mark.parametrize("command", ["battle", "simulate", "sweep"])
def test_a_plan_made_for_other_points_than_the_armies_is_noted_and_played(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    command: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 1000-point plan (its table and terrain sized for 1000) was taken for 500-point
    armies without a word."""
    monkeypatch.setenv("OPENWAR_STORE", str(tmp_path / "runs.sqlite3"))

    def argv(path: Path) -> list[str]:  # sweep: a unit of the army, with a size it may have
        found = next(a for a in commands(OPENWAR, path) if a[0] == command)
        sizes = {"X": "Legion Cohort", "5,10": "10,12"}  # Defenders: 10 to 30
        return [sizes.get(word, word) for word in found]

    assert main(argv(plan_file(tmp_path, "openwar"))) == 0
    err = capsys.readouterr().err
    said = "note: the battleplan was made for 1000 points, both armies' limit is 500"
    assert f"openwar {command}: {said}: played on it all the same" in err
    fits = plan_file(tmp_path, "openwar", lambda plan: plan.update(points=500))
    assert main(argv(fits)) == 0
    assert "note:" not in capsys.readouterr().err


@pytest.mark.parametrize(("command", "which"), [("battle", "the"), ("simulate", "each")])
def test_armies_of_different_limits_are_told_the_generated_plan_is_for_the_larger(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, which: str
) -> None:
    """A 500-point army against a 600-point one met a 600-point table without a word."""
    legion = SMALL / "small_legion.yaml"  # both limits 500
    lodge = tmp_path / "lodge.yaml"
    text = (SMALL / "small_lodge.yaml").read_text(encoding="utf-8")
    lodge.write_text(text.replace("points_limit: 500", "points_limit: 600"), encoding="utf-8")
    more = ["-n", "2", "--workers", "1"] if command == "simulate" else []
    assert main([command, str(legion), str(lodge), "--seed", "3", *more]) == 0
    said = f"openwar {command}: note: the armies' points limits differ (500 and 600); "
    assert said + f"{which} battleplan is generated for the larger, 600" in capsys.readouterr().err
    assert main([command, str(legion), str(legion), "--seed", "3", *more]) == 0
    assert "note:" not in capsys.readouterr().err
