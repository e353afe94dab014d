"""Menus built with what a battle remembers across states (moves, shots, orders, set-up
checks, the gap table) are the very menus built from nothing, at every step of a battle; the
simple player's scores worked out together are each action's own."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from openwar.battles import load_setup, make_players, start
from openwar.engine.actions import Action
from openwar.engine.game import apply, legal_actions, outcome
from openwar.engine.space import (
    centroid,
    furthest_translation,
    furthest_translations,
    gaps,
)
from openwar.engine.state import GameState
from openwar.rulesets.openwar.board import objectives
from openwar.rulesets.openwar.fight import skills, weapons
from openwar.rulesets.openwar.orders import in_combat, least_gap
from openwar.rulesets.openwar.players import SCORES, scores

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


def _distance_as_written(
    state: GameState, point: tuple[float, float], goals: list[tuple[float, float]], side: int
) -> float:
    """The simple player's distance to its goal, one point at a time on plain floats."""
    if goals:
        x, y = point
        return float(min(np.hypot(x - gx, y - gy) for gx, gy in goals))
    enemies = state.side_miniatures(side, same=False)
    if len(enemies) == 0:
        return 0.0
    return float(np.hypot(*(state.pos[enemies] - np.asarray(point)).T).min())


def _score_as_written(state: GameState, action: Action) -> float:
    """The simple player's score of one action, every fact worked out for it alone."""
    if action.kind == "deploy":
        assert action.point is not None
        width = float(state.board["width"])
        enemies = state.side_miniatures(action.side, same=False)
        centre_bias = -abs(action.point[0] - width / 2.0) / width
        if len(enemies) == 0:
            forward = action.point[1] if action.side == 0 else -action.point[1]
            return centre_bias + forward / 100.0
        nearest = float(np.hypot(*(state.pos[enemies] - np.asarray(action.point)).T).min())
        return centre_bias - nearest / 100.0
    unit_id = str(action.unit)
    strength = 0.1 * state.size(unit_id)
    if action.kind == "regroup":
        return SCORES["regroup"]
    if action.kind == "skill":
        return SCORES["skill"]
    if action.kind == "run" and action.choice == "charge":
        return SCORES["charge"] + strength
    if action.kind == "run" and action.choice == "retreat":
        return SCORES["retreat"] + 12.0 * state.unit(unit_id).tokens.get("shaken", 0)
    if action.kind == "hold" and action.target is not None:
        return (SCORES["fight"] if in_combat(state, unit_id) else SCORES["shoot"]) + strength
    if action.kind == "advance" and action.choice == "move-fight" and action.target:
        return SCORES["fight"] - 2.0 + strength
    if action.kind in ("advance", "run") and action.point is not None:
        goals = objectives(state)
        side = state.unit(unit_id).side
        x, y = centroid(state, state.on_table(unit_id)).tolist()
        before = _distance_as_written(state, (x, y), goals, side)
        ranged = bool(weapons(state, int(state.on_table(unit_id)[0]), ranged=True))
        after = _distance_as_written(state, action.point, goals, side)
        bonus = SCORES["objective"] if goals and action.target is None else SCORES["close"]
        run_penalty = 1.5 if action.kind == "run" else 0.0
        shooting = 2.0 if ranged and action.target else 0.0
        return bonus + (before - after) / 10.0 - run_penalty + shooting
    return SCORES["hold"]


@pytest.mark.parametrize("seed", [1, 4])
def test_simple_scores_of_a_whole_menu_are_each_action_s_own(seed: int) -> None:
    """The simple player's scores of a menu, its units' facts remembered and the distances
    worked out together, are the scores of each action worked out alone, at every step."""
    state, _ = start(load_setup(SAMPLES, None, seed))
    chooser = make_players(("simple", "simple"), seed)
    while outcome(state) is None:
        menu = legal_actions(state)
        together = scores(state, menu)
        assert together == [_score_as_written(state, action) for action in menu]
        state, _ = apply(state, chooser[state.active].choose(state, menu))
