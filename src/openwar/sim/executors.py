"""Where battles are played: in this process, in a local process pool, or on a Dask cluster.

Every executor takes chunks of ``(index, seed)`` and yields each chunk's results as soon as it
is finished, in whatever order; the caller sorts by battle index, so results never depend on
the executor. Pools start their workers with the 'spawn' method (no inherited state, the same
on every platform) and workers ignore Ctrl-C, which the parent handles alone. A worker that
dies (killed, out of memory) or a Dask cluster that is lost stops the work with
:class:`WorkLost`, one line saying what was lost, never a hang or a traceback: the results
already yielded stand.
"""

from __future__ import annotations

import collections
import contextlib
import importlib
import itertools
import logging
import multiprocessing
import os
import signal
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Future,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Any, Protocol, TypeVar

from openwar.errors import OpenWarError
from openwar.sim.plan import BattleResult, SimulationPlan, play_battles
from openwar.stopping import worker_start
from openwar.words import counted

Chunk = Sequence[tuple[int, int]]
T = TypeVar("T")
R = TypeVar("R")
LOCAL_DASK = "local-dask"
DASK_WORKERS = 2  # a LocalCluster of two single-threaded worker processes
IN_FLIGHT = 4  # chunks per local worker submitted ahead of the results read
WORKER_DIED = "a worker process of the local pool died (killed, or out of memory?)"


class WorkLost(OpenWarError):
    """The processes playing the battles are gone (a worker killed, a cluster lost): the
    results yielded before stand, the rest were not played. Not the input's fault: exit 1."""

    exit_code = 1


class Executor(Protocol):
    """Plays chunks of battles; ``describe`` says where, for the report."""

    workers: int

    def __enter__(self) -> Executor: ...

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...

    def describe(self) -> str: ...

    def results(self, plan: SimulationPlan, chunks: list[Chunk]) -> Iterator[list[BattleResult]]:
        """Yield the results of each chunk as it finishes."""
        ...


class InProcess:
    """Plays the battles one after another in this process (``--workers 1``)."""

    workers = 1

    def __enter__(self) -> InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def describe(self) -> str:
        return "in this process"

    def results(self, plan: SimulationPlan, chunks: list[Chunk]) -> Iterator[list[BattleResult]]:
        for chunk in chunks:
            yield play_battles(plan, chunk)


