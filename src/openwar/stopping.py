"""Stopping on a signal: SIGTERM (``kill``, ``timeout``, a job scheduler ending a job) stops a
command as Ctrl-C does, so a long simulation keeps its finished battles and says how to
resume, and the worker processes go with it.

A Ctrl-C raises :class:`KeyboardInterrupt` in the main thread; SIGTERM's default is to end the
process at once, leaving a run marked "running" and its pool's workers playing on for nobody.
Under :func:`stops` SIGTERM raises :class:`Terminated` instead, a kind of
``KeyboardInterrupt``, so every path that cleans up after a Ctrl-C cleans up after it too. Only
the first signal raises: the ones after it (Ctrl-C pressed twice, a process group signalled
twice, an impatient ``kill``) are ignored while that clean-up runs.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
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


@contextlib.contextmanager
def stops() -> Iterator[None]:
    """While inside, the first Ctrl-C raises :class:`KeyboardInterrupt` and the first SIGTERM
    :class:`Terminated` in the main thread; every one after the first (a key pressed twice,
    ``timeout``, which signals the process and then its group) is ignored, so the clean-up it
    started runs to its end and its one line is printed. The previous handlers come back on
    the way out, unless a signal came: then both stay ignored, as the process is ending and
    a late one would only kill it after its last line. Elsewhere than in the main thread
    signals cannot be set, and nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal received
        if received:
            return
        received = True
        if signum == signal.SIGTERM:
            raise Terminated("terminated (SIGTERM)")
        raise KeyboardInterrupt

    numbers = (signal.SIGINT, signal.SIGTERM)
    previous = [signal.signal(number, stop) for number in numbers]
    try:
        yield
    finally:
        for number, handler in zip(numbers, previous, strict=True):
            signal.signal(number, signal.SIG_IGN if received else handler)


def worker_start() -> None:
    """A worker process's first step: deaf to Ctrl-C and SIGTERM, which reach the whole process
    group but are its parent's to act on (the parent stops it), and gone as soon as its parent
    is (killed outright, the parent cannot stop anything): a worker never plays on orphaned."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    parent = os.getppid()
    threading.Thread(
        target=_follow, args=(parent,), name="openwar-parent-watch", daemon=True
    ).start()


PARENT_POLL = 0.5  # seconds between a worker's looks at whether its parent is still there


def _follow(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(1)  # reparented: the process that gave us work is gone
