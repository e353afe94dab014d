"""Players: anything that picks one action from the menu. Humans (the web page) and the AI
implement the same interface."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from openwar.engine.actions import Action
from openwar.engine.state import GameState


class Player(Protocol):
    name: str
    reads_points: bool  # whether its choices weigh units' points (a cost sweep asks)

    def choose(self, state: GameState, menu: list[Action]) -> Action:
        """One action of ``menu`` (which is never empty)."""
        ...


class RandomPlayer:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"
    reads_points = False

    def __init__(self, seed: int | np.random.SeedSequence) -> None:
        sequence = (
            seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        )
        self.generator = np.random.Generator(np.random.PCG64(sequence))

    def choose(self, state: GameState, menu: list[Action]) -> Action:
        return menu[int(self.generator.integers(len(menu)))]
