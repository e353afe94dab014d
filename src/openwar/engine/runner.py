"""Playing a battle to its end: players choose, the engine applies."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from openwar.engine.actions import Action
from openwar.engine.events import Event
from openwar.engine.game import Outcome, apply, legal_actions, outcome
from openwar.engine.players import Player
from openwar.engine.state import GameState
from openwar.errors import OpenWarError

MAX_STEPS = 10_000


@dataclass
class BattleRecord:
    """A whole battle: where it started, every action and the events each caused."""

    initial: GameState
    final: GameState
    actions: list[Action] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)
    setup_events: list[Event] = field(default_factory=list)
    snapshots: dict[int, GameState] = field(default_factory=dict)

    @property
    def outcome(self) -> Outcome:
        result = outcome(self.final)
        assert result is not None
        return result


def play(
    state: GameState,
    players: tuple[Player, Player],
    setup_events: list[Event] | None = None,
    keep_rounds: bool = False,
    on_action: Callable[[GameState], None] | None = None,
) -> BattleRecord:
    """Let the players act until the battle is over. With ``keep_rounds`` the state at the end
    of every round is kept (for pictures of an earlier round); ``on_action`` is shown the
    state after every action (a progress display)."""
    record = BattleRecord(state, state, setup_events=list(setup_events or []))
    while outcome(state) is None:
        if len(record.actions) >= MAX_STEPS:
            raise OpenWarError(f"the battle did not end within {MAX_STEPS} actions")
        with state.reading():
            menu = legal_actions(state)
            action = players[state.active].choose(state, menu)
        before = state.round
        state, events = apply(state, action)
        record.actions.append(action)
        record.events.append(events)
        if keep_rounds and state.round != before and before > 0:
            record.snapshots[before] = state
        if on_action is not None:
            on_action(state)
    record.final = state
    return record


def replay_actions(
    state: GameState, actions: list[Action], keep_rounds: bool = False
) -> BattleRecord:
    """Apply recorded actions to a starting state (a replay); ``keep_rounds`` as :func:`play`."""
    record = BattleRecord(state, state)
    for action in actions:
        before = state.round
        state, events = apply(state, action)
        record.actions.append(action)
        record.events.append(events)
        if keep_rounds and state.round != before and before > 0:
            record.snapshots[before] = state
    record.final = state
    return record
