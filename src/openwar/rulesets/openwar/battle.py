"""OpenWar battles on the engine: deployment, rounds, the five orders, victory.

Flow (OW-B1): the roll-off winner sets up first, then sides alternate unit by unit inside
their territories. Each round starts with a roll-off (ties rolled again); its winner gives the
first order, then sides alternate giving one order to one unit that has none this round; a
side with no such unit passes. The round ends when every unit has had an order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.events import Event
from openwar.engine.game import Dice, Outcome
from openwar.engine.space import unit_gaps
from openwar.engine.state import GameState, UnitState
from openwar.rulesets.openwar import fight, orders, prize, ruses, scenery, twists, victory
from openwar.rulesets.openwar.board import facing_for, territory
from openwar.rulesets.openwar.menu import NO_ROOM, WIDE, deployment_options
from openwar.rulesets.openwar.rules import battle_rules

ADVANCE_CHOICES = ("move-shoot", "shoot-move", "move-fight")
COMMAND_SKILLS = ("Hold the Line!", "With all Haste!")
VERSION = "0.5.0"  # 0.2.0: the twist (OW-X1..); 0.3.0: the ruses (OW-R1..); 0.4.0: the
# Arcane Prize table (OW-P0..OW-P6); 0.5.0: scenery (OW-T2..OW-T5)


class OpenWarRules:
    name = "openwar"
    version = VERSION

    def kills(self, events: Iterable[Event]) -> Iterator[tuple[str, str, float]]:
        """A unit's kills are its attacks' slain, shooting and fighting alike (OW-A1 to OW-A7),
        and its share of the units routed by Shaken tokens (OW-B9): a routed unit's miniatures
        are shared evenly among the tokens it held, each token the unit's whose Presence win
        gave it (OW-A5); a token of the Arcane Prize's (Realmvault Key, OW-P4) is no unit's,
        and one the Key takes off is the oldest. A unit set up again by a ruse has none (OW-R2:
        it comes back at full strength)."""
        tokens: dict[str, list[str | None]] = {}  # a unit's Shaken tokens: who gave each
        for event in events:
            d = event.data
            if event.kind == "attack" and d["slain"]:
                yield str(d["unit"]), str(d["target"]), int(d["slain"])
            elif event.kind == "presence" and d["beaten"] and not d.get("no_shaken"):
                tokens.setdefault(str(d["target"]), []).append(str(d["unit"]))
            elif event.kind == "prize_effect" and "shaken" in d:
                tokens.setdefault(str(d["shaken"]), []).append(None)
            elif event.kind == "prize_effect" and tokens.get(str(d.get("calmed"))):
                tokens[str(d["calmed"])].pop(0)
            elif event.kind == "ruse" and d["ruse"] == ruses.REINFORCEMENTS:  # set up again
                tokens.pop(str(d["unit"]), None)  # with no Shaken token
            elif event.kind == "routed":
                givers = tokens.pop(str(d["unit"]), [])
                for giver, count in Counter(givers).items():
                    if giver is not None:
                        yield giver, str(d["unit"]), int(d["miniatures"]) * count / len(givers)

    # -- the menu ---------------------------------------------------------------------------
    def legal_actions(self, state: GameState) -> list[Action]:
        if state.phase == "setup":
            from openwar.rulesets.openwar.menu import deployment_menu

            return deployment_menu(state)
        if state.phase == "battle":
            from openwar.rulesets.openwar.menu import order_menu

            return order_menu(state)
        return []

    # -- resolving --------------------------------------------------------------------------
    def resolve(self, state: GameState, action: Action, dice: Dice) -> list[Event]:
        if state.phase == "over":
            raise IllegalActionError("OW-B13", "the battle is over")
        if action.side != state.active:
            raise IllegalActionError(
                "OW-B1", f"it is side {state.active}'s move, not {action.side}'s"
            )
        if state.phase == "setup":
            if action.kind != "deploy":
                raise IllegalActionError("OW-B12", "during set-up the only action is deploy")
            return self._deploy(state, action, dice)
        unit = self._ordered_unit(state, action)
        handler = {
            "advance": self._advance,
            "hold": self._hold,
            "run": self._run,
            "skill": self._skill,
            "regroup": self._regroup,
        }.get(action.kind)
        if handler is None:
            raise IllegalActionError("OW-O0", f"{action.kind!r} is not an order")
        if unit.flags.get("split") and action.kind != "regroup":
            raise IllegalActionError("OW-U2", f"{unit.id} is split and may only Regroup")
        unit.tokens.pop("holding", None)
        unit.tokens.pop("hold_the_line", None)
        events = handler(state, action, dice)
        unit.tokens.pop("haste", None) if action.kind in ("advance", "run") else None
        unit.flags["ordered"] = True
        events += ruses.burn(state, unit.id)  # OW-R4 Firestarter
        events += orders.check_coherency(state, unit.id)
        events.insert(
            0,
            Event(
                "order",
                {
                    "unit": unit.id,
                    "order": action.kind,
                    "choice": action.choice,
                    "round": state.round,
                },
            ),
        )
        return events + self._after_order(state, dice)

    def _ordered_unit(self, state: GameState, action: Action) -> UnitState:
        if action.unit is None:
            raise IllegalActionError("OW-O0", "an order names the unit it is given to")
        try:
            unit = state.unit(action.unit)
        except KeyError:
            raise IllegalActionError("OW-O0", f"there is no unit {action.unit!r}") from None
        if unit.side != action.side:
            raise IllegalActionError("OW-O0", f"{unit.id} is not side {action.side}'s unit")
        if state.is_destroyed(unit.id):
            raise IllegalActionError("OW-O0", f"{unit.id} has been destroyed")
        if unit.flags.get("ordered"):
            raise IllegalActionError("OW-B1", f"{unit.id} already has an order this round")
        return unit

    # -- set-up -----------------------------------------------------------------------------
    def _deploy(self, state: GameState, action: Action, dice: Dice) -> list[Event]:
        if action.unit is None or (
            action.point is None and action.choice not in (NO_ROOM, ruses.OUTFLANK)
        ):
            raise IllegalActionError("OW-B12", "deploy names a unit and a point")
        try:
            unit = state.unit(action.unit)
        except KeyError:
            raise IllegalActionError("OW-B12", f"there is no unit {action.unit!r}") from None
        if unit.side != action.side or unit.flags.get("deployed"):
            raise IllegalActionError("OW-B12", f"{unit.id} is not side {action.side}'s to set up")
        if action.choice == ruses.OUTFLANK:
            if not ruses.may_wait(state, unit):
                raise IllegalActionError("OW-R3", f"{unit.id} may not wait in reserve")
            events = [ruses.wait_in_reserve(state, unit)]
        elif action.point is None:
            events = self._no_room(state, unit)
        elif action.choice == ruses.AMBUSH:
            events = self._ambush(state, unit, action.point)
        else:
            wide = battle_rules().wide_rank_width if action.choice == WIDE else None
            orders.deploy(state, unit.id, action.point, facing_for(state, unit.side), wide)
            members = state.members(unit.id)
            if not territory(state, unit.side).contains_bases(
                state.pos[members], state.radius[members]
            ):
                raise IllegalActionError(
                    "OW-B12", f"{unit.id} must be set up wholly within its territory"
                )
            events = [Event("deployed", {"unit": unit.id, "point": list(action.point)})]
        unit.flags["deployed"] = True
        waiting = [
            [u for u in state.units if u.side == s and not u.flags.get("deployed")] for s in (0, 1)
        ]
        if waiting[1 - state.active]:
            state.active = 1 - state.active
        elif not waiting[state.active]:
            if self._wiped_out(state) is not None:
                return events + self._end_battle(state)
            events += self._start_round(state, dice)
        return events

    def _ambush(self, state: GameState, unit: UnitState, point: tuple[float, float]) -> list[Event]:
        """OW-R1: set up outside the enemy's territory, away from the enemy, once."""
        if not ruses.available(state, unit.side, ruses.AMBUSH):
            raise IllegalActionError("OW-R1", f"side {unit.side} has no Ambush to use")
        if not ruses.ambush_fits(state, unit, point):
            raise IllegalActionError(
                "OW-R1",
                f"{unit.id} must be set up clear of every base, wholly outside the enemy's "
                f"territory and more than {battle_rules().ambush_enemy_gap:g} cm from the enemy",
            )
        orders.deploy(state, unit.id, point, facing_for(state, unit.side))
        return [Event("deployed", {"unit": unit.id, "point": list(point)}),
                ruses.use_ambush(state, unit)]  # fmt: skip

    def _no_room(self, state: GameState, unit: UnitState) -> list[Event]:
        """A unit that fits nowhere in its territory takes no part: it counts as destroyed
        (OW-B12, design decision: the menu offers it only when no candidate point fits)."""
        wide = battle_rules().wide_rank_width
        if deployment_options(state, unit) or deployment_options(state, unit, wide):
            raise IllegalActionError("OW-B12", f"{unit.id} still has room in its territory")
        state.alive[state.members(unit.id)] = False
        unit.flags["no_room"] = True  # never on the table: no ruse brings it "back" (OW-R2)
        return [Event("no_room", {"unit": unit.id})]

    # -- the orders -------------------------------------------------------------------------
    def _advance(self, state: GameState, action: Action, dice: Dice) -> list[Event]:
        unit_id = str(action.unit)
        if orders.in_combat(state, unit_id):
            raise IllegalActionError("OW-O1", f"{unit_id} is in combat and cannot Advance")
        choice = action.choice or "move-shoot"
        if choice not in ADVANCE_CHOICES:
            raise IllegalActionError("OW-O1", f"Advance is one of {', '.join(ADVANCE_CHOICES)}")
        events: list[Event] = []
        if choice == "shoot-move":
            events += self._shoot(
                state, unit_id, action.target, dice, holding=False, required=False
            )
        if action.point is not None:
            moved = orders.translate(
                state, unit_id, action.point, orders.move_allowance(state, unit_id), "OW-O1"
            )
            events.append(Event("moved", {"unit": unit_id, "distance": round(moved, 2)}))
            fights = choice == "move-fight" and action.target is not None
            if fights:  # the order's legality is the move's, before any die of Deadly ground
                self._in_combat_with(state, unit_id, str(action.target))
            events += scenery.deadly(state, unit_id, dice, moved)  # OW-T4
            if state.is_destroyed(unit_id):
                return events
        if choice == "move-shoot":
            events += self._shoot(
                state, unit_id, action.target, dice, holding=False, required=False
            )
        if choice == "move-fight" and action.target is not None:
            if not self._still_in_combat(state, unit_id, action.target, events):
                return events
            events += self._fight(state, unit_id, action.target, dice, holding=False, charged=False)
        return events

    @staticmethod
    def _in_combat_with(state: GameState, unit_id: str, target: str) -> None:
        if target not in orders.enemies_within(state, unit_id, battle_rules().combat_range):
            raise IllegalActionError("OW-F1", f"{unit_id} is not in combat with {target}")

    @staticmethod
    def _still_in_combat(state: GameState, unit_id: str, target: str, events: list[Event]) -> bool:
        """After Deadly ground (OW-T4): whether the unit is still in combat with ``target``;
        a fight the slain miniatures alone could make is lost with them (said in ``events``)."""
        if target in orders.enemies_within(state, unit_id, battle_rules().combat_range):
            return True
        events.append(Event("no_fight", {"unit": unit_id, "target": target}))
        return False

    def _hold(self, state: GameState, action: Action, dice: Dice) -> list[Event]:
        unit_id = str(action.unit)
        unit = state.unit(unit_id)
        unit.tokens["holding"] = 1
        unit.tokens.pop("exhaustion", None)
        if action.target is None:
            return []
        if orders.in_combat(state, unit_id):
            return self._fight(state, unit_id, action.target, dice, holding=True, charged=False)
        return self._shoot(state, unit_id, action.target, dice, holding=True)

    def _run(self, state: GameState, action: Action, dice: Dice) -> list[Event]:
        unit_id = str(action.unit)
        unit = state.unit(unit_id)
        rules = battle_rules()
        if unit.tokens.get("exhaustion"):
            raise IllegalActionError("OW-B8", f"{unit_id} is Exhausted and cannot Run")
        if action.point is None:
            raise IllegalActionError("OW-O3", "Run names where the unit goes")
        started_in_combat = orders.in_combat(state, unit_id)
        limit = orders.run_allowance(state, unit_id)
        moved = orders.translate(state, unit_id, action.point, limit, "OW-O3")
        unit.tokens["exhaustion"] = 1
        events = [Event("moved", {"unit": unit_id, "distance": round(moved, 2), "run": True})]
        ends_in_combat = orders.in_combat(state, unit_id)
        if started_in_combat:
            if ends_in_combat:
                raise IllegalActionError(
                    "OW-M3", f"a Retreat may not end within {rules.combat_range:g} cm of an enemy"
                )
            events.append(Event("retreat", {"unit": unit_id}))
            return events + scenery.deadly(state, unit_id, dice, moved)  # OW-T4
        named = action.target
        if named is not None and (
            not ends_in_combat
            or named not in orders.enemies_within(state, unit_id, rules.combat_range)
        ):
            raise IllegalActionError(
                "OW-M2",
                f"{unit_id}'s Run names {action.target} to charge but ends more than "
                f"{rules.combat_range:g} cm from it",
            )
        # the order is legal as moved; Deadly ground (OW-T4) may then slay the chargers
        events += scenery.deadly(state, unit_id, dice, moved)
        if state.is_destroyed(unit_id) or not ends_in_combat:
            return events
        near = orders.enemies_within(state, unit_id, rules.combat_range)
        if not near or (named is not None and named not in near):
            events.append(Event("no_fight", {"unit": unit_id, "target": named}))
            return events
        # the enemy named, else the nearest (the first listed of equals)
        target = named or min(near, key=lambda e: orders.least_gap(state, unit_id, e))
        events.append(Event("charge", {"unit": unit_id, "target": target}))
        events += self._fight(state, unit_id, target, dice, holding=False, charged=True)
        return events

    def _skill(self, state: GameState, action: Action, dice: Dice) -> list[Event]:
        unit_id = str(action.unit)
        unit = state.unit(unit_id)
        if action.choice not in unit.profile.get("command_skills", []):
            raise IllegalActionError("OW-S1", f"{unit_id} has no skill {action.choice!r}")
        if action.target is None:
            raise IllegalActionError("OW-S1", "a command skill names a friendly unit")
        friend = state.unit(action.target)
        if friend.side != unit.side or friend.id == unit.id or state.is_destroyed(friend.id):
            raise IllegalActionError("OW-S1", "a command skill targets another friendly unit")
        gap = unit_gaps(state, state.on_table(unit_id), state.on_table(friend.id)).min()
        if gap > battle_rules().command_skill_range:
            raise IllegalActionError("OW-B11", f"{friend.id} is out of command range")
        data: dict[str, Any] = {"unit": unit_id, "skill": action.choice, "target": friend.id}
        fails_on = prize.skill_fails_on(state, unit_id)  # OW-P6 Soul Stone
        if fails_on:
            data["soul_stone"] = face = int(dice.d6(1)[0])
            bonus = scenery.skill_roll_bonus(state, unit_id)  # OW-T2 Arcane
            if bonus:
                data["arcane"] = bonus
            if face + bonus <= fails_on:
                return [Event("skill", {**data, "failed": True})]
        token = "hold_the_line" if action.choice == COMMAND_SKILLS[0] else "haste"
        friend.tokens[token] = 1
        return [Event("skill", data)]

    def _regroup(self, state: GameState, action: Action, dice: Dice) -> list[Event]:
        unit = state.unit(str(action.unit))
        unit.tokens.pop("exhaustion", None)
        return orders.regroup(state, unit.id)

    # -- fighting and shooting --------------------------------------------------------------
    def _fight(
        self,
        state: GameState,
        unit_id: str,
        target: str,
        dice: Dice,
        *,
        holding: bool,
        charged: bool,
    ) -> list[Event]:
        if target not in orders.enemies_within(state, unit_id, battle_rules().combat_range):
            raise IllegalActionError("OW-F1", f"{unit_id} is not in combat with {target}")
        orders.fight_move(state, unit_id, target)
        pairs = fight.fighters(state, unit_id, target)
        slain, shock, events = fight.resolve_attacks(
            state, unit_id, target, pairs, dice, ranged=False, holding=holding
        )
        beaten, roll = fight.presence_roll(
            state, unit_id, target, slain, shock, dice, charged=charged
        )
        events.append(roll)
        if beaten:
            events += fight.rout_if_broken(state, target)
            events += fight.push(state, unit_id, target)
        events += orders.check_coherency(state, target)
        return events

    def _shoot(
        self,
        state: GameState,
        unit_id: str,
        target: str | None,
        dice: Dice,
        *,
        holding: bool,
        required: bool = True,
    ) -> list[Event]:
        """Shoot at ``target``. An Advance's shot is optional: with nobody in range or sight it
        is simply not taken; a Hold that names a target must be able to shoot it."""
        if target is None or state.is_destroyed(target):
            return []
        from openwar.rulesets.openwar.shooting import shooters, specialist_shots

        if orders.in_combat(state, unit_id):
            if not required:
                return [Event("no_shot", {"unit": unit_id, "target": target})]
            raise IllegalActionError("OW-H1", f"{unit_id} is in combat and cannot shoot")
        pairs = shooters(state, unit_id, target)
        if not pairs and not required:
            return [Event("no_shot", {"unit": unit_id, "target": target})]
        if not pairs:
            raise IllegalActionError(
                "OW-H2", f"no miniature of {unit_id} can see {target} in range"
            )
        others = specialist_shots(state, unit_id, target, {mini for mini, _ in pairs})
        events: list[Event] = []
        for aimed_at, group in [(target, pairs), *others.items()]:
            events += self._volley(state, unit_id, aimed_at, group, dice, holding=holding)
        return events

    def _volley(
        self,
        state: GameState,
        unit_id: str,
        target: str,
        pairs: list[tuple[int, int]],
        dice: Dice,
        *,
        holding: bool,
    ) -> list[Event]:
        """One target's share of a unit's shots: attacks, then its Presence roll (OW-H4)."""
        slain, shock, events = fight.resolve_attacks(
            state, unit_id, target, pairs, dice, ranged=True, holding=holding
        )
        beaten, roll = fight.presence_roll(
            state, unit_id, target, slain, shock, dice, charged=False
        )
        events.append(roll)
        if beaten:
            events += fight.rout_if_broken(state, target)
        events += orders.check_coherency(state, target)
        return events

    # -- flow -------------------------------------------------------------------------------
    def _after_order(self, state: GameState, dice: Dice) -> list[Event]:
        if self._wiped_out(state) is not None:
            return self._end_battle(state)
        revenge = ruses.note_revenge(state)
        if revenge:
            return revenge + self._after_order(state, dice)
        for side in (1 - state.active, state.active):
            if self._can_order(state, side):
                state.active = side
                return []
        return self._end_round(state, dice)

    def _can_order(self, state: GameState, side: int) -> bool:
        return any(not u.flags.get("ordered") for u in state.side_units(side))

    def _start_round(self, state: GameState, dice: Dice) -> list[Event]:
        state.round += 1
        state.phase = "battle"
        for unit in state.units:
            unit.flags["ordered"] = False
        winner, rolls = dice.roll_off()
        state.active = winner if self._can_order(state, winner) else 1 - winner
        events = [Event("round", {"round": state.round, "first": state.active, "rolls": rolls})]
        if ruses.any_ruse(state):
            state.extra["first"] = state.active
        events += twists.start_of_round(state, dice)
        events += prize.start_of_round(state, dice)
        if self._wiped_out(state) is not None:  # Lightning Strikes or a rout can end a battle
            return events + self._end_battle(state)
        events += ruses.note_revenge(state)
        events += ruses.start_of_round(state)
        return events

    def _end_round(self, state: GameState, dice: Dice) -> list[Event]:
        events = ruses.end_of_round(state)
        scored, winner = victory.end_of_round(state, dice)
        events += scored
        if winner is None and (self._wiped_out(state) is not None or victory.ended_early(state)):
            return events + self._end_battle(state)  # the Plague (OW-P1), both looted (OW-V6)
        if winner is not None:
            state.extra["sudden"] = winner
            return events + self._end_battle(state)
        if state.round >= int(state.board.get("rounds", battle_rules().rounds)):
            return events + self._end_battle(state)
        return events + self._start_round(state, dice)

    def _wiped_out(self, state: GameState) -> int | None:
        for side in (0, 1):
            if not ruses.army_stands(state, side):  # a reserve keeps it in (OW-R3)
                return side
        return None

    def _end_battle(self, state: GameState) -> list[Event]:
        state.phase = "over"
        result = self.outcome(state)
        assert result is not None
        return [
            Event(
                "battle_over",
                {
                    "winner": result.winner,
                    "victory": result.victory,
                    "scores": list(result.scores),
                    "reason": result.reason,
                },
            )
        ]

    def destroyed_points(self, state: GameState, side: int) -> int:
        """Points of ``side``'s enemies destroyed or fled (OW-B16); a unit that came back
        by Reinforcements (OW-R2) counts once for each time it was destroyed."""
        now = sum(u.points for u in state.units if u.side != side and ruses.destroyed(state, u))
        again = [state.unit(i) for i in state.extra.get("reinforced", [])]
        return now + sum(u.points for u in again if u.side != side)

    def outcome(self, state: GameState) -> Outcome | None:
        if state.phase != "over":
            return None
        return self.result_now(state, state.extra.get("sudden"))

    def result_now(self, state: GameState, sudden: int | None = None) -> Outcome:
        """The result if the battle ended with the state as it is (OW-B16 and the victory
        condition; ``sudden``: the side that won at once, OW-V4/OW-V6)."""
        destroyed = (self.destroyed_points(state, 0), self.destroyed_points(state, 1))
        wiped = self._wiped_out(state)
        if wiped is not None:  # the scores stay the ones the victory condition counts
            scores = victory.result(state, destroyed, None).scores
            return Outcome(1 - wiped, "major", scores, state.round, "enemy army destroyed")
        return victory.result(state, destroyed, sudden)


RULES = OpenWarRules()
