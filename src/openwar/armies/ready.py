"""An army file made ready for battle: read, of the battle's ruleset, and valid."""

from __future__ import annotations

from pathlib import Path

from openwar.armies.files import load_army
from openwar.armies.model import ArmyList
from openwar.armies.validate import ArmyReport, assess
from openwar.errors import OpenWarError


class ArmyNotReadyError(OpenWarError):
    """The army cannot fight: wrong ruleset, or it breaks the army-building rules."""


def battle_ready(path: Path, ruleset: str, battle: str) -> tuple[ArmyList, ArmyReport]:
    """Read ``path`` and refuse it in one line unless it is a valid ``ruleset`` army."""
    army = load_army(path)
    if army.ruleset != ruleset:
        raise ArmyNotReadyError(
            f"{path}: an army of ruleset {army.ruleset!r} cannot fight {battle}"
        )
    report = assess(army)
    if not report.valid:
        first = report.problems[0]
        more = f" (and {len(report.problems) - 1} more)" if len(report.problems) > 1 else ""
        raise ArmyNotReadyError(f"{path}: {first.message}{more}")
    return army, report
