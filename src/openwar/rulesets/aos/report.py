"""What happened in an Age of Sigmar battle, round by round, in a player's words: moves and
runs, spells, charges, models slain and fled, command points, objectives and scores, and the
moments worth telling (charges, spells, units destroyed, generals slain, twists and ruses)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from openwar.engine.events import Event
from openwar.engine.runner import BattleRecord
from openwar.words import counted

SIDES = ("A", "B")


@dataclass
class SideTurn:
    moves: int = 0
    runs: int = 0
    retreats: int = 0
    spells: int = 0  # spells that took effect
    charges: int = 0
    shots: int = 0
    fights: int = 0
    slain: int = 0  # enemy models this side slew (attacks, spells, strikes)
    lost: int = 0  # own models lost to battleshock, terrain, split units, sacrifices
    cp: int = 0  # command points after the round
    held: int = 0  # objectives held at the end of the round

    def to_json(self) -> dict[str, int]:
        return dict(vars(self))


@dataclass
class RoundReport:
    number: int
    first: int | None = None
    sides: tuple[SideTurn, SideTurn] = field(default_factory=lambda: (SideTurn(), SideTurn()))
    moments: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"round": self.number, "first": self.first,
                "sides": [s.to_json() for s in self.sides], "moments": self.moments}  # fmt: skip


def kills(events: Iterable[Event]) -> Iterator[tuple[str, str, float]]:
    """Each unit's kills: the models slain by the wounds its attacks and spells caused, and
    its share of those that then fled a battleshock test. An attack's wounds may be allocated
    actions later (the defender chooses how, AOS-D10), so a ``wounds`` event is matched to
    the last attack (or spell) aimed at the wounded unit. Each model slain in a turn adds one
    to the unit's battleshock roll (AOS-L1), so the models that flee are shared among the
    causes of that turn's slain in proportion; a share of terrain, twists or ruses (the
    lightning, a Deadly feature, Firestarter) or of a split unit's removal is no unit's."""
    cause: dict[tuple[str, str], str] = {}  # (wounded unit, source) -> the unit behind it
    turn: dict[str, Counter[str | None]] = {}  # a unit's slain this turn, by whom
    for event in events:
        d = event.data
        if event.kind == "turn":
            turn.clear()
        elif event.kind == "attack":
            cause[(str(d["target"]), "attack")] = str(d["unit"])
        elif event.kind == "spell" and "caster" in d:
            cause[(str(d["target"]), str(d["spell"]))] = str(d["caster"])
        elif event.kind in ("wounds", "burnt", "split_removed") and d["slain"]:
            who = cause.get((str(d["unit"]), str(d.get("source"))))
            turn.setdefault(str(d["unit"]), Counter())[who] += int(d["slain"])
            if who is not None:
                yield who, str(d["unit"]), int(d["slain"])
        elif event.kind == "battleshock" and d.get("fled"):
            slain = turn.get(str(d["unit"]), Counter())
            for who, count in slain.items():
                if who is not None:
                    yield who, str(d["unit"]), int(d["fled"]) * count / slain.total()


def report(record: BattleRecord) -> list[RoundReport]:
    names = {u.id: u.name for u in record.initial.units}
    side_of = {u.id: u.side for u in record.initial.units}
    rounds: list[RoundReport] = []
    early: list[Event] = []  # set-up garrisons and triumph rolls come before round 1
    for events in record.events:
        for event in events:
            if event.kind == "round":
                rounds.append(RoundReport(int(event.data["round"]), int(event.data["first"])))
                for held in early:
                    _absorb(rounds[-1], held, names, side_of)
                early = []
            elif rounds:
                _absorb(rounds[-1], event, names, side_of)
            elif event.kind in ("garrison", "triumph_roll"):
                early.append(event)
    return rounds


def _absorb(now: RoundReport, event: Event, names: dict[str, str], side_of: dict[str, int]) -> None:
    d = event.data
    unit = d.get("unit")
    side = side_of.get(str(unit)) if unit is not None else None
    name = names.get(str(unit), str(unit))
    kind = event.kind
    if kind == "moved" and side is not None:
        part = now.sides[side]
        if d.get("run"):
            part.runs += 1
        elif d.get("retreat"):
            part.retreats += 1
        else:
            part.moves += 1
    elif kind == "order" and side is not None:
        if d["order"] == "shoot":
            now.sides[side].shots += 1
        else:
            now.sides[side].fights += 1
    elif kind == "spell":
        caster_side = 1 - side_of[d["target"]] if "mortal_wounds" in d else side_of[d["target"]]
        now.sides[caster_side].spells += 1
        what = f"{d['spell']} on {names[d['target']]}"
        now.moments.append(
            f"{SIDES[caster_side]}: {what}"
            + (
                f" ({counted(int(d['mortal_wounds']), 'mortal wound')})"
                if "mortal_wounds" in d
                else ""
            )
        )
    elif kind == "unbind" and d["unbound"]:
        now.moments.append(f"{SIDES[side_of[str(unit)]]}: {name} unbinds {d['spell']}")
    elif kind == "charge" and side is not None:
        now.sides[side].charges += 1
        now.moments.append(f"{SIDES[side]}: {name} charges {names[d['target']]} (roll {d['roll']})")
    elif kind == "wounds":
        target_side = side_of[str(unit)]
        if d.get("source") == "Lightning Strikes":  # the twist's strike, as OpenWar reports it
            struck = counted(int(d["wounds"]), "wound")  # the strike's roll, wards apart
            warded = f", {d['negated']} warded" if d.get("negated") else ""
            now.moments.append(f"lightning strikes {name} for {struck}: {d['slain']} slain{warded}")
        if d.get("by") == 1 - target_side:
            now.sides[1 - target_side].slain += int(d["slain"])
        else:
            now.sides[target_side].lost += int(d["slain"])
    elif kind in ("battleshock", "burnt", "split_removed"):
        lost = int(d.get("fled", d.get("slain", 0)) or 0)
        if side is not None:
            now.sides[side].lost += lost
        if kind == "battleshock" and lost:
            now.moments.append(f"{SIDES[side or 0]}: {lost} of {name} flee")
    elif kind == "destroyed":
        now.moments.append(f"{SIDES[side_of[str(unit)]]}: {name} is destroyed")
    elif kind == "garrison" and side is not None:
        now.moments.append(f"{SIDES[side]}: {name} garrisons the {d['terrain']}")
    elif kind == "left_garrison" and side is not None:
        now.sides[side].moves += 1
        now.moments.append(f"{SIDES[side]}: {name} leaves its garrison")
    elif kind == "triumph_roll":
        now.moments.append(f"{SIDES[int(d['side'])]}: triumph {d['triumph']} (roll {d['roll']})")
    elif kind == "triumph" and side is not None:
        now.moments.append(f"{SIDES[side]}: {name} is {d['triumph'].lower()}")
    elif kind == "general_slain":
        slain = names.get(str(d.get("unit")), "the general")
        after = f"; {names[d['next']]} leads" if d.get("next") in names else "; no general left"
        now.moments.append(f"{SIDES[int(d['side'])]}: {slain}, the general, is slain{after}")
    elif kind in ("ruse", "arcane_prize", "looted", "arrived", "command"):
        now.moments.append(_moment(kind, d, names, side_of))
    elif kind == "twist" and d.get("healed"):
        healed = counted(int(d["healed"]), "wound")
        now.moments.append(f"{SIDES[side or 0]}: Healing Winds heal {healed} of {name}")
    elif kind == "command_points":
        now.sides[int(d["side"])].cp = int(d["cp"])
    elif kind == "objectives":
        held = list(d["held"])
        for s in (0, 1):
            now.sides[s].held = held.count(s)


def _moment(kind: str, d: dict[str, Any], names: dict[str, str], side_of: dict[str, int]) -> str:
    if kind == "ruse":
        return f"{SIDES[int(d['side'])]}: ruse {d['ruse']}"
    if kind == "arcane_prize":
        return f"Arcane Prize: {d.get('result')}"
    if kind == "looted":
        return f"{SIDES[int(d['side'])]}: loots an objective"
    if kind == "arrived":
        how = "Outflank" if d["how"] == "arrive" else "Reinforcements"
        return f"{SIDES[side_of[d['unit']]]}: {names[d['unit']]} arrives ({how})"
    return f"{SIDES[side_of[str(d['unit'])]]}: {d['ability']} for {names[str(d['unit'])]}"


def rounds_table(rounds: list[RoundReport]) -> Any:
    """A rich table of the rounds (for ``openwar battle``), and the moments below it."""
    from rich.table import Table

    table = Table(title="Round by round", title_justify="left")
    columns = ("round", "side", "moved", "ran", "spells", "shot", "charged", "fought",
               "slain", "lost", "CP", "held")  # fmt: skip
    for column in columns:
        table.add_column(column, justify="right")
    for r in rounds:
        for side in (0, 1):
            s = r.sides[side]
            first = "*" if r.first == side else ""
            table.add_row(
                str(r.number) if side == 0 else "", f"{SIDES[side]}{first}", str(s.moves),
                str(s.runs), str(s.spells), str(s.shots), str(s.charges), str(s.fights),
                str(s.slain), str(s.lost), str(s.cp), str(s.held),
            )  # fmt: skip
    table.caption = (
        "* took the first turn; slain = enemy models slain; lost = own models lost to "
        "battleshock, terrain or split units; CP = command points left; held = objectives held"
    )
    return table


def moments(rounds: list[RoundReport]) -> list[str]:
    return [f"round {r.number}: {m}" for r in rounds for m in r.moments]
