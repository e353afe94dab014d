"""The engine's contract with a ruleset, and ``apply``.

A ruleset's battle module provides a :class:`Rules` object. ``apply`` hands the rules a
*clone* of the state, so whatever the rules do (including raising
:class:`~openwar.engine.errors.IllegalActionError` half-way) the caller's state is unchanged.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from openwar.engine.actions import Action
from openwar.engine.events import Event
from openwar.engine.state import GameState


@dataclass(frozen=True)
class Outcome:
    """How a battle ended: ``winner`` is a side or None for a draw."""

    winner: int | None
    victory: str  # "major", "minor" or "draw"
    scores: tuple[int, int]
    rounds: int
    reason: str
    details: dict[str, Any] = field(default_factory=dict)


class Dice:
    """The game's dice: a numpy Generator whose state is read from and written back to the
    game state around every action."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.generator = np.random.Generator(np.random.PCG64(0))
        self.generator.bit_generator.state = state

    @property
    def state(self) -> dict[str, Any]:
        return dict(self.generator.bit_generator.state)

    def d6(self, count: int) -> np.ndarray:
        return self.generator.integers(1, 7, size=count)

    def roll(self, sides: int, count: int) -> np.ndarray:
        return self.generator.integers(1, sides + 1, size=count)

    def dice(self, sides: int, count: int) -> np.ndarray:
        """The :class:`openwar.dice.rolling.Roller` protocol, so that dice notation rolls
        here (:func:`openwar.dice.rolling.roll`)."""
        return self.roll(sides, count)

    def roll_off(self) -> tuple[int, list[tuple[int, int]]]:
        """Both sides roll a D6; the highest wins; ties roll again. Returns winner and rolls."""
        rolls: list[tuple[int, int]] = []
        while True:
            a, b = (int(v) for v in self.d6(2))
            rolls.append((a, b))
            if a != b:
                return (0 if a > b else 1), rolls


class ScriptedDice(Dice):
    """Dice that return listed values in order: a rules test states the rolls it needs.

    >>> ScriptedDice([6, 1]).d6(2).tolist()
    [6, 1]
    """

    def __init__(self, values: list[int]) -> None:
        super().__init__(seed_state(0))
        self.values = list(values)

    def roll(self, sides: int, count: int) -> np.ndarray:
        if count > len(self.values):
            raise AssertionError(f"the script needs {count} more dice, has {len(self.values)}")
        taken, self.values = self.values[:count], self.values[count:]
        if any(not 1 <= v <= sides for v in taken):
            raise AssertionError(f"scripted {taken} are not all rolls of a D{sides}")
        return np.asarray(taken, dtype=np.int64)

    def d6(self, count: int) -> np.ndarray:
        return self.roll(6, count)


def seed_state(seed: int) -> dict[str, Any]:
    """The dice state of a new battle with this seed."""
    return dict(np.random.PCG64(np.random.SeedSequence(seed)).state)


class Rules(Protocol):
    """What a ruleset's battle module provides."""

    name: str
    version: str

    def legal_actions(self, state: GameState) -> list[Action]:
        """A finite menu of meaningful actions for the side to move (never empty until the
        battle is over)."""
        ...

    def resolve(self, state: GameState, action: Action, dice: Dice) -> list[Event]:
        """Check ``action`` and carry it out on ``state`` (a clone the engine owns)."""
        ...

    def outcome(self, state: GameState) -> Outcome | None:
        """The result once the battle is over, else None."""
        ...

    def kills(self, events: Iterable[Event]) -> Iterator[tuple[str, str, float]]:
        """Who destroyed whom in a battle's events, in order: ``(unit, target unit,
        models)`` for the models a unit's own attacks and spells slew, and its share of those
        put to flight (a share may be a fraction of a model): OpenWar's routed unit among the
        givers of its Shaken tokens, each given by a Presence win; Age of Sigmar's models fled
        from a battleshock test among that turn's slayers of the unit, by the models each
        slew. Models slain by terrain, twists or ruses are no unit's kills."""
        ...


BATTLE_MODULES = {
    "openwar": "openwar.rulesets.openwar.battle",
    "aos": "openwar.rulesets.aos.battle",
}


def rules_for(ruleset: str) -> Rules:
    """The battle rules of a ruleset (its module's ``RULES`` object)."""
    from openwar.errors import OpenWarError

    if ruleset not in BATTLE_MODULES:
        raise OpenWarError(f"ruleset {ruleset!r} cannot play battles yet")
    module = importlib.import_module(BATTLE_MODULES[ruleset])
    rules: Rules = module.RULES
    return rules


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """The next state and the events ``action`` caused; raises if a rule forbids it."""
    rules = rules_for(state.ruleset)
    following = state.clone()
    dice = Dice(following.rng)
    events = rules.resolve(following, action, dice)
    following.rng = dice.state
    following.steps += 1
    return following, events


def legal_actions(state: GameState) -> list[Action]:
    with state.reading():
        return rules_for(state.ruleset).legal_actions(state)


def outcome(state: GameState) -> Outcome | None:
    return rules_for(state.ruleset).outcome(state)
