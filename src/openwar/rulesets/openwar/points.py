"""OpenWar option costs: the cheapest way the four cost tiers allow (seed 002, "Unit Options").

A tier is "for 1" (each miniature), "10+" and "20+" (per miniature, once at least that many
take it) and "unit" (once, for every miniature of the unit). ``None`` is the table's '-'.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tiers:
    """The four costs of an option; None where the table shows '-'."""

    cost_1: int | None
    cost_10: int | None
    cost_20: int | None
    cost_unit: int | None

    @property
    def offered(self) -> bool:
        """Whether any way of buying the option exists."""
        return any(c is not None for c in (self.cost_1, self.cost_10, self.cost_20, self.cost_unit))


@dataclass(frozen=True)
class Way:
    """One allowed way of paying for an option, and its points."""

    points: int
    text: str


TIER_MINIMUMS = ((1, "cost_1", "each"), (10, "cost_10", "10+ each"), (20, "cost_20", "20+ each"))


def ways(tiers: Tiers, models: int, unit_size: int) -> list[Way]:
    """Every allowed way for ``models`` miniatures of a ``unit_size`` unit to take the option.

    >>> [w.points for w in ways(Tiers(10, 8, 7, None), 20, 20)]
    [200, 160, 140]
    """
    found = []
    for minimum, attr, label in TIER_MINIMUMS:
        cost = getattr(tiers, attr)
        if cost is not None and models >= minimum:
            found.append(Way(cost * models, f"{models} x {cost} ({label})"))
    if tiers.cost_unit is not None and models == unit_size:
        found.append(Way(tiers.cost_unit, f"whole unit of {unit_size}"))
    return found


def cheapest(tiers: Tiers, models: int, unit_size: int) -> Way | None:
    """The cheapest allowed way, or None when no way is offered for that many miniatures.

    >>> cheapest(Tiers(2, None, None, 15), 12, 12).text
    'whole unit of 12'
    >>> cheapest(Tiers(None, None, None, 15), 5, 12) is None
    True
    """
    options = ways(tiers, models, unit_size)
    return min(options, key=lambda way: way.points) if options else None


def offered_text(tiers: Tiers) -> str:
    """The ways on offer, for a problem message: e.g. ``"1: 10, 10+: 8, 20+: 7"``."""
    labels = (("1", tiers.cost_1), ("10+", tiers.cost_10), ("20+", tiers.cost_20))
    parts = [f"{label}: {cost}" for label, cost in labels if cost is not None]
    if tiers.cost_unit is not None:
        parts.append(f"unit: {tiers.cost_unit}")
    return ", ".join(parts) or "none"
