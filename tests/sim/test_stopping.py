"""Stopping a simulation from outside, end to end: the real console script in its own process
group, signalled as a terminal (Ctrl-C), ``kill``/``timeout``/a job scheduler (SIGTERM) or the
out-of-memory killer (SIGKILL) would."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

import pytest

from openwar.bench.ai import SAMPLE_ARMIES
from openwar.errors import OpenWarError
from openwar.sim.store import RunStore
from openwar.stopping import Terminated, stops

OPENWAR = Path(sys.executable).with_name("openwar")
BATTLES = 30


POSIX = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="process groups and /proc: Linux"
)
SIGNALS = (signal.SIGINT, signal.SIGTERM)
Handler = Callable[[int, FrameType | None], object] | int | None


@pytest.fixture
def handlers() -> Iterator[list[Handler]]:
    """The signal handlers before the test, put back after it whatever it did."""
    before = [signal.getsignal(number) for number in SIGNALS]
    yield before
    for number, handler in zip(SIGNALS, before, strict=True):
        if handler is not None:  # None: not set from Python, nothing to put back
            signal.signal(number, handler)


@pytest.mark.parametrize(
    ("number", "raised"), [(signal.SIGTERM, Terminated), (signal.SIGINT, KeyboardInterrupt)]
)
def test_a_signal_raises_once_then_the_old_handlers_come_back(
    number: signal.Signals, raised: type[KeyboardInterrupt], handlers: list[Handler]
) -> None:
    with stops():
        assert signal.getsignal(number) not in handlers  # ours while inside
    assert [signal.getsignal(s) for s in SIGNALS] == handlers  # no signal came
    with pytest.raises(raised) as caught, stops():
        os.kill(os.getpid(), number)
        time.sleep(5)  # the handler raises at once; the sleep is never finished
    assert type(caught.value) is raised
    # a signal came: the handlers before come back all the same (a caller goes on)
    assert [signal.getsignal(s) for s in SIGNALS] == handlers
    with pytest.raises(raised), stops(ending=True):
        os.kill(os.getpid(), number)
        time.sleep(5)
    # the console script's process ends next: a late signal is ignored, not a traceback
    assert [signal.getsignal(s) for s in SIGNALS] == [signal.SIG_IGN] * 2


@pytest.mark.parametrize(
    ("number", "raised"), [(signal.SIGTERM, Terminated), (signal.SIGINT, KeyboardInterrupt)]
)
def test_a_signal_inside_held_steps_waits_for_them_to_end(
    number: signal.Signals, raised: type[KeyboardInterrupt], handlers: list[Handler]
) -> None:
    """A sweep's record and its id are kept together: a stop between the two gave a bare
    "interrupted" with no sweep to resume named."""
    from openwar.stopping import held

    done = []
    with pytest.raises(raised) as caught, stops():
        with held():
            os.kill(os.getpid(), number)
            time.sleep(0.05)  # the signal waits: the block runs to its end
            done.append("kept")
        done.append("after")  # never reached: raised as the block ended
    assert done == ["kept"] and type(caught.value) is raised
    assert [signal.getsignal(s) for s in SIGNALS] == handlers


def test_the_second_signal_is_ignored_the_clean_up_runs_to_its_end(
    handlers: list[Handler],
) -> None:
    cleaned = False
    with pytest.raises(KeyboardInterrupt), stops():
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        finally:  # a Ctrl-C pressed twice, or timeout's signal to the group after the process
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
            cleaned = True
    assert cleaned


def test_a_signal_ignored_from_the_start_stays_ignored(handlers: list[Handler]) -> None:
    """``cmd &`` in a script starts a program deaf to Ctrl-C: so it stays, SIGTERM is ours."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with stops():
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) not in handlers
        os.kill(os.getpid(), signal.SIGINT)  # nothing happens
        time.sleep(0.05)
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


