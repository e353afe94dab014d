"""AI players: a heuristic player that reads the exact odds, and a search player on top of it.

Both play any ruleset with a registered evaluation (:mod:`openwar.ai.evaluation`) through the
engine's interface only: ``legal_actions``, ``apply`` on cloned states, ``outcome``.
"""

from openwar.ai.evaluation import Evaluation, evaluation_for
from openwar.ai.heuristic import HeuristicPlayer
from openwar.ai.search import SearchPlayer

__all__ = ["Evaluation", "HeuristicPlayer", "SearchPlayer", "evaluation_for"]
