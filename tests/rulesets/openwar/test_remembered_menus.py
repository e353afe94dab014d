"""Menus built with what a battle remembers across states (moves, shots, orders, set-up
checks, the gap table) are the very menus built from nothing, at every step of a battle."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from openwar.battles import load_setup, make_players, start
from openwar.engine.game import apply, legal_actions, outcome
from openwar.engine.space import (
    MovingGroup,
    TranslationMemo,
    furthest_translation,
    furthest_translations,
)
from openwar.engine.state import GameState
from openwar.rulesets.openwar.fight import skills

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


def _scattered(seed: int) -> GameState:
    """A battle of the sample armies with every miniature set down at random (a crowded,
    irregular table for the movement caches)."""
    state, _ = start(load_setup(SAMPLES, None, 2))
    state.deployed[:] = True
    state.pos[:] = np.random.default_rng(seed).uniform(10.0, 80.0, size=state.pos.shape)
    return state


def test_a_group_s_pairs_are_those_of_the_bases_near_each_path() -> None:
    """The offsets and clearances a moving group works out once for every other base are, for
    the bases near a path, the very numbers worked out for those bases alone."""
    state = _scattered(0)
    movers = state.on_table("a1")
    group = MovingGroup.build(state, movers)
    dx, dy, clearances = group.pairs
    compared = 0
    angles = np.linspace(0.0, 2 * np.pi, 12, endpoint=False)
    paths = group.near_paths(30.0 * np.column_stack([np.cos(angles), np.sin(angles)]))
    for near in map(np.flatnonzero, paths):
        compared += len(near)
        d = group.xy[:, None, :] - group.rest_xy[near][None, :, :]
        reach = group.r[:, None] + group.rest_r[near][None, :]
        np.testing.assert_array_equal(dx.take(near, axis=1), d[:, :, 0])
        np.testing.assert_array_equal(dy.take(near, axis=1), d[:, :, 1])
        np.testing.assert_array_equal(
            clearances.take(near, axis=1),
            d[:, :, 0] * d[:, :, 0] + d[:, :, 1] * d[:, :, 1] - reach * reach,
        )
    assert compared > 0


def test_moves_asked_together_are_the_moves_asked_one_by_one() -> None:
    """:func:`furthest_translations` gives each shift's own answer, and leaves the memo as
    asking for the shifts one call each does."""
    state = _scattered(1)
    movers = state.on_table("a1")
    angles = np.linspace(0.0, 2 * np.pi, 9, endpoint=False)
    shifts = [np.zeros(2)] + [np.array([np.cos(a), np.sin(a)]) * 25.0 for a in angles]
    one_by_one = [furthest_translation(state, movers, shift) for shift in shifts]
    together = furthest_translations(state, movers, np.array(shifts))
    for single, batched in zip(one_by_one, together, strict=True):
        np.testing.assert_array_equal(single, batched)
    assert any(float(np.hypot(*move)) < 24.0 for move in together)  # some are blocked

    def remembered(batch: bool) -> dict[bytes, list[float]]:
        copy = state.clone()
        copy.lookups = None
        with copy.reading():
            if batch:
                furthest_translations(copy, movers, np.array(shifts))
            else:
                for shift in shifts:
                    furthest_translation(copy, movers, shift)
            memo = TranslationMemo.of(copy)
            assert memo is not None
            return {key: found.tolist() for key, found in memo.results.items()}

    assert remembered(batch=True) == remembered(batch=False)
    assert len(remembered(batch=True)) == 9  # the zero shift is not remembered


def test_one_base_moves_are_the_group_moves() -> None:
    """A single base's moves, worked out on their own while the state changes, are to the
    bit the moves its one-base :class:`MovingGroup` gives: on crowded tables, over every
    direction, blocked or free, some bases off the table."""
    rng = np.random.default_rng(0)
    checked = blocked = 0
    for seed in range(40):
        state = _scattered(seed)
        state.pos[:] = np.round(rng.uniform(-2.0, rng.choice([20.0, 60.0]), state.pos.shape), 6)
        state.alive[:] = rng.random(len(state.alive)) < 0.9
        for mover in rng.choice(np.flatnonzero(state.alive), 10, replace=False).tolist():
            movers = np.array([mover])
            shifts = rng.normal(size=(7, 2)) * rng.choice([0.5, 5.0, 30.0])
            shifts[0] = (0.0, -shifts[0, 1])  # along an axis
            lengths = np.hypot(shifts[:, 0], shifts[:, 1])
            units = shifts / lengths[:, None]
            group = MovingGroup.build(state, movers)
            limits = np.minimum(lengths, group.edge_limits(units))
            paths = units * np.maximum(limits, 0.0)[:, None]
            contacts = group.first_contacts(units, group.near_paths(paths))
            expected = units * np.maximum(np.minimum(limits, contacts), 0.0)[:, None]
            found = furthest_translations(state, movers, shifts)
            assert found.tobytes() == expected.tobytes()
            checked += len(shifts)
            blocked += int((np.hypot(found[:, 0], found[:, 1]) < lengths).sum())
    assert blocked > checked // 4


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
