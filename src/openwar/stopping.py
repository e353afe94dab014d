"""Stopping on a signal: SIGTERM (``kill``, ``timeout``, a job scheduler ending a job) stops a
command as Ctrl-C does, so a long simulation keeps its finished battles and says how to
resume, and the worker processes go with it.

A Ctrl-C raises :class:`KeyboardInterrupt` in the main thread; SIGTERM's default is to end the
process at once, leaving a run marked "running" and its pool's workers playing on for nobody.
Under :func:`stops` SIGTERM raises :class:`Terminated` instead, a kind of
``KeyboardInterrupt``, so every path that cleans up after a Ctrl-C cleans up after it too. Only
the first signal raises: the second (Ctrl-C pressed twice, a process group signalled twice)
is ignored while that clean-up runs, and a third ends the process at once.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # loaded by worker_start only: the console script starts without it
    import multiprocessing.process

TERMINATED_EXIT = 128 + signal.SIGTERM  # what a shell reports for a process ended by SIGTERM
INTERRUPTED_EXIT = 128 + signal.SIGINT


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived (see :func:`stops`)."""


class Stopped(Exception):
    """A command stopped by Ctrl-C or SIGTERM (``terminated``), as the CLI reports it: Typer
    would turn the ``KeyboardInterrupt`` into a silent exit 130, whichever signal it was."""

    def __init__(self, terminated: bool) -> None:
        super().__init__("terminated" if terminated else "interrupted")
        self.terminated = terminated
        self.exit_code = TERMINATED_EXIT if terminated else INTERRUPTED_EXIT


FORCE_AFTER = 3  # the signal that ends the process at once, its clean-up cut short


@contextlib.contextmanager
def stops(*, ending: bool = False) -> Iterator[None]:
    """While inside, the first Ctrl-C raises :class:`KeyboardInterrupt` and the first SIGTERM
    :class:`Terminated` in the main thread. The second is ignored (a key pressed twice, or
    ``timeout``, which signals the process and then its group), so the clean-up the first
    started runs to its end and its one line is printed; a third one means it: the process
    ends at once, with the first signal's exit code (a clean-up stuck in Python code is cut
    short; one stuck inside a C call, such as SQLite waiting on a lock, only once that call
    returns, as Python runs handlers between its own steps).

    A signal that was ignored when the process started (``cmd &`` in a script runs it deaf to
    Ctrl-C) stays ignored. The previous handlers come back on the way out. With ``ending``
    (the console script, whose process ends next) both stay ignored if a signal came, as a
    late one would only kill the process after its last line. Elsewhere than in the main
    thread signals cannot be set, and nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        received.append(signum)
        if len(received) >= FORCE_AFTER:
            _cut_short(TERMINATED_EXIT if received[0] == signal.SIGTERM else INTERRUPTED_EXIT)
        if len(received) > 1:
            return
        if signum == signal.SIGTERM:
            raise Terminated("terminated (SIGTERM)")
        raise KeyboardInterrupt

    numbers, previous = _install(stop)
    try:
        yield
    finally:
        for number, handler in zip(numbers, previous, strict=True):
            signal.signal(number, signal.SIG_IGN if ending and received else handler)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """A few steps that must end together (a record committed and its id kept): a Ctrl-C or
    SIGTERM that comes inside waits, and is raised as it would have been once the block
    ends. Outside the main thread nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[tuple[int, FrameType | None]] = []

    def wait(signum: int, frame: FrameType | None) -> None:
        pending.append((signum, frame))

    numbers, previous = _install(wait)
    try:
        yield
    finally:
        for number, handler in zip(numbers, previous, strict=True):
            signal.signal(number, handler)
        before = {int(number): handler for number, handler in zip(numbers, previous, strict=True)}
        for signum, frame in pending:  # as it would have come: the handler raises, or ends
            handler = before[signum]
            if callable(handler):
                handler(signum, frame)
            elif handler == signal.SIG_DFL and signum == signal.SIGINT:
                raise KeyboardInterrupt


def _install(
    handler: Callable[[int, FrameType | None], None],
) -> tuple[list[signal.Signals], list[Any]]:
    """Set ``handler`` for Ctrl-C and SIGTERM, each unless ignored (left so); the signals set
    and their handlers before, for the caller to put back."""
    numbers = [n for n in (signal.SIGINT, signal.SIGTERM) if not ignored(n)]
    return numbers, [signal.signal(number, handler) for number in numbers]


def ignored(signum: int) -> bool:
    """Whether ``signum`` is ignored (as it was inherited, or set so): it is left so."""
    return signal.getsignal(signum) is signal.SIG_IGN


def _cut_short(code: int) -> None:
    """End the process now with ``code``, saying so (a third signal): the terminal gets its
    cursor back if a progress bar had hidden it, and a closed stderr does not stop the exit."""
    try:
        if os.isatty(2):
            os.write(2, b"\r\n\x1b[?25h")
        os.write(2, b"openwar: stopped at once (a third signal): its clean-up was cut short\n")
    except OSError:  # stderr gone (a closed pipe): end all the same
        pass
    os._exit(code)


def worker_start() -> None:
    """A worker process's first step: deaf to Ctrl-C and SIGTERM, which reach the whole process
    group but are its parent's to act on (the parent stops it), and gone as soon as its parent
    is (killed outright, the parent cannot stop anything): a worker never plays on orphaned.

    The worker waits on its parent's sentinel, which ``multiprocessing`` hands every process it
    starts and which closes when the parent ends, however it ends; even a parent gone before
    this first step runs is seen at once (a look at the parent's process id could not tell)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    import multiprocessing  # a worker has it loaded already

    parent = multiprocessing.parent_process()
    if parent is None:  # not started by multiprocessing: nobody to follow
        return
    threading.Thread(
        target=_follow, args=(parent,), name="openwar-parent-watch", daemon=True
    ).start()


def _follow(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # returns when its sentinel closes: the process that gave us work is gone
    os._exit(1)
