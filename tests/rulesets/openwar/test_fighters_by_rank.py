"""The fighting pairs worked out rank by rank over whole arrays are those of the loop over
each miniature and its friends that :func:`fight.fighters` was written as."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from openwar.battles import load_setup, start
from openwar.engine.game import apply, legal_actions, outcome
from openwar.engine.state import GameState
from openwar.rulesets.openwar import fight
from openwar.rulesets.openwar.players import SimplePlayer

from .conftest import DIAMETER, SPEAR, SWORD, battle, in_battle, loadout, place, profile, unit

ARMIES = Path(__file__).resolve().parents[3] / "examples" / "armies" / "openwar"
SAMPLES = (ARMIES / "iron_road_legion.yaml", ARMIES / "hearthhold_lodge.yaml")


def fighters_as_written(state: GameState, unit_id: str, enemy_id: str) -> list[tuple[int, int]]:
    ours, theirs = state.on_table(unit_id), state.on_table(enemy_id)
    if len(ours) == 0 or len(theirs) == 0:
        return []
    touching = fight.in_contact(state, ours, theirs)
    pairs: dict[int, int] = {}
    for i in np.flatnonzero(touching.any(axis=1)):
        pairs[int(ours[i])] = int(theirs[int(np.argmax(touching[i]))])
    friends = fight.in_contact(state, ours, ours)
    np.fill_diagonal(friends, False)
    for rank_skill in (fight.SECOND_RANK, fight.THIRD_RANK):
        reached = dict(pairs)
        for k, raw in enumerate(ours):
            mini = int(raw)
            own = fight.skills(state, mini)
            reaches = rank_skill in own or (
                rank_skill == fight.SECOND_RANK and fight.THIRD_RANK in own
            )
            if mini in pairs or not reaches:
                continue
            for j in np.flatnonzero(friends[k]):
                friend = int(ours[j])
                if friend in pairs:
                    reached[mini] = pairs[friend]
                    break
        pairs = reached
    return sorted(pairs.items())


@pytest.mark.parametrize("seed", [0, 2, 5])
def test_fighters_are_the_pairs_of_the_loop_as_written(seed: int) -> None:
    """Every unit against every enemy unit, read and not, along battles of the sample armies
    (the simple player charges and fights)."""
    state, _ = start(load_setup(SAMPLES, None, seed))
    player = SimplePlayer()
    fought = ranked = 0
    for _ in range(150):
        if outcome(state) is not None:
            break
        for fighting in state.units:
            for enemy in state.side_units(1 - fighting.side):
                expected = fighters_as_written(state, fighting.id, enemy.id)
                assert fight.fighters(state, fighting.id, enemy.id) == expected
                with state.reading():
                    assert fight.fighters(state, fighting.id, enemy.id) == expected
                touching = fight.in_contact(
                    state, state.on_table(fighting.id), state.on_table(enemy.id)
                )
                fought += bool(expected)
                ranked += len(expected) > int(touching.any(axis=1).sum())
        with state.reading():
            menu = legal_actions(state)
            action = player.choose(state, menu)
        state = apply(state, action)[0]
    assert fought > 0 and ranked > 0  # fights with miniatures of a second or third rank


def test_fighters_of_crowded_ranks_are_the_pairs_of_the_loop_as_written() -> None:
    """Units of Sword, Spear (Second Rank) and Third Rank miniatures crowded at random, so
    that ranks reach through one friend or several (the first in the unit's order counts)."""
    loadouts = [loadout(SWORD), loadout(SPEAR), loadout(SWORD, skills=["Third Rank"])]
    rng = np.random.default_rng(7)
    ranked = 0
    for _ in range(150):
        prof = profile(loadouts=loadouts)
        chosen = rng.integers(0, 3, size=9).tolist()
        state = battle([unit("a", 9, prof, chosen)], [unit("b", 4)])
        place(state, "a", [tuple(p) for p in rng.uniform((29.0, 30.0), (39.0, 36.0), (9, 2))])
        place(state, "b", [(29.0 + k * DIAMETER, 28.5) for k in range(4)])
        state = in_battle(state)
        expected = fighters_as_written(state, "a", "b")
        assert fight.fighters(state, "a", "b") == expected
        touching = fight.in_contact(state, state.on_table("a"), state.on_table("b"))
        ranked += len(expected) > int(touching.any(axis=1).sum())
    assert ranked > 0
