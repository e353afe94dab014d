"""Building small armies in tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openwar.armies.model import ArmyList
from openwar.armies.validate import ArmyReport, assess


def army(ruleset: str, units: Sequence[Any], **fields: Any) -> ArmyList:
    return ArmyList.model_validate(
        {"ruleset": ruleset, "name": "Test", "units": list(units), **fields}
    )


def report(ruleset: str, units: Sequence[Any], **fields: Any) -> ArmyReport:
    return assess(army(ruleset, units, **fields))


def rules(result: ArmyReport) -> list[str]:
    return [p.rule for p in result.problems]
