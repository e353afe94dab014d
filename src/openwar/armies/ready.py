"""An army file made ready for battle: read, of the battle's ruleset, and valid."""

from __future__ import annotations

from pathlib import Path

from openwar.armies.files import load_army
from openwar.armies.model import ArmyList
from openwar.armies.suggest import did_you_mean
from openwar.armies.validate import ArmyReport, assess
from openwar.errors import OpenWarError
from openwar.rulesets import RULESETS


class ArmyNotReadyError(OpenWarError):
    """The army cannot fight: wrong ruleset, or it breaks the army-building rules."""


def battle_ready(path: Path, ruleset: str, battle: str) -> tuple[ArmyList, ArmyReport]:
    """Read ``path`` and refuse it in one line unless it is a valid ``ruleset`` army."""
    army = load_army(path)
    if army.ruleset != ruleset:
        raise ArmyNotReadyError(
            no_battles(path, army.ruleset)
            or f"{path}: an army of ruleset {army.ruleset!r} cannot fight {battle}"
        )
    report = assess(army)
    if not report.valid:
        raise ArmyNotReadyError(first_problem(path, report))
    return army, report


def no_battles(path: Path | str, ruleset: str) -> str | None:
    """Why an army of ``ruleset`` fights no battle at all (an unknown ruleset, with a "did you
    mean"; one without battles), or None when its battles are played."""
    from openwar.engine.game import BATTLE_MODULES

    if ruleset not in RULESETS:
        return f"{path}: unknown ruleset {ruleset!r}{did_you_mean(ruleset, RULESETS)}"
    if ruleset not in BATTLE_MODULES:
        played = " and ".join(BATTLE_MODULES)
        return f"{path}: {ruleset} armies fight no battles (battles are played in {played})"
    return None


def first_problem(path: Path | str, report: ArmyReport) -> str:
    """The first problem of an invalid army, with the unit (and option) it is about and its
    rule, and where to see the others."""
    first = report.problems[0]
    more = len(report.problems) - 1
    rest = f" (and {more} more)" if more else ""
    if more and Path(path).is_file():  # not a sweep's varied army, nor a stored file moved
        rest = f" (and {more} more: `openwar army validate {path}` lists them)"
    return f"{path}: {first}{rest}"
