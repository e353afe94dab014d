"""A simple rules-aware OpenWar player: it scores each action of the menu and takes the best.

It knows the rules' shape, not the future: charge what it can reach, fight what it touches,
shoot what it sees, close on the enemy or the objectives, regroup when split, retreat only
when badly shaken. Ties go to the earlier action, so it is deterministic.
"""

from __future__ import annotations

import numpy as np

from openwar.engine.actions import Action
from openwar.engine.space import centroid
from openwar.engine.state import GameState
from openwar.rulesets.openwar import fight, orders
from openwar.rulesets.openwar.board import objectives

SCORES = {
    "regroup": 100.0,  # a split unit can do nothing else worth doing
    "charge": 30.0,
    "fight": 25.0,
    "shoot": 15.0,
    "objective": 8.0,
    "close": 5.0,
    "skill": 2.0,
    "hold": 1.0,
    "retreat": -10.0,
}


class SimplePlayer:
    name = "simple"

    def __init__(self, seed: int | np.random.SeedSequence = 0) -> None:
        self.seed = seed

    def choose(self, state: GameState, menu: list[Action]) -> Action:
        scores = [score(state, action) for action in menu]
        return menu[int(np.argmax(scores))]


def score(state: GameState, action: Action) -> float:
    if action.kind == "deploy":
        return _deploy_score(state, action)
    unit_id = str(action.unit)
    if action.kind == "regroup":
        return SCORES["regroup"]
    if action.kind == "skill":
        return SCORES["skill"]
    if action.kind == "run" and action.choice == "charge":
        return SCORES["charge"] + _strength(state, unit_id)
    if action.kind == "run" and action.choice == "retreat":
        shaken = state.unit(unit_id).tokens.get("shaken", 0)
        return SCORES["retreat"] + 12.0 * shaken
    if action.kind == "hold" and action.target is not None:
        in_combat = orders.in_combat(state, unit_id)
        return (SCORES["fight"] if in_combat else SCORES["shoot"]) + _strength(state, unit_id)
    if action.kind == "advance" and action.choice == "move-fight" and action.target:
        return SCORES["fight"] - 2.0 + _strength(state, unit_id)
    if action.kind in ("advance", "run") and action.point is not None:
        return _approach_score(state, unit_id, action)
    return SCORES["hold"]


def _strength(state: GameState, unit_id: str) -> float:
    """A small bonus for bigger units: they should lead the fighting."""
    return 0.1 * state.size(unit_id)


def _approach_score(state: GameState, unit_id: str, action: Action) -> float:
    assert action.point is not None
    goals = objectives(state)
    enemies = orders.enemy_minis(state, state.unit(unit_id).side)
    before, ranged = _unit_facts(state, unit_id, goals, enemies)
    after = _distance_to(action.point, goals, state, enemies)
    bonus = SCORES["objective"] if goals and action.target is None else SCORES["close"]
    run_penalty = 1.5 if action.kind == "run" else 0.0
    shooting = 2.0 if ranged and action.target else 0.0
    return bonus + (before - after) / 10.0 - run_penalty + shooting


def _unit_facts(
    state: GameState, unit_id: str, goals: list[tuple[float, float]], enemies: np.ndarray
) -> tuple[float, bool]:
    """How far the unit is from its goal now, and whether its first miniature has a ranged
    weapon: the same for every action of the unit (kept while the state is read)."""
    key = ("openwar.simple.unit", unit_id)
    if state.scratch is not None and key in state.scratch:
        found: tuple[float, bool] = state.scratch[key]
        return found
    x, y = centroid(state, state.on_table(unit_id)).tolist()
    before = _distance_to((x, y), goals, state, enemies)
    ranged = bool(fight.weapons(state, int(state.on_table(unit_id)[0]), ranged=True))
    if state.scratch is not None:
        state.scratch[key] = (before, ranged)
    return before, ranged


def _distance_to(
    point: tuple[float, float],
    goals: list[tuple[float, float]],
    state: GameState,
    enemies: np.ndarray,
) -> float:
    if goals:
        x, y = point
        return float(min(np.hypot(x - gx, y - gy) for gx, gy in goals))
    if len(enemies) == 0:
        return 0.0
    return float(np.hypot(*(state.pos[enemies] - np.asarray(point)).T).min())


def _deploy_score(state: GameState, action: Action) -> float:
    """Set up near the middle of the own zone's front edge."""
    assert action.point is not None
    width = float(state.board["width"])
    enemies = orders.enemy_minis(state, action.side)
    centre_bias = -abs(action.point[0] - width / 2.0) / width
    if len(enemies) == 0:
        forward = action.point[1] if action.side == 0 else -action.point[1]
        return centre_bias + forward / 100.0
    nearest = float(np.hypot(*(state.pos[enemies] - np.asarray(action.point)).T).min())
    return centre_bias - nearest / 100.0
