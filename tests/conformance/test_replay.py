"""Same seed, same battle; a replay file reproduces the battle it records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openwar.battles import (
    ReplayError,
    fight_battle,
    replay,
    replay_json,
    save_replay,
    version_note,
)

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


def test_a_replay_written_by_another_version_says_so_when_it_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said "Replay verified" and nothing of the versions."""
    from openwar.cli.app import main

    fixture = fixture_for("openwar")
    players = ("simple", "simple")
    data = replay_json(fixture.setup(3), players, fight_battle(fixture.setup(3), players))
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    assert version_note(path) == ""
    data["engine_version"] = "9.9.9"
    path.write_text(json.dumps(data))
    note = version_note(path)
    assert note.startswith("written by OpenWar 9.9.9 (openwar rules ")
    assert note.endswith("it still ends in the recorded state")
    assert main(["replay", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.err == f"openwar replay: note: {note}\n" and "Replay verified" in captured.out
    del data["engine_version"]
    path.write_text(json.dumps(data))
    assert version_note(path).startswith("written by a version of OpenWar the file does not name")


def _army(key: str, value: object) -> object:
    def change(data: dict[str, Any]) -> None:
        data["armies"][0]["units"][0][key] = value

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_army("type", "Dragon"), "armies[0]: Iron Road Dartmen: unknown unit type 'Dragon'"),
        (_army("size", 10**9), "armies[0]: Iron Road Dartmen: size 1000000000 is outside"),
        (_army("profile", {"zzz": 1}), "unknown profile key 'zzz'"),
        (lambda d: d["armies"][0].update({"points_limit": "lots"}), "armies[0].points_limit: "),
        (lambda d: d.update({"ruleset": "aos"}), "armies[0]: an army of ruleset 'openwar', not"),
        (lambda d: d.update({"ruleset": "zz"}), "ruleset 'zz' plays no battles"),
        (lambda d: d.update({"seed": 1.9}), "seed 1.9 is not a whole number from 0 to 2**63-1"),
        (lambda d: d.update({"seed": -1}), "seed -1 is not a whole number"),
        (lambda d: d.update({"players": ["god", "simple"]}), "unknown player 'god'"),
        (lambda d: d.update({"battleplan": [1, 2]}), "a battleplan mapping"),
        # each once an internal error's words ("'int' object has no attribute 'get'", ...)
        (lambda d: d["actions"].__setitem__(3, "deploy"), "action 4: 'deploy' is not an action"),
        (lambda d: d["actions"].__setitem__(0, 42), "action 1: 42 is not an action object"),
        (lambda d: d["actions"][1].update({"point": [None, "x"]}),
         "action 2: point [None, 'x'] is not two numbers"),
        (lambda d: d["actions"][1].pop("kind"), "action 2: the field 'kind' is missing"),
        (lambda d: d.update({"players": ["simple"]}), "players ['simple']: expected the two"),
        (lambda d: d["actions"][0].update({"point": [1e308, 1e308]}), "action 1: point"),
        (lambda d: d.update({"battleplan": {}}), "battleplan.width None is not a table size"),
        # a table of a billion took 14 GB of memory; of 1e308, an internal error's words
        (lambda d: d["battleplan"].update({"depth": 1e9}),
         "battleplan.depth 1000000000.0 is not a table size above 0 and at most 1,000"),
        (lambda d: d["battleplan"].update({"width": "wide"}), "battleplan.width 'wide' is not"),
    ],
)  # fmt: skip
def test_a_replay_that_battle_could_not_have_written_is_one_line(
    tmp_path: Path, change: Any, message: str
) -> None:
    fixture = fixture_for("openwar")
    players = ("simple", "simple")
    data = replay_json(fixture.setup(3), players, fight_battle(fixture.setup(3), players))
    data["actions"][0]["point"] = data["actions"][0].get("point") or [1.0, 1.0]
    change(data)
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ReplayError) as caught:
        replay(path)
    assert str(caught.value).startswith(f"{path}: ") and message in str(caught.value)


def test_a_battle_shows_every_state_it_reaches_to_its_watcher() -> None:
    """`battle`'s bar of rounds is fed by the runner after each action, in order."""
    fixture = fixture_for("openwar")
    seen: list[int] = []
    record = fight_battle(
        fixture.setup(3), ("simple", "simple"), on_action=lambda s: seen.append(s.round)
    )
    assert len(seen) == len(record.actions) and seen == sorted(seen)
    assert seen[-1] == record.final.round
