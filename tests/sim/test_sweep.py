"""`openwar sweep`: values parsed, armies resized or given their own numbers, the even point
interpolated with its range."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from openwar.armies.validate import assess
from openwar.cli.app import main
from openwar.cli.sweep import _print
from openwar.errors import OpenWarError
from openwar.sim.stats import mean_interval
from openwar.sim.sweep import SweepPoint, even_points, parse_values, sweep_plans

from .conftest import ARMY_A, ARMY_B, small_plan


def test_sizes_from_range_or_list() -> None:
    assert parse_values("10:30:10") == [10, 20, 30]
    assert parse_values("12,16") == [12, 16]
    for bad in ("10", "a:b", "0,5", "1:5:0", "10,10"):
        with pytest.raises(OpenWarError, match="--size"):
            parse_values(bad)
    assert parse_values("0:-2:-1", "--values", lowest=None) == [0, -1, -2]
    with pytest.raises(OpenWarError, match="--values '1:1000000': at most 100 values"):
        parse_values("1:1000000", "--values")
    wrong_way = {  # no values at all: say which way the range goes, not that it is malformed
        "6:2:1": "counting down needs a negative step (such as 6:2:-1)",
        "6:2": "counting down needs a negative step (such as 6:2:-1)",
        "2:6:-2": "counting up needs a positive step (such as 2:6:2)",
        "2:6:0": "a step of 0 never gets there (such as 2:6:1)",
        "6:2:0": "a step of 0 never gets there (such as 6:2:-1)",
        "5:5:0": "expected at least two values",
    }
    for text, said in wrong_way.items():
        with pytest.raises(OpenWarError) as caught:
            parse_values(text, "--values", lowest=None)
        assert str(caught.value) == f"--values {text!r}: {said}"
    assert parse_values("6:2:-2") == [6, 4, 2]
    with pytest.raises(OpenWarError) as caught:  # two values given: name the one too small
        parse_values("0,5")
    assert str(caught.value) == "--size '0,5': 0 is below the least value, 1"


@pytest.mark.parametrize(
    "text", ["1:1000000000000:1", "-99999999999999999999:99999999999999999999:1"]
)
def test_a_range_too_long_is_refused_before_it_is_built(text: str) -> None:
    """The whole range was built before it was cut to 101 values: a MemoryError, or an
    OverflowError, as a traceback."""
    with pytest.raises(OpenWarError, match="at most 100 values in one sweep"):
        parse_values(text, "--values", None)


def test_resized_armies_share_one_points_limit() -> None:
    plans = sweep_plans(small_plan(), 0, "Legion Cohort", [10, 30])
    assert [(size, points) for size, points, _ in plans] == [(10, 150), (30, 250)]
    for _, _, plan in plans:
        a, b = plan.army_lists()
        assert a.units[0].name == "Legion Cohort"
        assert (a.points_limit, b.points_limit) == (500, 500)
    assert plans[1][2].army_lists()[0].units[0].size == 30


def test_an_aos_sweep_plays_every_value_on_the_table_of_the_files_own_points() -> None:
    """An Age of Sigmar table grows with the points (BP.1: over 2000, 90" by 44" and more
    terrain); the raised limit made a sweep reaching past 2000 play every value, the legal
    ones too, on the larger table, so a row changed with the range around it."""
    from pathlib import Path

    from openwar.sim.plan import ArmyFile, SimulationPlan, _generated

    aos = Path(__file__).parents[2] / "examples" / "armies" / "aos"
    files = (ArmyFile.read(aos / "gilded_vanguard.yaml"), ArmyFile.read(aos / "ember_court.yaml"))
    plan = SimulationPlan(files, None, ("simple", "simple"), 5, 2)
    limit = plan.army_lists()[0].points_limit
    plans = sweep_plans(plan, 0, "Stormhoof Lances", [120, 1500], key="points")
    assert plans[1][1] > 2000 and (plans[1][2].army_lists()[0].points_limit or 0) > 2000
    own = _generated(plan.army_lists(), 7)
    for _, _, varied in plans:
        assert varied.board_points == limit
        assert _generated(varied.army_lists(), 7, varied.board_points) == own


def test_a_sweeps_battles_are_generated_for_the_plans_board_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """play_battles hands the plan's board_points to the battleplan generator."""
    from dataclasses import replace

    import openwar.sim.plan as plan_module

    asked: list[int | None] = []

    def generated(armies: object, seed: int, points: int | None = None) -> dict[str, object]:
        asked.append(points)
        raise RuntimeError("enough")  # recorded as the battle's error; nothing else played

    monkeypatch.setattr(plan_module, "_generated", generated)
    (result,) = plan_module.play_battles(replace(small_plan(), board_points=777), [(0, 3)])
    assert asked == [777] and "enough" in str(result.error)


