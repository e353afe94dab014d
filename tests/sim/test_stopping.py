"""Stopping a simulation from outside, end to end: the real console script in its own process
group, signalled as a terminal (Ctrl-C), ``kill``/``timeout``/a job scheduler (SIGTERM) or the
out-of-memory killer (SIGKILL) would."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from openwar.bench.ai import SAMPLE_ARMIES
from openwar.sim.store import RunStore
from openwar.stopping import Terminated, sigterm_stops

OPENWAR = Path(sys.executable).with_name("openwar")
BATTLES = 30


def test_sigterm_raises_terminated_once_then_the_old_handler_comes_back() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with sigterm_stops():
        with pytest.raises(Terminated):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler raises at once; the sleep is never finished
        os.kill(os.getpid(), signal.SIGTERM)  # a second one, while cleaning up: ignored
        time.sleep(0.05)
    assert signal.getsignal(signal.SIGTERM) == before


def start_simulation(store: Path) -> subprocess.Popen[str]:
    """``openwar simulate`` of the sample armies on two local workers, in a new process group
    (the group a terminal or a job scheduler signals)."""
    command = [str(OPENWAR), "simulate", *map(str, SAMPLE_ARMIES), "-n", str(BATTLES)]
    command += ["--players", "random,random", "--workers", "2", "--store", str(store)]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )


def kept(store: Path) -> int:
    if not store.exists():
        return 0
    with RunStore(store) as runs:
        return runs.run(1).done if runs.runs() else 0


def wait_for_battles(process: subprocess.Popen[str], store: Path, count: int) -> None:
    deadline = time.monotonic() + 120
    while kept(store) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no battles finished in 120 s"
        time.sleep(0.05)


def group_gone(group: int, within: float = 15.0) -> bool:
    """Whether every process of the group has ended (the workers included) within ``within``
    seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    os.killpg(group, signal.SIGKILL)  # leave no stray players behind the test
    return False


@pytest.mark.parametrize(
    ("stop", "code", "said"),
    [(signal.SIGTERM, 143, "Terminated"), (signal.SIGINT, 130, "Interrupted")],
)
def test_a_signalled_run_keeps_its_battles_stops_its_workers_and_resumes(
    tmp_path: Path, stop: signal.Signals, code: int, said: str
) -> None:
    store = tmp_path / "runs.sqlite"
    process = start_simulation(store)
    wait_for_battles(process, store, 2)
    os.killpg(process.pid, stop)  # the whole group, workers too, as a terminal or scheduler does
    _, err = process.communicate(timeout=60)
    assert process.returncode == code, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    done = kept(store)
    assert 2 <= done < BATTLES
    assert last == (
        f"{said}: {done} of {BATTLES} battles of run 1 are kept in {store}. "
        f"Resume with: openwar simulate --resume 1 --store {store}"
    )
    assert group_gone(process.pid), "worker processes outlived the stopped run"
    with RunStore(store) as runs:
        assert runs.run(1).status == "interrupted"
    if stop == signal.SIGTERM:  # resuming is the same for both; once is enough
        resumed = subprocess.run(
            [str(OPENWAR), "simulate", "--resume", "1", "--store", str(store), "--json"],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert resumed.returncode == 0, resumed.stderr
        with RunStore(store) as runs:
            assert runs.run(1).status == "complete" and runs.run(1).done == BATTLES


def test_workers_end_when_their_run_is_killed_outright(tmp_path: Path) -> None:
    """SIGKILL cannot be caught: the run stays marked running, but its workers notice their
    parent is gone and end, rather than playing on for nobody (they did before)."""
    store = tmp_path / "runs.sqlite"
    process = start_simulation(store)
    wait_for_battles(process, store, 1)
    process.kill()
    process.wait(timeout=30)
    assert group_gone(process.pid), "worker processes outlived their killed parent"
