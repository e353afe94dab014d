"""`openwar --version` prints what `openwar version` prints and exits 0."""

from __future__ import annotations

import pytest

from openwar import __version__
from openwar.cli.app import main


def test_version_option_prints_the_same_as_the_version_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["version"]) == 0
    command = capsys.readouterr()
    assert main(["--version"]) == 0
    option = capsys.readouterr()
    assert option.out == command.out == f"{__version__}\n"
    assert option.err == ""


def test_version_option_is_listed_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "--version" in capsys.readouterr().out
