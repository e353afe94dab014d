"""Stopping a simulation from outside, end to end: the real console script in its own process
group, signalled as a terminal (Ctrl-C), ``kill``/``timeout``/a job scheduler (SIGTERM) or the
out-of-memory killer (SIGKILL) would."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from openwar.bench.ai import SAMPLE_ARMIES
from openwar.errors import OpenWarError
from openwar.sim.store import RunStore
from openwar.stopping import Terminated, stops

OPENWAR = Path(sys.executable).with_name("openwar")
BATTLES = 30


@pytest.mark.parametrize(
    ("number", "raised"), [(signal.SIGTERM, Terminated), (signal.SIGINT, KeyboardInterrupt)]
)
def test_a_signal_raises_once_then_the_old_handlers_come_back(
    number: signal.Signals, raised: type[KeyboardInterrupt]
) -> None:
    before = [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)]
    with stops():
        assert signal.getsignal(number) not in before  # ours while inside
    # no signal came: the handlers before come back
    assert [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)] == before
    with pytest.raises(raised) as caught, stops():
        os.kill(os.getpid(), number)
        time.sleep(5)  # the handler raises at once; the sleep is never finished
    assert type(caught.value) is raised
    try:  # a signal came: both stay ignored, as the process is ending
        assert [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)] == [
            signal.SIG_IGN
        ] * 2
    finally:
        for number_, handler in zip((signal.SIGINT, signal.SIGTERM), before, strict=True):
            signal.signal(number_, handler)


def test_only_the_first_signal_stops_the_clean_up_runs_to_its_end() -> None:
    cleaned = False
    with pytest.raises(KeyboardInterrupt), stops():
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        finally:  # a Ctrl-C pressed twice, then a SIGTERM: the clean-up is not cut short
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
            cleaned = True
    assert cleaned
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def start_simulation(store: Path, *extra: str) -> subprocess.Popen[str]:
    """``openwar simulate`` of the sample armies on two local workers, in a new process group
    (the group a terminal or a job scheduler signals)."""
    command = [str(OPENWAR), "simulate", *map(str, SAMPLE_ARMIES), "-n", str(BATTLES)]
    command += ["--players", "random,random", "--workers", "2", "--store", str(store), *extra]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )


def kept(store: Path) -> int:
    """Battles of run 1 in the store, read as `openwar runs` does (never creating tables)."""
    if not store.exists():
        return 0
    try:
        with RunStore(store, create=False) as runs:
            return runs.run(1).done if runs.runs() else 0
    except OpenWarError:  # made, its tables not yet
        return 0


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
    ("stop", "times", "code", "said"),
    [
        (signal.SIGTERM, 1, 143, "Terminated"),
        (signal.SIGINT, 1, 130, "Interrupted"),
        (signal.SIGINT, 2, 130, "Interrupted"),  # as `timeout -s INT` does: process, then group
    ],
)
def test_a_signalled_run_keeps_its_battles_stops_its_workers_and_resumes(
    tmp_path: Path, stop: signal.Signals, times: int, code: int, said: str
) -> None:
    store = tmp_path / "runs.sqlite"
    plot = tmp_path / "my charts" / "outcomes.svg"  # a space: the resume line must quote it
    plot.parent.mkdir()
    process = start_simulation(store, "--plot", str(plot), "--json")
    wait_for_battles(process, store, 2)
    for _ in range(times):  # the whole group, workers too, as a terminal or scheduler does
        os.killpg(process.pid, stop)
        time.sleep(0.005)
    out, err = process.communicate(timeout=60)
    assert process.returncode == code, err
    assert "Traceback" not in err and out == "" and not plot.exists()
    last = err.strip().splitlines()[-1]
    done = kept(store)
    assert 2 <= done < BATTLES
    resume = f"openwar simulate --resume 1 --store {store} --plot '{plot}' --json"
    kept_line = f"{said}: {done} of {BATTLES} battles of run 1 are kept in {store}."
    assert last == f"{kept_line} Resume with: {resume}"
    assert group_gone(process.pid), "worker processes outlived the stopped run"
    with RunStore(store) as runs:
        assert runs.run(1).status == "interrupted"
    if stop == signal.SIGTERM:  # resuming is the same after any stop; once is enough
        command = shlex.split(resume)  # exactly what the line says, outputs included
        resumed = subprocess.run(
            [str(OPENWAR), *command[1:]], capture_output=True, text=True, timeout=300
        )
        assert resumed.returncode == 0, resumed.stderr
        assert json.loads(resumed.stdout)["played"] == BATTLES and plot.stat().st_size > 0
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