def test_even_point_is_interpolated_between_sizes() -> None:
    points = [SweepPoint(10, 100, 10, 0, 90, 0), SweepPoint(20, 200, 90, 0, 10, 0)]
    even = even_points(points)
    assert (even["points"], even["value"]) == (150.0, 15.0)
    assert even["low"] is not None and even["high"] is not None
    assert 100 < even["low"] < 150 < even["high"] < 200
    assert even_points(points[:1] * 2)["points"] is None


def test_sweep_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sweep", str(ARMY_A), str(ARMY_B), "--unit", "Lodge Shieldwall", "--side", "B"]
    code = main([*argv, "--size", "10,20", "-n", "2", "--players", "random", "--workers", "1",
                 "--json"])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = json.loads(captured.out)
    assert data["vary"] == "size" and [p["value"] for p in data["sweep"]] == [10, 20]
    assert all(p["wins"] + p["draws"] + p["losses"] == 2 for p in data["sweep"])
    assert set(data["even"]) == {"value", "value_low", "value_high", "points", "low", "high",
                                 "crossings", "decided"}  # fmt: skip
    assert data["vary_note"] is None  # a size says what it counts


def test_an_aos_points_sweep_says_the_points_are_per_block() -> None:
    """Age of Sigmar points are a warscroll's for each block of its size (AOS-U3): a sweep
    of them says so, and how many blocks the unit pays for."""
    from openwar.armies.model import ArmyUnit
    from openwar.rulesets import load_ruleset

    hooks = load_ruleset("aos").hooks
    spears = ArmyUnit(name="Court Spears", type="Ironclad Spearmen", size=20)
    assert hooks.profile_note(spears, "points") == (
        "points: the warscroll's points for each 10 models (a unit of 20 pays them twice)"
    )
    assert hooks.profile_note(spears, "bravery") is None
    drake = ArmyUnit(name="Cinderwing", type="Ember Drake")  # it read "for each 1 models"
    assert hooks.profile_note(drake, "points") == (
        "points: the warscroll's points (a unit of one model)"
    )
    rolled = "the roll needed on a dice (4 is 4+; a lower number is better)"  # it read "save 3"
    assert hooks.profile_note(spears, "save") == f"save: {rolled}"
    assert hooks.profile_note(spears, "Spear.to_hit") == f"Spear.to_hit: {rolled}"
    assert load_ruleset("openwar").hooks.profile_note(spears, "points_per_miniature") is None


def test_a_units_own_number_is_varied_at_fixed_points() -> None:
    plans = sweep_plans(small_plan(), 0, "Legion Cohort", [3, 6], "armor")
    assert [(value, points) for value, points, _ in plans] == [(3, 150), (6, 150)]
    cohorts = [plan.army_lists()[0].units[0] for _, _, plan in plans]
    assert [(c.size, c.profile) for c in cohorts] == [(10, {"armor": 3}), (10, {"armor": 6})]
    assert plans[0][2].armies[0].path.endswith("[Legion Cohort armor 3]")
    dear = sweep_plans(small_plan(), 0, "Legion Cohort", [5, 7], "points_per_miniature")
    assert [points for _, points, _ in dear] == [150, 170]


@pytest.mark.parametrize(
    ("key", "values", "message"),
    [
        ("armour", [3, 4], "--vary 'armour': Legion Cohort: unknown profile key 'armour' (did "
                           "you mean 'armor'?)"),
        ("Spear.range", [3, 4], "Legion Cohort: profile Spear.range cannot be changed: a melee "
                                "weapon has no range"),
        ("armor", [3, 13], "[Legion Cohort armor 13]: Legion Cohort: profile armor 13 is "
                           "outside 1..12 [U20"),
        # the unit's own least size is named (it said "0 is below the least value, 1")
        ("size", [0, 10], "[Legion Cohort x0]: Legion Cohort: size 0 is outside 10-30 for "),
    ],
)  # fmt: skip
def test_a_number_the_unit_lacks_or_cannot_take_is_one_line(
    key: str, values: list[int], message: str
) -> None:
    with pytest.raises(OpenWarError) as caught:
        sweep_plans(small_plan(), 0, "Legion Cohort", values, key)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_the_95_range_holds_every_value_whose_interval_holds_50_percent() -> None:
    """Only the first crossing of each interval end was used: a later value consistent with
    an even matchup (size 25: 42%-62%) was left out of the range."""
    wins = [30, 45, 62, 52, 75]
    points = [SweepPoint(10 + 5 * k, 100 + 10 * k, w, 0, 100 - w, 0) for k, w in enumerate(wins)]
    even = even_points(points)
    assert even["value"] == 16.5 and even["crossings"] == 1
    low, high = even["value_low"], even["value_high"]
    assert low is not None and high is not None and low < 16.5 and high > 25
    # 50% inside the first value's interval: the range reaches past the sweep
    first = [SweepPoint(10 + 5 * k, 100, w, 0, 50 - w, 0) for k, w in enumerate([22, 15, 28, 40])]
    assert even_points(first)["value_low"] is None


