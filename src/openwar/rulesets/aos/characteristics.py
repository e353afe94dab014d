"""Characteristics that change during a battle (seed 001, "Damage Tables", "Random Values"):
a damage table gives Move, Bravery, Save and weapon values by the wounds a model has
suffered; a random Move (2D6) is rolled when the unit is picked to move and holds for that
movement phase."""

from __future__ import annotations

from typing import Any

from openwar.dice.notation import parse_dice
from openwar.engine.errors import IllegalActionError
from openwar.engine.state import GameState, UnitState


def suffered(state: GameState, mini: int) -> int:
    """Wounds allocated to this model and not healed: only the unit's wounded model has any
    (a unit never has two wounded models)."""
    unit = state.units[int(state.unit_of[mini])]
    wounded = unit.flags.get("wounded")
    return int(unit.tokens.get("damage", 0)) if wounded is not None and wounded == mini else 0


def table_row(unit: UnitState, wounds: int) -> dict[str, Any] | None:
    """The damage-table row for a model that has suffered ``wounds``."""
    found = None
    for row in unit.profile.get("damage_table") or ():
        if int(row["suffered"]) <= wounds:
            found = row
    return found


def _unit_row(state: GameState, unit: UnitState) -> dict[str, Any] | None:
    """The row of the unit's wounded model (the others have suffered no wounds)."""
    if not unit.profile.get("damage_table"):
        return None
    return table_row(unit, int(unit.tokens.get("damage", 0)))


def model_weapon(state: GameState, mini: int, weapon: dict[str, Any]) -> dict[str, Any]:
    """The weapon as this model uses it: its damage-table values replace the warscroll's."""
    unit = state.units[int(state.unit_of[mini])]
    if not unit.profile.get("damage_table"):
        return weapon
    row = table_row(unit, suffered(state, mini))
    change = None if row is None else row["weapons"].get(weapon["name"])
    if not change:
        return weapon
    return {**weapon, **change}


def move_text(state: GameState, unit: UnitState) -> str:
    row = _unit_row(state, unit)
    if row is not None and row.get("move") is not None:
        return str(row["move"])
    return str(unit.profile["move"])


def random_move(state: GameState, unit: UnitState) -> bool:
    return not parse_dice(move_text(state, unit)).is_constant


def needs_move_roll(state: GameState, unit: UnitState) -> bool:
    """A random Move not yet rolled this movement phase."""
    return random_move(state, unit) and "move_roll" not in unit.tokens


def move(state: GameState, unit: UnitState) -> float:
    """The Move characteristic: a random one is the roll made when the unit was picked."""
    if random_move(state, unit):
        if "move_roll" not in unit.tokens:
            raise IllegalActionError(
                "AOS-D9", f"{unit.id} has a random Move: roll it first (roll_move)"
            )
        return float(unit.tokens["move_roll"])
    return float(parse_dice(move_text(state, unit)).modifier)


def bravery(state: GameState, unit: UnitState) -> int:
    row = _unit_row(state, unit)
    if row is not None and row.get("bravery") is not None:
        return int(row["bravery"])
    return int(unit.profile["bravery"])


def save(state: GameState, unit: UnitState) -> int | None:
    row = _unit_row(state, unit)
    if row is not None and row.get("save") is not None:
        return int(row["save"])
    value = unit.profile["save"]
    return None if value is None else int(value)
