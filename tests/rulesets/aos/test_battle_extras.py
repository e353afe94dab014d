"""Age of Sigmar battle rules added after the first whole battles: garrisons, minimum ranges,
damage tables, random Move, triumphs, split attacks, the Realmvault Key's ban on commands
(docs/rules/aos.md, "Battle"); every die is scripted."""

from __future__ import annotations

from typing import Any

import pytest

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.game import ScriptedDice
from openwar.engine.state import GameState
from openwar.rulesets.aos import phases
from openwar.rulesets.aos.board import first_blood_board

from .kit import battle, first, in_phase, kinds, line, place, play, profile, unit, weapon

HERO = profile(keywords=["HERO", "INFANTRY"], wounds=5, melee=[weapon()])


def open_war(**extra: Any) -> dict[str, Any]:
    plan = first_blood_board()
    plan["victory"] = "Arcane Prize"
    plan.update(extra)
    return plan


def test_aos_v7_realmvault_key_on_a_1_silences_the_hero_until_its_next_hero_phase() -> None:
    state = in_phase(
        battle([unit("a", 5), unit("h", 1, HERO)], [unit("b", 5)], open_war()), "battleshock"
    )
    place(state, "a", line(28.0, 17.6, 5))
    place(state, "h", [(20.0, 10.0)])
    place(state, "b", line(28.0, 40.0, 5))
    state.extra["general"] = ["h", "b"]
    state.extra["objectives"] = [[20.0, 12.0]]
    state.extra["control"] = [0]
    state.extra["prize"] = {"result": "Realmvault Key", "carrier": None}
    assert phases.in_command_range(state, "a")
    events = phases.enter(state, "hero", ScriptedDice([1]))
    assert first(events, "arcane_prize").data["roll"] == 1
    assert state.extra["cp"][0] == 1  # the hero phase's point, none from the key
    assert not phases.in_command_range(state, "a")
    state.extra["turn"] = 1
    phases.enter(state, "hero", ScriptedDice([]))  # the enemy's hero phase: still silenced
    assert not phases.in_command_range(state, "a")
    state.extra["turn"] = 0
    events = phases.enter(state, "hero", ScriptedDice([4]))
    assert state.extra["cp"][0] == 3 and phases.in_command_range(state, "a")
