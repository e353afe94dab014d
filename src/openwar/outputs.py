"""Files the commands write: checked before any work starts, then written whole or not at all.

A picture, chart, replay or CSV asked for on the command line is checked first
(:func:`check_output`), so a typo in a folder name is one line at once, not a battle played
for nothing; then it is written to a hidden temporary file beside it and renamed into place
(:func:`write_whole`), so an interrupted or failed write never leaves half a file. Folders
are never created: a missing one is reported, as a shell redirection would.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from openwar.errors import OpenWarError

PICTURES = (".png", ".svg")


def _where(path: Path, option: str) -> str:
    return f"{option} {path}" if option else str(path)


def check_output(path: Path, option: str = "", suffixes: tuple[str, ...] = ()) -> Path:
    """``path`` if a file can be written there: the right ending, an existing folder that we
    may write into, and not a folder itself; otherwise an :class:`OpenWarError` naming the
    option and the path."""
    where = _where(path, option)
    if suffixes and path.suffix.lower() not in suffixes:
        raise OpenWarError(f"{where}: expected a file name ending in {' or '.join(suffixes)}")
    if path.is_dir():
        raise OpenWarError(f"{where}: is a folder, not a file")
    if path.exists() and not path.is_file():  # a pipe or a device: written where it is
        if not os.access(path, os.W_OK):
            raise OpenWarError(f"{where}: is not writable")
        return path
    folder = (path.resolve() if path.is_symlink() else path).parent
    if not folder.exists():
        raise OpenWarError(f"{where}: the folder {folder} does not exist")
    if not folder.is_dir():
        raise OpenWarError(f"{where}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OpenWarError(f"{where}: the folder {folder} is not writable")
    if path.exists() and not os.access(path, os.W_OK):
        raise OpenWarError(f"{where}: the file is not writable")
    return path


def write_whole(path: Path, write: Callable[[Path], Any], option: str = "") -> Path:
    """Call ``write`` on a temporary file beside ``path``, then rename it to ``path``: the
    file is either whole or not there (an error leaves any older file as it was). A symbolic
    link is followed (the file it names is replaced, the link kept); what is not a regular
    file (``/dev/stdout``, a pipe) is written as it is."""
    if path.exists() and not path.is_file():
        temporary = None
    else:
        target = path.resolve() if path.is_symlink() else path
        temporary = target.with_name(f".{target.name}.part")
    try:
        if temporary is None:
            write(path)
        else:
            write(temporary)
            temporary.replace(target)
    except OSError as exc:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        raise OpenWarError(f"{_where(path, option)}: cannot write ({exc.strerror or exc})") from exc
    except BaseException:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        raise
    return path


def write_text(path: Path, text: str, option: str = "") -> Path:
    """:func:`write_whole` for text (UTF-8)."""
    return write_whole(path, lambda temporary: temporary.write_text(text, encoding="utf-8"), option)


def save_figure(fig: Any, path: Path, option: str = "") -> Path:
    """A matplotlib figure as PNG or SVG, the same figure always the same bytes (no dates, no
    software version in the file), written whole; the figure is closed either way."""
    import matplotlib.pyplot as plt

    suffix = path.suffix.lower()
    try:
        check_output(path, option, PICTURES)
        metadata = {"Date": None} if suffix == ".svg" else {"Software": None}
        write_whole(
            path,
            lambda temporary: fig.savefig(temporary, format=suffix[1:], metadata=metadata),
            option,
        )
    finally:
        plt.close(fig)
    return path
