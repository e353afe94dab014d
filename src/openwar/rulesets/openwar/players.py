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
from openwar.rulesets.openwar import fight, orders, ruses
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
    reads_points = False

    def __init__(self, seed: int | np.random.SeedSequence = 0) -> None:
        self.seed = seed

    def choose(self, state: GameState, menu: list[Action]) -> Action:
        return menu[int(np.argmax(scores(state, menu)))]


def scores(state: GameState, menu: list[Action]) -> list[float]:
    """Each action's :func:`score`, worked out together while the state is read: a unit's
    facts once, and the distances every move and set-up point would end at in one go per side
    (each the same arithmetic as the action's alone)."""
    with state.reading():
        nearest = _nearest_after(state, menu)
        return [_score(state, action, nearest.get(k)) for k, action in enumerate(menu)]


def score(state: GameState, action: Action) -> float:
    return scores(state, [action])[0]


def _score(state: GameState, action: Action, nearest: float | None) -> float:
    """The action's score; ``nearest`` is the distance of :func:`_nearest_after` for the
    approach moves and set-up points (None for the others)."""
    if action.kind == "deploy" and action.point is None:  # in reserve (OW-R3) only for want
        return -999.0 if action.choice == ruses.OUTFLANK else -1000.0  # of room (OW-B12)
    if action.kind == "deploy":
        assert nearest is not None
        return _deploy_score(state, action, nearest)
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
        assert nearest is not None
        return _approach_score(state, unit_id, action, nearest)
    return SCORES["hold"]


def _approaches(action: Action) -> bool:
    """Whether :func:`_score` scores the action by where the move ends."""
    if action.point is None:
        return False
    if action.kind == "run":
        return action.choice not in ("charge", "retreat")
    if action.kind == "advance":
        return not (action.choice == "move-fight" and action.target)
    return False


def _nearest_after(state: GameState, menu: list[Action]) -> dict[int, float]:
    """For each approach move of ``menu`` (by its place): the distance from where it ends to
    the nearest objective (or, with none left, the nearest enemy miniature); for each set-up
    point: the distance to the nearest enemy miniature. Worked out for all the points of a
    side at once, each the same subtractions and ``np.hypot`` as the point's alone."""
    asked: dict[tuple[int, bool], list[int]] = {}
    for k, action in enumerate(menu):
        if action.kind == "deploy" and action.point is not None:
            asked.setdefault((action.side, True), []).append(k)
        elif _approaches(action):
            asked.setdefault((state.unit(str(action.unit)).side, False), []).append(k)
    goals = objectives(state)
    found: dict[int, float] = {}
    for (side, deploying), places in asked.items():
        points = [point for k in places if (point := menu[k].point) is not None]
        after = _distances_to(points, [] if deploying else goals, state, side)
        found.update(zip(places, after, strict=True))
    return found


def _strength(state: GameState, unit_id: str) -> float:
    """A small bonus for bigger units: they should lead the fighting."""
    return 0.1 * state.size(unit_id)


def _approach_score(state: GameState, unit_id: str, action: Action, after: float) -> float:
    before, ranged, goals = _unit_facts(state, unit_id)
    bonus = SCORES["objective"] if goals and action.target is None else SCORES["close"]
    run_penalty = 1.5 if action.kind == "run" else 0.0
    shooting = 2.0 if ranged and action.target else 0.0
    return bonus + (before - after) / 10.0 - run_penalty + shooting


def _unit_facts(state: GameState, unit_id: str) -> tuple[float, bool, bool]:
    """How far the unit is from its goal now, whether its first miniature has a ranged weapon
    and whether objectives are left: the same for every action of the unit (remembered while
    the state is read)."""

    def work() -> tuple[float, bool, bool]:
        goals = objectives(state)
        x, y = centroid(state, state.on_table(unit_id)).tolist()
        before = _distances_to([(x, y)], goals, state, state.unit(unit_id).side)[0]
        ranged = bool(fight.weapons(state, int(state.on_table(unit_id)[0]), ranged=True))
        return before, ranged, bool(goals)

    return state.remembered(("openwar.simple.unit", unit_id), work)


def _distances_to(
    points: list[tuple[float, float]], goals: list[tuple[float, float]], state: GameState, side: int
) -> list[float]:
    """Each point's distance to the nearest of ``goals`` or, with no goals, to the nearest
    enemy miniature of ``side`` (0.0 with none): one ``np.hypot`` of the offsets per pair."""
    xy = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if goals:
        there = np.asarray(goals, dtype=np.float64).reshape(-1, 2)
        near = np.hypot(xy[:, None, 0] - there[None, :, 0], xy[:, None, 1] - there[None, :, 1])
        return [float(d) for d in near.min(axis=1).tolist()]
    enemies = orders.enemy_minis(state, side)
    if len(enemies) == 0:
        return [0.0] * len(xy)
    there = state.pos.take(enemies, 0)
    near = np.hypot(there[None, :, 0] - xy[:, None, 0], there[None, :, 1] - xy[:, None, 1])
    return [float(d) for d in near.min(axis=1).tolist()]


def _deploy_score(state: GameState, action: Action, nearest: float) -> float:
    """Set up near the middle of the own zone's front edge (``nearest``: the distance from
    the point to the nearest enemy miniature)."""
    assert action.point is not None
    width = float(state.board["width"])
    enemies = orders.enemy_minis(state, action.side)
    centre_bias = -abs(action.point[0] - width / 2.0) / width
    if len(enemies) == 0:
        forward = action.point[1] if action.side == 0 else -action.point[1]
        return centre_bias + forward / 100.0
    return centre_bias - nearest / 100.0
