"""The battleplan's victory condition played in OpenWar (OW-V1..OW-V7).

OpenWar has no player turns inside a round, so "at the end of a player's turn" is read as the
end of each round (OW-V1). Objectives are held by the side with more miniatures within the
control range at that moment (OW-B14).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from openwar.engine.events import Event
from openwar.engine.game import Dice, Outcome
from openwar.engine.state import GameState
from openwar.rulesets.openwar.rules import battle_rules

DESTROY = "Destroy the Enemy"
FIELD, ATTRITION, QUARTERED = "Field of Glory", "War of Attrition", "Drawn and Quartered"
INVASION, PRIZE, LOOT = "Invasion", "Arcane Prize", "Loot and Plunder"


def victory_name(state: GameState) -> str:
    """The board's victory condition; "" (a board without one) scores objectives generically
    (OW-B14) and destroyed points (OW-B16)."""
    return str(state.board.get("victory", ""))


def live_objectives(state: GameState) -> list[tuple[int, tuple[float, float]]]:
    """(number, position) of the objectives still on the table; the Arcane Prize moves with the
    miniature carrying it, looted objectives are gone."""
    looted = set(state.extra.get("looted", []))
    found = []
    for number, (x, y) in enumerate(state.board.get("objectives", [])):
        if number in looted:
            continue
        found.append((number, (float(x), float(y))))
    if victory_name(state) == PRIZE and found and "prize" in state.extra:
        found = [(found[0][0], prize_position(state))]
    return found


def prize_position(state: GameState) -> tuple[float, float]:
    """Where the Arcane Prize is: with its carrier, at every moment (alive, or where it fell),
    else where it was left (OW-V5)."""
    carrier = state.extra.get("carrier")
    if carrier is not None:
        x, y = state.pos[int(carrier)]
        return (float(x), float(y))
    return (float(state.extra["prize"][0]), float(state.extra["prize"][1]))


def holder(state: GameState, point: tuple[float, float]) -> int | None:
    """The side with more miniatures within the control range of ``point`` (OW-B14)."""
    reach = float(state.board.get("control_range", battle_rules().objective_range))
    counts = []
    for side in (0, 1):
        members = [i for i, u in enumerate(state.units) if u.side == side]
        minis = np.flatnonzero(state.alive & state.deployed & np.isin(state.unit_of, members))
        gap = np.hypot(*(state.pos[minis] - np.asarray(point)).T) - state.radius[minis]
        counts.append(int((gap <= reach).sum()))
    return None if counts[0] == counts[1] else int(np.argmax(counts))


def end_of_round(state: GameState, dice: Dice) -> tuple[list[Event], int | None]:
    """Score the round; returns the events and a side that has just won outright, if any."""
    name = victory_name(state)
    held = [(number, holder(state, point)) for number, point in live_objectives(state)]
    winner: int | None = None
    prize_events: list[Event] = []
    if name == QUARTERED:
        for _, owner in held:
            if owner is not None:
                state.scores[owner] += 1
    elif (
        name == INVASION and len(held) == 2 and held[0][1] is not None and held[0][1] == held[1][1]
    ):
        winner = held[0][1]
    elif name == LOOT:
        winner = _loot(state, held)
    elif name == PRIZE:
        taken = _carry_prize(state)
        if taken is not None:  # the first taking rolls on the Arcane Prize table (OW-P0)
            from openwar.rulesets.openwar.prize import taken as roll_the_table

            prize_events = roll_the_table(state, taken, dice)
    elif name not in (FIELD, ATTRITION):
        for _, owner in held:
            if owner is not None:
                state.scores[owner] += int(state.board.get("objective_points", 0))
    if not held:
        return prize_events, winner
    data = {
        "round": state.round,
        "held": [owner for _, owner in held],
        "scores": list(state.scores),
    }
    return [Event("objectives", data), *prize_events], winner


def _loot(state: GameState, held: list[tuple[int, int | None]]) -> int | None:
    """A side holding an objective in the enemy's territory loots it (OW-V6)."""
    looted: list[int] = state.extra.setdefault("looted", [])
    counts: list[int] = state.extra.setdefault("loot_count", [0, 0])
    for number, owner in held:
        point = state.board["objectives"][number]
        if owner is not None and _inside(state, 1 - owner, point):
            looted.append(number)
            counts[owner] += 1
    done = []
    for side in (0, 1):
        enemy_total = sum(1 for p in state.board["objectives"] if _inside(state, 1 - side, p))
        if enemy_total and counts[side] >= enemy_total:
            done.append(side)
    if len(done) == 2:  # both at once: the battle ends, decided as at its end (OW-V6)
        state.extra["ended_early"] = True
        return None
    return done[0] if done else None


def ended_early(state: GameState) -> bool:
    """Whether the condition has ended the battle with no side winning at once (OW-V6)."""
    return bool(state.extra.get("ended_early"))


