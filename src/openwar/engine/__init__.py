"""The battle engine: game state, actions, events and turn flow, knowing no particular game.

A ruleset plugs in through :class:`~openwar.engine.game.Rules`; everything a player does is an
:class:`~openwar.engine.actions.Action` and :func:`~openwar.engine.game.apply` returns the next
state and the events it caused.
"""

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.events import Event
from openwar.engine.game import Outcome, Rules, apply, legal_actions, outcome, rules_for
from openwar.engine.state import GameState, UnitState

__all__ = [
    "Action",
    "Event",
    "GameState",
    "IllegalActionError",
    "Outcome",
    "Rules",
    "UnitState",
    "apply",
    "legal_actions",
    "outcome",
    "rules_for",
]
