"""`openwar odds RULESET`: JSON, seeded simulation, plots, help and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from openwar.cli.app import main

EXAMPLES = {
    "aos": "--attacks 20 --hit 4+ --wound 3+ --rend -1 --damage D3 --save 4+ --reroll-hits ones",
    "openwar": "--models 10 --attacks 3 --melee 1 --difficulty 5 --armor 4 --morale 9",
    "opr": "--models 10 --attacks 2 --quality 4 --target-quality 5 --poison --tough 2",
    "oldworld": "--models 10 --ws 4 --target-ws 3 --strength 4 --toughness 3 --armour 5+",
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], ruleset: str, *extra: str) -> dict[str, Any]:
    code, out, err = run(capsys, "odds", ruleset, *EXAMPLES[ruleset].split(), "--json", *extra)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


@pytest.mark.parametrize("ruleset", list(EXAMPLES))
def test_odds_json_has_ruleset_profile_distribution_and_mean(
    capsys: pytest.CaptureFixture[str], ruleset: str
) -> None:
    data = run_json(capsys, ruleset)
    assert {"ruleset", "profile", "distribution", "mean"} <= data.keys()
    assert data["ruleset"] == ruleset
    assert isinstance(data["profile"], dict)
    dist = data["distribution"]
    assert sum(dist) == pytest.approx(1.0, abs=1e-12)
    assert data["mean"] == pytest.approx(sum(k * p for k, p in enumerate(dist)), abs=1e-12)


def test_odds_json_issue_example_mean(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, "aos")["mean"] == pytest.approx(280 / 27, abs=1e-12)


def test_odds_json_openwar_reports_the_presence_roll(capsys: pytest.CaptureFixture[str]) -> None:
    presence = run_json(capsys, "openwar")["presence"]
    assert 0.0 < presence["probability"] < 1.0


@pytest.mark.parametrize("ruleset", list(EXAMPLES))
def test_odds_simulate_is_deterministic_for_a_seed(
    capsys: pytest.CaptureFixture[str], ruleset: str
) -> None:
    first = run_json(capsys, ruleset, "--simulate", "2000", "--seed", "17")["simulation"]
    second = run_json(capsys, ruleset, "--simulate", "2000", "--seed", "17")["simulation"]
    other = run_json(capsys, ruleset, "--simulate", "2000", "--seed", "18")["simulation"]
    assert first == second
    assert (first["trials"], first["seed"]) == (2000, 17)
    assert sum(first["distribution"]) == pytest.approx(1.0, abs=1e-9)
    assert other["distribution"] != first["distribution"]


@pytest.mark.parametrize("ruleset", list(EXAMPLES))
def test_the_simulated_mean_carries_its_95_percent_interval(
    capsys: pytest.CaptureFixture[str], ruleset: str
) -> None:
    """A Monte Carlo mean was printed bare: with its interval a reader can tell whether it
    agrees with the exact mean. Over 40 seeds the interval holds the exact mean in about 38
    (a seeded check, so it cannot flake: 32 or fewer would be a 1-in-3,000 event)."""
    held = 0
    for seed in range(40):
        data = run_json(capsys, ruleset, "--simulate", "2000", "--seed", str(seed))
        low, high = data["simulation"]["mean_ci95"]
        assert low < data["simulation"]["mean"] < high and high - low < 0.25 * data["mean"]
        held += low <= data["mean"] <= high
    assert held >= 33, held
    code, out, _ = run(capsys, "odds", ruleset, *EXAMPLES[ruleset].split(), "--simulate", "2000")
    assert code == 0 and "at 95%, from 2,000 rolls" in " ".join(out.split())


def test_odds_table_shows_exact_and_simulated(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "aos", *EXAMPLES["aos"].split(), "--simulate", "1000")
    assert code == 0
    assert "P(exactly k)" in out
    assert "P(at least k)" in out
    assert "simulated" in out
    assert "10.3704" in out


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_odds_plot_is_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, suffix: str
) -> None:
    target = tmp_path / f"odds{suffix}"
    code, _, err = run(capsys, "odds", "aos", *EXAMPLES["aos"].split(), "--plot", str(target))
    assert code == 0, err
    assert target.stat().st_size > 1000
    head = target.read_bytes()[:8]
    assert head.startswith(b"\x89PNG") if suffix == ".png" else b"<?xml" in head


def test_odds_svg_plot_is_byte_identical_across_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    paths = [tmp_path / "a.svg", tmp_path / "b.svg"]
    for path in paths:
        argv = ["odds", "opr", *EXAMPLES["opr"].split(), "--plot", str(path), "--json"]
        assert run(capsys, *argv)[0] == 0
    assert paths[0].read_bytes() == paths[1].read_bytes()


BAD_INPUT = [
    ("aos", "--attacks", "-3"),
    ("aos", "--damage", "2Q"),
    ("aos", "--hit", "0+"),
    ("aos", "--hit", "7+"),
    ("aos", "--save", "1+"),
    ("aos", "--rend", "2"),
    ("aos", "--ward", "1+"),
    ("aos", "--models-wounds", "0"),
    ("aos", "--reroll-hits", "sometimes"),
    ("aos", "--attacks", "D1"),
    ("nosuchgame",),
    ("aos", "--plot", "x.gif"),
    ("openwar", "--models", "0"),
    ("openwar", "--target-size", "0"),
    ("opr", "--tough", "0"),
    ("opr", "--quality", "1+"),
    ("opr", "--weapon", "sling"),
    ("opr", "--weapon", "Heavy", "--cover"),
    ("opr", "--seed", "3"),
    ("aos", "--seed", "3"),
    ("oldworld", "--ws", "11"),
    ("oldworld", "--bs", "6"),
    ("oldworld", "--strength", "0"),
    ("oldworld", "--armour", "1+"),
    ("oldworld", "--ap", "1"),
    ("oldworld", "--damage", "D"),
]


@pytest.mark.parametrize("argv", BAD_INPUT, ids=[" ".join(a) for a in BAD_INPUT])
def test_odds_bad_input_is_one_line_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...]
) -> None:
    args = [str(tmp_path / a) if a.endswith(".gif") else a for a in argv]
    code, out, err = run(capsys, "odds", *args)
    assert code == 2
    assert "Traceback" not in err + out
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "error" in lines[0]
    assert not (tmp_path / "x.gif").exists()


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (("aos", "--attacks", "-3"), "--attacks"),
        (("aos", "--damage", "2Q"), "--damage"),
        (("aos", "--hit", "0+"), "--hit"),
        (("nosuchgame",), "nosuchgame"),
        (("oldworld", "--ws", "11"), "--ws"),
        (("aos", "--plot", "x.gif"), "--plot"),
        (("aos", "--attacks", "100000"), "100,000 dice in one attack"),
        (("aos", "--attacks", "200D6"), "1,200 dice in one attack"),
        (("openwar", "--models", "300", "--attacks", "10"), "'--models' x '--attacks'"),
        (("openwar", "--models", "1000"), "--models"),  # over a minute
        # damage kept on one model: 1,000 attacks of D20 on 100-wound models took a minute
        (
            (
                "aos",
                "--attacks",
                "1000",
                "--damage",
                "D20",
                "--models-wounds",
                "100",
                "--allocation",
                "per-attack",
            ),
            "21 outcomes on 100-wound models are about",
        ),
        # a Monte Carlo of 1,000,000,000 dice passed a minute and 1 GB
        (("aos", "--attacks", "1000", "--simulate", "1000000"), "1,000,000,000 dice to roll"),
        (("opr", "--models", "200", "--simulate", "1000000"), "'--simulate' x '--models' x"),
        # a ward roll for each point of damage: 7 GB for 10,000,000 attacks' dice
        (
            ("aos", "--attacks", "200", "--damage", "100", "--ward", "6+", "--simulate", "50000"),
            "'--simulate' x '--attacks' x '--damage' (a --ward roll a wound)",
        ),
        (("openwar", "--presence", "9" * 22), "--presence"),  # once a traceback
        (("openwar", "--morale", "-101"), "--morale"),
        (("opr", "--models", "1001"), "1,001 dice"),
        (("oldworld", "--models", "500", "--attacks", "3"), "1,500 dice"),
        (("aos", "--damage", "200D100"), "up to 20,000 damage from one wound"),
        (("aos", "--damage", "D6+100000000000000000000"), "'--damage'"),
        (("aos", "--mortal-on-6-hit", "1000000000"), "--mortal-on-6-hit"),
        (("aos", "--models", "1001"), "--models"),
        (("aos", "--models-wounds", "101"), "--models-wounds"),
        (("aos", "--simulate", "10000000000"), "--simulate"),
        (("aos", "--seed", str(2**63)), "--seed"),
        (("openwar", "--target-size", "1000000000"), "--target-size"),
        (("opr", "--tough", "100000000000000000000"), "--tough"),
        (("opr", "--target-models", "1001"), "--target-models"),
        (("oldworld", "--wounds", "101"), "--wounds"),
        (("oldworld", "--shooting", "--ws", "5"), "'--ws': has no effect here: shooting hits"),
        (("oldworld", "--target-ws", "5", "--shooting"), "'--target-ws': has no effect"),
        (("oldworld", "--bs", "4"), "'--bs': has no effect here: combat hits on --ws"),
        (("oldworld", "--damage", "3000"), "up to 3,000 damage from one wound"),
        # each part allowed, the whole too long (once a traceback after 10 GB of memory)
        (("aos", "--attacks", "1000", "--damage", "100"), "up to 100,000 damage in one attack"),
        (
            ("aos", "--attacks", "1000", "--damage", "D6", "--mortal-on-6-hit", "100"),
            "'--attacks' x what one attack can do (damage, mortal wounds, extra hits): up to "
            "106,000 damage",
        ),
        (
            ("aos", "--attacks", "1000", "--damage", "20", "--extra-hits-on-6", "4"),
            "what one attack can do (damage, mortal wounds, extra hits): up to 100,000 damage",
        ),
        (
            ("oldworld", "--models", "100", "--attacks", "10", "--damage", "100"),
            "'--models' x '--attacks' x '--damage': up to 100,000 damage in one attack",
        ),
    ],
)
def test_odds_bad_input_names_the_option(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], named: str
) -> None:
    _, _, err = run(capsys, "odds", *argv)
    assert named in err


@pytest.mark.parametrize("ruleset", [None, *EXAMPLES])
def test_odds_help_exits_0(capsys: pytest.CaptureFixture[str], ruleset: str | None) -> None:
    argv = ["odds"] + ([ruleset] if ruleset else []) + ["--help"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "Example" in out or "Examples" in out
    if ruleset is None:
        for name in EXAMPLES:
            assert name in out


def test_odds_aos_help_documents_the_issue_options(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "odds", "aos", "--help")
    for option in [
        "--attacks",
        "--hit",
        "--wound",
        "--rend",
        "--damage",
        "--save",
        "--reroll-hits",
        "--reroll-wounds",
        "--reroll-saves",
        "--ward",
        "--mortal-on-6-hit",
        "--models-wounds",
    ]:
        assert option in out


def test_installed_console_script_runs_the_issue_example() -> None:
    script = Path(sys.executable).parent / "openwar"
    if not script.exists():
        pytest.skip(f"console script not installed at {script}")
    done = subprocess.run(
        [str(script), "odds", "aos", *EXAMPLES["aos"].split(), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["mean"] == pytest.approx(280 / 27, abs=1e-12)


@pytest.mark.parametrize(
    ("extra", "reading"),
    [(("--armored",), "ignores Armored"), ((), "re-rolls blocks")],
)
def test_opr_a8_the_table_says_which_use_of_piercing_it_kept(
    capsys: pytest.CaptureFixture[str], extra: tuple[str, ...], reading: str
) -> None:
    """A weapon with Piercing (or --piercing auto) works out both uses and keeps the one that
    removes more models: the printed odds say which, as the JSON's piercing_used does."""
    code, out, err = run(capsys, "odds", "opr", "--weapon", "Crossbow", "--models", "10", *extra)
    assert code == 0, err
    assert f"Piercing: {reading}" in out
    data = run_json(capsys, "opr", "--piercing", "auto", *extra)
    assert data["profile"]["piercing_used"] == ("ignore-armored" if extra else "reroll-blocks")
    code, out, err = run(capsys, "odds", "opr", "--models", "10")  # no Piercing, no line
    assert code == 0 and "Piercing" not in out


