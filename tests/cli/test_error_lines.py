"""Where an error line says it comes from."""

from __future__ import annotations

import pytest

from .kit import one_line_error


def test_an_error_found_while_running_names_the_sub_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As click's own option errors do: `openwar odds oldworld: error: --ws: ...` (it said
    only `openwar: error:`)."""
    message = one_line_error(capsys, ["odds", "oldworld", "--ws", "0"])
    assert message.startswith("openwar odds oldworld: error: --ws: ")
    message = one_line_error(capsys, ["army", "show", "no-such-army.yaml"])
    assert message.startswith("openwar army show: error: no-such-army.yaml")
