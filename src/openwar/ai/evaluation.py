"""What a ruleset tells the AI: how much an action is worth, and how good a position is.

A ruleset plugs in by adding a module with an ``EVALUATION`` object to :data:`EVALUATIONS`;
the players never look inside the rules themselves. An evaluation may also offer
``more_orders(state)``: legal orders its side's menu leaves out that the players weigh with
the menu's (OpenWar's: a Run or an Advance onto an objective that ends in a fight), and
``plans()``: named evaluations, the default first, that the search player may play a turn of
its side's by (Age of Sigmar's: its judgement with other weights).
"""

from __future__ import annotations

import importlib
from typing import Literal, Protocol

from openwar.engine.actions import Action
from openwar.engine.state import GameState
from openwar.errors import OpenWarError

SearchMode = Literal["short", "turns", "round", "none"]
"""How the search player weighs a decision (:meth:`Evaluation.search_mode`): ``short``
rollouts of a few actions over its shortlist by successive halving; ``turns`` rollouts until
two more turns have begun (the ruleset counts them in ``extra["turns"]``), ``round`` until the
battle round ends, each candidate with the same number; ``none`` the heuristic's pick at
once."""


class Evaluation(Protocol):
    """A ruleset's judgement, in the units of its victory condition (OpenWar: points)."""

    def action_value(self, state: GameState, action: Action) -> float:
        """What ``action`` is expected to gain its side, before anyone else acts."""
        ...

    def position_value(self, state: GameState, side: int) -> float:
        """The expected final score margin of ``side`` from this position (positive: ahead)."""
        ...

    def rollout_menu(self, state: GameState) -> list[Action]:
        """A cheap part of the legal menu (e.g. one unit's orders) for fast rollouts."""
        ...

    def margin_scale(self, state: GameState) -> float:
        """A score margin that makes a win clearly likely: turns margins into win chances."""
        ...

    def distinct(self, a: Action, b: Action) -> bool:
        """Whether ``a`` and ``b`` are different enough choices for the search to weigh both
        (not the same order to points a hair apart)."""
        ...

    def search_mode(self, state: GameState, menu: list[Action]) -> SearchMode:
        """How the search player weighs this decision (:data:`SearchMode`)."""
        ...


EVALUATIONS = {"openwar": "openwar.ai.openwar_eval", "aos": "openwar.ai.aos_eval"}


def evaluation_for(ruleset: str) -> Evaluation:
    """The AI evaluation of a ruleset (its module's ``EVALUATION`` object)."""
    if ruleset not in EVALUATIONS:
        raise OpenWarError(f"the AI cannot play {ruleset!r} yet (no evaluation registered)")
    module = importlib.import_module(EVALUATIONS[ruleset])
    evaluation: Evaluation = module.EVALUATION
    return evaluation
