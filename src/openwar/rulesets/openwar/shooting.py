"""OpenWar shooting: who can shoot at whom (seed "Shooting")."""

from __future__ import annotations

import numpy as np

from openwar.engine.space import OVERLAP_TOLERANCE, unit_gaps
from openwar.engine.state import GameState
from openwar.rulesets.openwar import fight
from openwar.rulesets.openwar.board import sight_blockers
from openwar.rulesets.openwar.twists import sight_limit

SHOOTERS_MEMO = "openwar.shooters"  # (Lookups.memo) who can shoot whom, by where they stand
SHOOTERS_MEMO_LIMIT = 4096
REACH_MEMO = "openwar.reach"  # (Lookups.memo) shooters' reach by who is left and has thrown
CAN_SHOOT_MEMO = "openwar.can_shoot"  # (Lookups.memo) whether a unit has a ranged weapon left


def shooters(state: GameState, unit_id: str, target_id: str) -> list[tuple[int, int]]:
    """(shooter, nearest visible target miniature) for each miniature with a ranged weapon
    that can see a miniature of the target within weapon range + its Ranged characteristic.
    Shots are never split: every shooter aims at ``target_id`` (OW-H3).

    The answer depends only on both units' miniatures, where they stand, and which of ours
    have thrown their weapons (the board never changes), so the battle remembers it."""
    ours, theirs = state.on_table(unit_id), state.on_table(target_id)
    if len(ours) == 0 or len(theirs) == 0:
        return []
    limit = sight_limit(state)
    if limit is not None and float(unit_gaps(state, ours, theirs).min()) > (
        limit + OVERLAP_TOLERANCE
    ):
        return []  # OW-X2 Dead of Night: units farther apart cannot see each other
    memo: dict[tuple[object, ...], list[tuple[int, int]]]
    memo = state.lookup().memo.setdefault(SHOOTERS_MEMO, {})
    key = (
        state.where(unit_id),
        state.where(target_id),
        tuple(state.unit(unit_id).flags.get("thrown", [])),
    )
    found = memo.get(key)
    if found is None:
        if len(memo) >= SHOOTERS_MEMO_LIMIT:
            memo.clear()
        found = memo[key] = _shooters(state, unit_id, ours, theirs)
    return list(found)


def _shooters(
    state: GameState, unit_id: str, ours: np.ndarray, theirs: np.ndarray
) -> list[tuple[int, int]]:
    reach = _reach(state, unit_id, ours)
    gap = unit_gaps(state, ours, theirs)
    in_range = gap <= reach[:, None] + OVERLAP_TOLERANCE
    if not in_range.any():
        return []
    rows, cols = np.flatnonzero(in_range.any(axis=1)), np.flatnonzero(in_range.any(axis=0))
    seen = np.zeros_like(in_range)
    seen[np.ix_(rows, cols)] = visible(state, ours[rows], theirs[cols])
    pairs = []
    for row in rows:
        ok = in_range[row] & seen[row]
        if ok.any():
            col = int(np.flatnonzero(ok)[np.argmin(gap[row][ok])])
            pairs.append((int(ours[row]), int(theirs[col])))
    return pairs


def _reach(state: GameState, unit_id: str, ours: np.ndarray) -> np.ndarray:
    """Each miniature's longest weapon range + Ranged (-1 without a ranged weapon), by which
    miniatures are left and which have thrown their weapons."""
    unit = state.unit(unit_id)
    memo: dict[tuple[object, ...], np.ndarray] = state.lookup().memo.setdefault(REACH_MEMO, {})
    key = (unit_id, ours.tobytes(), tuple(unit.flags.get("thrown", [])))
    found = memo.get(key)
    if found is None:
        ranged_skill = float(unit.profile["ranged"])
        found = np.full(len(ours), -1.0)
        for i, mini in enumerate(ours):
            options = fight.weapons(state, int(mini), ranged=True)
            if options:
                found[i] = max(w.range for w in options) + ranged_skill
        found.flags.writeable = False
        if len(memo) >= SHOOTERS_MEMO_LIMIT:
            memo.clear()
        memo[key] = found
    return found


def visible(state: GameState, ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    blockers = sight_blockers(state)
    if not blockers:
        return np.ones((len(ours), len(theirs)), dtype=bool)
    from openwar.geometry.sight import visibility_matrix

    return visibility_matrix(
        state.pos[ours], state.radius[ours], state.pos[theirs], state.radius[theirs], blockers
    )


def can_shoot(state: GameState, unit_id: str) -> bool:
    """Whether a miniature of the unit has a ranged weapon left: it depends only on which
    miniatures are on the table and which have thrown, so the battle remembers it."""
    ours = state.on_table(unit_id)
    memo: dict[tuple[object, ...], bool] = state.lookup().memo.setdefault(CAN_SHOOT_MEMO, {})
    key = (unit_id, ours.tobytes(), tuple(state.unit(unit_id).flags.get("thrown", [])))
    found = memo.get(key)
    if found is None:
        if len(memo) >= SHOOTERS_MEMO_LIMIT:
            memo.clear()
        found = memo[key] = any(fight.weapons(state, int(m), ranged=True) for m in ours)
    return found


SPECIALIST = "Specialist"


def specialist_shots(
    state: GameState, unit_id: str, target_id: str, shooting: set[int]
) -> dict[str, list[tuple[int, int]]]:
    """Shots of Specialist miniatures that cannot reach the order's target: each picks the
    nearest other enemy unit it can see in range (OW-H7, the seed's exception to OW-H3)."""
    side = state.unit(unit_id).side
    chosen: dict[int, tuple[float, str, int]] = {}
    for enemy in state.side_units(1 - side):
        if enemy.id == target_id:
            continue
        for mini, aim in shooters(state, unit_id, enemy.id):
            if mini in shooting or SPECIALIST not in fight.skills(state, mini):
                continue
            gap = float(unit_gaps(state, np.array([mini]), np.array([aim]))[0, 0])
            if mini not in chosen or gap < chosen[mini][0]:
                chosen[mini] = (gap, enemy.id, aim)
    shots: dict[str, list[tuple[int, int]]] = {}
    for mini in sorted(chosen):
        _, enemy_id, aim = chosen[mini]
        shots.setdefault(enemy_id, []).append((mini, aim))
    return dict(sorted(shots.items()))
