"""How to start a battle of each ruleset the engine can play, for the conformance tests.

The list of rulesets comes from the engine's registry (``BATTLE_MODULES``): a ruleset that
learns to play battles joins every conformance test at once, and fails them until it adds its
entry here (two sample armies and the few facts the checks need).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from openwar.battles import BattleSetup, load_setup
from openwar.engine.actions import Action
from openwar.engine.game import BATTLE_MODULES
from openwar.engine.state import GameState, UnitState

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "armies"
RULESETS = sorted(BATTLE_MODULES)


@dataclass(frozen=True)
class BattleFixture:
    """Everything ruleset-specific a conformance check needs.

    ``setup`` makes a seeded battle; ``coherency`` is the distance within which a unit's
    miniatures must stay linked; ``split`` says whether the rules flag a unit as out of
    coherency (then it need not be coherent); ``already_acted`` is an action the active side
    may not take because that unit has acted this round (or None); ``out_of_reach`` turns a
    legal move into one whose destination is too far (or None when the action does not move).
    """

    setup: Callable[[int], BattleSetup]
    coherency: float
    split: Callable[[UnitState], bool]
    already_acted: Callable[[GameState], Action | None]
    out_of_reach: Callable[[GameState, Action], Action | None]
    returns_slain: Callable[[GameState], bool] = lambda state: False


def _openwar_setup(seed: int) -> BattleSetup:
    armies = (
        EXAMPLES / "openwar" / "iron_road_legion.yaml",
        EXAMPLES / "openwar" / "hearthhold_lodge.yaml",
    )
    return load_setup(armies, None, seed)


def _openwar_already_ordered(state: GameState) -> Action | None:
    if state.phase != "battle":
        return None
    for unit in state.side_units(state.active):
        if unit.flags.get("ordered"):
            return Action("hold", state.active, unit.id)
    return None


def _openwar_out_of_reach(state: GameState, action: Action) -> Action | None:
    """The same order sent to the table corner furthest from the unit: beyond any Run."""
    if action.kind not in ("advance", "run") or action.point is None or action.unit is None:
        return None
    here = state.pos[state.on_table(action.unit)].mean(axis=0)
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    corners *= [float(state.board["width"]) - 2.0, float(state.board["depth"]) - 2.0]
    corners += 1.0
    far = corners[int(np.argmax(np.hypot(*(corners - here).T)))]
    return Action(action.kind, action.side, action.unit, action.target, (far[0], far[1]),
                  action.choice)  # fmt: skip


def _openwar() -> BattleFixture:
    from openwar.rulesets.openwar.rules import battle_rules

    return BattleFixture(
        setup=_openwar_setup,
        coherency=battle_rules().coherency,
        split=lambda unit: bool(unit.flags.get("split")),
        already_acted=_openwar_already_ordered,
        out_of_reach=_openwar_out_of_reach,
        # Healing Winds (OW-X5), Reinforcements (OW-R2) and an Outflank reserve's arrival
        # (OW-R3) bring miniatures that were not alive back
        returns_slain=lambda state: (
            state.board.get("twist") == "Healing Winds"
            or bool({"Reinforcements", "Outflank"} & set(state.board.get("ruses") or []))
        ),
    )


def _aos_setup(seed: int) -> BattleSetup:
    armies = (EXAMPLES / "aos" / "gilded_vanguard.yaml", EXAMPLES / "aos" / "ember_court.yaml")
    return load_setup(armies, None, seed)


def _aos_already_moved(state: GameState) -> Action | None:
    """In the movement phase, a second move for a unit that has moved."""
    if state.phase != "movement" or state.extra.get("pending") is not None:
        return None
    for unit in state.side_units(state.active):
        members = state.on_table(unit.id)
        if unit.flags.get("moved") and len(members):
            here = state.pos[members].mean(axis=0)
            return Action("move", state.active, unit.id, point=(here[0], here[1]), choice="normal")
    return None


def _aos_out_of_reach(state: GameState, action: Action) -> Action | None:
    """A move sent to the table corner furthest from the unit: beyond any Move or run; a move
    made model by model, whose point is a heading, headed for the unit's own centre."""
    if action.kind not in ("move", "run_move") or action.point is None or action.unit is None:
        return None
    if action.choice == "file":
        here = state.pos[state.on_table(action.unit)].mean(axis=0)
        return Action(action.kind, action.side, action.unit, None, (here[0], here[1]), "file")
    far = _far_corner(state, action.unit)
    return Action(action.kind, action.side, action.unit, action.target, far, action.choice)


def _far_corner(state: GameState, unit_id: str) -> tuple[float, float]:
    here = state.pos[state.on_table(unit_id)].mean(axis=0)
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    corners *= [float(state.board["width"]) - 2.0, float(state.board["depth"]) - 2.0]
    corners += 1.0
    far = corners[int(np.argmax(np.hypot(*(corners - here).T)))]
    return (float(far[0]), float(far[1]))


def _aos() -> BattleFixture:
    from openwar.rulesets.aos.rules import battle_rules

    return BattleFixture(
        setup=_aos_setup,
        coherency=battle_rules().coherency,
        split=lambda unit: bool(unit.flags.get("split")),
        already_acted=_aos_already_moved,
        out_of_reach=_aos_out_of_reach,
        returns_slain=lambda state: True,  # aos returns slain models (Restless Dead, ...)
    )


FIXTURES: dict[str, Callable[[], BattleFixture]] = {"openwar": _openwar, "aos": _aos}


def fixture_for(ruleset: str) -> BattleFixture:
    if ruleset not in FIXTURES:
        raise AssertionError(
            f"ruleset {ruleset!r} plays battles but has no conformance fixture: add one to "
            "tests/conformance/rulesets.py"
        )
    return FIXTURES[ruleset]()