def test_opr_a_weapons_attacks_and_piercing_give_way_to_the_options_written(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--weapon sets attacks and Piercing only where the options are not written: a Heavy
    weapon with --attacks 4 (a Spear's or Furious's +1) makes 4 (it silently made its 3), and
    --piercing none switches a Crossbow's p mark off (it was taken as not given)."""

    def odds(*extra: str) -> dict[str, Any]:
        code, out, err = run(capsys, "odds", "opr", "--models", "1", "--json", *extra)
        assert code == 0, err
        data: dict[str, Any] = json.loads(out)
        return data

    heavy = odds("--weapon", "Heavy")
    assert heavy["profile"]["attacks"] == 3
    more = odds("--weapon", "Heavy", "--attacks", "4")
    assert more["profile"]["attacks"] == 4 and more["mean"] == pytest.approx(1.0)  # 4 x 1/4
    marked = odds("--weapon", "Crossbow", "--armored")
    plain = odds("--weapon", "Crossbow", "--armored", "--piercing", "none")
    assert marked["profile"]["piercing"] == "auto" and plain["profile"]["piercing"] == "none"
    assert plain["mean"] == pytest.approx(marked["mean"] / 2)  # Armored ignores half the hits


def test_opr_a13_a_weapon_of_the_x_mark_puts_each_models_wounds_on_one_model(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A Cannon (x) of one model removes at most one model, whatever its wounds: 6 wounds on
    Tough(3) models once removed two, as if pooled."""
    code, out, err = run(capsys, "odds", "opr", "--weapon", "Cannon", "--models", "1",
                         "--tough", "3", "--json")  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["profile"]["single_model"] is True and data["profile"]["attacks"] == 6
    assert max(data["distribution"]) > 0 and len(data["distribution"]) == 7  # up to 6 wounds
    assert [p > 0 for p in data["slain"]][:3] == [True, True, False] and sum(data["slain"][2:]) == 0
    code, out, _ = run(capsys, "odds", "opr", "--weapon", "Cannon", "--models", "1")
    assert code == 0 and "x: all the wounds each model deals go on one model" in out
    code, out, _ = run(capsys, "odds", "opr", "--weapon", "Stone Thrower", "--json")
    assert json.loads(out)["profile"]["single_model"] is False


def test_opr_a3_cover_with_a_melee_weapon_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """--weapon Heavy --cover gave 0.5 wounds on average for 0.75: cover counted in melee."""
    code, _, err = run(capsys, "odds", "opr", "--weapon", "Heavy", "--models", "1", "--cover")
    assert code == 2 and "'--cover': has no effect here" in err and "melee weapon" in err
    means = []
    for cover in (["--cover"], []):
        code, out, err = run(capsys, "odds", "opr", "--weapon", "Bow", "--json", *cover)
        assert code == 0, err
        means.append(json.loads(out)["mean"])
    assert means[0] < means[1]  # a shooting weapon still counts it


def test_opr_a15_impact_on_a_charge(capsys: pytest.CaptureFixture[str]) -> None:
    """--impact adds X automatic hits per model (a Lance's Impact(1) for a charge of five
    Heavy riders: 15 Attacks and 5 Impact hits); a shooting weapon or cover with it is refused."""
    means = []
    for impact in ("0", "1"):
        code, out, err = run(capsys, "odds", "opr", "--weapon", "Heavy", "--impact", impact,
                             "--json")  # fmt: skip
        assert code == 0, err
        means.append(json.loads(out)["mean"])
        assert json.loads(out)["profile"]["impact"] == int(impact)
    assert means == pytest.approx([15 / 4, 15 / 4 + 5 / 2])  # Quality 4+ hits, 4+ blocks
    code, _, err = run(capsys, "odds", "opr", "--weapon", "Bow", "--impact", "1")
    assert code == 2 and "'--impact'" in err and "Bow is a shooting weapon" in err
    code, _, err = run(capsys, "odds", "opr", "--impact", "1", "--cover")
    assert code == 2 and "'--cover': has no effect here" in err and "charge" in err


@pytest.mark.parametrize(
    ("ruleset", "option", "none"),
    [("aos", "--save", "-"), ("aos", "--save", "7+"), ("aos", "--save", "7"),
     ("oldworld", "--armour", "none"), ("oldworld", "--armour", "7+"), ("aos", "--ward", "7+"),
     ("oldworld", "--ward", "7")],
)  # fmt: skip
def test_no_save_may_be_written_7_plus(
    capsys: pytest.CaptureFixture[str], ruleset: str, option: str, none: str
) -> None:
    """A save of 7+ is none: `odds aos --save 7` (its help's default) and `odds oldworld
    --armour 7+` were refused."""
    base = {
        "aos": "--attacks 20 --hit 4+ --wound 3+ --rend -1 --damage D3",
        "oldworld": "--models 10 --ws 4 --target-ws 3 --strength 4 --toughness 3",
    }[ruleset].split()

    def odds(*extra: str) -> str:
        code, out, err = run(capsys, "odds", ruleset, *base, "--json", *extra)
        assert code == 0, err
        return out

    assert odds(option, none) == odds(option, "-") != odds(option, "4+")


def test_a_tail_of_exact_zeros_gets_no_row(capsys: pytest.CaptureFixture[str]) -> None:
    """An attack that cannot wound showed a '>0' row of 0.0e+00 below the certain 0."""
    code, out, _ = run(capsys, "odds", "openwar", "--difficulty", "99")
    assert code == 0 and ">0" not in out and "0.0e+00" not in out


@pytest.mark.parametrize(
    ("ruleset", "extra", "rolls"),
    [
        ("oldworld", ("--ws", "4", "--target-ws", "3", "--armour", "5+", "--ap", "-1"),
         "Rolls: to hit 3+, to wound 4+, armour 5+ AP -1: 6+"),
        ("oldworld", ("--shooting", "--bs", "3", "--hit-mod", "-1", "--ward", "5+"),
         "Rolls: to hit 4+ -1: 5+, to wound 4+, ward 5+"),
        ("oldworld", ("--armour", "6+", "--ap", "-1"), "armour 6+ AP -1: no save"),
        ("oldworld", ("--strength", "1", "--toughness", "10"), "no wound roll (the chart's -)"),
        ("oldworld", ("--strength", "1", "--toughness", "10", "--poisoned"),
         "no wound roll (the chart's -), a 6 to hit wounds automatically (Poisoned)"),
        # a natural 1 misses whatever the modifier; past 9+ nothing hits (it said "1+", "10+")
        ("oldworld", ("--ws", "10", "--target-ws", "1", "--hit-mod", "1"), "to hit 2+ +1: 2+,"),
        ("oldworld", ("--shooting", "--bs", "1", "--hit-mod", "-2"),
         "to hit 6+ -2: a 6, then 5+ (TOW-D3)"),
        ("oldworld", ("--shooting", "--bs", "1", "--hit-mod", "-4"), "to hit 6+ -4: cannot hit"),
        ("oldworld", ("--armour", "5+"), "to wound 4+, armour 5+\n"),
        ("opr", ("--quality", "3", "--target-quality", "5"),
         "Rolls: hits on Quality 3+, each blocked on the target's Quality 5+\n"),
        ("opr", ("--poison", "--deadly"), "Quality 4+, a 6 to hit is Deadly (not blocked), each"),
        # every rule that changes a roll is said (it said only the Quality tests)
        ("opr", ("--armored", "--rapid"),
         "misses re-rolled (Rapid), Armored ignores a hit on 4+, each blocked"),
        ("opr", ("--armored", "--piercing", "reroll-blocks"),
         "Armored ignores a hit on 4+, each blocked on the target's Quality 4+, blocks re-rolled"),
        ("opr", ("--weapon", "Crossbow", "--armored"), "Armored ignored (Piercing)"),
        ("opr", ("--cover", "--unwieldy", "--regeneration"),
         "hits re-rolled (Unwieldy), cover ignores a hit on 5+, each blocked on the target's "
         "Quality 4+, Regeneration ignores a wound on 5+"),
        ("opr", ("--impact", "2"), "Impact(2): automatic hits, no 6s, no Piercing"),
        ("opr", ("--armored", "--cover"),
         "Armored ignores a hit on 4+, cover not added to Armored (OPR-A3), each blocked"),
        ("oldworld", ("--shooting", "--bs", "1", "--hit-mod", "-2", "--poisoned"),
         "a 6, then 5+ (TOW-D3), to wound 4+, Poisoned does nothing past 6+ (TOW-D3)"),
        ("oldworld", ("--reroll-hits", "failed", "--reroll-wounds", "ones"),
         "Rolls: to hit 4+ (failed re-rolled), to wound 4+ (ones re-rolled)"),
    ],
)  # fmt: skip
def test_the_text_says_which_rolls_the_odds_were_worked_out_with(
    capsys: pytest.CaptureFixture[str], ruleset: str, extra: tuple[str, ...], rolls: str
) -> None:
    """The Old World's to-hit and to-wound numbers come from charts, and AP moves the save:
    only the JSON said which rolls were used (needed_to_hit, needed_to_wound). The text and
    the JSON's ``rolls`` say the same."""
    code, out, err = run(capsys, "odds", ruleset, *extra)
    line = next(line for line in out.splitlines() if line.startswith("Rolls: "))
    assert code == 0 and rolls in line + "\n", err  # one line, however long
    code, out, err = run(capsys, "odds", ruleset, *extra, "--json")
    assert code == 0, err
    assert json.loads(out)["rolls"] == line.removeprefix("Rolls: ")
