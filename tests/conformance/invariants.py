"""Checks that hold after every action of every battle, whatever the ruleset."""

from __future__ import annotations

import hashlib
import json

import numpy as np

from openwar.engine.events import Event
from openwar.engine.space import OVERLAP_TOLERANCE, gaps, groups, on_table
from openwar.engine.state import GameState

from .rulesets import BattleFixture


def assert_on_table(state: GameState) -> None:
    placed = np.flatnonzero(state.alive & state.deployed)
    inside = on_table(
        state.pos[placed],
        state.radius[placed],
        float(state.board["width"]),
        float(state.board["depth"]),
    )
    assert inside.all(), f"miniatures {placed[~inside].tolist()} are off the table"


def assert_no_overlap(state: GameState) -> None:
    placed = np.flatnonzero(state.alive & state.deployed)
    if len(placed) < 2:
        return  # one base or none: nothing can overlap
    between = gaps(state.pos[placed], state.radius[placed], state.pos[placed], state.radius[placed])
    np.fill_diagonal(between, np.inf)
    i, j = np.unravel_index(int(np.argmin(between)), between.shape)
    assert between[i, j] >= -OVERLAP_TOLERANCE, (
        f"bases of miniatures {placed[i]} and {placed[j]} overlap by {-between[i, j]:.6f}"
    )


def assert_coherent(state: GameState, fixture: BattleFixture) -> None:
    for unit in state.units:
        members = state.on_table(unit.id)
        if len(members) == 0 or fixture.split(unit):
            continue
        parts = groups(state, members, fixture.coherency)
        assert len(parts) == 1, f"{unit.id} is in {len(parts)} groups but not flagged split"


def alive_counts(state: GameState) -> np.ndarray:
    return np.bincount(state.unit_of[state.alive], minlength=len(state.units))


def assert_models_within_limits(
    before: GameState, after: GameState, returns_slain: bool = False
) -> None:
    """No miniature comes back (unless the ruleset's rules return slain models), no unit grows
    past its size, no token goes negative."""
    if not returns_slain:
        assert not (after.alive & ~before.alive).any(), "a slain miniature came back"
    sizes = np.bincount(after.unit_of, minlength=len(after.units))
    assert (alive_counts(after) <= sizes).all()
    for unit in after.units:
        negative = {k: v for k, v in unit.tokens.items() if v < 0}
        assert not negative, f"{unit.id} has negative tokens {negative}"


def assert_json_round_trip(state: GameState) -> None:
    again = GameState.from_json(json.loads(json.dumps(state.to_json())))
    assert again.state_hash() == state.state_hash(), "the state changes through JSON"


def assert_all(before: GameState, after: GameState, fixture: BattleFixture) -> None:
    assert after.steps == before.steps + 1
    assert_on_table(after)
    assert_no_overlap(after)
    assert_coherent(after, fixture)
    assert_models_within_limits(before, after, fixture.returns_slain(after))
    assert_json_round_trip(after)


def event_log_hash(events: list[list[Event]]) -> str:
    """SHA-256 of every action's events as JSON (strict: events must be plain JSON)."""
    text = json.dumps([[e.to_json() for e in step] for step in events], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()
