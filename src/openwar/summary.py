"""What happened in a battle, round by round, read off its events."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from openwar.engine.events import Event
from openwar.engine.runner import BattleRecord


@dataclass
class SideRound:
    orders: Counter[str] = field(default_factory=Counter)
    charges: list[str] = field(default_factory=list)
    slain: int = 0  # enemy miniatures this side slew
    presence_won: int = 0
    routed: list[str] = field(default_factory=list)  # enemy units that fled

    def to_json(self) -> dict[str, Any]:
        return {
            "orders": dict(sorted(self.orders.items())),
            "charges": self.charges,
            "slain": self.slain,
            "presence_won": self.presence_won,
            "routed": self.routed,
        }


@dataclass
class RoundSummary:
    number: int
    first: int | None = None
    sides: tuple[SideRound, SideRound] = field(default_factory=lambda: (SideRound(), SideRound()))
    objectives: list[int | None] = field(default_factory=list)
    twist: list[str] = field(default_factory=list)  # what the battleplan's twist did
    ruses: list[str] = field(default_factory=list)  # what the sides' secret ruses did
    prize: list[str] = field(default_factory=list)  # what the Arcane Prize table did
    moments: list[str] = field(default_factory=list)  # all of the above, in the order it was

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "first": self.first,
            "sides": [s.to_json() for s in self.sides],
            "objectives": self.objectives,
            "twist": self.twist,
            "ruses": self.ruses,
            "prize": self.prize,
            "moments": self.moments,
        }


def summarise(record: BattleRecord) -> list[RoundSummary]:
    names = {u.id: u.name for u in record.initial.units}
    side_of = {u.id: u.side for u in record.initial.units}
    return summarise_events((e for events in record.events for e in events), names, side_of)


def summarise_events(
    events: Iterable[Event], names: dict[str, str], side_of: dict[str, int]
) -> list[RoundSummary]:
    """The rounds a stream of events tells (each round opens with its ``round`` event; what
    happens during set-up is told with the first round), given each unit's name and side."""
    rounds: dict[int, RoundSummary] = {}
    current = RoundSummary(0)
    for event in events:
        current = _absorb(event, current, rounds, names, side_of)
    return [rounds[k] for k in sorted(rounds)]


def _absorb(
    event: Event,
    current: RoundSummary,
    rounds: dict[int, RoundSummary],
    names: dict[str, str],
    side_of: dict[str, int],
) -> RoundSummary:
    data = event.data
    if event.kind == "round":
        current = rounds.setdefault(int(data["round"]), RoundSummary(int(data["round"])))
        current.first = int(data["first"])
        return current
    if current.number == 0:
        if event.kind == "ruse":  # Ambush, during set-up: told with the first round
            first = rounds.setdefault(1, RoundSummary(1))
            first.ruses.append(_ruse_moment(event, names))
            first.moments.append(first.ruses[-1])
        return current
    if event.kind == "order":
        current.sides[side_of[data["unit"]]].orders[str(data["order"])] += 1
    elif event.kind == "charge":
        side = side_of[data["unit"]]
        current.sides[side].charges.append(f"{names[data['unit']]} -> {names[data['target']]}")
        current.moments.append(f"{SIDES[side]} charges {current.sides[side].charges[-1]}")
    elif event.kind == "attack":
        current.sides[side_of[data["unit"]]].slain += int(data["slain"])
    elif event.kind == "presence":
        current.sides[side_of[data["unit"]]].presence_won += 1 if data["beaten"] else 0
        if "first_roll" in data:  # OW-X6 Grudge Match
            current.twist.append(str(_twist_moment(event, names)))
            current.moments.append(current.twist[-1])
        if data.get("no_shaken"):  # OW-R6 Inspiring Speech
            current.ruses.append(f"Inspiring Speech: {names[data['target']]} takes no Shaken token")
            current.moments.append(current.ruses[-1])
    elif event.kind == "routed":
        current.sides[1 - side_of[data["unit"]]].routed.append(names[data["unit"]])
        current.moments.append(f"{names[data['unit']]} flees the table")
    elif event.kind == "objectives":
        current.objectives = list(data["held"])
    elif event.kind in ("ruse", "burned"):
        current.ruses.append(_ruse_moment(event, names))
        current.moments.append(current.ruses[-1])
    elif event.kind == "struck" and data.get("by") == "Deadly":  # OW-T4 scenery
        current.moments.append(f"Deadly ground: {names[data['unit']]} loses {data['slain']}")
    elif event.kind in ("arcane_prize", "prize_effect") or (
        event.kind == "struck" and "by" in data
    ):
        current.prize.append(_prize_moment(event, names))
        current.moments.append(current.prize[-1])
    elif event.kind in ("twist", "struck"):
        if event.kind == "struck":  # OW-X3: the enemy's lightning, as AoS's round table counts it
            current.sides[1 - side_of[data["unit"]]].slain += int(data["slain"])
        told = _twist_moment(event, names)
        current.twist += [told] if told else []
        current.moments += [told] if told else []
    return current


