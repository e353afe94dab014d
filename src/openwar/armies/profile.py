"""A unit's own numbers: an army file may change, for one unit, numbers its type takes from the
catalogue (characteristics, a weapon's numbers, the cost), as a home-made variant to try out
and as what ``openwar sweep --vary`` varies.

In the army file a unit's ``profile`` maps a key to a whole number:

- a characteristic, named as in the catalogue (``armor``, ``move`` ...);
- a weapon's number, as ``"<weapon>.<field>"`` (``"Heavy Javelin.attacks"``), for a weapon
  the unit carries;
- the cost (``points_per_miniature`` in OpenWar, ``points`` in Age of Sigmar).

Each ruleset says which keys a unit has and the whole numbers each may take
(:meth:`ProfileKeys.problems`); a number the rules change as the battle goes (an Age of Sigmar
damage table) is refused with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from openwar.armies.model import ArmyUnit
from openwar.armies.problems import ArmyProblem
from openwar.armies.suggest import did_you_mean


def weapon_key(key: str) -> tuple[str, str] | None:
    """``"Heavy Jav. (Thrown).range"`` -> ``("Heavy Jav. (Thrown)", "range")`` (the last dot
    splits: weapon names may hold dots); None for a key without one.

    >>> weapon_key("Sword.attacks"), weapon_key("armor")
    (('Sword', 'attacks'), None)
    """
    weapon, dot, name = key.rpartition(".")
    return (weapon, name) if dot and weapon and name else None


@dataclass
class ProfileKeys:
    """The keys one unit's ``profile`` may change, each with its lowest and highest value, and
    the keys it may not change with the reason (``fixed``)."""

    bounds: dict[str, tuple[int, int]] = field(default_factory=dict)
    fixed: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, characteristics: dict[str, tuple[int, int]]) -> ProfileKeys:
        """Keys for these characteristics (name -> lowest, highest)."""
        return cls(dict(characteristics))

    def add_weapon(self, weapon: str, fields: dict[str, tuple[int, int]]) -> None:
        """``"<weapon>.<field>"`` keys for each of ``fields`` (name -> lowest, highest)."""
        for field_name, bounds in fields.items():
            self.bounds[f"{weapon}.{field_name}"] = bounds

    def refusal(self, key: str) -> str | None:
        """Why ``key`` cannot be changed (unknown, with a "did you mean"; or fixed by the
        rules), or None."""
        if key in self.fixed:
            return f"profile {key} cannot be changed: {self.fixed[key]}"
        if key not in self.bounds:
            return f"unknown profile key {key!r}{did_you_mean(key, self.bounds)}"
        return None

    def problems(
        self, unit: ArmyUnit, problem: Callable[[str, str | None], ArmyProblem]
    ) -> list[ArmyProblem]:
        """One problem per key of ``unit.profile`` that is unknown, fixed or out of bounds;
        ``problem(message, option)`` makes it (the ruleset's clause)."""
        found = []
        for key, value in unit.profile.items():
            refused = self.refusal(key)
            if refused is not None:
                found.append(problem(refused, None))
            elif not self.bounds[key][0] <= value <= self.bounds[key][1]:
                low, high = self.bounds[key]
                found.append(problem(f"profile {key} {value} is outside {low}..{high}", None))
        return found


def changed_weapon(weapon: dict[str, object], profile: dict[str, int]) -> dict[str, object]:
    """A weapon's JSON (``name`` and its fields) with the unit's ``profile`` changes applied."""
    changed = dict(weapon)
    for key, value in profile.items():
        split = weapon_key(key)
        if split is not None and split[0] == weapon["name"] and split[1] in changed:
            changed[split[1]] = value
    return changed
