"""A new OpenWar battle: two forces and a board become the initial game state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from openwar.engine.events import Event
from openwar.engine.game import Dice, seed_state
from openwar.engine.state import GameState, initial_state
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
    dice = Dice(seed_state(seed))
    first, rolls = dice.roll_off()
    state = initial_state("openwar", seed, dice.state, board, forces, first)
    return state, [Event("set_up_first", {"side": first, "rolls": rolls})]
