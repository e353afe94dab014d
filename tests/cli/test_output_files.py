"""Files the commands write (pictures, charts, replays, CSV): a path that cannot be written is
one line naming the option and the path, before any work; a write that fails leaves nothing
half-written and no temporary file behind."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from openwar.errors import OpenWarError
from openwar.outputs import check_output, together, write_text, write_whole

from .kit import one_line_error

SMALL = Path(__file__).parents[1] / "sim" / "data"
ARMIES = [str(SMALL / "small_legion.yaml"), str(SMALL / "small_lodge.yaml")]


def test_check_output_names_what_is_wrong_with_the_path(tmp_path: Path) -> None:
    a_file = tmp_path / "file.csv"
    a_file.write_text("x")
    cases = {
        tmp_path / "missing" / "x.png": "the folder",
        a_file / "x.png": "is not a folder",
        tmp_path / "x.txt": "expected a file name ending in .png or .svg",
    }
    for path, words in cases.items():
        with pytest.raises(OpenWarError, match=words) as caught:
            check_output(path, "--png", (".png", ".svg"))
        assert str(caught.value).startswith(f"--png {path}: ")
    folder = tmp_path / "pictures.png"
    folder.mkdir()
    with pytest.raises(OpenWarError, match="is a folder, not a file"):
        check_output(folder, "--png", (".png", ".svg"))
    assert check_output(tmp_path / "fine.png", "--png", (".png",)) == tmp_path / "fine.png"


def test_a_folder_no_file_can_be_made_in_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As root the permission checks passed for /proc: the battle was played and printed
    before its replay was refused (seen by a README walk-through). The permission checks
    are made to pass here as they do for root, so the file tried in the folder refuses it."""
    monkeypatch.setattr(os, "access", lambda *args, **kwargs: True)
    with pytest.raises(
        OpenWarError, match=r"^--replay /proc/r\.json: no file can be made in /proc"
    ):
        check_output(Path("/proc/r.json"), "--replay")
    message = one_line_error(
        capsys, ["battle", *ARMIES, "--replay", "/proc/r.json"], nothing_done=True
    )
    assert "/proc/r.json: no file can be made in /proc" in message


def test_checking_an_output_leaves_no_file_behind(tmp_path: Path) -> None:
    assert check_output(tmp_path / "x.json", "--replay") == tmp_path / "x.json"
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "replay.json"
    path.write_text("old")

    def fail_half_way(temporary: Path) -> None:
        temporary.write_text("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OpenWarError, match=r"--replay .*replay.json: cannot write \(No space"):
        write_whole(path, fail_half_way, "--replay")
    assert path.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["replay.json"]
    write_text(path, "new")
    assert path.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["replay.json"]


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["battle", *ARMIES, "--png"], "--png"),
        (["battle", *ARMIES, "--svg"], "--svg"),
        (["battle", *ARMIES, "--replay"], "--replay"),
        (["battleplan", "--points", "1000", "--seed", "1", "--png"], "--png"),
        (["odds", "aos", "--attacks", "3", "--plot"], "--plot"),
        (["simulate", *ARMIES, "-n", "2", "--plot"], "--plot"),
        (["runs", "export", "1", "--csv"], "--csv"),
    ],
)
def test_an_output_in_a_missing_folder_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
    option: str,
) -> None:
    monkeypatch.setenv("OPENWAR_STORE", str(tmp_path / "runs.sqlite"))
    name = {"--replay": "x.csv", "--csv": "x.csv", "--png": "x.png"}.get(option, "x.svg")
    missing = tmp_path / "no-such-folder" / name
    message = one_line_error(capsys, [*command, str(missing)], nothing_done=True)
    assert f"'{option}'" in message and str(missing) in message and "does not exist" in message
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written, no store made


