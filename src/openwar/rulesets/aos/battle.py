"""Age of Sigmar battles on the engine: set-up, battle rounds of two turns, the six phases,
command points and abilities, magic, battleshock, objectives, the Open War twists and ruses,
victory.

Every decision is an action of the side in ``state.active``; whose turn it is lives in
``state.extra["turn"]``. A decision the other player makes mid-turn (unbinding) hands them
``active`` for one action. Phases: setup, first_turn (the roll-off winner picks who goes
first), hero, movement, shooting, charge, combat, battleshock, over.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.events import Event
from openwar.engine.game import Dice, Outcome
from openwar.engine.state import GameState
from openwar.rulesets.aos import handlers, magic, phases, report, setup, victory

VERSION = "0.2.0"  # 0.2: the defender decides allocations (AOS-D10): older replays differ
TURN_PHASES = ("hero", "movement", "shooting", "charge", "combat", "battleshock")


class AosRules:
    name = "aos"
    version = VERSION

    def kills(self, events: Iterable[Event]) -> Iterator[tuple[str, str, float]]:
        return report.kills(events)

    def legal_actions(self, state: GameState) -> list[Action]:
        from openwar.rulesets.aos import menu

        if state.phase == "over":
            return []
        if state.phase == "setup":
            return setup.setup_menu(state)
        return menu.menu(state)

    def resolve(self, state: GameState, action: Action, dice: Dice) -> list[Event]:
        if state.phase == "over":
            raise IllegalActionError("AOS-B9", "the battle is over")
        if action.side != state.active:
            raise IllegalActionError(
                "AOS-B1", f"it is side {state.active}'s decision, not {action.side}'s"
            )
        if action.unit is not None and action.unit not in {u.id for u in state.units}:
            raise IllegalActionError("AOS-B1", f"there is no unit {action.unit!r}")
        if state.phase == "setup":
            if action.kind not in ("deploy", "reserve"):
                raise IllegalActionError(
                    "AOS-B2", "during set-up units are set up or put in reserve"
                )
            events = setup.deploy(state, action)
            if setup.setup_done(state):
                events += phases.start_round(state, dice)
            return events
        if state.phase == "first_turn":
            return phases.choose_first(state, action, dice)
        pending = state.extra.get("pending")
        if pending is not None:
            return self._pending(state, action, dice, pending["kind"])
        handler = handlers.HANDLERS.get((state.phase, action.kind))
        if handler is None:
            raise IllegalActionError(
                "AOS-B1", f"{action.kind!r} is not an action of the {state.phase} phase"
            )
        if action.kind != "end_phase" and action.kind not in handlers.START_OF_PHASE:
            state.extra["phase_started"] = False
        return handler(state, action, dice)

    def _pending(self, state: GameState, action: Action, dice: Dice, kind: str) -> list[Event]:
        allowed = {
            "unbind": ("unbind", "no_unbind"),
            "run": ("run_move", "at_the_double"),
            "charge": ("charge_move", "forward_to_victory"),
            "allocate": ("allocate",),
            "flee": ("flee",),
        }[kind]
        if action.kind not in allowed:
            raise IllegalActionError(
                "AOS-B1", f"first finish the {kind}: one of {', '.join(allowed)}"
            )
        if kind == "unbind":
            return magic.unbind(state, action, dice) + phases.check_end(state, dice)
        return handlers.HANDLERS[(state.phase, action.kind)](state, action, dice)

    def outcome(self, state: GameState) -> Outcome | None:
        if state.phase != "over":
            return None
        return victory.result(state)


RULES = AosRules()

__all__ = ["RULES", "TURN_PHASES", "AosRules"]
