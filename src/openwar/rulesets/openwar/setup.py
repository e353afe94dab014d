"""A new OpenWar battle: two forces and a board become the initial game state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from openwar.engine.events import Event
from openwar.engine.game import Dice, seed_state
from openwar.engine.state import GameState, UnitState
from openwar.rulesets.openwar.rules import battle_rules


@dataclass(frozen=True)
class ForceUnit:
    """One unit ready for battle: its profile and which loadout each miniature carries."""

    id: str
    name: str
    kind: str
    points: int
    profile: dict[str, Any]
    loadouts: tuple[int, ...]
    base_radius: float = field(default_factory=lambda: battle_rules().base_radius)


def new_battle(
    forces: tuple[list[ForceUnit], list[ForceUnit]], board: dict[str, Any], seed: int
) -> tuple[GameState, list[Event]]:
    """The state before set-up; the roll-off winner sets up first (OW-B1)."""
    units: list[UnitState] = []
    unit_of: list[int] = []
    loadout: list[int] = []
    radius: list[float] = []
    for side, force in enumerate(forces):
        for entry in force:
            units.append(
                UnitState(entry.id, side, entry.name, entry.kind, entry.profile, entry.points)
            )
            unit_of += [len(units) - 1] * len(entry.loadouts)
            loadout += list(entry.loadouts)
            radius += [entry.base_radius] * len(entry.loadouts)
    n = len(unit_of)
    dice = Dice(seed_state(seed))
    first, rolls = dice.roll_off()
    state = GameState(
        ruleset="openwar",
        seed=seed,
        rng=dice.state,
        board=board,
        units=units,
        pos=np.zeros((n, 2)),
        radius=np.asarray(radius, dtype=np.float64),
        facing=np.zeros(n),
        alive=np.ones(n, dtype=np.bool_),
        deployed=np.zeros(n, dtype=np.bool_),
        unit_of=np.asarray(unit_of, dtype=np.int64),
        loadout=np.asarray(loadout, dtype=np.int64),
        phase="setup",
        active=first,
    )
    return state, [Event("set_up_first", {"side": first, "rolls": rolls})]
