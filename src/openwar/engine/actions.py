"""Actions: everything a player (human, AI or replay) does is one of these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Action:
    """One decision of one side.

    ``kind`` is the ruleset's word for it ("deploy", "advance", "hold", "run", ...), ``unit`` the
    unit acting, ``target`` a unit it acts on, ``point`` a destination on the table, ``choice``
    any other option (an order's variant, a skill's name).
    """

    kind: str
    side: int
    unit: str | None = None
    target: str | None = None
    point: tuple[float, float] | None = None
    choice: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "side": self.side}
        for key in ("unit", "target", "choice"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.point is not None:
            data["point"] = [self.point[0], self.point[1]]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        point = data.get("point")
        return cls(
            kind=str(data["kind"]),
            side=int(data["side"]),
            unit=data.get("unit"),
            target=data.get("target"),
            point=None if point is None else (float(point[0]), float(point[1])),
            choice=data.get("choice"),
        )

    def __str__(self) -> str:
        parts = [f"side {self.side}", self.kind]
        if self.choice:
            parts.append(f"({self.choice})")
        if self.unit:
            parts.append(self.unit)
        if self.target:
            parts.append(f"-> {self.target}")
        if self.point:
            parts.append(f"@ ({self.point[0]:.1f}, {self.point[1]:.1f})")
        return " ".join(parts)