class ProcessPool:
    """A local pool of ``workers`` processes started with 'spawn'. A worker that dies (killed,
    out of memory) breaks the pool, which is reported (:class:`WorkLost`) rather than waited
    on for ever, as :mod:`multiprocessing`'s own pool would wait for the chunk it lost."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> ProcessPool:
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=worker_start)
        # start every worker now, deaf to Ctrl-C and SIGTERM from its first instruction: one started
        # later by the first battles heard a Ctrl-C before its initializer ran and printed a
        # traceback.
        # Each submit starts its process at once; only that is done deaf (a Ctrl-C while this
        # process is deaf is lost), the workers' start-up is waited for after
        try:
            with _deaf_to_ctrl_c(sigterm=True):
                started = [self._pool.submit(os.getpid) for _ in range(self.workers)]
            for future in started:
                future.result()
        except BaseException as exc:  # a stop while they start: stopped as after one later
            self.__exit__(type(exc), exc, exc.__traceback__)
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if kind is None:
            pool.shutdown(wait=True)
            return
        # interrupted or failed: drop the battles not started, stop those being played (their
        # results nobody keeps: killed, as they are deaf to SIGTERM) and wait for them to go
        workers = list((getattr(pool, "_processes", None) or {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)  # it joins them too
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.kill()
        for process in workers:
            process.join()
        if manager is not None:  # else a worker it reaped could still read as running
            manager.join()

    def describe(self) -> str:
        return f"a pool of {self.workers} local processes"

    def ordered(self, work: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """``work`` of each item, yielded in the items' order as soon as it and those before it
        are done, with a few items per worker in flight (``openwar bench ai``'s battles)."""
        assert self._pool is not None, "enter the pool first"
        waiting = iter(items)
        running = collections.deque(
            self._pool.submit(work, item)
            for item in itertools.islice(waiting, IN_FLIGHT * self.workers)
        )
        try:
            while running:
                done = running.popleft().result()
                running.extend(
                    self._pool.submit(work, item) for item in itertools.islice(waiting, 1)
                )
                yield done
        except BrokenProcessPool:
            raise WorkLost(WORKER_DIED) from None

    def results(self, plan: SimulationPlan, chunks: list[Chunk]) -> Iterator[list[BattleResult]]:
        """Each chunk's results as it finishes, with a few chunks per worker in flight (not
        every chunk of a million battles queued at once)."""
        assert self._pool is not None, "enter the pool first"
        waiting = iter(chunks)
        running: set[Future[list[BattleResult]]] = set()
        try:
            for chunk in itertools.islice(waiting, IN_FLIGHT * self.workers):
                running.add(self._pool.submit(play_battles, plan, chunk))
            while running:
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    for chunk in itertools.islice(waiting, 1):
                        running.add(self._pool.submit(play_battles, plan, chunk))
                    yield future.result()
        except BrokenProcessPool:
            raise WorkLost(WORKER_DIED) from None


_LOCAL_LOGS = (logging.getLogger("distributed.scheduler"), logging.getLogger("distributed.batched"))


class DaskCluster:
    """A Dask distributed client: on a new LocalCluster, or on the scheduler at ``address``.

    Workers of a remote cluster need OpenWar installed (the same version, for equal results).
    """

    def __init__(self, address: str, workers: int = DASK_WORKERS) -> None:
        self.address = address
        self.workers = workers  # a LocalCluster's; a remote cluster's are counted on connecting
        self._client: Any = None
        self._cluster: Any = None
        self._levels: list[int] | None = None  # the levels of _LOCAL_LOGS before we silenced them

    def __enter__(self) -> DaskCluster:
        distributed = _distributed()
        try:
            if self.address == LOCAL_DASK:
                with _deaf_to_ctrl_c(), warnings.catch_warnings():  # the workers inherit it:
                    # a Ctrl-C stops us, not them. Its scheduler serves HTTP (health checks)
                    # even without a dashboard, on 8787 if free: when another cluster holds
                    # it, distributed's "Port 8787 is already in use" warning is no concern of
                    # a simulation's (it reached stderr, and two runs at once each said it)
                    warnings.filterwarnings("ignore", "Port .* is already in use", UserWarning)
                    self._cluster = distributed.LocalCluster(
                        n_workers=self.workers,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=None,
                        silence_logs=logging.ERROR,  # not "task cancelled" on a Ctrl-C
                    )
                self._client = distributed.Client(self._cluster)
                # its scheduler lives in this process: a worker it loses is reported as a
                # lost run (WorkLost), or is one a Ctrl-C or SIGTERM to the process group
                # stopped; its own ERROR line about the data lost said it again, mid-report,
                # and a worker stopped mid-write made its batched stream log a traceback
                self._levels = [log.level for log in _LOCAL_LOGS]
                for log in _LOCAL_LOGS:
                    log.setLevel(logging.CRITICAL)
            else:
                self._client = distributed.Client(self.address, timeout=10)
                self.workers = max(1, len(self._client.scheduler_info()["workers"]))
        except (OSError, ValueError) as exc:  # ValueError: an address it cannot parse
            self.__exit__(None, None, None)
            raise OpenWarError(f"--scheduler {self.address}: cannot connect ({exc})") from exc
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            with _quiet_client():  # closing a client whose scheduler is gone logs that again
                if self._client is not None:
                    self._client.close()
                if self._cluster is not None:
                    self._cluster.close()
        finally:  # even if closing failed or was stopped
            if self._levels is not None:
                for log, level in zip(_LOCAL_LOGS, self._levels, strict=True):
                    log.setLevel(level)
                self._levels = None

    def worker_threads(self) -> list[int]:
        """Threads of each worker process of the cluster."""
        workers = self._client.scheduler_info()["workers"].values()
        return sorted(int(w["nthreads"]) for w in workers)

    def describe(self) -> str:
        if self.address == LOCAL_DASK:
            processes = "process" if self.workers == 1 else "processes"
            return f"a Dask LocalCluster of {self.workers:,} worker {processes}"
        return f"the Dask cluster at {self.address} ({counted(self.workers, 'worker')})"

    def results(self, plan: SimulationPlan, chunks: list[Chunk]) -> Iterator[list[BattleResult]]:
        distributed = _distributed()
        own: BaseException | None = None  # a battle's own error (a bug, a broken install)
        try:
            with _quiet_client():
                shared = self._client.scatter(plan, broadcast=True)
                futures = [
                    self._client.submit(play_battles, shared, chunk, pure=False) for chunk in chunks
                ]
            try:
                for future in distributed.as_completed(futures):
                    error = future.exception() if future.status == "error" else None
                    if error is not None and not isinstance(error, distributed.KilledWorker):
                        own = error
                        break
                    with _quiet_client():
                        found = future.result()
                    yield found
            finally:
                with _quiet_client(), contextlib.suppress(Exception):
                    self._client.cancel(futures)
        except (CancelledError, distributed.KilledWorker, OSError) as exc:
            raise WorkLost(f"{self.describe()} was lost ({_lost_reason(exc)})") from None
        if own is not None:
            raise own  # as it is: not a lost cluster, and a resume would fail the same way


def _lost_reason(exc: BaseException) -> str:
    """Dask's own reason in a few words ("scheduler-connection-lost"), else the error's."""
    words = str(exc)
    if "reason:" in words:
        words = words.rsplit("reason:", 1)[1].strip()
    words = words.splitlines()[0] if words else ""
    return words.split(". ", 1)[0].rstrip(".") or type(exc).__name__


@contextlib.contextmanager
def _quiet_client() -> Iterator[None]:
    """Keep the Dask client's log quiet while we wait on it: a lost scheduler made it log a
    traceback of its own before :class:`WorkLost` said the same in one line."""
    logger = logging.getLogger("distributed.client")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


@contextlib.contextmanager
def _deaf_to_ctrl_c(*, sigterm: bool = False) -> Iterator[None]:
    """Ignore SIGINT (and with ``sigterm`` SIGTERM) while worker processes start (a process
    started then keeps ignoring it): a Ctrl-C at the terminal, or a SIGTERM to the process
    group, reaches every process, and each Dask worker printed its own traceback while this
    process was already stopping them. (Dask's workers keep SIGTERM: their nannies stop them
    with it.) Elsewhere than in the main thread signals cannot be set, and nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stops = (signal.SIGINT, signal.SIGTERM) if sigterm else (signal.SIGINT,)
    previous = [signal.signal(number, signal.SIG_IGN) for number in stops]
    try:
        yield
    finally:
        for number, handler in zip(stops, previous, strict=True):
            signal.signal(number, handler)


def _distributed() -> Any:
    """The ``distributed`` module, untyped on purpose: its functions carry no annotations."""
    try:
        return importlib.import_module("distributed")
    except ImportError as exc:  # pragma: no cover - dask is a dependency
        raise OpenWarError("--scheduler needs dask: pip install 'dask[distributed]'") from exc


def make_executor(workers: int, scheduler: str | None, given: int | None = None) -> Executor:
    """The executor the options ask for: Dask when a scheduler is given, else by worker count.
    ``given`` is --workers as given (None when not): the size of a local Dask cluster (else
    :data:`DASK_WORKERS`); a remote cluster has its own workers, so it is refused there."""
    if scheduler is not None:
        if scheduler != LOCAL_DASK and not scheduler.startswith(("tcp://", "tls://")):
            raise OpenWarError(
                f"--scheduler {scheduler!r}: expected tcp://host:port or {LOCAL_DASK}"
            )
        if scheduler != LOCAL_DASK and given is not None:
            raise OpenWarError(
                f"--workers: the Dask cluster at {scheduler} plays on its own workers; give "
                "--workers only without --scheduler, or with --scheduler local-dask"
            )
        return DaskCluster(scheduler, DASK_WORKERS if given is None else given)
    if workers <= 1:
        return InProcess()
    return ProcessPool(workers)


def chunked(items: list[tuple[int, int]], workers: int) -> list[Chunk]:
    """Split battles into chunks: small enough to keep every worker busy and the progress bar
    moving, large enough that sending work costs little next to playing it.

    >>> [len(c) for c in chunked([(i, i) for i in range(10)], 2)]
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    >>> len(chunked([(i, i) for i in range(10_000)], 2)[0])
    10
    """
    size = max(1, min(10, len(items) // (max(workers, 1) * 50)))
    return [items[i : i + size] for i in range(0, len(items), size)]
