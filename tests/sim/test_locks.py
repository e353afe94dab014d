"""A run is played by one process at a time: a second resume is refused while the first plays,
and a run left "running" by a process killed outright is free at once (openwar.sim.locks)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from openwar.cli.app import main
from openwar.sim.executors import InProcess
from openwar.sim.locks import RunBusy, being_played, lock_file, playing
from openwar.sim.run import new_run, play_run
from openwar.sim.store import RunStore

from .conftest import small_plan

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX record locks")

HOLD = """
import sys
from pathlib import Path
from openwar.sim.locks import playing
with playing(Path(sys.argv[1]), int(sys.argv[2])):
    print("held", flush=True)
    sys.stdin.read()  # until the test closes it, or kills this process
"""


@pytest.fixture
def recorded(store_path: Path) -> int:
    """A run of two battles, recorded and not yet played (marked running, as if playing)."""
    with RunStore(store_path) as store:
        return new_run(store, small_plan(battles=2))


@pytest.fixture
def held(store_path: Path, recorded: int) -> Iterator[subprocess.Popen[str]]:
    """Another process playing the recorded run: it holds its lock until the test ends."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(store_path), str(recorded)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline() == "held\n"
    yield process
    process.kill()
    process.wait(timeout=30)


@POSIX
def test_a_run_played_elsewhere_is_refused_and_shown_running(
    store_path: Path, recorded: int, held: subprocess.Popen[str]
) -> None:
    assert being_played(store_path, recorded) is True
    with RunStore(store_path) as store:
        assert store.run(recorded).status == "running"
        with pytest.raises(RunBusy, match="being played now by another openwar process"):
            play_run(store, recorded, InProcess())
        assert store.run(recorded).done == 0  # nothing played twice
        assert being_played(store_path, recorded + 1) is False  # one run's lock, not the store's


@POSIX
def test_a_run_whose_player_was_killed_is_free_at_once(
    store_path: Path, recorded: int, held: subprocess.Popen[str]
) -> None:
    held.kill()  # as SIGKILL or the out-of-memory killer: no clean-up, the lock goes with it
    held.wait(timeout=30)
    assert being_played(store_path, recorded) is False
    with RunStore(store_path) as store:
        assert store.run(recorded).status == "interrupted"  # recorded "running": nobody plays it
        assert play_run(store, recorded, InProcess()).summary["played"] == 2
        assert store.run(recorded).status == "complete"


LOOK = """
import sys
from pathlib import Path
from openwar.sim.locks import being_played
print(being_played(Path(sys.argv[1]), int(sys.argv[2])))
"""


def seen_from_another_process(store: Path, run_id: int) -> str:
    done = subprocess.run(
        [sys.executable, "-c", LOOK, str(store), str(run_id)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return done.stdout.strip()


@POSIX
def test_this_process_may_enter_its_own_run_again(store_path: Path, recorded: int) -> None:
    with playing(store_path, recorded):
        assert being_played(store_path, recorded) is True
        with playing(store_path, recorded):  # a caller that holds it and then plays it
            pass
        assert being_played(store_path, recorded) is True  # held until the outer one ends
        with RunStore(store_path) as store:
            assert play_run(store, recorded, InProcess()).summary["played"] == 2
            store.run(recorded)  # reading the store while playing keeps the lock
        assert being_played(store_path, recorded + 7) is False  # a look at another run...
        assert seen_from_another_process(store_path, recorded) == "True"  # ...kept this one
    assert being_played(store_path, recorded) is False
    assert seen_from_another_process(store_path, recorded) == "False"
    assert lock_file(store_path).exists()


@POSIX
def test_a_store_named_through_a_link_shares_its_lock(
    store_path: Path, recorded: int, tmp_path: Path
) -> None:
    link = tmp_path / "elsewhere.sqlite3"
    link.symlink_to(store_path)
    assert lock_file(link) == lock_file(store_path)
    with playing(link, recorded):
        assert seen_from_another_process(store_path, recorded) == "True"


def test_reading_the_store_makes_no_lock_file(store_path: Path, recorded: int) -> None:
    assert not lock_file(store_path).exists()
    with RunStore(store_path) as store:
        assert store.run(recorded).status == "interrupted"  # no lock file: nobody plays it
    # no lock file: nobody plays it (a machine without record locks cannot tell)
    assert being_played(store_path, recorded) is (None if sys.platform == "win32" else False)
    assert not lock_file(store_path).exists()


SHARED_FOR_A_MOMENT = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, int(sys.argv[2]))  # as being_played does
print("shared", flush=True)
time.sleep(0.3)
"""


@POSIX
def test_a_look_from_another_process_does_not_refuse_the_player(
    store_path: Path, recorded: int
) -> None:
    """`openwar runs list` takes each run's byte shared for an instant: a run starting then
    waits that instant out rather than calling itself busy."""
    looker = subprocess.Popen(
        [sys.executable, "-c", SHARED_FOR_A_MOMENT, str(lock_file(store_path)), str(recorded)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert looker.stdout is not None and looker.stdout.readline() == "shared\n"
    with playing(store_path, recorded):
        assert being_played(store_path, recorded) is True
    looker.wait(timeout=30)


@POSIX
def test_a_file_system_that_cannot_lock_plays_unguarded(
    store_path: Path, recorded: int, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    import errno
    import fcntl

    def cannot(*_: object) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "lockf", cannot)
    with RunStore(store_path) as store:
        assert play_run(store, recorded, InProcess()).summary["played"] == 2  # not "busy"
    lock_file(store_path).touch()
    assert being_played(store_path, recorded) is None  # cannot be told
    second = new_run_of(store_path)
    assert main(["runs", "show", str(second), "--store", str(store_path)]) == 0
    out = capsys.readouterr().out  # recorded as running, nobody can tell: its resume line
    assert f"Not complete: openwar simulate --resume {second}" in out


def new_run_of(store: Path) -> int:
    with RunStore(store) as runs:
        return new_run(runs, small_plan(battles=2))


@POSIX
def test_resuming_a_run_played_elsewhere_says_so_before_any_worker_starts(
    store_path: Path,
    recorded: int,
    held: subprocess.Popen[str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "--resume", str(recorded), "--store", str(store_path), "--workers", "2"]
    assert main(argv) == 1
    said = capsys.readouterr().err.strip()
    assert said == (
        f"openwar simulate: error: run {recorded} is being played now by another openwar "
        "process: let it finish, or stop it (Ctrl-C) and resume the run"
    )
    assert main(["runs", "show", str(recorded), "--store", str(store_path)]) == 0
    assert "Being played now: not complete yet" in capsys.readouterr().out


def test_runs_show_names_a_store_from_the_environment_in_its_resume_line(
    store_path: Path, recorded: int, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # store_path is $OPENWAR_STORE here (conftest); another shell may not set it
    assert main(["runs", "show", str(recorded)]) == 0
    out = capsys.readouterr().out
    assert f"Not complete: openwar simulate --resume {recorded} --store {store_path}" in out
