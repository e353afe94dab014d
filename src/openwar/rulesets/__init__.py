"""The rulesets OpenWar plays: each is a folder of YAML data plus small modules of hooks.

``load_ruleset(name)`` returns a :class:`~openwar.rulesets.registry.Ruleset` with its name,
version, unit of length, what it supports, its catalogue data and its hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from openwar.armies.suggest import did_you_mean
from openwar.errors import OpenWarError

if TYPE_CHECKING:
    from openwar.rulesets.registry import Ruleset

RULESETS: tuple[str, ...] = ("openwar", "aos", "opr", "oldworld")


class UnknownRulesetError(OpenWarError):
    """The name is not a registered ruleset."""


def check_ruleset(name: str) -> str:
    """Return ``name`` if it is a registered ruleset, else raise with the known names.

    >>> check_ruleset("aos")
    'aos'
    """
    if name not in RULESETS:  # worded as an army file's problem is (``army validate``)
        raise UnknownRulesetError(f"unknown ruleset {name!r}{did_you_mean(name, RULESETS)}")
    return name


def load_ruleset(name: str) -> Ruleset:
    """Load a registered ruleset (cached): data validated, hooks bound to it.

    >>> load_ruleset("openwar").length_unit
    'cm'
    """
    from openwar.rulesets.registry import load_ruleset as load

    return load(name)
