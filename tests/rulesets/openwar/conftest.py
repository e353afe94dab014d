"""Hand-made OpenWar battle states for the rules tests.

A test writes its units' profiles, puts their miniatures where it wants them and states every
die it needs: ``play(state, action, [rolls])`` resolves one action on a clone with
:class:`~openwar.engine.game.ScriptedDice` and fails if a scripted die is left over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from openwar.engine.actions import Action
from openwar.engine.events import Event
from openwar.engine.game import ScriptedDice
from openwar.engine.state import GameState
from openwar.rulesets.openwar.battle import RULES
from openwar.rulesets.openwar.board import default_board
from openwar.rulesets.openwar.setup import ForceUnit, new_battle

Point = tuple[float, float]
DIAMETER = 2.5  # a 25 mm base (battle.yaml base_radius 1.25)


def weapon(
    name: str,
    attacks: int,
    difficulty: int,
    pierce: int,
    *,
    range: float | None = None,
    special: Sequence[str] = (),
    thrown_profile: bool = False,
) -> dict[str, Any]:
    """A weapon dict as in catalog.yaml: ranged when it has a ``range``."""
    data: dict[str, Any] = {
        "name": name,
        "type": "melee" if range is None else "ranged",
        "range": range,
        "attacks": attacks,
        "difficulty": difficulty,
        "pierce": pierce,
        "special": list(special),
    }
    if thrown_profile:
        data["thrown_profile"] = True
    return data


# Weapons with the seed's numbers, and a "club" that can never hit or wound (for rolls that
# a test does not care about, the club makes no dice rolls matter but those stated).
SWORD = weapon("Sword", 3, 5, 0)
SPEAR = weapon("Spear", 1, 4, 1, special=["Second Rank"])
WARHAMMER = weapon("Warhammer", 2, 5, 1, special=["Shock"])
JAVELIN = weapon("Javelin", 1, 4, 0, special=["Thrown"])
JAVELIN_THROWN = weapon("Javelin (Thrown)", 1, 5, 1, range=10, thrown_profile=True)
HEAVY_JAVELIN = weapon("Heavy Javelin", 1, 5, 1, special=["Thrown"])
HEAVY_JAVELIN_THROWN = weapon(
    "Heavy Jav. (Thrown)", 1, 6, 2, range=10, special=["Shieldstick"], thrown_profile=True
)
BOW = weapon("Bow", 1, 4, 0, range=20)


def loadout(
    *weapons: dict[str, Any], armour: int = 0, shield: int = 0, skills: Sequence[str] = ()
) -> dict[str, Any]:
    return {"weapons": list(weapons), "armour": armour, "shield": shield, "skills": list(skills)}


def profile(
    *,
    move: float = 10,
    melee: int = 0,
    ranged: int = 0,
    armor: int = 4,
    morale: int = 8,
    presence: int = 0,
    skills: Sequence[str] = (),
    command_skills: Sequence[str] = (),
    loadouts: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "move": move,
        "melee": melee,
        "ranged": ranged,
        "armor": armor,
        "morale": morale,
        "presence": presence,
        "skills": list(skills),
        "command_skills": list(command_skills),
        "loadouts": list(loadouts) if loadouts is not None else [loadout(SWORD)],
    }


def unit(
    uid: str, size: int, prof: dict[str, Any] | None = None, loadouts: Sequence[int] = ()
) -> ForceUnit:
    """A unit of ``size`` miniatures; every miniature carries loadout 0 unless told."""
    chosen = tuple(loadouts) if loadouts else (0,) * size
    return ForceUnit(uid, uid, "Breakers", 10, prof or profile(), chosen)


def battle(
    side0: Sequence[ForceUnit], side1: Sequence[ForceUnit], board: dict[str, Any] | None = None
) -> GameState:
    """The state before set-up (``new_battle`` with seed 0)."""
    state, _ = new_battle((list(side0), list(side1)), board or default_board(), seed=0)
    return state


def line(x: float, y: float, count: int, step: float = DIAMETER) -> list[Point]:
    """``count`` base centres in a row along +x from (x, y), touching side by side."""
    return [(x + k * step, y) for k in range(count)]


def place(state: GameState, uid: str, points: Sequence[Point]) -> None:
    """Put a unit's miniatures at ``points`` (one each, in order) as if set up there."""
    members = state.members(uid)
    assert len(members) == len(points), f"{uid} has {len(members)} miniatures"
    state.pos[members] = np.asarray(points, dtype=np.float64)
    state.deployed[members] = True
    state.unit(uid).flags["deployed"] = True


def in_battle(state: GameState, *, active: int = 0, round: int = 1) -> GameState:
    """Skip set-up: the battle is in ``round`` and ``active`` gives the next order."""
    state.phase = "battle"
    state.round = round
    state.active = active
    for u in state.units:
        u.flags["ordered"] = False
    return state


def play(
    state: GameState, action: Action, rolls: Sequence[int] = ()
) -> tuple[GameState, list[Event]]:
    """Resolve ``action`` on a clone with exactly the scripted ``rolls``."""
    after = state.clone()
    dice = ScriptedDice(list(rolls))
    events = RULES.resolve(after, action, dice)
    assert not dice.values, f"scripted dice left over: {dice.values}"
    return after, events


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def first(events: Sequence[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


def gap(state: GameState, a: str, b: str) -> float:
    """Closest edge-to-edge distance between two units."""
    from openwar.engine.space import unit_gaps

    return float(unit_gaps(state, state.on_table(a), state.on_table(b)).min())
