"""Random battles of every ruleset, checked after every action (OpenSpiel's random-simulation
test, python-chess's perft in spirit): the engine's contract, whatever the rules."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from openwar.battles import make_players, start
from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.game import apply, legal_actions, outcome
from openwar.engine.runner import MAX_STEPS
from openwar.engine.state import GameState
from openwar.errors import OpenWarError

from .invariants import assert_all
from .rulesets import RULESETS, BattleFixture, fixture_for

SEEDS = range(10)
MENU_SEEDS = range(2)  # on these, every action of every menu is applied, not only the chosen
ILLEGAL = ("wrong side", "unknown unit", "already acted", "out of reach")


def illegal_variants(state: GameState, chosen: Action, fixture: BattleFixture) -> dict[str, Action]:
    """Actions the rules must refuse, made from the one the player chose."""
    found = {
        "wrong side": Action(chosen.kind, 1 - chosen.side, chosen.unit, chosen.target,
                             chosen.point, chosen.choice),
        "unknown unit": Action(chosen.kind, chosen.side, "no-such-unit", chosen.target,
                               chosen.point, chosen.choice),
    }  # fmt: skip
    acted = fixture.already_acted(state)
    if acted is not None:
        found["already acted"] = acted
    far = fixture.out_of_reach(state, chosen)
    if far is not None:
        found["out of reach"] = far
    return found


def assert_refused(state: GameState, action: Action, what: str) -> None:
    before = state.state_hash()
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)
    assert isinstance(caught.value, OpenWarError)
    assert caught.value.clause, f"{what}: the error names no rule"
    assert str(caught.value).startswith(caught.value.clause)
    again = pickle.loads(pickle.dumps(caught.value))  # it crosses from a worker process intact
    assert (str(again), again.clause) == (str(caught.value), caught.value.clause)
    assert state.state_hash() == before, f"{what}: a refused action changed the state"


def assert_menu_applies(state: GameState, menu: list[Action]) -> None:
    before = state.state_hash()
    for action in menu:
        try:
            apply(state, action)
        except OpenWarError as exc:  # pragma: no cover - the failure message is the point
            raise AssertionError(f"menu action {action} is refused: {exc}") from exc
    assert state.state_hash() == before


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_battle_keeps_every_invariant_after_every_action(ruleset: str, seed: int) -> None:
    fixture = fixture_for(ruleset)
    state, _ = start(fixture.setup(seed))
    players = make_players(("random", "random"), seed)
    refused = dict.fromkeys(ILLEGAL, 0)
    while outcome(state) is None:
        assert state.steps < MAX_STEPS, "the battle does not end"
        menu = legal_actions(state)
        assert menu, f"no legal action in phase {state.phase!r} at step {state.steps}"
        if seed in MENU_SEEDS:
            assert_menu_applies(state, menu)
        action = players[state.active].choose(state, menu)
        for what, wrong in illegal_variants(state, action, fixture).items():
            assert_refused(state, wrong, what)
            refused[what] += 1
        following, _ = apply(state, action)
        assert_all(state, following, fixture)
        state = following
    assert legal_actions(state) == []
    assert all(refused.values()), f"some illegal kinds were never tried: {refused}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_actions_after_the_end_are_refused(ruleset: str) -> None:
    fixture = fixture_for(ruleset)
    state, _ = start(fixture.setup(0))
    players = make_players(("random", "random"), 0)
    while outcome(state) is None:
        state, _ = apply(state, players[state.active].choose(state, legal_actions(state)))
    unit = next(u for u in state.units if not state.is_destroyed(u.id))
    assert_refused(state, Action("hold", state.active, unit.id), "after the end")
    assert np.isfinite(state.pos).all()
