"""Where an error line says it comes from."""

from __future__ import annotations

from pathlib import Path

import pytest

from openwar.cli.app import main

from .kit import one_line_error


def test_an_error_found_while_running_names_the_sub_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As click's own option errors do: `openwar odds aos: error: --extra-hits-on-6: ...`
    (it said only `openwar: error:`)."""
    argv = ["odds", "aos", "--extra-hits-on-6", "1", "--mortal-on-6-hit", "1",
            "--mortal-ends-sequence"]  # fmt: skip
    message = one_line_error(capsys, argv)
    assert message.startswith("openwar odds aos: error: --extra-hits-on-6: ")
    message = one_line_error(capsys, ["army", "show", "no-such-army.yaml"])
    assert message.startswith("openwar army show: error: no-such-army.yaml")


@pytest.mark.parametrize("command", ["battle", "simulate", "sweep", "battleplan"])
def test_a_seed_a_results_store_could_not_keep_is_refused(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """Seeds are SQLite integers in the store: 2**63 was an OverflowError traceback after
    the battles were played."""
    data = Path(__file__).parents[1] / "sim" / "data"
    armies = [str(data / "small_legion.yaml"), str(data / "small_lodge.yaml")]
    argv = {
        "battle": ["battle", *armies],
        "simulate": ["simulate", *armies, "-n", "1"],
        "sweep": ["sweep", *armies, "--unit", "Legion Cohort", "--size", "10,20"],
        "battleplan": ["battleplan", "--points", "1000"],
    }[command]
    message = one_line_error(capsys, [*argv, "--seed", str(2**63)], nothing_done=True)
    assert "--seed" in message and "9223372036854775807" in message


def _army_of(tmp_path: Path, ruleset: str) -> str:
    path = tmp_path / f"{ruleset}.yaml"
    small = Path(__file__).parents[1] / "sim" / "data" / "small_legion.yaml"
    path.write_text(small.read_text().replace("ruleset: openwar", f"ruleset: {ruleset}"))
    return str(path)


@pytest.mark.parametrize("command", [["battle"], ["simulate", "-n", "1"]])
@pytest.mark.parametrize(
    ("ruleset", "expected"),
    [
        ("opnewar", "unknown ruleset 'opnewar' (did you mean 'openwar' or 'opr'?)"),
        ("opr", "opr armies fight no battles (battles are played in openwar and aos)"),
    ],
)
def test_an_army_of_no_battle_ruleset_says_why_the_same_way_everywhere(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    command: list[str],
    ruleset: str,
    expected: str,
) -> None:
    army = _army_of(tmp_path, ruleset)
    message = one_line_error(capsys, [command[0], army, army, *command[1:]], nothing_done=True)
    assert f"{army}: {expected}" in message


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["simulate", "--resume", "1", "--seed", "9"], "'--resume': --seed cannot be given"),
        (
            ["battle", "a.yaml", "b.yaml", "--log", "--json"],
            "'--log': give --log or --json, not both",
        ),
        (["replay", "x.json", "--log", "--json"], "'--log': give --log or --json, not both"),
        (["simulate", "--resume", "1", "-n", "500"], "'--resume': -n cannot be given with it"),
        (["simulate", "--resume", "1", "--players", "random,random"], "--players cannot be"),
        (["army", "new", "openwar", "x.yaml", "--name="], "an army needs a name"),
        (["army", "new", "openwar", "x.yaml", "--name=\x1b[31mX"], "control character \\x1b"),
        (
            ["simulate", "a.yaml", "b.yaml", "-n", "1", "--scheduler", "tcp://[::1"],
            "invalid address",
        ),
    ],
)
def test_options_that_would_be_ignored_or_break_later_are_refused(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    expected: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENWAR_STORE", str(tmp_path / "runs.sqlite3"))
    if "a.yaml" in argv:
        data = Path(__file__).parents[1] / "sim" / "data"
        argv = [str(data / "small_legion.yaml") if a == "a.yaml" else a for a in argv]
        argv = [str(data / "small_lodge.yaml") if a == "b.yaml" else a for a in argv]
    message = one_line_error(capsys, argv, nothing_done=True)
    assert expected in message
    assert not (tmp_path / "x.yaml").exists()


def test_the_battle_log_names_units_and_rounds_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    """It printed ids and Python dicts: `deployed: {'unit': 'a3', 'point': [35.438, 33.75]}`."""
    from openwar.cli.app import main

    data = Path(__file__).parents[1] / "sim" / "data"
    argv = ["battle", str(data / "small_legion.yaml"), str(data / "small_lodge.yaml"), "--log"]
    assert main([*argv, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "A deploy Legion Command [a3] at (35.4, 33.8)" in out
    assert "deployed: unit Legion Command [a3], point (35.44, 33.75)" in out
    assert "{'" not in out


def test_the_battle_log_keeps_each_action_and_event_on_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Piped, it wrapped at 80 columns: a grep found half an event and stray "round 1"s."""
    from openwar.cli.app import main

    monkeypatch.setenv("COLUMNS", "40")
    data = Path(__file__).parents[1] / "sim" / "data"
    argv = ["battle", str(data / "small_legion.yaml"), str(data / "small_lodge.yaml"), "--log"]
    assert main([*argv, "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "    deployed: unit Legion Command [a3], point (35.44, 33.75)" in lines
    assert any(len(line) > 60 and line.startswith("    ") for line in lines)


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["sweep", "a.yaml", "b.yaml", "--unit", "A", "--size", "5,10", "--unit", "B"], "--unit"),
        (["odds", "openwar", "--attacks", "3", "--attacks=4"], "--attacks"),
        (["bench", "ai", "-n", "4", "--battles", "6"], "--battles"),
    ],
)
def test_an_option_of_one_value_given_twice_is_refused_by_name(
    capsys: pytest.CaptureFixture[str], argv: list[str], name: str
) -> None:
    """Click kept the last value silently: `sweep --unit A --unit B` swept B alone."""
    message = one_line_error(capsys, argv, nothing_done=True)
    assert f"error: {name} was given 2 times; it takes one value" in message


