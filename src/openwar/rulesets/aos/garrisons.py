"""Garrisons (seed 001, "Garrisons"): a unit inside a terrain feature that can be garrisoned.

The garrison's models stand on the feature's area, in a formation wholly within it (the
seed's "purely decorative" flat area: they stay in the state's arrays, so no model leaves the
table), but for the rules the unit is inside the feature: range and sight to and from it are
measured to and from the feature, enemies treat the feature as an enemy model, it cannot
move (it may leave instead of moving), it is in cover and is hit at -1. Which features can be
garrisoned is data (``garrisons`` in battle.yaml). ``state.extra["garrisons"]`` maps each
garrisoning unit to its feature's index in the board's terrain list.
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import Polygon

from openwar.engine.space import formation, placement_clear
from openwar.engine.state import POSITION_DECIMALS, FloatArray, GameState, IntArray
from openwar.rulesets.aos.board import base_to_shape, terrain, wholly_outside, wholly_within
from openwar.rulesets.aos.rules import battle_rules

EPS = 1e-6
CONTACT_TOLERANCE = 0.05  # inches: a gap this small is contact (as a pile-in's)
LEAVE_DIRECTIONS = 12


def garrisons(state: GameState) -> dict[str, int]:
    found: dict[str, int] = state.extra.get("garrisons") or {}
    return found


def feature_of(state: GameState, unit_id: str) -> int | None:
    found = garrisons(state).get(unit_id)
    return None if found is None else int(found)


def shape_of(state: GameState, unit_id: str) -> Polygon | None:
    """The feature a unit garrisons (None if it is not a garrison)."""
    k = feature_of(state, unit_id)
    return None if k is None else terrain(state)[k]


def enemy_features(state: GameState, side: int) -> list[Polygon]:
    """Features garrisoned by the enemies of ``side``: to be treated as enemy models."""
    held = garrisons(state)
    if not held:
        return []
    shapes = terrain(state)
    return [shapes[k] for u, k in held.items() if state.unit(u).side != side]


def garrisoned_minis(state: GameState) -> IntArray:
    """Models of garrisoning units (they stand on their feature's area)."""
    ids = list(garrisons(state))
    if not ids:
        return np.zeros(0, dtype=np.int64)
    return np.concatenate([state.on_table(u) for u in ids]).astype(np.int64)


def gap_to(state: GameState, shape: Polygon, minis: IntArray) -> FloatArray:
    """Each base's gap to a feature (0 when touching or inside)."""
    return base_to_shape(shape, state.pos[minis], state.radius[minis])


def can_be_garrisoned(state: GameState, k: int) -> bool:
    feature = state.board.get("terrain", [])[k]
    return feature["name"] in battle_rules().garrisons and k not in garrisons(state).values()


def _enemies_clear(state: GameState, side: int, shape: Polygon) -> bool:
    """No enemy model within 3" of the feature (an enemy garrison counts as a model)."""
    from openwar.rulesets.aos.moves import enemy_minis

    rules = battle_rules()
    enemies = enemy_minis(state, side)
    if len(enemies) and float(gap_to(state, shape, enemies).min()) <= rules.enemy_gap + EPS:
        return False
    return all(float(shapely.distance(shape, other)) > rules.enemy_gap for other in
               enemy_features(state, side))  # fmt: skip


def fit(state: GameState, unit_id: str, k: int) -> FloatArray | None:
    """A formation of the unit's models wholly within the feature and clear of other bases."""
    shape = terrain(state)[k]
    members = state.on_table(unit_id)
    if not len(members):
        members = state.members(unit_id)
    r = float(state.radius[members[0]])
    spacing = r + battle_rules().base_spacing / 2
    point = shape.representative_point()
    centre = (float(point.x), float(point.y))
    for width in range(len(members), 0, -1):
        for facing in (0.0, np.pi / 2):
            xy = np.round(formation(len(members), centre, spacing, width, facing), 6)
            if wholly_within(shape, xy, state.radius[members]) and placement_clear(
                state, members, xy
            ):
                return np.asarray(xy, dtype=np.float64)
    return None


def entry_features(state: GameState, unit_id: str) -> list[int]:
    """Features the unit may garrison instead of a normal move: every model within 6", no
    enemy within 3" of the feature, nobody garrisoning it, and room on its area."""
    rules = battle_rules()
    unit = state.unit(unit_id)
    members = state.on_table(unit_id)
    found = []
    for k, shape in enumerate(terrain(state)):
        if not can_be_garrisoned(state, k):
            continue
        if float(gap_to(state, shape, members).max()) > rules.garrison_range + EPS:
            continue
        if _enemies_clear(state, unit.side, shape) and fit(state, unit_id, k) is not None:
            found.append(k)
    return found


def setup_features(state: GameState, unit_id: str) -> list[int]:
    """Features wholly within the unit's territory that it may be set up garrisoning."""
    from openwar.rulesets.aos.board import territory

    side = state.unit(unit_id).side
    land = territory(state, side)
    return [
        k
        for k, shape in enumerate(terrain(state))
        if can_be_garrisoned(state, k)
        and land.buffer(EPS).contains(shape)
        and fit(state, unit_id, k) is not None
    ]


def enter(state: GameState, unit_id: str, k: int) -> None:
    xy = fit(state, unit_id, k)
    assert xy is not None
    members = state.on_table(unit_id)
    if not len(members):
        members = state.members(unit_id)
    state.pos[members] = xy
    state.extra.setdefault("garrisons", {})[unit_id] = k


def leave_points(state: GameState, unit_id: str) -> list[tuple[float, float]]:
    """Where the garrison may be set up when it leaves: a formation wholly outside the
    feature, every model within 6" of it and more than 3" from every enemy."""
    from openwar.engine.space import gaps
    from openwar.rulesets.aos.moves import enemy_minis
    from openwar.rulesets.aos.setup import facing_for, rank_width

    rules = battle_rules()
    unit = state.unit(unit_id)
    shape = shape_of(state, unit_id)
    members = state.on_table(unit_id)
    if shape is None or not len(members):
        return []
    r = state.radius[members]
    spacing = float(r[0]) + rules.base_spacing / 2
    width = rank_width(unit)
    facing = facing_for(state, unit.side)
    enemies = enemy_minis(state, unit.side)
    others = enemy_features(state, unit.side)
    centre = shape.representative_point()
    x0, y0, x1, y1 = shape.bounds
    reach = float(np.hypot(x1 - x0, y1 - y0)) / 2
    found: list[tuple[float, float]] = []
    for step in range(LEAVE_DIRECTIONS):
        angle = 2 * np.pi * step / LEAVE_DIRECTIONS
        direction = np.array([np.cos(angle), np.sin(angle)])
        for out in (1.5, 3.5):
            point = np.round(np.array([centre.x, centre.y]) + direction * (reach + out), 3)
            xy = formation(len(members), (float(point[0]), float(point[1])), spacing, width,
                           facing)  # fmt: skip
            xy = np.round(xy, POSITION_DECIMALS)
            if not wholly_outside(shape, xy, r) or not placement_clear(state, members, xy):
                continue
            if float(base_to_shape(shape, xy, r).max()) > rules.garrison_range + EPS:
                continue
            if (
                len(enemies)
                and float(gaps(xy, r, state.pos[enemies], state.radius[enemies]).min())
                <= rules.enemy_gap + EPS
            ):
                continue
            if any(float(base_to_shape(o, xy, r).min()) <= rules.enemy_gap + EPS for o in others):
                continue
            found.append((float(point[0]), float(point[1])))
            break
    return found


def leave(state: GameState, unit_id: str, point: tuple[float, float]) -> None:
    from openwar.rulesets.aos.setup import facing_for, rank_width

    unit = state.unit(unit_id)
    members = state.on_table(unit_id)
    spacing = float(state.radius[members[0]]) + battle_rules().base_spacing / 2
    xy = formation(len(members), point, spacing, rank_width(unit), facing_for(state, unit.side))
    state.pos[members] = np.round(xy, POSITION_DECIMALS)
    garrisons(state).pop(unit_id, None)


def path_fraction(
    state: GameState, unit_id: str, shift: FloatArray, keep_away: float | None = None
) -> float:
    """How much of a straight move along ``shift`` keeps every base more than ``keep_away``
    (3" unless given) from every feature an enemy garrisons (they count as enemy models);
    1.0 when all of it does."""
    gap = battle_rules().enemy_gap if keep_away is None else keep_away
    side = state.unit(unit_id).side
    others = enemy_features(state, side)
    if not others:
        return 1.0
    members = state.on_table(unit_id)

    def clear(t: float) -> bool:
        start = state.pos[members]
        end = start + shift * t
        lines = shapely.linestrings(np.stack([start, end + 1e-9], axis=1))
        return all(
            bool((shapely.distance(lines, o) - state.radius[members] > gap).all())
            for o in others
        )  # fmt: skip

    if clear(1.0):
        return 1.0
    if not clear(0.0):
        return 0.0
    lo, hi = 0.0, 1.0
    for _ in range(20):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if clear(mid) else (lo, mid)
    return lo


def feature_stop() -> float:
    """How near a feature an enemy garrisons a charge or pile-in towards it ends: just within
    1/2" (AOS-G3; the engine's contact tolerance, 0.05", inside it)."""
    return battle_rules().charge_contact - CONTACT_TOLERANCE


def charge_positions(
    state: GameState, ours: IntArray, shape: Polygon, roll: float, contact: float
) -> FloatArray | None:
    """A charge at a garrison: the unit moves as a block straight towards the nearest point of
    the feature until its closest model is within 1/2" of it (AOS-G3)."""
    from shapely.ops import nearest_points

    from openwar.engine.space import furthest_translation

    start = state.pos[ours]
    near = int(np.argmin(gap_to(state, shape, ours)))
    a = shapely.Point(start[near])
    target = nearest_points(shape, a)[0]
    direction = np.array([target.x - a.x, target.y - a.y])
    length = float(np.hypot(*direction))
    if length == 0.0:
        return None
    unit_dir = direction / length

    def gap(t: float) -> float:
        return float(base_to_shape(shape, start + unit_dir * t, state.radius[ours]).min())

    if gap(roll) > contact - CONTACT_TOLERANCE:
        return None
    lo, hi = 0.0, roll
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if gap(mid) > contact - CONTACT_TOLERANCE else (lo, mid)
    shift = unit_dir * hi
    moved = furthest_translation(state, ours, shift)
    if float(np.hypot(*(moved - shift))) > 1e-3:
        return None
    return np.asarray(np.round(start + shift, POSITION_DECIMALS), dtype=np.float64)