FORCED = """
import os, signal, sys, time
from openwar.stopping import stops
with stops():
    ours = signal.getsignal(signal.SIGINT)

    def told(number, frame):  # says when a signal that did not raise was handled
        ours(number, frame)
        print("handled", flush=True)

    signal.signal(signal.SIGINT, told)
    try:
        print("ready", flush=True)
        time.sleep(60)
    finally:
        print("cleaning", flush=True)
        time.sleep(60)  # a clean-up that hangs
"""


@POSIX
@pytest.mark.parametrize(("first", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_third_signal_ends_the_process_at_once(first: signal.Signals, code: int) -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", FORCED], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stdout.readline() == "ready\n"
    process.send_signal(first)
    assert process.stdout.readline() == "cleaning\n"
    process.send_signal(signal.SIGINT)  # ignored: the clean-up goes on
    assert process.stdout.readline() == "handled\n"  # seen, so the next is not merged with it
    assert process.poll() is None
    process.send_signal(signal.SIGINT)  # the third: cut short
    out, err = process.communicate(timeout=10)
    assert process.returncode == code and out == ""  # nothing after "cleaning"
    assert err == "openwar: stopped at once (a third signal): its clean-up was cut short\n"


CUT = """
import os, sys
from openwar.stopping import _cut_short
if sys.argv[1] == "closed":
    os.close(2)
_cut_short(143)
"""


@POSIX
@pytest.mark.parametrize("stderr", ["closed", "terminal"])
def test_a_process_cut_short_ends_with_its_code_and_shows_the_cursor(stderr: str) -> None:
    """Even with no stderr to say so (a closed pipe would raise), and on a terminal the cursor
    a progress bar hid comes back."""
    import pty

    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-c", CUT, stderr], stderr=follower, timeout=60, check=False
        )
        os.close(follower)
        said = b""
        with contextlib.suppress(OSError):  # EIO: all read, the other end closed
            while chunk := os.read(leader, 1024):
                said += chunk
    finally:
        os.close(leader)
    assert done.returncode == 143
    if stderr == "closed":
        assert said == b""
    else:
        assert said.startswith(b"\r")  # a terminal writes "\n" as "\r\n"
        assert said.endswith(
            b"\x1b[?25hopenwar: stopped at once (a third signal): its clean-up was cut short\r\n"
        )


ORPHAN = """
import multiprocessing, os, sys, time
from openwar.stopping import worker_start

def work(go, parent):
    go.wait()
    while os.getppid() == parent:  # the parent is gone before the worker's first step
        time.sleep(0.01)
    worker_start()
    time.sleep(60)  # plays on unless it notices

if __name__ == "__main__":
    context = multiprocessing.get_context("spawn")
    go = context.Event()
    worker = context.Process(target=work, args=(go, os.getpid()))
    worker.start()
    with open(sys.argv[1], "w") as out:
        out.write(str(worker.pid))
    go.set()
    os._exit(0)
"""


@POSIX
def test_a_worker_whose_parent_died_before_it_started_ends(tmp_path: Path) -> None:
    """Its parent gone before :func:`worker_start` ran: a look at the parent's process id then
    found the new parent (init) and would have watched it for ever."""
    script = tmp_path / "orphan.py"
    script.write_text(ORPHAN)
    written = tmp_path / "worker.pid"
    subprocess.run(  # no pipes: the worker would hold them open
        [sys.executable, str(script), str(written)],
        stdout=subprocess.DEVNULL,
        timeout=60,
        check=True,
    )
    worker = int(written.read_text())
    deadline = time.monotonic() + 20
    while alive(worker):
        if time.monotonic() > deadline:
            os.kill(worker, signal.SIGKILL)
            pytest.fail("the orphaned worker played on")
        time.sleep(0.05)


def processes() -> Iterator[tuple[int, int, str]]:
    """(process id, process group, state) of every process, from /proc."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # ended while we looked
            continue
        fields = text.rsplit(")", 1)[1].split()  # after the name, which may hold spaces
        yield int(stat.parent.name), int(fields[2]), fields[0]


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs: ended or a zombie (ended, not yet reaped) is not."""
    return any(p == pid and state != "Z" for p, _, state in processes())


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


def delivered(pid: int, number: signal.Signals, store: Path) -> None:
    """Wait until signal ``number`` is no longer pending for process ``pid`` and the run it
    stopped is marked interrupted: its handler has run."""
    deadline = time.monotonic() + 30
    bit = 1 << (number - 1)
    while time.monotonic() < deadline:
        status = Path(f"/proc/{pid}/status").read_text()
        pending = [int(line.split()[1], 16) for line in status.splitlines()
                   if line.startswith(("SigPnd:", "ShdPnd:"))]  # fmt: skip
        with RunStore(store, create=False) as runs:
            if not any(p & bit for p in pending) and runs.run(1).status == "interrupted":
                return
        time.sleep(0.005)
    pytest.fail(f"signal {number} was not handled in 30 s")


def group_gone(group: int, within: float = 15.0) -> bool:
    """Whether every process of the group has ended (the workers included; a zombie, ended
    but not yet reaped by whoever inherited it, counts as ended) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(g == group and state != "Z" for _, g, state in processes()):
            return True
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)  # leave no stray players behind the test
    return False


@POSIX
@pytest.mark.parametrize(
    ("stop", "times", "code", "said", "where"),
    [
        (signal.SIGTERM, 1, 143, "Terminated", ()),
        (signal.SIGINT, 1, 130, "Interrupted", ()),
        (signal.SIGINT, 2, 130, "Interrupted", ()),  # as `timeout -s INT`: process, then group
        # Dask's workers keep SIGTERM (their nannies stop them with it): they end at once,
        # and the scheduler in this process must not log the loss as an error
        (signal.SIGTERM, 1, 143, "Terminated", ("--scheduler", "local-dask")),
    ],
    ids=["SIGTERM", "SIGINT", "SIGINT-twice", "SIGTERM-local-dask"],
)
def test_a_signalled_run_keeps_its_battles_stops_its_workers_and_resumes(
    tmp_path: Path,
    stop: signal.Signals,
    times: int,
    code: int,
    said: str,
    where: tuple[str, ...],
) -> None:
    store = tmp_path / "runs.sqlite"
    plot = tmp_path / "my charts" / "outcomes.svg"  # a space: the resume line must quote it
    plot.parent.mkdir()
    process = start_simulation(store, "--plot", str(plot), "--json", *where)
    wait_for_battles(process, store, 2)
    for time_ in range(times):  # the whole group, workers too, as a terminal or scheduler does
        if time_:  # the first delivered and its clean-up begun: this one is not merged with it
            delivered(process.pid, stop, store)
        with contextlib.suppress(ProcessLookupError):  # the second: all may have ended
            os.killpg(process.pid, stop)
    out, err = process.communicate(timeout=60)
    assert process.returncode == code, err
    assert "Traceback" not in err and "distributed" not in err
    assert out == "" and not plot.exists()
    last = err.strip().splitlines()[-1]
    done = kept(store)
    assert 2 <= done < BATTLES
    resume = f"openwar simulate --resume 1 --store {store} --plot '{plot}' --json"
    kept_line = f"{said}: {done} of {BATTLES} battles of run 1 are kept in {store}."
    assert last == f"{kept_line} Resume with: {resume}"
    assert group_gone(process.pid), "worker processes outlived the stopped run"
    with RunStore(store) as runs:
        assert runs.run(1).status == "interrupted"
    if stop == signal.SIGTERM and not where:  # resuming is the same after any stop: once
        command = shlex.split(resume)  # exactly what the line says, outputs included
        resumed = subprocess.run(
            [str(OPENWAR), *command[1:]], capture_output=True, text=True, timeout=300
        )
        assert resumed.returncode == 0, resumed.stderr
        assert json.loads(resumed.stdout)["played"] == BATTLES and plot.stat().st_size > 0
        with RunStore(store) as runs:
            assert runs.run(1).status == "complete" and runs.run(1).done == BATTLES


@POSIX
@pytest.mark.parametrize(
    ("stop", "code", "said"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
    ids=["SIGINT", "SIGTERM"],
)
def test_a_stopped_bench_gives_its_whole_pairs_figures_and_stops_its_workers(
    tmp_path: Path, stop: signal.Signals, code: int, said: str
) -> None:
    """``openwar bench ai`` stopped part way: the figures of the whole pairs played, as data,
    then one line; before, its plain pool waited for every battle queued and its workers
    played on after a second signal ended it, with no figures printed."""
    lines = tmp_path / "battles.txt"
    command = [str(OPENWAR), "bench", "ai", "--matchup", "random,random", "-n", "400"]
    with lines.open("w") as err:
        process = subprocess.Popen(
            [*command, "--workers", "2", "--json"],
            stdout=subprocess.PIPE, stderr=err, text=True, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 120
        while len(battle_lines(lines.read_text())) < 3:
            assert process.poll() is None and time.monotonic() < deadline, lines.read_text()
            time.sleep(0.05)
        os.killpg(process.pid, stop)  # the whole group, as a terminal does
        out, _ = process.communicate(timeout=60)
    err_text = lines.read_text()
    assert process.returncode == code, err_text
    assert "Traceback" not in err_text and err_text.splitlines()[-1] == f"openwar: {said}"
    figures = json.loads(out)
    match = figures["matchups"][0]
    stopped_line = re.search(
        rf"{said.capitalize()} after (\d+) of 400 battles of random vs random: its figures are "
        r"of the first (\d+) whole pairs?$",
        " ".join(err_text.split()[:-2]),  # as printed, wrapped or not; "openwar: ..." after it
    )
    assert stopped_line is not None, err_text
    ended, pairs = int(stopped_line.group(1)), int(stopped_line.group(2))
    # each battle's line is printed as it is counted: a signal may fall between the two
    assert ended - len(battle_lines(err_text)) in (0, 1) and pairs == ended // 2
    assert figures["stopped"] == said and match["planned"] == 400
    assert len(match["games"]) == 2 * pairs < 400  # stuck ones too (not among "battles")
    assert match["battles"] + match["stuck"] == 2 * pairs
    assert group_gone(process.pid), "worker processes outlived the stopped bench"


def battle_lines(text: str) -> list[str]:
    """The battles a bench has reported (one line each, which the console may wrap)."""
    return re.findall(r"seed \d+ side [01] ", " ".join(text.split()))


@POSIX
def test_workers_end_when_their_run_is_killed_outright(tmp_path: Path) -> None:
    """SIGKILL cannot be caught: the run stays recorded as running, but its workers notice their
    parent is gone and end, rather than playing on for nobody (they did before)."""
    store = tmp_path / "runs.sqlite"
    process = start_simulation(store)
    wait_for_battles(process, store, 1)
    process.kill()
    process.wait(timeout=30)
    assert group_gone(process.pid), "worker processes outlived their killed parent"
    with contextlib.closing(sqlite3.connect(store)) as db:  # as recorded: nobody could say
        assert db.execute("SELECT status FROM runs WHERE id = 1").fetchone() == ("running",)
    with RunStore(store) as runs:  # its lock went with it: nobody plays it, it can be resumed
        assert runs.run(1).status == "interrupted"


DURING_IMPORT = """
import importlib.abc, os, signal, sys

class SignalOnLoad(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "openwar.cli.app":  # as if the key came while the command line loads
            os.kill(os.getpid(), signal.{name})
        return None

sys.meta_path.insert(0, SignalOnLoad())
from openwar.cli.entry import run
run()
"""


@POSIX
@pytest.mark.parametrize(
    ("name", "code", "said"), [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")]
)
def test_a_signal_while_the_command_line_loads_is_one_line(name: str, code: int, said: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", DURING_IMPORT.replace("{name}", name), "--version"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr, done.stdout) == (code, f"openwar: {said}\n", "")