def _carry_prize(state: GameState) -> int | None:
    """The prize's holder has its nearest miniature within 3 cm pick it up; it then moves with
    that miniature and is dropped where it falls (OW-V5). Returns the miniature that has just
    taken it, if one has."""
    objectives = state.board.get("objectives", [])
    if not objectives:
        return None
    prize = state.extra.setdefault("prize", [float(objectives[0][0]), float(objectives[0][1])])
    carrier = state.extra.get("carrier")
    if carrier is not None:  # it has moved with its carrier, and stays where a fallen one fell
        prize[0], prize[1] = (float(v) for v in state.pos[carrier])
        if bool(state.alive[carrier]):
            return None
    state.extra["carrier"] = None
    owner = holder(state, (prize[0], prize[1]))
    if owner is None:
        return None
    members = [i for i, u in enumerate(state.units) if u.side == owner]
    minis = np.flatnonzero(state.alive & state.deployed & np.isin(state.unit_of, members))
    gap = np.hypot(*(state.pos[minis] - np.asarray(prize)).T) - state.radius[minis]
    nearest = int(np.argmin(gap))
    if gap[nearest] <= float(state.board.get("prize_pickup", battle_rules().prize_pickup)):
        state.extra["carrier"] = int(minis[nearest])
        prize[0], prize[1] = (float(v) for v in state.pos[minis[nearest]])
        return int(minis[nearest])
    return None


def _inside(state: GameState, side: int, point: Any) -> bool:
    lands = state.board.get("lands") or state.board["territories"]
    return bool(Polygon(lands[side]).covers(shapely.Point(float(point[0]), float(point[1]))))


def result(state: GameState, destroyed: tuple[int, int], sudden: int | None) -> Outcome:
    """The battle's result under its victory condition (OW-V2..OW-V7)."""
    name, rounds = victory_name(state), state.round
    if sudden is not None and name == LOOT:  # the objectives looted decided it (OW-V6)
        looted = state.extra.get("loot_count", [0, 0])
        scores = (int(looted[0]), int(looted[1]))
        return Outcome(sudden, "major", scores, rounds, f"{name}: looted all")
    if sudden is not None:  # scored on the condition's own scale, as every other result
        scores = _held_result(state, destroyed, name, rounds).scores
        return Outcome(sudden, "major", scores, rounds, f"{name}: won outright")
    return _held_result(state, destroyed, name, rounds)


def _held_result(state: GameState, destroyed: tuple[int, int], name: str, rounds: int) -> Outcome:
    if name == FIELD:
        held = [holder(state, p) for _, p in live_objectives(state)]
        for side in (0, 1):
            count = sum(1 for owner in held if owner == side)
            if count == len(held) and held:
                return Outcome(
                    side, "major", (held.count(0), held.count(1)), rounds, f"{name}: holds all"
                )
            if count == 2:
                return Outcome(
                    side, "minor", (held.count(0), held.count(1)), rounds, f"{name}: holds 2"
                )
        return Outcome(
            None, "draw", (held.count(0), held.count(1)), rounds, f"{name}: no side holds 2"
        )
    if name == INVASION:
        return _nearest_centre(state, rounds)
    if name == PRIZE:
        return _prize_result(state, rounds)
    if name == LOOT:
        held = [holder(state, p) for _, p in live_objectives(state)]
        return _compare(name, (held.count(0), held.count(1)), rounds, doubling=False)
    if name == QUARTERED:
        return _compare(name, (state.scores[0], state.scores[1]), rounds, doubling=True)
    return _compare(name, _scores(state, destroyed), rounds, doubling=True)


def _scores(state: GameState, destroyed: tuple[int, int]) -> tuple[int, int]:
    return (state.scores[0] + destroyed[0], state.scores[1] + destroyed[1])


def _compare(name: str, scores: tuple[int, int], rounds: int, *, doubling: bool) -> Outcome:
    if scores[0] == scores[1]:
        return Outcome(None, "draw", scores, rounds, f"{name}: equal scores")
    winner = 0 if scores[0] > scores[1] else 1
    major = doubling and scores[winner] >= 2 * scores[1 - winner]
    return Outcome(winner, "major" if major else "minor", scores, rounds, f"{name}: higher score")


def _nearest_centre(state: GameState, rounds: int) -> Outcome:
    centre = np.array([state.board["width"] / 2.0, state.board["depth"] / 2.0])
    live = live_objectives(state)
    distances = [float(np.hypot(*(np.asarray(p) - centre))) for _, p in live]
    held = [holder(state, p) for _, p in live]
    scores = (held.count(0), held.count(1))
    if not live or distances.count(min(distances)) > 1:
        return Outcome(None, "draw", scores, rounds, f"{INVASION}: no objective nearer the centre")
    owner = held[int(np.argmin(distances))]
    if owner is None:
        return Outcome(
            None, "draw", scores, rounds, f"{INVASION}: nobody holds the nearer objective"
        )
    return Outcome(
        owner, "minor", scores, rounds, f"{INVASION}: holds the objective nearer the centre"
    )


def _prize_result(state: GameState, rounds: int) -> Outcome:
    live = live_objectives(state)
    if not live:
        return Outcome(None, "draw", (0, 0), rounds, f"{PRIZE}: no prize")
    point = live[0][1]
    owner = holder(state, point)
    if owner is None:
        return Outcome(None, "draw", (0, 0), rounds, f"{PRIZE}: nobody controls the prize")
    scores = (1, 0) if owner == 0 else (0, 1)
    lands = state.board.get("lands") or state.board["territories"]
    gap = float(state.board.get("prize_gap") or 0.0)
    enemy_far = Polygon(lands[1 - owner]).distance(shapely.Point(*point)) > gap
    if _inside(state, owner, point) and enemy_far:
        return Outcome(owner, "major", scores, rounds, f"{PRIZE}: carried home")
    return Outcome(owner, "minor", scores, rounds, f"{PRIZE}: controls the prize")
