"""The rulesets OpenWar plays: each is a folder of YAML data plus small modules of hooks."""

from __future__ import annotations

from openwar.errors import OpenWarError

RULESETS: tuple[str, ...] = ("openwar", "aos", "opr", "oldworld")


class UnknownRulesetError(OpenWarError):
    """The name is not a registered ruleset."""


def check_ruleset(name: str) -> str:
    """Return ``name`` if it is a registered ruleset, else raise with the known names.

    >>> check_ruleset("aos")
    'aos'
    """
    if name not in RULESETS:
        raise UnknownRulesetError(f"unknown ruleset {name!r} (known: {', '.join(RULESETS)})")
    return name
