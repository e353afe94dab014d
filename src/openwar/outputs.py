"""Files the commands write: checked before any work starts, then written whole or not at all.

A picture, chart, replay or CSV asked for on the command line is checked first
(:func:`check_output`), so a typo in a folder name is one line at once, not a battle played
for nothing; then it is written to a hidden temporary file of its own beside it and renamed
into place (:func:`write_whole`), so an interrupted or failed write never leaves half a file
(a hard link to the old file keeps the old one). Their folders are never created: a missing
one is reported, as a shell redirection would.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from openwar.errors import OpenWarError

PICTURES = (".png", ".svg")

# the finished files of a :func:`together` block waiting for their renames: (temporary, target)
_PENDING: list[list[tuple[Path, Path]]] = []


def picture_option(path: Path) -> str:
    """The option a picture's path was given with, by its ending (``--png`` or ``--svg``)."""
    return f"--{path.suffix.lower().lstrip('.')}"


def _where(path: Path, option: str) -> str:
    return f"{option} {path}" if option else str(path)


def _in_place(path: Path) -> bool:
    """Whether ``path`` is written where it is rather than replaced by a finished file: a
    pipe or a device, anything under /dev or /proc (``/dev/stdout`` redirected to a log is a
    link to that log, which a rename would replace), or the file our own output goes to."""
    if not path.exists():
        return False
    if not path.is_file() or str(path.absolute()).startswith(("/dev/", "/proc/")):
        return True
    found = path.stat()
    for stream in (1, 2):
        try:
            if os.path.samestat(found, os.fstat(stream)):
                return True
        except OSError:
            continue
    return False


def check_output(path: Path, option: str = "", suffixes: tuple[str, ...] = ()) -> Path:
    """``path`` if a file can be written there: the right ending, an existing folder that we
    may write into, and not a folder itself; otherwise an :class:`OpenWarError` naming the
    option and the path."""
    where = _where(path, option)
    _check_suffix(path, where, suffixes)
    try:
        _check(path, where)
    except (OSError, RuntimeError) as exc:  # a name too long, a folder we may not look in
        raise OpenWarError(f"{where}: cannot be written ({_reason(exc)})") from None
    return path


def _check_suffix(path: Path, where: str, suffixes: tuple[str, ...]) -> None:
    if suffixes and path.suffix.lower() not in suffixes:
        raise OpenWarError(f"{where}: expected a file name ending in {' or '.join(suffixes)}")


