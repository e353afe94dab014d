"""Same seed, same battle; a replay file reproduces the battle it records."""

from __future__ import annotations

from pathlib import Path

import pytest

from openwar.battles import fight_battle, replay, replay_json, save_replay

from .invariants import event_log_hash
from .rulesets import RULESETS, fixture_for

PLAYERS = (("random", "random"), ("simple", "simple"))


@pytest.mark.parametrize("players", PLAYERS, ids=["-".join(p) for p in PLAYERS])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_seed_same_event_log_and_replay_round_trip(
    ruleset: str, players: tuple[str, str], tmp_path: Path
) -> None:
    fixture = fixture_for(ruleset)
    seed = 3
    first = fight_battle(fixture.setup(seed), players)
    second = fight_battle(fixture.setup(seed), players)
    assert event_log_hash(first.events) == event_log_hash(second.events)
    assert first.final.state_hash() == second.final.state_hash()
    path = tmp_path / "battle.json"
    save_replay(path, replay_json(fixture.setup(seed), players, first))
    _, replayed, recorded_players = replay(path)
    assert recorded_players == players
    assert replayed.final.state_hash() == first.final.state_hash()
    assert event_log_hash(replayed.events) == event_log_hash(first.events)
