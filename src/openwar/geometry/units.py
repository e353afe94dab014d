"""Units of length: each ruleset states its own (``length_unit`` in ``data/ruleset.yaml``:
inch or cm)."""

from __future__ import annotations

from enum import StrEnum

from openwar.rulesets import check_ruleset
from openwar.rulesets.data import load_data
from openwar.rulesets.registry import DESCRIPTION_FILE, RulesetDescription

CM_PER_INCH = 2.54


class LengthUnit(StrEnum):
    """The unit a ruleset measures in; its value is the name used in JSON output."""

    INCH = "inch"
    CM = "cm"

    @property
    def symbol(self) -> str:
        """How a distance is written: 6" or 15 cm."""
        return '"' if self is LengthUnit.INCH else " cm"


def ruleset_unit(ruleset: str) -> LengthUnit:
    """The unit of length a ruleset's rules are written in.

    >>> ruleset_unit("openwar").value, ruleset_unit("aos").value
    ('cm', 'inch')
    """
    described = load_data(check_ruleset(ruleset), DESCRIPTION_FILE, RulesetDescription)
    return LengthUnit(described.length_unit)


def inches_to_cm(inches: float) -> int:
    """Convert a rule distance in inches to whole centimetres (1" = 2.54 cm, rounded half up).

    >>> [inches_to_cm(d) for d in (1, 3, 6, 9, 12)]
    [3, 8, 15, 23, 30]
    """
    return int(inches * CM_PER_INCH + 0.5)
