"""Results are the same in this process, in a pool of two processes and on a Dask LocalCluster."""

from __future__ import annotations

import logging
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest

from openwar.errors import OpenWarError
from openwar.sim.executors import (
    Chunk,
    DaskCluster,
    InProcess,
    ProcessPool,
    chunked,
    make_executor,
)
from openwar.sim.plan import BattleResult, SimulationPlan
from openwar.sim.seeds import battle_seeds

from .conftest import small_plan


def play(
    executor: InProcess | ProcessPool | DaskCluster, plan: SimulationPlan
) -> list[BattleResult]:
    items = list(enumerate(battle_seeds(plan.seed, plan.battles)))
    with executor:
        chunks = list(executor.results(plan, chunked(items, executor.workers)))
    assert len(chunks) == plan.battles  # chunks of one battle: results arrive one by one
    return sorted((r for chunk in chunks for r in chunk), key=lambda r: r.index)


def test_same_results_for_one_and_two_workers() -> None:
    plan = small_plan(battles=4)
    alone = play(InProcess(), plan)
    pooled = play(ProcessPool(2), plan)
    assert pooled == alone
    assert [r.index for r in alone] == [0, 1, 2, 3]
    assert all(r.error is None for r in alone)


def test_dask_local_cluster_of_two_processes_equals_process_pool() -> None:
    plan = small_plan(battles=4)
    cluster = DaskCluster("local-dask")
    logs = [logging.getLogger(f"distributed.{name}") for name in ("scheduler", "batched")]
    before = [log.level for log in logs]
    with cluster:
        # the scheduler lives in this process: its lost workers and closed streams are
        # reported as one line of ours (or are what a stop signal ended), never a traceback
        assert all(log.level == logging.CRITICAL for log in logs)
        assert cluster.worker_threads() == [1, 1]  # two worker processes, one thread each
        items = list(enumerate(battle_seeds(plan.seed, plan.battles)))
        on_dask = [r for chunk in cluster.results(plan, chunked(items, 2)) for r in chunk]
    assert [log.level for log in logs] == before  # as they were
    pooled = play(ProcessPool(2), plan)
    assert sorted(on_dask, key=lambda r: r.index) == pooled


def test_executor_is_chosen_by_options() -> None:
    assert isinstance(make_executor(1, None), InProcess)
    assert isinstance(make_executor(3, None), ProcessPool)
    assert isinstance(make_executor(1, "local-dask"), DaskCluster)
    assert isinstance(make_executor(1, "tcp://127.0.0.1:8786"), DaskCluster)


def test_workers_size_a_local_dask_cluster_and_are_refused_for_a_remote_one() -> None:
    """--workers 1 with local-dask started two workers all the same, saying nothing."""
    assert make_executor(2, "local-dask").describe().endswith("of 2 worker processes")
    alone = make_executor(1, "local-dask", given=1)
    assert isinstance(alone, DaskCluster) and alone.describe().endswith("of 1 worker process")
    with alone:
        assert alone.worker_threads() == [1]
    with pytest.raises(OpenWarError, match=r"^--workers: the Dask cluster at tcp://"):
        make_executor(3, "tcp://127.0.0.1:8786", given=3)


def test_processes_started_while_deaf_to_ctrl_c_keep_ignoring_it() -> None:
    """Dask's worker processes are started so: a Ctrl-C at the terminal reaches the whole
    process group, and each worker printed a traceback while we were stopping them."""
    import signal
    import subprocess
    import sys

    from openwar.sim.executors import _deaf_to_ctrl_c

    # the premise: this process hears Ctrl-C (a shell's background job starts deaf to it)
    outer = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        probe = "import signal; print(signal.getsignal(signal.SIGINT) == signal.SIG_IGN)"
        with _deaf_to_ctrl_c():
            assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
            deaf = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
        assert signal.getsignal(signal.SIGINT) == signal.default_int_handler
        heard = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    finally:
        signal.signal(signal.SIGINT, outer)
    assert (deaf.stdout.strip(), heard.stdout.strip()) == ("True", "False")


def one_by_one(battles: int) -> tuple[SimulationPlan, list[Chunk]]:
    """A plan and its battles in chunks of one, so results come one at a time."""
    plan = small_plan(battles=battles)
    return plan, [[item] for item in enumerate(battle_seeds(plan.seed, plan.battles))]


