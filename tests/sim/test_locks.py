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


def test_this_process_may_enter_its_own_run_again(store_path: Path, recorded: int) -> None:
    with playing(store_path, recorded):
        assert being_played(store_path, recorded) is True
        with playing(store_path, recorded):  # a caller that holds it and then plays it
            pass
        assert being_played(store_path, recorded) is True  # held until the outer one ends
        with RunStore(store_path) as store:
            assert play_run(store, recorded, InProcess()).summary["played"] == 2
        assert being_played(store_path, recorded) is True
    assert being_played(store_path, recorded) is False
    assert lock_file(store_path).exists()


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
