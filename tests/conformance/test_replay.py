"""Same seed, same battle; a replay file reproduces the battle it records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openwar.battles import ReplayError, fight_battle, replay, replay_json, save_replay

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


def test_a_changed_replay_is_refused_naming_the_file(tmp_path: Path) -> None:
    """A recorded action the battle no longer allows, or a different end: one ReplayError
    naming the file (it was an engine error naming neither the file nor the replay)."""
    fixture = fixture_for("openwar")
    players = ("simple", "simple")
    record = fight_battle(fixture.setup(3), players)
    data = replay_json(fixture.setup(3), players, record)
    data["actions"][20]["unit"] = "zz"
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data))
    with pytest.raises(ReplayError, match=r"changed.json: the replay goes off course.*'zz'"):
        replay(changed)
    data = replay_json(fixture.setup(3), players, record)
    data["final_state_hash"] = "0" * 16
    changed.write_text(json.dumps(data))
    with pytest.raises(ReplayError, match=r"changed.json: the replay ends in a different state"):
        replay(changed)
