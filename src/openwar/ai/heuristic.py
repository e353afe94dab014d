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
    reads_points = True  # its evaluation values losses and objectives in points

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
        options = menu + self.more(state, menu)
        return options[int(np.argmax(self.values(state, options)))]

    def more(self, state: GameState, menu: list[Action]) -> list[Action]:
        """Legal orders the menu leaves out that the ruleset's evaluation weighs too
        (``more_orders``, OpenWar's: a Run or an Advance onto an objective that ends in a
        fight), for the units the menu gives orders to (a rollout's menu is one unit's), after
        the menu's own (ties go to the menu)."""
        judge = self.evaluation or evaluation_for(state.ruleset)
        more = getattr(judge, "more_orders", None)
        if more is None:
            return []
        offered, units = set(menu), {a.unit for a in menu}
        return [a for a in more(state) if a.unit in units and a not in offered]