def test_a_range_open_at_one_end_keeps_the_end_the_sweep_bounds() -> None:
    """Sizes 1-30 of a walk-through: only size 30's interval leaves 50% out; the range was
    said to "reach past the sweep" (both ends None), though it ends below size 30."""
    wins = {1: 12.5, 5: 16.5, 10: 17, 20: 20, 30: 25.5}  # of 30 battles, draws as halves
    points = [SweepPoint(v, 100 + v, int(w), int(2 * (w % 1)), 30 - int(w) - int(2 * (w % 1)), 0)
              for v, w in wins.items()]  # fmt: skip
    even = even_points(points)
    assert even["value_low"] is None and even["value_high"] is not None
    assert 20 < even["value_high"] < 30
    shown = Console(file=io.StringIO(), width=300)
    _print(shown, "Spears", "A", "size", points, even)
    text = shown.file.getvalue()  # type: ignore[attr-defined]
    assert f"(95%: size {even['value_high']:g} or less, past the smallest value swept)" in text


def test_no_even_point_is_named_when_every_interval_holds_50_percent() -> None:
    """Shares 1/6, 3/6, 2/6 named "Even matchup at about size 20" (with no crossing counted)
    though every value's interval held 50%: six battles a value cannot tell them apart."""
    shares = [1, 3, 2]
    points = [SweepPoint(10 * (k + 1), 900 + 50 * k, w, 0, 6 - w, 0) for k, w in enumerate(shares)]
    even = even_points(points)
    assert even["decided"] is False and even["value"] is None and even["points"] is None
    assert even["crossings"] == 1  # the share touches 50% at size 20
    shown = Console(file=io.StringIO(), width=300)
    _print(shown, "Cohort", "A", "size", points, even)
    assert "A's share reaches 50% in this range, but every interval holds 50%" in (
        shown.file.getvalue()  # type: ignore[attr-defined]
    )
    sure = [SweepPoint(10 * (k + 1), 900, 10 * w, 0, 60 - 10 * w, 0) for k, w in enumerate(shares)]
    assert even_points(sure)["value"] == 20.0 and even_points(sure)["decided"] is True


def test_values_given_out_of_order_are_taken_in_order() -> None:
    """--size 10,30,20 joined 10 to 30 and 30 to 20 as neighbours."""
    shares = {10: 30, 20: 45, 30: 70}
    given = [SweepPoint(v, 100 + v, shares[v], 0, 100 - shares[v], 0) for v in (10, 30, 20)]
    ordered = [SweepPoint(v, 100 + v, shares[v], 0, 100 - shares[v], 0) for v in (10, 20, 30)]
    assert even_points(given) == even_points(ordered)
    assert even_points(given)["value"] == 22.0


def test_even_point_of_a_number_that_leaves_the_points_alone() -> None:
    points = [SweepPoint(3, 150, 10, 0, 90, 0), SweepPoint(5, 150, 90, 0, 10, 0)]
    even = even_points(points, "armor")
    assert even["value"] == 4.0 and even["points"] is None and even["low"] is None
    low, high = even["value_low"], even["value_high"]
    assert low is not None and high is not None and 3 < low < 4 < high < 5


@pytest.mark.parametrize(
    ("options", "hint"),
    [
        (["--size", "10,20", "--vary", "armor", "--values", "3,4"], "not both"),
        ([], "--size SPEC, or --vary KEY --values SPEC"),
        (["--vary", "armor"], "'--values': not given; it goes with --vary KEY"),
        (["--values", "3,4"], "'--vary': not given; it goes with --values SPEC"),
        (["--size", "10.5,20"], "expected whole numbers as START:STOP:STEP or A,B,C"),
    ],
)
def test_what_to_vary_is_one_choice(
    capsys: pytest.CaptureFixture[str], options: list[str], hint: str
) -> None:
    code = main(["sweep", str(ARMY_A), str(ARMY_B), "--unit", "Legion Cohort", *options])
    err = capsys.readouterr().err
    assert code == 2 and hint in err and "Traceback" not in err, err


