"""Menus built with what a battle remembers across states (moves, shots, orders, set-up
checks, the gap table) are the very menus built from nothing, at every step of a battle."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from openwar.battles import load_setup, make_players, start
from openwar.engine.game import apply, legal_actions, outcome
from openwar.engine.space import TranslationMemo, furthest_translation

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


def test_a_remembered_move_is_forgotten_when_a_base_enters_its_lane() -> None:
    setup = load_setup(SAMPLES, None, 1)
    state, _ = start(setup)
    state.deployed[:] = True
    state.pos[:] = np.column_stack(
        [np.arange(len(state.pos)) * 3.0 % 90, np.full(len(state.pos), 80.0)]
    )
    state.pos[0] = (10.0, 10.0)
    mover = np.array([0])
    shift = np.array([30.0, 0.0])
    with state.reading():
        free = furthest_translation(state, mover, shift)
        memo = TranslationMemo.of(state)
        assert memo is not None and memo.results
    np.testing.assert_allclose(free, shift)
    state.pos[1] = (25.0, 10.5)  # now in the way
    with state.reading():
        blocked = furthest_translation(state, mover, shift)
    state.scratch = None
    assert blocked[0] < 15.0
    np.testing.assert_array_equal(blocked, furthest_translation(state, mover, shift))
