"""Shared checks of the command line's tests."""

from __future__ import annotations

import pytest

from openwar.cli.app import main


def one_line_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], *, nothing_done: bool = False
) -> str:
    """Run ``openwar ARGV``: it must fail with exit code 2 and one line on stderr, no
    traceback (and with ``nothing_done``, nothing on stdout: no report of work); returns
    that line."""
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 2, captured.err
    assert "Traceback" not in captured.out + captured.err
    assert len(captured.err.strip().splitlines()) == 1, captured.err
    assert not (nothing_done and captured.out), captured.out
    return captured.err
