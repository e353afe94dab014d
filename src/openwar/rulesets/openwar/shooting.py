"""OpenWar shooting: who can shoot at whom (seed "Shooting")."""

from __future__ import annotations

import numpy as np

from openwar.engine.space import unit_gaps
from openwar.engine.state import GameState
from openwar.rulesets.openwar import fight
from openwar.rulesets.openwar.board import sight_blockers


def shooters(state: GameState, unit_id: str, target_id: str) -> list[tuple[int, int]]:
    """(shooter, nearest visible target miniature) for each miniature with a ranged weapon
    that can see a miniature of the target within weapon range + its Ranged characteristic.
    Shots are never split: every shooter aims at ``target_id`` (OW-H3)."""
    ours, theirs = state.on_table(unit_id), state.on_table(target_id)
    if len(ours) == 0 or len(theirs) == 0:
        return []
    ranged_skill = float(state.unit(unit_id).profile["ranged"])
    gap = unit_gaps(state, ours, theirs)
    seen = visible(state, ours, theirs)
    pairs = []
    for i, mini in enumerate(ours):
        options = fight.weapons(state, int(mini), ranged=True)
        if not options:
            continue
        reach = max(w.range for w in options) + ranged_skill
        ok = seen[i] & (gap[i] <= reach + 1e-9)
        if ok.any():
            j = int(np.flatnonzero(ok)[np.argmin(gap[i][ok])])
            pairs.append((int(mini), int(theirs[j])))
    return pairs


def visible(state: GameState, ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    blockers = sight_blockers(state)
    if not blockers:
        return np.ones((len(ours), len(theirs)), dtype=bool)
    from openwar.geometry.sight import visibility_matrix

    return visibility_matrix(
        state.pos[ours], state.radius[ours], state.pos[theirs], state.radius[theirs], blockers
    )


def can_shoot(state: GameState, unit_id: str) -> bool:
    return any(fight.weapons(state, int(m), ranged=True) for m in state.on_table(unit_id))