def test_sweep_of_armor_prints_the_even_value(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sweep", str(ARMY_A), str(ARMY_B), "--unit", "Legion Cohort", "--vary", "armor",
            "--values", "1,12", "-n", "2", "--players", "random", "--workers", "1"]  # fmt: skip
    code = main([*argv, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["vary"] == "armor"
    assert [p["value"] for p in data["sweep"]] == [1, 12] and data["even"]["points"] is None
    assert {p["points"] for p in data["sweep"]} == {150}  # Armor is not priced
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0 and any(line.startswith("┃ armor") for line in out.splitlines())
    said = " ".join(out.split())  # what every value shares, said before the table
    assert "A: Small Legion (varied) vs B: Small Lodge (130 pts); 2 battles a value, seed" in said
    assert "players random,random, a battleplan generated for each battle from its seed" in said
    value = data["even"]["value"]
    expected = (
        "50% across this range" if value is None else f"Even matchup at about armor {value:g}"
    )
    assert expected in out


def test_unknown_unit_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sweep", str(ARMY_A), str(ARMY_B), "--unit", "Nope", "--size", "10,20"])
    err = capsys.readouterr().err
    assert code == 2 and "Legion Cohort" in err and len(err.strip().splitlines()) == 1


def test_a_misspelt_unit_gets_a_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sweep", str(ARMY_A), str(ARMY_B), "--unit", "Legion Cohrt", "--size", "10,20"])
    err = capsys.readouterr().err
    assert code == 2 and "not a unit of army A (did you mean 'Legion Cohort'" in err, err


def test_without_side_the_unit_is_swept_in_the_army_that_has_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A unit only army B has is B's without --side (it was refused: "add --side B")."""
    argv = ["sweep", str(ARMY_A), str(ARMY_B), "--unit", "Lodge Shieldwall", "--size", "10,20"]
    assert main([*argv, "-n", "1", "--workers", "1", "--players", "random", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["side"] == "B"


@pytest.mark.parametrize(
    ("unit", "side", "hint"),
    [
        ("Lodge Shieldwall", "A", "'Lodge Shieldwall' is in army B: use --side B (or leave"),
        ("Legion Cohort", "B", "'Legion Cohort' is in army A: use --side A (or leave"),
    ],
)
def test_unit_of_the_other_army_suggests_its_side(
    capsys: pytest.CaptureFixture[str], unit: str, side: str, hint: str
) -> None:
    argv = ["sweep", str(ARMY_A), str(ARMY_B), "--unit", unit, "--side", side, "--size", "10,20"]
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and hint in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("openwar sweep: error: ")  # before any progress bar (a blank line)


def test_play_sweep_reports_every_battle_to_the_progress_bar() -> None:
    from openwar.sim.executors import make_executor
    from openwar.sim.sweep import play_sweep

    plan = small_plan()
    done: list[int] = []
    with make_executor(1, None) as executor:
        plans = sweep_plans(plan, 0, "Legion Cohort", [10, 30])
        points = play_sweep(plans, 0, executor, done.append)
    assert sum(done) == 2 * plan.battles == sum(p.played for p in points)


@pytest.mark.parametrize("side", [0, 1])
def test_each_sweep_value_says_what_the_varied_unit_slew(side: int) -> None:
    """A point's ``slain`` is the varied unit's enemy points slain a battle, as the same
    plan's battles played apart record it for that unit (army B's units come after A's), and
    ``destroyed_per_point`` that over the unit's points at the value."""
    from openwar.sim.executors import make_executor
    from openwar.sim.plan import play_battles
    from openwar.sim.seeds import battle_seeds
    from openwar.sim.sweep import play_sweep

    plan = small_plan(battles=3, players=("simple", "simple"))
    unit = ("Legion Cohort", "Lodge Shieldwall")[side]
    with make_executor(1, None) as executor:
        plans = sweep_plans(plan, side, unit, [10, 20])
        points = play_sweep(plans, side, executor, unit=unit)
    for point, (_, _, varied) in zip(points, plans, strict=True):
        armies = varied.army_lists()
        at = [u.name for u in armies[side].units].index(unit) + side * len(armies[0].units)
        played = play_battles(varied, list(enumerate(battle_seeds(varied.seed, 3))))
        assert point.destroyed is not None and point.unit_points is not None
        assert point.destroyed == pytest.approx(sum(r.units_destroyed[at] for r in played) / 3)
        assert (
            point.unit_points
            == assess(armies[side]).cost.units[at - side * len(armies[0].units)].total
        )
        assert point.destroyed_per_point == pytest.approx(point.destroyed / point.unit_points)
        found = mean_interval([r.units_destroyed[at] for r in played], floor=0.0)
        assert found is not None
        low, high = found
        interval = point.per_point_interval()
        assert interval == pytest.approx((low / point.unit_points, high / point.unit_points))
    ten, twenty = (p.unit_points or 0 for p in points)
    assert 0 < ten < twenty  # 10 miniatures cost less than 20
    assert any(p.destroyed for p in points)


def test_sweep_with_failed_battles_says_so_and_exits_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # once exit 0 with every value at an even 50% and no word of the failures
    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("engine bug")

    monkeypatch.setattr("openwar.sim.plan.fight_battle", broken)
    argv = ["sweep", str(ARMY_A), str(ARMY_B), "--unit", "Lodge Shieldwall", "--side", "B"]
    code = main([*argv, "--size", "10,20", "-n", "2", "--players", "random", "--workers", "1"])
    err = capsys.readouterr().err
    assert code == 1
    assert "openwar sweep: error: 4 of 4 battles failed and are left out" in err


def test_a_sweep_that_never_reaches_half_says_whether_its_intervals_do() -> None:
    """Four battles a value at 12.5% leave 50% inside the interval: not shown uneven (the
    sweep once said "not even anywhere"); four hundred at 12.5% show it."""
    from openwar.cli.sweep import _never_even
    from openwar.sim.sweep import SweepPoint

    few = [SweepPoint(v, 100, 0, 1, 3, 0) for v in (3, 4)]
    many = [SweepPoint(v, 100, 0, 100, 300, 0) for v in (3, 4)]
    assert _never_even("B", few) == (
        "B's share stays below 50% across this range, but every interval holds 50%: more "
        "battles (-n) would tell whether the matchup is even here."
    )
    # one value's interval holding 50% was said of them all: "its intervals reach 50%"
    mixed = [
        SweepPoint(0, 100, 33, 0, 27, 0),
        *(SweepPoint(v, 100, 45, 0, 15, 0) for v in (12, 24)),
    ]
    assert _never_even("A", mixed, "morale") == (
        "A's share stays above 50% across this range, clearly so except at morale 0, whose "
        "interval holds 50%: more battles (-n) would tell whether the matchup is even there."
    )  # it said "clearly so but at", and "points 200, 280, whose interval holds"
    two = [
        *(SweepPoint(v, 100, 33, 0, 27, 0) for v in (200, 280)),
        SweepPoint(360, 1, 45, 0, 15, 0),
    ]
    assert "clearly so except at points 200 and 280, whose intervals hold 50%" in _never_even(
        "A", two, "points"
    )
    assert _never_even("B", many) == (
        "The matchup is uneven across this range: B's share stays below 50%."
    )
    assert "stays above 50%" in _never_even("A", [SweepPoint(1, 100, 400, 0, 0, 0)])


def test_a_value_over_the_points_limit_is_marked(capsys: pytest.CaptureFixture[str]) -> None:
    """Values that broke the army's limit were played and shown without a word."""
    from openwar.armies.files import load_army
    from openwar.armies.validate import assess

    limit = assess(load_army(ARMY_A)).limit
    argv = ["sweep", str(ARMY_A), str(ARMY_B), "--unit", "Legion Cohort"]
    argv += ["--vary", "points_per_miniature", "--values", "1,60"]
    assert main([*argv, "-n", "1", "--workers", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    over = [row["value"] for row in data["sweep"] if row["points"] > limit]
    assert data["points_limit"] == limit and data["over_limit"] == over and over == [60]
    assert main([*argv, "-n", "1", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert f"over the army's {limit}-point limit: not a legal army" in out and "*" in out


def test_a_one_sided_range_names_the_end_it_knows() -> None:
    from openwar.cli.sweep import _spread

    assert _spread("size", None, 12.5) == " (95%: size 12.5 or less, past the smallest value swept)"


def test_a_sweeps_varied_army_refused_names_no_command_that_cannot_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It ended "`openwar army validate iron_road_legion.yaml [Ashwood Skirmishers x1]` lists
    them": the varied army is no file to validate."""
    from pathlib import Path

    samples = Path(__file__).parents[2] / "examples" / "armies" / "openwar"
    armies = [str(samples / "iron_road_legion.yaml"), str(samples / "hearthhold_lodge.yaml")]
    argv = ["sweep", *armies, "--unit", "Ashwood Skirmishers", "--size", "1,10", "-n", "1",
            "--workers", "1"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "[Ashwood Skirmishers x1]" in err and "(and 1 more)" in err, err
    assert "army validate" not in err