def test_flags_and_many_valued_options_may_repeat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "openwar", "--attacks", "2", "--json", "--json"]) == 0
    assert '"mean"' in capsys.readouterr().out
    argv = ["bench", "ai", "-n", "2", "--matchup", "random,random", "--matchup", "nobody,random"]
    message = one_line_error(capsys, argv, nothing_done=True)
    assert "nobody" in message and "given" not in message  # refused for the name, not twice


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "ai", "-n", "1000001"],
        ["bench", "battle", "-n", "1000001"],
        ["bench", "simulate", "-n", "1000001"],
        ["bench", "odds", "--repeat", "100001"],
    ],
)
def test_a_benchmark_too_big_to_run_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """As simulate's and sweep's: `bench ai` spawned every seed before playing one."""
    assert "must be at most" in one_line_error(capsys, argv, nothing_done=True)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("argv", [["version"], ["odds", "aos", "--json"], ["rulesets"]])
def test_output_that_cannot_be_written_is_one_line(argv: list[str]) -> None:
    """A full disk (here /dev/full) was a traceback of some 40 lines, in every command."""
    import subprocess
    import sys

    script = Path(sys.executable).with_name("openwar")
    with open("/dev/full", "w") as full:
        done = subprocess.run([str(script), *argv], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 1
    assert done.stderr == "openwar: error: cannot write the output (No space left on device)\n"


@pytest.mark.parametrize("argv", [["army", "new", "openwar", "NAME.yaml"],
                                  ["runs", "list", "--store", "NAME.db"]])  # fmt: skip
def test_a_file_name_too_long_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    """Path.exists() raised "File name too long" as a traceback."""
    long = str(tmp_path / ("x" * 300))
    message = one_line_error(capsys, [a.replace("NAME", long) for a in argv], nothing_done=True)
    assert "File name too long" in message


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["battle", "A", "B", "--replay", "A"], "--replay"),
        (["battle", "A", "B", "--png", "B.png", "--battleplan", "B.png"], "--png"),
        (["simulate", "A", "B", "-n", "1", "--store", "P.svg", "--plot", "P.svg"], "--plot"),
        (["runs", "export", "1", "--store", "S", "--csv", "S"], "--csv"),
    ],
)
def test_an_output_that_is_one_of_the_inputs_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], option: str
) -> None:
    """`battle A B --replay A` replaced the army file with the replay."""
    data = Path(__file__).parents[1] / "sim" / "data"
    files = {"A": tmp_path / "a.yaml", "B": tmp_path / "b.yaml", "S": tmp_path / "s.sqlite3"}
    files["A"].write_text((data / "small_legion.yaml").read_text())
    files["B"].write_text((data / "small_lodge.yaml").read_text())
    (tmp_path / "b.png").write_bytes(b"not a plan")
    files["S"].write_bytes(b"")
    (tmp_path / "p.svg").write_bytes(b"")  # a store named so: its chart would replace it
    names = {**{k: str(v) for k, v in files.items()}, "B.png": str(tmp_path / "b.png"),
             "P.svg": str(tmp_path / "p.svg")}  # fmt: skip
    before = {p: p.read_bytes() for p in tmp_path.iterdir()}
    message = one_line_error(capsys, [names.get(a, a) for a in argv], nothing_done=True)
    assert f"'{option}'" in message and "one of this command's inputs" in message
    assert {p: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_control_character_in_a_path_stays_one_escaped_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A newline in a file name split the error over two lines; an escape reached the
    terminal as it was."""
    message = one_line_error(capsys, ["army", "show", "/tmp/a\nb\x1b[31m.yaml"])
    assert "/tmp/a\\nb\\x1b[31m.yaml: cannot be read" in message and "\x1b" not in message


def test_an_option_without_its_value_names_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Click refuses it before the command has a context: the line began "openwar: error"."""
    line = one_line_error(capsys, ["odds", "aos", "--json", "--plot"], nothing_done=True)
    assert line.strip() == "openwar odds aos: error: Option '--plot' requires an argument."


def test_a_negative_number_for_an_argument_is_not_called_an_unknown_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = one_line_error(capsys, ["runs", "show", "-1"], nothing_done=True)
    assert "-1: a negative number is not a value this command takes" in line
    for number in ("-.5", "-1.5"):  # click names "-." and "-1": the number is named whole
        line = one_line_error(capsys, ["runs", "show", number], nothing_done=True)
        assert f"{number}: a negative number is not a value this command takes" in line
    assert "No such option: -x" in one_line_error(capsys, ["runs", "show", "-x"])
    for token in ("-1.5x", "-1x", "-.x"):  # not a number: click named "-1" or "-."
        line = one_line_error(capsys, ["runs", "show", token], nothing_done=True)
        assert f"{token}: neither a value nor an option this command takes" in line
    line = one_line_error(capsys, ["runs", "show", "-1e5"], nothing_done=True)
    assert "-1e5: a negative number is not a value this command takes" in line
    # the -1 after --rend is its value: the token refused is the -1x after it
    line = one_line_error(capsys, ["odds", "aos", "--rend", "-1", "-1x"], nothing_done=True)
    assert "-1x: neither a value nor an option this command takes" in line


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["army", "show", ""], "'file'"),
        (["battle", "", ""], "'army_a'"),
        (["battleplan", "--points", "1000", "--seed", "1", "--png", ""], "'--png'"),
        (["runs", "list", "--store", ""], "'--store'"),
    ],
)
def test_an_empty_file_name_is_named_not_read_as_the_current_folder(
    capsys: pytest.CaptureFixture[str], argv: list[str], name: str
) -> None:
    line = one_line_error(capsys, argv, nothing_done=True)
    assert f"Invalid value for {name}: an empty file name" in line