SIDES = ("A", "B")


def _twist_moment(event: Event, names: dict[str, str]) -> str | None:
    """One line for what the twist did (OW-X2..OW-X6); None for a roll that did nothing."""
    data = event.data
    if event.kind == "struck":
        return f"lightning strikes {names[data['unit']]}: {data['slain']} slain"
    if event.kind == "presence":
        won = "won" if data["beaten"] else "failed again"
        return f"Grudge Match: {names[data['unit']]} rolls Presence again ({won})"
    if data["twist"] == "Dead of Night":
        return f"Dead of Night: units see {data['sight']:g} cm (rolled {data['roll']})"
    if data["twist"] == "Healing Winds" and data["returned"]:
        count, side = len(data["returned"]), SIDES[data["side"]]
        return f"Healing Winds: {count} return to {names[data['unit']]} (side {side})"
    return None


def _prize_moment(event: Event, names: dict[str, str]) -> str:
    """One line for what the Arcane Prize table did (OW-P0..OW-P4)."""
    data = event.data
    if event.kind == "struck":
        return f"{data['by']}: {names[data['unit']]} loses {data['slain']}"
    if event.kind == "arcane_prize":
        side = SIDES[int(data["side"])]
        return f"Arcane Prize (side {side}) rolled {data['roll']}: {data['result']}"
    if data["result"] == "Plague":
        return f"Plague: {data['reach']:g} cm around the prize (rolled {data['roll']})"
    side = SIDES[int(data["side"])]
    if data["result"] == "Talisman":
        return f"Talisman (side {side}): {names[data['unit']]} rolls hit dice showing 1 again"
    if "calmed" in data:
        return f"Realmvault Key (side {side}): {names[data['calmed']]} loses a Shaken token"
    shaken = names[data["shaken"]] + " is Shaken" if "shaken" in data else "no token taken"
    return f"Realmvault Key (side {side}): rolled a 1, {shaken}"


def _ruse_moment(event: Event, names: dict[str, str]) -> str:
    """One line for what a secret ruse did (OW-R1..OW-R6)."""
    data = event.data
    if event.kind == "burned":
        return f"fire: {names[data['unit']]} loses {data['slain']}"
    side = SIDES[int(data["side"])]
    if data["ruse"] == "Firestarter":
        return f"Firestarter (side {side}): {data['feature']} burns"
    if data["ruse"] == "Revenge":
        bonus = f"+{data['bonus']}" if "bonus" in data else "a bonus"
        return f"Revenge (side {side}): {bonus} to Damage rolls to the end of round {data['until']}"
    told = {
        "Ambush": "sets up in ambush",
        "Reinforcements": "returns to the table",
        "waits": "waits in reserve",
        "arrives": "arrives at a table edge",
        "lost": "never arrives (destroyed)",
    }
    what = told[data.get("how", data["ruse"])]
    return f"{data['ruse']} (side {side}): {names[data['unit']]} {what}"
