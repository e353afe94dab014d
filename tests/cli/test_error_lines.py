"""Where an error line says it comes from."""

from __future__ import annotations

from pathlib import Path

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


@pytest.mark.parametrize("command", ["battle", "simulate", "sweep", "battleplan"])
def test_a_seed_a_results_store_could_not_keep_is_refused(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """Seeds are SQLite integers in the store: 2**63 was an OverflowError traceback after
    the battles were played."""
    data = Path(__file__).parents[1] / "sim" / "data"
    armies = [str(data / "small_legion.yaml"), str(data / "small_lodge.yaml")]
    argv = {
        "battle": ["battle", *armies],
        "simulate": ["simulate", *armies, "-n", "1"],
        "sweep": ["sweep", *armies, "--unit", "Legion Cohort", "--size", "10,20"],
        "battleplan": ["battleplan", "--points", "1000"],
    }[command]
    message = one_line_error(capsys, [*argv, "--seed", str(2**63)], nothing_done=True)
    assert "--seed" in message and "9223372036854775807" in message