@pytest.mark.parametrize(
    ("command", "words"),
    [
        # the name decides what is drawn: --svg x.png once wrote a PNG
        (["battle", *ARMIES, "--svg", "s.png"], "s.png: expected a file name ending in .svg"),
        (["battleplan", "--points", "1000", "--seed", "1", "--png", "x.svg"], "ending in .png"),
        # the picture, written second, once replaced the replay without a word
        (["battle", *ARMIES, "--replay", "same.png", "--png", "same.png"],
         "'--replay': same.png is also the picture's file"),
    ],
)  # fmt: skip
def test_a_picture_option_and_its_file_name_must_agree(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
    words: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert words in one_line_error(capsys, command, nothing_done=True)
    assert sorted(tmp_path.iterdir()) == []


def test_a_round_without_a_picture_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """`battle --round K` names the round of the picture; without one it did nothing."""
    message = one_line_error(capsys, ["battle", *ARMIES, "--round", "2"], nothing_done=True)
    assert "'--round'" in message and "give --png or --svg too" in message
    late = ["battle", *ARMIES, "--round", "9", "--png", "x.png"]
    message = one_line_error(capsys, late, nothing_done=True)  # before the battle, not after
    assert "'--round'" in message and "the battle lasts at most 5 rounds" in message


def test_a_round_the_battle_never_reached_draws_its_end_with_a_note(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """This battle is won outright in round 1 (Invasion): `--round 5` draws the table as it was
    left (the same picture as without --round), says so, and is not a failure after the work."""
    from openwar.bench.ai import SAMPLE_ARMIES
    from openwar.cli.app import main

    battle = ["battle", *map(str, SAMPLE_ARMIES), "--seed", "71", "--png"]
    assert main([*battle, str(tmp_path / "late.png"), "--round", "5", "--json"]) == 0
    captured = capsys.readouterr()
    assert '"rounds": 1' in captured.out
    assert captured.err == (
        "openwar battle: note: the battle ended in round 1, before round 5: the picture shows "
        "its end\n"
    )
    assert main([*battle, str(tmp_path / "end.png"), "--json", "--replay",
                 str(tmp_path / "r.json")]) == 0  # fmt: skip
    assert (tmp_path / "late.png").read_bytes() == (tmp_path / "end.png").read_bytes()
    played = json.loads(capsys.readouterr().out)
    # a battle just played is not a replay checked: "verified" was false, read as a failure
    assert played["verified"] is None and played["no_room"] == [[], []]
    assert main(["replay", str(tmp_path / "r.json"), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["verified"] is True and replayed["state_hash"] == played["state_hash"]


def test_a_replay_draws_the_table_as_its_battle_drew_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`replay` had no picture options: a battle kept as a replay could not be drawn again."""
    from openwar.bench.ai import SAMPLE_ARMIES
    from openwar.cli.app import main

    replay = tmp_path / "r.json"
    battle = ["battle", *map(str, SAMPLE_ARMIES), "--seed", "7", "--replay", str(replay)]
    assert main([*battle, "--png", str(tmp_path / "b2.png"), "--round", "2"]) == 0
    assert main([*battle, "--svg", str(tmp_path / "end.svg")]) == 0
    assert main(["replay", str(replay), "--png", str(tmp_path / "r2.png"), "--round", "2"]) == 0
    assert main(["replay", str(replay), "--svg", str(tmp_path / "r.svg")]) == 0
    assert "Picture of the table: " in capsys.readouterr().out
    assert (tmp_path / "r2.png").read_bytes() == (tmp_path / "b2.png").read_bytes()
    assert (tmp_path / "r.svg").read_bytes() == (tmp_path / "end.svg").read_bytes()
    message = one_line_error(capsys, ["replay", str(replay), "--round", "2"], nothing_done=True)
    assert "give --png or --svg too" in message
    late = ["replay", str(replay), "--round", "9", "--png", str(tmp_path / "9.png")]
    assert "the battle lasts at most 5 rounds" in one_line_error(capsys, late)


def test_a_link_is_followed_and_a_pipe_written_as_it_is(tmp_path: Path) -> None:
    """Renaming a finished file into place must not replace a symbolic link with a file, nor
    a pipe or device (`--replay /dev/stdout`) with one."""
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    assert check_output(pipe, "--replay") == pipe
    heard: list[str] = []
    reader = threading.Thread(target=lambda: heard.append(pipe.read_text()))
    reader.start()
    write_text(pipe, "through the pipe")
    reader.join(timeout=10)
    assert heard == ["through the pipe"] and stat.S_ISFIFO(pipe.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "pipe", "real.json"]


def test_a_replay_to_stdout_appended_to_a_log_keeps_the_log(tmp_path: Path) -> None:
    """`--replay /dev/stdout >> log`: /dev/stdout then names the log itself, which neither a
    rename nor reopening it for writing may empty."""
    log = tmp_path / "log.txt"
    log.write_text("earlier line\n")
    program = "import sys; from openwar.cli.app import main; sys.exit(main(sys.argv[1:]))"
    with log.open("a") as out:
        done = subprocess.run(
            [sys.executable, "-c", program, "battle", *ARMIES, "--replay", "/dev/stdout"],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    text = log.read_text()
    assert text.startswith("earlier line\n{\n") and '"final_state_hash"' in text


def test_a_rewritten_file_keeps_its_permissions(tmp_path: Path) -> None:
    private = tmp_path / "private.csv"
    private.write_text("old")
    private.chmod(0o600)
    write_text(private, "new")
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    fresh = tmp_path / "fresh.csv"
    write_text(fresh, "new")  # not the private mode of a temporary file
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~mask


def test_a_name_too_long_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    """Refused by the check (or, where pathlib does not raise, by the write) as an
    OpenWarError: the command line turns that into one line."""
    path = tmp_path / ("x" * 300 + ".csv")
    with pytest.raises(OpenWarError, match="File name too long"):
        check_output(path, "--csv")
        write_text(path, "rows", "--csv")
    assert list(tmp_path.iterdir()) == []


def test_a_picture_refused_after_the_battle_keeps_the_replay_and_the_report(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A write the early check cannot foresee (as under /proc): the replay was lost and the
    report never printed; now both come first, then the one error line."""
    import openwar.render.battle
    from openwar.cli.app import main

    def refuse(*_: object) -> Path:
        raise OpenWarError("--png x.png: cannot be written")

    monkeypatch.setattr(openwar.render.battle, "draw_battle", refuse)
    replay = tmp_path / "r.json"
    argv = ["battle", *ARMIES, "--png", str(tmp_path / "x.png"), "--replay", str(replay)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "final state" in captured.out and replay.exists()
    assert captured.err.strip().endswith("cannot be written")


def test_a_replay_refused_after_the_battle_keeps_the_report(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import openwar.cli.battle
    from openwar.cli.app import main

    def refuse(*_: object) -> None:
        raise OpenWarError("--replay r.json: cannot write")

    monkeypatch.setattr(openwar.cli.battle, "save_replay", refuse)
    assert main(["battle", *ARMIES, "--replay", str(tmp_path / "r.json")]) == 2
    captured = capsys.readouterr()
    assert "final state" in captured.out and "Replay written" not in captured.out
    assert captured.err.strip().endswith("cannot write")


def test_files_written_together_are_all_renamed_or_none(tmp_path: Path) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"

    def fail(path: Path) -> None:
        raise OSError(28, "No space left on device")

    with pytest.raises(OpenWarError, match=r"b\.txt: cannot write"), together():
        write_text(first, "one")
        assert not first.exists()  # waits for the block's end
        write_whole(second, fail)
    assert sorted(tmp_path.iterdir()) == []
    with together():
        write_text(first, "one")
        write_text(second, "two")
    assert first.read_text() == "one" and second.read_text() == "two"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]
    third = tmp_path / "c.txt"
    with pytest.raises(KeyboardInterrupt), together():  # a block inside is part of the outer
        with together():
            write_text(third, "three")
        raise KeyboardInterrupt
    assert not third.exists() and not list(tmp_path.glob(".*"))


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_battleplan_whose_png_cannot_be_written_leaves_no_svg(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg, full = tmp_path / "plan.svg", tmp_path / "full.png"
    full.symlink_to("/dev/full")  # the SVG is drawn first, then the PNG fails: a full disk
    line = one_line_error(
        capsys,
        ["battleplan", "--points", "1000", "--seed", "7", "--svg", str(svg), "--png", str(full)],
    )
    assert "full.png: cannot write (No space left on device)" in line
    assert list(tmp_path.iterdir()) == [full]


def test_a_reader_that_stops_reading_still_gets_the_chart(tmp_path: Path) -> None:
    """`simulate ... --plot x.png | head -3`: the summary's first line met a closed pipe and the
    chart, written after it, was never made. Here the pipe is closed before anything is read."""
    chart = tmp_path / "x.png"
    program = "import sys; from openwar.cli.app import main; sys.exit(main(sys.argv[1:]))"
    argv = ["simulate", *ARMIES, "-n", "2", "--workers", "1", "--plot", str(chart)]
    env = {**os.environ, "OPENWAR_STORE": str(tmp_path / "runs.sqlite3")}
    read, write = os.pipe()
    os.close(read)  # nobody reads: the first line printed meets a broken pipe
    try:
        done = subprocess.run(
            [sys.executable, "-c", program, *argv],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
            env=env,
        )
    finally:
        os.close(write)
    assert "Traceback" not in done.stderr
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_battle_and_replay_draw_both_an_svg_and_a_png_when_both_are_given(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """They refused --svg with --png ("give --svg or --png, not both"), where battleplan
    writes both; the replay draws the same two pictures, byte for byte."""
    from openwar.cli.app import main

    svg, png, replay = tmp_path / "t.svg", tmp_path / "t.png", tmp_path / "r.json"
    argv = ["battle", *ARMIES, "--svg", str(svg), "--png", str(png), "--replay", str(replay)]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pictures"] == [str(svg), str(png)] and data["picture"] == str(svg)
    drawn = svg.read_bytes(), png.read_bytes()
    again = tmp_path / "again"
    again.mkdir()
    redraw = ["replay", str(replay), "--svg", str(again / "t.svg"), "--png", str(again / "t.png")]
    assert main(redraw) == 0
    out = capsys.readouterr().out
    assert out.count("Picture of the table: ") == 2
    assert ((again / "t.svg").read_bytes(), (again / "t.png").read_bytes()) == drawn