_SAMPLES = Path(__file__).parents[2] / "examples" / "armies" / "openwar"
_PAIR = [str(_SAMPLES / "iron_road_legion.yaml"), str(_SAMPLES / "hearthhold_lodge.yaml")]


@pytest.mark.parametrize(
    "argv",
    [
        ["battle", *_PAIR],
        ["simulate", *_PAIR, "-n", "2"],
        ["sweep", *_PAIR, "--unit", "Bolt Engine", "--size", "1,2"],
        ["bench", "simulate"],
    ],
)
def test_a_bad_player_is_worded_alike_by_every_command(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """simulate said "--players: unknown player", battle "Invalid value for '--players'"."""
    line = one_line_error(capsys, [*argv, "--players", "chess"], nothing_done=True)
    assert "Invalid value for '--players': unknown player 'chess'" in line


def test_a_missing_replay_file_is_named_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """It read 'x.json: not a readable replay (x.json: cannot be read (...))'."""
    path = tmp_path / "x.json"
    line = one_line_error(capsys, ["replay", str(path)], nothing_done=True)
    assert line.count(str(path)) == 1 and f"{path}: cannot be read (No such file" in line


@pytest.mark.parametrize(
    ("text", "said"),
    [  # it showed the parser's own words: "(Expecting value: line 1 column 1 (char 0))";
        # a file cut short read "not JSON (unterminated string starting at)", which trails off
        ("ruleset: opr\nunits: []\n", "line 1 column 1: not JSON (expecting value);"),
        ('{"format": "openwar-replay/1", "ruleset": "aos',
         "line 1 column 43: not JSON (unterminated string);"),
    ],
)  # fmt: skip
def test_a_file_that_is_not_json_is_refused_where_it_stops_being_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, said: str
) -> None:
    """As a replay and as a battleplan, in the file's terms."""
    path = tmp_path / "not.json"
    path.write_text(text, encoding="utf-8")
    line = one_line_error(capsys, ["replay", str(path)], nothing_done=True)
    assert f"{path}, {said}" in line and "char" not in line and "starting" not in line
    armies = [str(_SAMPLES / name) for name in ("iron_road_legion.yaml", "hearthhold_lodge.yaml")]
    line = one_line_error(capsys, ["battle", *armies, "--battleplan", str(path)], nothing_done=True)
    assert f"{path}, {said}" in line, line
