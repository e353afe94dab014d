"""Which runs of a results store are being played now, by any process that shares the store.

A run is played under a lock on one byte of a file beside its store (``runs.sqlite3.lock``),
the byte at the run's id: a POSIX record lock (``lockf``), which the system drops with the
process that held it however that ends. So a second ``openwar simulate --resume ID`` is
refused while the first plays (it played every missing battle a second time), and a run left
marked "running" by a process killed outright is seen to be free, shown as interrupted and
resumed at once. Network file systems pass these locks to their server where they can.

Record locks belong to a process and a file, not to a descriptor: closing any descriptor of
the file drops every lock the process holds on it. So a process keeps one descriptor of a lock
file, open while it holds any run of it, and looks at others' through that one. Where
``fcntl`` is missing (Windows), the lock file cannot be made (a read-only folder) or the file
system cannot lock, runs are played unguarded and whether one is being played cannot be told.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Iterator
from pathlib import Path

from openwar.errors import OpenWarError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

BUSY = {errno.EAGAIN, errno.EACCES}  # what lockf says of a byte another process holds
RETRY_FOR = 1.0  # seconds
_files: dict[Path, int] = {}  # this process's descriptor of each lock file it holds a run of
_held: set[tuple[Path, int]] = set()  # (lock file, run id) this process plays now


class RunBusy(OpenWarError):
    """Another process is playing run ``run_id`` (exit code 1: nothing wrong with the input;
    try again later)."""

    exit_code = 1

    def __init__(self, run_id: int, whose: str = "the run") -> None:
        mine = "" if whose == "the run" else f" ({whose}'s)"
        super().__init__(
            f"run {run_id}{mine} is being played now by another openwar process: let it "
            f"finish, or stop it (Ctrl-C) and resume {whose}"
        )
        self.run_id = run_id


def lock_file(store: Path) -> Path:
    """The file beside ``store`` whose bytes are its runs' locks (one file for one store,
    however it is named: through a link, relative or absolute)."""
    store = store.resolve()
    return store.with_name(store.name + ".lock")


@contextlib.contextmanager
def playing(store: Path, run_id: int) -> Iterator[None]:
    """Hold run ``run_id`` of ``store`` while inside; :class:`RunBusy` if another process
    holds it. Inside again in the same process, it is held until the outer one ends. Where
    nothing can be locked (no ``fcntl``, a folder it cannot write, a file system without
    locks) the run is played all the same, unguarded."""
    path = lock_file(store)
    if fcntl is None or (path, run_id) in _held:
        yield
        return
    if path not in _files:
        try:
            _files[path] = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            yield
            return
    try:
        locked = _lock(_files[path], run_id)
        if locked is False:
            raise RunBusy(run_id)
        if locked:
            _held.add((path, run_id))
        try:
            yield
        finally:
            if locked:
                _held.discard((path, run_id))
                fcntl.lockf(_files[path], fcntl.LOCK_UN, 1, run_id)
    finally:
        if not any(held == path for held, _ in _held):  # closing drops the process's locks
            os.close(_files.pop(path))


def _lock(fd: int, run_id: int) -> bool | None:
    """Take run ``run_id``'s byte: True, or False when another process holds it (after a
    second of tries: a :func:`being_played` elsewhere holds it shared for an instant), or None
    when this file system cannot lock."""
    assert fcntl is not None
    deadline = time.monotonic() + RETRY_FOR
    while True:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, run_id)
            return True
        except OSError as exc:
            if exc.errno not in BUSY:  # ENOLCK and the like: no locks here at all
                return None
            if time.monotonic() >= deadline:
                return False
        time.sleep(0.01)


def being_played(store: Path, run_id: int) -> bool | None:
    """Whether run ``run_id`` of ``store`` is being played now (by this process or another);
    None when that cannot be told. Creates nothing: with no lock file, no run of the store
    was ever played under a lock."""
    path = lock_file(store)
    if fcntl is None:
        return None
    if (path, run_id) in _held:
        return True
    if path in _files:  # this process holds another run of it: a second descriptor's close
        return _probe(_files[path], run_id)  # would drop that lock
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    except OSError:
        return None
    try:
        return _probe(fd, run_id)
    finally:
        os.close(fd)


def _probe(fd: int, run_id: int) -> bool | None:
    assert fcntl is not None
    try:  # a shared lock is refused only while some process holds the exclusive one
        fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, run_id)
    except OSError as exc:
        return True if exc.errno in BUSY else None
    fcntl.lockf(fd, fcntl.LOCK_UN, 1, run_id)  # nothing else of ours is on this byte
    return False
