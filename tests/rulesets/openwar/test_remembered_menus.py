"""Menus built with what a battle remembers across states (moves, shots, orders, set-up
checks, the gap table) are the very menus built from nothing, at every step of a battle."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from openwar.battles import load_setup, make_players, start
from openwar.engine.game import apply, legal_actions, outcome
from openwar.engine.space import (
    furthest_translation,
    furthest_translations,
    gaps,
)
from openwar.engine.state import GameState
from openwar.rulesets.openwar.fight import skills
from openwar.rulesets.openwar.orders import least_gap

ARMIES = Path(__file__).resolve().parents[3] / "examples" / "armies" / "openwar"
SAMPLES = (ARMIES / "iron_road_legion.yaml", ARMIES / "hearthhold_lodge.yaml")


@pytest.mark.parametrize(("seed", "players"), [(3, "random"), (5, "simple")])
def test_remembered_menus_match_fresh_ones(seed: int, players: str) -> None:
    setup = load_setup(SAMPLES, None, seed)
    state, _ = start(setup)
    chooser = make_players((players, players), seed)
    while outcome(state) is None:
        with state.reading():
            menu = legal_actions(state)
            action = chooser[state.active].choose(state, menu)
        fresh = state.clone()
        fresh.lookups = None  # nothing remembered
        assert legal_actions(fresh) == menu
        state, _ = apply(state, action)


def _scattered(seed: int) -> GameState:
    """A battle of the sample armies with every miniature set down at random (a crowded,
    irregular table for the movement caches)."""
    state, _ = start(load_setup(SAMPLES, None, 2))
    state.deployed[:] = True
    state.pos[:] = np.random.default_rng(seed).uniform(10.0, 80.0, size=state.pos.shape)
    return state


def test_moves_asked_together_are_the_moves_asked_one_by_one() -> None:
    """:func:`furthest_translations` gives each shift's own answer."""
    state = _scattered(1)
    movers = state.on_table("a1")
    angles = np.linspace(0.0, 2 * np.pi, 9, endpoint=False)
    shifts = [np.zeros(2)] + [np.array([np.cos(a), np.sin(a)]) * 25.0 for a in angles]
    one_by_one = [furthest_translation(state, movers, shift) for shift in shifts]
    together = furthest_translations(state, movers, np.array(shifts))
    for single, batched in zip(one_by_one, together, strict=True):
        np.testing.assert_array_equal(single, batched)
    assert any(float(np.hypot(*move)) < 24.0 for move in together)  # some are blocked


def test_skills_remembered_per_loadout_are_each_miniature_s_own() -> None:
    """A miniature's skills, remembered for its unit and loadout, are those gathered for it
    alone with nothing remembered."""
    state, _ = start(load_setup(SAMPLES, None, 0))
    for mini in range(len(state.pos)):
        fresh = state.clone()
        fresh.lookups = None
        assert skills(state, mini) == skills(fresh, mini)


def test_a_value_is_remembered_only_while_the_state_is_read() -> None:
    state, _ = start(load_setup(SAMPLES, None, 0))
    calls: list[int] = []

    def work() -> int:
        calls.append(1)
        return len(calls)

    assert state.remembered("k", work) == 1 and state.remembered("k", work) == 2  # no scratch
    with state.reading():
        assert state.remembered("k", work) == 3
        assert state.remembered("k", work) == 3  # kept, not worked out again
    assert state.remembered("k", work) == 4  # forgotten on leaving


def test_least_gaps_remembered_while_read_are_the_least_of_the_fresh_gaps() -> None:
    """Every pair of units' least gap, asked twice while the state is read, is the least of
    the gaps worked out afresh (no table, nothing remembered), along a battle."""
    state, _ = start(load_setup(SAMPLES, None, 6))
    chooser = make_players(("simple", "simple"), 6)
    while outcome(state) is None:
        placed = [u.id for u in state.units if len(state.on_table(u.id))]
        fresh = state.clone()
        fresh.lookups = None
        expected = {
            (a, b): float(
                gaps(
                    fresh.pos[fresh.on_table(a)],
                    fresh.radius[fresh.on_table(a)],
                    fresh.pos[fresh.on_table(b)],
                    fresh.radius[fresh.on_table(b)],
                ).min()
            )
            for a in placed
            for b in placed
        }
        assert {pair: least_gap(state, *pair) for pair in expected} == expected
        with state.reading():
            for _ in range(2):
                assert {pair: least_gap(state, *pair) for pair in expected} == expected
            action = chooser[state.active].choose(state, legal_actions(state))
        state, _ = apply(state, action)
