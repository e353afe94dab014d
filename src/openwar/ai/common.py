"""What every ruleset's evaluation measures the same way: a battle's scale in points and a
unit's starting size (both read only the engine's state, never a ruleset's rules)."""

from __future__ import annotations

from openwar.engine.state import GameState


def initial_size(state: GameState, unit_id: str) -> int:
    """How many models (miniatures) the unit started the battle with."""
    return len(state.lookup().members[state.unit_index(unit_id)])


def army_points(state: GameState) -> float:
    """The mean points of the two armies as they started (the scale of the battle)."""
    return max(sum(u.points for u in state.units) / 2.0, 1.0)