@pytest.fixture
def deadline() -> Iterator[None]:
    """Fail a test that would wait for ever (what these tests guard against) after 60 s."""

    def late(*_: object) -> None:
        raise TimeoutError("still waiting after 60 s")

    previous = signal.signal(signal.SIGALRM, late)
    signal.alarm(60)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_pool_worker_that_dies_is_reported_not_waited_on(deadline: None) -> None:
    """multiprocessing's own pool waited for ever on the chunk a killed worker had taken."""
    from openwar.sim.executors import WorkLost

    plan, chunks = one_by_one(40)
    pool = ProcessPool(2)
    got: list[BattleResult] = []
    with pytest.raises(WorkLost, match="a worker process of the local pool died"), pool:
        for chunk in pool.results(plan, chunks):
            if not got:  # the first result in: kill a worker while the others play
                next(iter(pool._pool._processes.values())).kill()  # type: ignore[union-attr]
            got.extend(chunk)
    assert 1 <= len(got) < plan.battles  # what came before the loss stands


def test_a_lost_dask_cluster_is_reported_in_one_line(deadline: None) -> None:
    """A scheduler that went away made the client print a traceback of some 70 lines."""
    import distributed

    from openwar.sim.executors import WorkLost

    plan, chunks = one_by_one(40)
    local = distributed.LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    )
    cluster = DaskCluster(local.scheduler_address)
    got: list[BattleResult] = []
    try:
        with pytest.raises(WorkLost) as lost, cluster:
            for chunk in cluster.results(plan, chunks):
                if not got:  # the first result in: the scheduler goes away
                    local.close()
                got.extend(chunk)
    finally:
        local.close()
    message = str(lost.value)
    address = local.scheduler_address
    assert message.startswith(f"the Dask cluster at {address} (1 worker) was lost (")
    assert "\n" not in message and "Traceback" not in message
    assert 1 <= len(got) < plan.battles


def test_a_pool_left_by_an_error_stops_its_workers_quietly(deadline: None) -> None:
    """Cancelled futures that the pool then failed made its manager thread die with a
    traceback (Python 3.11), and the workers were left running."""
    import threading

    errors: list[BaseException | None] = []

    def hook(args: threading.ExceptHookArgs) -> None:  # only the pool's own thread counts
        if type(args.thread).__name__ == "_ExecutorManagerThread":
            errors.append(args.exc_value)

    previous, threading.excepthook = threading.excepthook, hook
    try:
        plan, chunks = one_by_one(40)
        pool = ProcessPool(2)
        workers: list[Any] = []
        with pytest.raises(RuntimeError, match="the caller fails"), pool:
            for _ in pool.results(plan, chunks):
                workers = list(pool._pool._processes.values())  # type: ignore[union-attr]
                raise RuntimeError("the caller fails")
        assert len(workers) == 2 and all(w.exitcode is not None for w in workers)
        for thread in threading.enumerate():  # the pool's manager thread has ended
            if type(thread).__name__ == "_ExecutorManagerThread":
                thread.join(10)
    finally:
        threading.excepthook = previous
    assert errors == []


def test_a_battles_own_error_on_dask_is_not_a_lost_cluster(
    deadline: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An OSError of our own code in a task (a broken install on a worker) was reported as a
    lost cluster, with a resume that would fail the same way."""
    import distributed

    import openwar.sim.executors as executors

    def broken(*_: object) -> list[BattleResult]:
        raise FileNotFoundError("no such file: the worker's data")

    monkeypatch.setattr(executors, "play_battles", broken)
    local = distributed.LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=1, processes=False, dashboard_address=None
    )
    plan = small_plan(battles=2)
    items = list(enumerate(battle_seeds(plan.seed, plan.battles)))
    try:
        cluster = DaskCluster(local.scheduler_address)
        with pytest.raises(FileNotFoundError, match="the worker's data"), cluster:
            list(cluster.results(plan, chunked(items, 1)))
    finally:
        local.close()


def test_a_pool_gives_work_back_in_the_order_it_was_given(deadline: None) -> None:
    """``ProcessPool.ordered`` (``openwar bench ai``'s battles): each item's result in the
    items' order, however many are in flight, the last few included."""
    with ProcessPool(2) as pool:  # the first item ends last: it must still come first
        assert list(pool.ordered(first_ends_last, range(12))) == list(range(12))


def first_ends_last(k: int) -> int:
    """``k``, after a pause for the first item only (a worker's task, so at module level)."""
    time.sleep(0.5 if k == 0 else 0.0)
    return k


def test_a_pool_stopped_while_its_workers_start_stops_them(
    deadline: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C while the workers started left them running: ``__exit__`` never ran."""
    from concurrent.futures import Future

    pool = ProcessPool(2)
    started: list[Any] = []
    result = Future.result

    def stopped(future: Future[Any], timeout: float | None = None) -> Any:
        started.extend(pool._pool._processes.values())  # type: ignore[union-attr]
        result(future, timeout)
        raise KeyboardInterrupt

    monkeypatch.setattr(Future, "result", stopped)
    with pytest.raises(KeyboardInterrupt), pool:
        pytest.fail("the pool started")
    assert started and all(process.exitcode is not None for process in started)