def _check(path: Path, where: str) -> None:
    if path.is_dir():
        raise OpenWarError(f"{where}: is a folder, not a file")
    if _in_place(path):
        if not os.access(path, os.W_OK):
            raise OpenWarError(f"{where}: is not writable")
        return
    folder = (path.resolve() if path.is_symlink() else path).parent
    if not folder.exists():
        raise OpenWarError(f"{where}: the folder {folder} does not exist")
    if not folder.is_dir():
        raise OpenWarError(f"{where}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OpenWarError(f"{where}: the folder {folder} is not writable")
    if path.exists() and not os.access(path, os.W_OK):
        raise OpenWarError(f"{where}: the file is not writable")
    _try_a_file(folder, where)


def _try_a_file(folder: Path, where: str) -> None:
    """Make and remove a hidden file in ``folder``, as :func:`write_whole` will: the
    permission checks pass for root in a folder no file can be made in (/proc, a read-only
    mount), where the battle was played and printed before its replay was refused."""
    try:
        handle, name = tempfile.mkstemp(prefix=".openwar-check-", dir=folder)
    except OSError as exc:
        raise OpenWarError(f"{where}: no file can be made in {folder} ({_reason(exc)})") from None
    try:
        os.close(handle)
    finally:
        with contextlib.suppress(OSError):
            Path(name).unlink()


def write_whole(path: Path, write: Callable[[Path], Any], option: str = "") -> Path:
    """Call ``write`` on a temporary file of its own beside ``path``, then rename it to
    ``path``: the file is either whole or not there (an error leaves any older file as it
    was), with the older file's permissions (a new one: the usual, after the umask). A
    symbolic link is followed (the file it names is replaced, the link kept); a pipe, a
    device or our own output (:func:`_in_place`) is written as it is."""
    try:
        if _in_place(path):
            _write_in_place(path, write)
            return path
        target = path.resolve() if path.is_symlink() else path
        handle, name = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".part", dir=target.parent
        )
    except (OSError, RuntimeError) as exc:
        raise _unwritable(path, option, exc) from exc
    os.close(handle)
    temporary = Path(name)
    try:
        os.chmod(temporary, _mode(target))
        write(temporary)
        if _PENDING:  # in a together() block: renamed with the others, or removed
            _PENDING[-1].append((temporary, target))
        else:
            temporary.replace(target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        if isinstance(exc, OSError):
            raise _unwritable(path, option, exc) from exc
        raise
    return path


@contextlib.contextmanager
def together() -> Iterator[None]:
    """The files :func:`write_whole` writes in this block are renamed into place together at
    its end, when all were written; if one fails to be written, none is put in place (a
    command's second picture that cannot be written leaves no first one behind). A pipe or
    device is written at once (nothing to take back). A block inside another is part of the
    outer one. Only the renames at the end can part them: one that fails (the folder gone
    since) leaves those before it in place and removes the rest."""
    if _PENDING:  # inside another block: its files wait for the outer end
        yield
        return
    batch: list[tuple[Path, Path]] = []
    _PENDING.append(batch)
    try:
        yield
    except BaseException:
        _discard(batch)
        raise
    finally:
        _PENDING.pop()
    for k, (temporary, target) in enumerate(batch):
        try:
            temporary.replace(target)
        except BaseException as exc:
            _discard(batch[k:])
            if isinstance(exc, OSError):
                raise _unwritable(target, "", exc) from exc
            raise


def _discard(batch: list[tuple[Path, Path]]) -> None:
    for temporary, _ in batch:
        with contextlib.suppress(OSError):
            temporary.unlink()


def _write_in_place(path: Path, write: Callable[[Path], Any]) -> None:
    """Write to a scratch file, then append its bytes to ``path`` in one go: reopening
    ``/dev/stdout`` for writing would empty the file our output is appended to
    (``>> log``)."""
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder) / path.name
        write(scratch)
        with path.open("ab") as out:
            out.write(scratch.read_bytes())


def _unwritable(path: Path, option: str, exc: BaseException) -> OpenWarError:
    return OpenWarError(f"{_where(path, option)}: cannot write ({_reason(exc)})")


def _reason(exc: BaseException) -> str:
    """An OS error's own words ("File name too long"), else the error as it reads."""
    return str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc)


def _mode(target: Path) -> int:
    """The permissions the written file gets: the older file's, else read and write for all
    less the umask (what ``open`` would give; a temporary file is made private)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def write_text(path: Path, text: str, option: str = "") -> Path:
    """:func:`write_whole` for text (UTF-8)."""
    return write_whole(path, lambda temporary: temporary.write_text(text, encoding="utf-8"), option)


def save_figure(fig: Any, path: Path, option: str = "") -> Path:
    """A matplotlib figure as PNG or SVG, the same figure always the same bytes (no dates, no
    software version in the file), written whole; the figure is closed either way."""
    import matplotlib.pyplot as plt

    suffix = path.suffix.lower()
    try:
        _check_suffix(path, _where(path, option), PICTURES)  # its folder: before the drawing
        metadata = {"Date": None} if suffix == ".svg" else {"Software": None}
        with plt.rc_context({"svg.hashsalt": "openwar"}):  # SVG ids from a fixed salt
            write_whole(
                path,
                lambda temporary: fig.savefig(temporary, format=suffix[1:], metadata=metadata),
                option,
            )
    finally:
        plt.close(fig)
    return path
