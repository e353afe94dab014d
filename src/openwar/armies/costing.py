"""Points of an army, unit by unit and option by option, with the way each was paid."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class OptionCost:
    """Points paid for one option and how: e.g. ``"12 x 2 (10+ each)"``."""

    option: str
    models: int
    points: int
    way: str


@dataclass(frozen=True)
class UnitCost:
    """A unit's base points plus its options."""

    unit: str
    type: str
    size: int
    base: int
    options: tuple[OptionCost, ...] = ()
    base_way: str = "base"  # how the base was reckoned, e.g. "20 x 7 (profile)"

    @property
    def total(self) -> int:
        return self.base + sum(option.points for option in self.options)


@dataclass(frozen=True)
class ExtraCost:
    """Points that belong to no single unit (an Age of Sigmar battalion)."""

    name: str
    points: int


@dataclass(frozen=True)
class ArmyCost:
    """The whole army's points."""

    units: tuple[UnitCost, ...]
    extras: tuple[ExtraCost, ...] = field(default=())

    @property
    def total(self) -> int:
        return sum(unit.total for unit in self.units) + sum(x.points for x in self.extras)

    def to_json(self) -> dict[str, Any]:
        units = [
            {
                "unit": u.unit, "type": u.type, "size": u.size, "base": u.base,
                "base_way": u.base_way,
                "options": [vars(o) for o in u.options], "total": u.total,
            }
            for u in self.units
        ]  # fmt: skip
        extras = [vars(x) for x in self.extras]
        return {"units": units, "extras": extras, "total": self.total}
