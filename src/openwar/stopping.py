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
import multiprocessing
import multiprocessing.process
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType

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
    ends at once, with the first signal's exit code (a clean-up that hangs can always be cut
    short).

    The previous handlers come back on the way out. With ``ending`` (the console script,
    whose process ends next) both stay ignored if a signal came, as a late one would only
    kill the process after its last line. Elsewhere than in the main thread signals cannot be
    set, and nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        received.append(signum)
        if len(received) >= FORCE_AFTER:
            first = received[0]
            code = TERMINATED_EXIT if first == signal.SIGTERM else INTERRUPTED_EXIT
            os.write(2, b"openwar: stopped at once (a third signal): its clean-up was cut short\n")
            os._exit(code)
        if len(received) > 1:
            return
        if signum == signal.SIGTERM:
            raise Terminated("terminated (SIGTERM)")
        raise KeyboardInterrupt

    numbers = (signal.SIGINT, signal.SIGTERM)
    previous = [signal.signal(number, stop) for number in numbers]
    try:
        yield
    finally:
        for number, handler in zip(numbers, previous, strict=True):
            signal.signal(number, signal.SIG_IGN if ending and received else handler)


def worker_start() -> None:
    """A worker process's first step: deaf to Ctrl-C and SIGTERM, which reach the whole process
    group but are its parent's to act on (the parent stops it), and gone as soon as its parent
    is (killed outright, the parent cannot stop anything): a worker never plays on orphaned.

    The worker waits on its parent's sentinel, which ``multiprocessing`` hands every process it
    starts and which closes when the parent ends, however it ends; even a parent gone before
    this first step runs is seen at once (a look at the parent's process id could not tell)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is None:  # not started by multiprocessing: nobody to follow
        return
    threading.Thread(
        target=_follow, args=(parent,), name="openwar-parent-watch", daemon=True
    ).start()


def _follow(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # returns when its sentinel closes: the process that gave us work is gone
    os._exit(1)
