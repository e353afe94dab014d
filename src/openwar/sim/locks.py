"""Which runs of a results store are being played now, by any process on this machine.

A run is played under a lock on one byte of a file beside its store (``runs.sqlite3.lock``),
the byte at the run's id: a POSIX record lock (``lockf``), which the system drops with the
process that held it however that ends. So a second ``openwar simulate --resume ID`` is
refused while the first plays (it played every missing battle a second time), and a run left
marked "running" by a process killed outright is seen to be free, shown as interrupted and
resumed at once.

Record locks belong to a process and a file, not to a descriptor: closing any descriptor of
the file drops every lock the process holds on it. So a process keeps one descriptor of a lock
file, open while it holds any run of it. Where ``fcntl`` is missing (Windows) or the lock file
cannot be opened (a read-only folder), nothing is locked and nothing can be told.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from openwar.errors import OpenWarError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

_files: dict[Path, int] = {}  # this process's descriptor of each lock file it holds a run of
_held: set[tuple[Path, int]] = set()  # (lock file, run id) this process plays now


class RunBusy(OpenWarError):
    """Another process is playing run ``run_id`` (exit code 1: nothing wrong with the input;
    try again later)."""

    exit_code = 1

    def __init__(self, run_id: int) -> None:
        super().__init__(
            f"run {run_id} is being played now by another openwar process: let it finish, "
            "or stop it (Ctrl-C) and resume the run"
        )
        self.run_id = run_id


def lock_file(store: Path) -> Path:
    """The file beside ``store`` whose bytes are its runs' locks."""
    return store.with_name(store.name + ".lock")


@contextlib.contextmanager
def _descriptor(store: Path) -> Iterator[tuple[Path, int] | None]:
    """The lock file's path and this process's descriptor of it (None: no locks here),
    closed on the way out unless the process holds a run of it (closing would drop that)."""
    if fcntl is None:
        yield None
        return
    path = lock_file(store).resolve()
    if path not in _files:
        try:
            _files[path] = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            yield None
            return
    try:
        yield path, _files[path]
    finally:
        if not any(held == path for held, _ in _held):
            os.close(_files.pop(path))


@contextlib.contextmanager
def playing(store: Path, run_id: int) -> Iterator[None]:
    """Hold run ``run_id`` of ``store`` while inside; :class:`RunBusy` if another process
    holds it. Inside again in the same process, it is held until the outer one ends."""
    with _descriptor(store) as found:
        if found is None or fcntl is None or (found[0], run_id) in _held:
            yield
            return
        path, fd = found
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, run_id)
        except OSError as exc:  # EAGAIN or EACCES: held elsewhere
            raise RunBusy(run_id) from exc
        _held.add((path, run_id))
        try:
            yield
        finally:
            _held.discard((path, run_id))
            fcntl.lockf(fd, fcntl.LOCK_UN, 1, run_id)


def being_played(store: Path, run_id: int) -> bool | None:
    """Whether run ``run_id`` of ``store`` is being played now (by this process or another);
    None when that cannot be told."""
    with _descriptor(store) as found:
        if found is None or fcntl is None:
            return None
        path, fd = found
        if (path, run_id) in _held:
            return True
        try:  # a shared lock is refused only while some process holds the exclusive one
            fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, run_id)
        except OSError:
            return True
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, run_id)  # nothing else of ours is on this byte
        return False
