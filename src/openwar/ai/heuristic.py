"""The heuristic player: every action of the menu valued by the ruleset's evaluation (exact
odds, threat ranges, objectives, victory condition); the best is taken.

Deterministic: ties go to the earlier action, and the seed is kept only so that every player
is built the same way.
"""

from __future__ import annotations

import numpy as np

from openwar.ai.evaluation import Evaluation, evaluation_for
from openwar.engine.actions import Action
from openwar.engine.state import GameState


class HeuristicPlayer:
    name = "heuristic"

    def __init__(
        self, seed: int | np.random.SeedSequence = 0, evaluation: Evaluation | None = None
    ) -> None:
        self.seed = seed
        self.evaluation = evaluation

    def values(self, state: GameState, menu: list[Action]) -> list[float]:
        """The evaluation's value of each action of ``menu``."""
        judge = self.evaluation or evaluation_for(state.ruleset)
        with state.reading():  # facts about the state are remembered across the menu
            return [judge.action_value(state, action) for action in menu]

    def choose(self, state: GameState, menu: list[Action]) -> Action:
        if len(menu) == 1:
            return menu[0]
        return menu[int(np.argmax(self.values(state, menu)))]
