"""A simple rules-aware Age of Sigmar player: it scores every action on the menu and takes
the best (ties to the earlier one, so it is deterministic). It casts, shoots, charges and
fights whenever it can, closes on objectives and enemies, unbinds, spends command points on
charges and battleshock, and never makes a Damned sacrifice."""

from __future__ import annotations

import numpy as np

from openwar.engine.actions import Action
from openwar.engine.state import GameState
from openwar.rulesets.aos import handlers
from openwar.rulesets.aos.board import objectives, territory
from openwar.rulesets.aos.moves import centre, enemy_minis, file_positions, keep_away

SCORES = {
    "first_turn": 1.0,
    "cast": 12.0,
    "unbind": 8.0,
    "firestarter": -1.0,
    "sacrifice": -5.0,
    "shoot": 20.0,
    "charge": 15.0,
    "charge_move": 25.0,
    "forward_to_victory": 20.0,
    "at_the_double": 3.0,
    "fight": 30.0,
    "inspiring_presence": 10.0,
    "hold_fast": 12.0,
    "arrive": 6.0,
    "reinforce": 6.0,
    "run": 0.0,
    "roll_move": 2.0,
}


class SimplePlayer:
    name = "simple"
    reads_points = False

    def __init__(self, seed: int | np.random.SeedSequence = 0) -> None:
        self.seed = seed

    def choose(self, state: GameState, menu: list[Action]) -> Action:
        scores = [score(state, action) for action in menu]
        return menu[int(np.argmax(scores))]


def score(state: GameState, action: Action) -> float:
    kind = action.kind
    if kind == "deploy":
        return _deploy(state, action)
    if kind == "first_turn":
        return 1.0 if action.choice == "first" else 0.0
    if kind in ("move", "run_move"):
        return _move(state, action)
    if kind == "charge":
        return _charge(state, action)
    if kind == "forward_to_victory":
        return _charge(state, action) + 5.0 if _charge(state, action) > 0 else -1.0
    if kind == "charge_move":
        return SCORES[kind] if action.target else 0.0
    if kind == "cast":
        return SCORES[kind] + (2.0 if action.choice == "Arcane Bolt" else 0.0)
    if kind == "run":
        return _run(state, action)
    if kind == "garrison":  # shooters hold a tower: cover, and -1 to hit them
        return 1.5 if state.unit(str(action.unit)).profile["missile"] else -1.0
    if kind == "fight":
        bonus = 0.5 if action.choice in ("Inspired", "Bloodthirsty") else 0.0
        return SCORES[kind] + bonus - 0.01 * state.size(str(action.target))
    if kind in ("allocate", "flee"):  # AOS-D3's policy: the rear models go first
        return 1.0 if action.choice == "rear" else 0.0
    if kind == "at_the_double":
        roll = int(state.extra["pending"]["roll"])
        return 4.0 - roll
    return SCORES.get(kind, 0.0)


def _goal(state: GameState, side: int, here: np.ndarray) -> np.ndarray | None:
    """The nearest objective not held, else the nearest enemy model."""
    held = state.extra.get("control", [])
    points = [np.asarray(p) for p, h in zip(objectives(state), held, strict=False) if h != side]
    if points:
        return min(points, key=lambda p: float(np.hypot(*(p - here))))
    enemies = enemy_minis(state, side)
    if len(enemies) == 0:
        return None
    d = np.hypot(*(state.pos[enemies] - here).T)
    return np.asarray(state.pos[enemies[int(np.argmin(d))]])


def _move(state: GameState, action: Action) -> float:
    if action.point is None:
        return 0.5
    unit = state.unit(str(action.unit))
    here = np.asarray(centre(state, unit.id))
    if action.choice == "retreat":
        return -2.0
    if action.choice == "leave":
        return -0.5
    goal = _goal(state, unit.side, here)
    if goal is None:
        return 0.0
    point = np.asarray(action.point)
    if action.choice == "file":  # the point is the heading: where the models end counts
        limit = handlers.move_limit(state, unit, action)
        xy = file_positions(state, unit.id, point, limit, keep_away())
        if xy is None:
            return -1.0
        point = xy.mean(axis=0)
    gain = float(np.hypot(*(goal - here)) - np.hypot(*(goal - point)))
    shooter = bool(unit.profile["missile"])
    return 1.0 + gain / 5.0 - (1.0 if shooter and action.kind == "move" else 0.0)


def _charge(state: GameState, action: Action) -> float:
    """Charge with units that fight better than they shoot."""
    unit = state.unit(str(action.unit))
    if unit.profile["missile"] or "WIZARD" in unit.profile["keywords"]:
        return -1.0
    return SCORES["charge"]


def _run(state: GameState, action: Action) -> float:
    unit = state.unit(str(action.unit))
    if unit.profile["missile"]:
        return -1.0
    here = np.asarray(centre(state, unit.id))
    enemies = enemy_minis(state, unit.side)
    far = float(np.hypot(*(state.pos[enemies] - here).T).min()) if len(enemies) else 0.0
    return 1.5 if far > 16.0 else -1.0


def _deploy(state: GameState, action: Action) -> float:
    """Set up near the front of the territory, towards the middle of the table."""
    if action.point is None:
        return -100.0
    if action.choice == "ambush":
        return -50.0
    enemy = territory(state, 1 - action.side).centroid
    point = np.asarray(action.point)
    return -float(np.hypot(point[0] - enemy.x, point[1] - enemy.y)) / 100.0
