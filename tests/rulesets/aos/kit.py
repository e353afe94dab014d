"""Hand-made Age of Sigmar battle states for the rules tests.

A test builds units from warscroll-like profiles, puts their models where it wants them,
sets the phase, and states every die: ``play(state, action, [rolls])`` resolves one action
on a clone with ScriptedDice and fails if a scripted die is left over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from openwar.engine.actions import Action
from openwar.engine.events import Event
from openwar.engine.game import ScriptedDice
from openwar.engine.state import GameState
from openwar.rulesets.aos.battle import RULES
from openwar.rulesets.aos.board import first_blood_board
from openwar.rulesets.aos.forces import ForceUnit

Point = tuple[float, float]
R = 0.49  # a 25 mm base
STEP = 2 * R + 0.1  # bases 0.1" apart, as units are set up (AOS-B3)


def weapon(
    name: str = "Blade",
    rng: int = 1,
    attacks: int | str = 1,
    hit: int = 4,
    wound: int = 4,
    rend: int = 0,
    damage: int | str = 1,
) -> dict[str, Any]:
    return {
        "name": name,
        "range": rng,
        "attacks": str(attacks),
        "to_hit": hit,
        "to_wound": wound,
        "rend": rend,
        "damage": str(damage),
    }


def profile(
    *,
    move: int = 5,
    wounds: int = 1,
    bravery: int = 7,
    save: int | None = 4,
    keywords: Sequence[str] = ("INFANTRY",),
    melee: Sequence[dict[str, Any]] = (),
    missile: Sequence[dict[str, Any]] = (),
    abilities: Sequence[dict[str, Any]] = (),
    loadouts: Sequence[dict[str, Any]] | None = None,
    general: bool = False,
    battalion: str | None = None,
) -> dict[str, Any]:
    return {
        "warscroll": "Test",
        "move": move,
        "wounds": wounds,
        "bravery": bravery,
        "save": save,
        "keywords": list(keywords),
        "missile": list(missile),
        "melee": list(melee),
        "abilities": list(abilities),
        "loadouts": list(loadouts) if loadouts is not None else [{"options": [], "effects": []}],
        "battalion": battalion,
        "allied": False,
        "general": general,
    }


WIZARD = {
    "template": "wizard",
    "ability": "Wizard",
    "casts": 1,
    "unbinds": 1,
    "spells": ["Arcane Bolt", "Mystic Shield"],
}


def unit(
    uid: str, size: int, prof: dict[str, Any] | None = None, radius: float = R, points: int = 100
) -> ForceUnit:
    return ForceUnit(uid, uid, "Test", points, prof or profile(), (0,) * size, radius)


def battle(
    side0: Sequence[ForceUnit], side1: Sequence[ForceUnit], board: dict[str, Any] | None = None
) -> GameState:
    from openwar.rulesets.aos.setup import new_battle

    state, _ = new_battle((list(side0), list(side1)), board or first_blood_board(), seed=0)
    return state


def line(x: float, y: float, count: int, step: float = STEP) -> list[Point]:
    return [(x + k * step, y) for k in range(count)]


def place(state: GameState, uid: str, points: Sequence[Point]) -> None:
    members = state.members(uid)
    assert len(members) == len(points), f"{uid} has {len(members)} models"
    state.pos[members] = np.asarray(points, dtype=np.float64)
    state.deployed[members] = True
    state.unit(uid).flags["set_up"] = True


def in_phase(state: GameState, phase: str, *, turn: int = 0, round: int = 1) -> GameState:
    """Skip set-up: it is ``turn``'s turn, in ``phase`` of ``round``."""
    state.round = round
    state.phase = phase
    state.active = turn
    state.extra["turn"] = turn
    state.extra["first"] = turn
    state.extra["turns"] = 1
    state.extra["phase_started"] = phase == "hero"
    if phase == "battleshock":
        state.extra["shock"] = {"step": turn, "immune": [], "asked": []}
    if phase == "combat":
        state.extra["combat_side"] = turn
    return state


def play(
    state: GameState, action: Action, rolls: Sequence[int] = ()
) -> tuple[GameState, list[Event]]:
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
    from openwar.rulesets.aos.moves import unit_gap

    return unit_gap(state, a, b)
