"""Files the commands write (pictures, charts, replays, CSV): a path that cannot be written is
one line naming the option and the path, before any work; a write that fails leaves nothing
half-written and no temporary file behind."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from openwar.errors import OpenWarError
from openwar.outputs import check_output, write_text, write_whole

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
    name = "x.csv" if option in ("--replay", "--csv") else "x.svg"
    missing = tmp_path / "no-such-folder" / name
    message = one_line_error(capsys, [*command, str(missing)], nothing_done=True)
    assert f"'{option}'" in message and str(missing) in message and "does not exist" in message
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written, no store made


def test_a_round_without_a_picture_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """`battle --round K` names the round of the picture; without one it did nothing."""
    message = one_line_error(capsys, ["battle", *ARMIES, "--round", "2"], nothing_done=True)
    assert "'--round'" in message and "give --png or --svg too" in message


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
