"""Objectives and victory: control checked at the end of each turn, the Open War victory
conditions (and First Blood) scored as written, the result at the end."""

from __future__ import annotations

import numpy as np
import shapely

from openwar.engine.events import Event
from openwar.engine.game import Dice, Outcome
from openwar.engine.state import GameState
from openwar.rulesets.aos.board import objectives, territory
from openwar.rulesets.aos.moves import side_minis
from openwar.rulesets.aos.rules import battle_rules
from openwar.rulesets.aos.wounds import allocate, has_keyword, roll_expr

ENDS_EARLY = ("Invasion", "Loot and Plunder")
OPEN_WAR = (
    "Field of Glory",
    "War of Attrition",
    "Drawn and Quartered",
    "Invasion",
    "Arcane Prize",
    "Loot and Plunder",
)


def control(state: GameState) -> list[Event]:
    """Seed "Objectives": count models within 6" of each marker's centre; a model counts for
    one objective a turn (the nearest, AOS-O2); more models gains control, kept until taken."""
    points = objectives(state)
    if not points:
        return []
    reach = float(state.board.get("control_range", battle_rules().objective_range))
    counts = np.zeros((2, len(points)), dtype=np.int64)
    for side in (0, 1):
        minis = side_minis(state, side)
        if len(minis) == 0:
            continue
        d = np.stack(
            [np.hypot(*(state.pos[minis] - np.asarray(p)).T) - state.radius[minis] for p in points],
            axis=1,
        )
        nearest = np.argmin(d, axis=1)
        ok = d[np.arange(len(minis)), nearest] <= reach + 1e-6
        counts[side] = np.bincount(nearest[ok], minlength=len(points))
    held = state.extra["control"]
    for k in range(len(points)):
        if counts[0, k] != counts[1, k]:
            held[k] = int(np.argmax(counts[:, k]))
    return [
        Event("objectives", {"round": state.round, "held": list(held), "counts": counts.tolist()})
    ]


def end_of_turn(state: GameState, dice: Dice) -> list[Event]:
    """The victory condition's end-of-turn steps for the player whose turn ends."""
    side = int(state.extra["turn"])
    name = state.board.get("victory")
    events = control(state)
    held = state.extra["control"]
    if name == "Drawn and Quartered":
        state.extra["vp"][side] += sum(1 for h in held if h == side)
    elif name == "Loot and Plunder":
        events += _loot(state, side)
    elif name == "Invasion":
        enemy = 1 - side
        if len(held) == 2 and held[0] == enemy and held[1] == enemy:
            state.extra["sudden"] = enemy
    elif name == "Arcane Prize":
        events += _take_prize(state, side, dice)
    return events


def _loot(state: GameState, side: int) -> list[Event]:
    """AOS-V5: looting is always taken (it is the only way to a major victory)."""
    events = []
    enemy_land = territory(state, 1 - side)
    kept_points, kept_control = [], []
    for point, owner in zip(state.extra["objectives"], state.extra["control"], strict=True):
        if owner == side and enemy_land.covers(shapely.Point(*point)):
            state.extra["looted"][side] += 1
            events.append(Event("looted", {"side": side, "point": list(point)}))
        else:
            kept_points.append(point)
            kept_control.append(owner)
    state.extra["objectives"], state.extra["control"] = kept_points, kept_control
    if state.extra["looted"][side] >= 3:
        state.extra["sudden"] = side
    return events


def _take_prize(state: GameState, side: int, dice: Dice) -> list[Event]:
    """Arcane Prize: the controller's model within 1" takes it (AOS-V6: always taken); the
    first taking rolls on the Arcane Prize table."""
    prize = state.extra["prize"]
    if not objectives(state) or state.extra["control"][0] != side:
        return []
    rules = battle_rules()
    minis = side_minis(state, side)
    point = np.asarray(objectives(state)[0])
    d = np.hypot(*(state.pos[minis] - point).T) - state.radius[minis]
    if len(minis) == 0 or float(d.min()) > rules.prize_take_range:
        return []
    mini = int(minis[int(np.argmin(d))])
    prize["carrier"] = mini
    follow_prize(state)  # the marker touches its taker before the table is rolled (Plague)
    events = [
        Event("prize_taken", {"side": side, "unit": state.units[int(state.unit_of[mini])].id})
    ]
    if prize.get("result") is None:
        face = int(dice.d6(1)[0])
        table = state.board.get("arcane_prize") or []
        result = table[face - 1] if len(table) >= face else None
        prize["result"] = result
        events.append(Event("arcane_prize", {"side": side, "roll": face, "result": result}))
        events += _prize_now(state, mini, result, dice)
    follow_prize(state)  # a taker slain by it leaves the marker where it stood
    return events


def _prize_now(state: GameState, mini: int, result: str | None, dice: Dice) -> list[Event]:
    events: list[Event] = []
    if result == "Plague":
        reach = roll_expr("2D6", dice)
        point = objectives(state)[0]
        for unit in list(state.units):
            members = state.on_table(unit.id)
            if len(members) == 0:
                continue
            d = np.hypot(*(state.pos[members] - np.asarray(point)).T) - state.radius[members]
            if float(d.min()) <= reach:
                events += allocate(state, unit.id, roll_expr("D3", dice), dice, None, "Plague")
    elif result == "Trapped":
        unit = state.units[int(state.unit_of[mini])]
        events += allocate(state, unit.id, roll_expr("D3", dice), dice, None, "Trapped")
    return events


def follow_prize(state: GameState) -> None:
    """The marker stays touching its carrier's base after every move."""
    carrier = state.extra.get("prize", {}).get("carrier")
    if carrier is None or not objectives(state):
        return
    if not state.alive[carrier]:
        state.extra["prize"]["carrier"] = None
        return
    x, y = state.pos[carrier]
    r = float(state.radius[carrier])
    state.extra["objectives"][0] = [round(float(x), 6), round(float(y) + r, 6)]


def scores(state: GameState) -> tuple[int, int]:
    """What each side scored under the battleplan's victory condition (Loot and Plunder: the
    objectives held, which decide it at the end, as OpenWar's OW-V6; it scored looted x 10 +
    held, read as "B 13" with six objectives; a battle won by looting all three is scored in
    objectives looted, :func:`result`)."""
    name = state.board.get("victory")
    held = state.extra["control"]
    if name == "War of Attrition":
        return (_destroyed_points(state, 0), _destroyed_points(state, 1))
    if name == "Drawn and Quartered":
        return (int(state.extra["vp"][0]), int(state.extra["vp"][1]))
    if name in ("Field of Glory", "Invasion", "Arcane Prize", "Loot and Plunder"):
        return (held.count(0), held.count(1))
    return (int(state.extra["slain_wounds"][0]), int(state.extra["slain_wounds"][1]))


def _destroyed_points(state: GameState, side: int) -> int:
    return sum(state.unit(u).points for u in state.extra["destroyed"] if state.unit(u).side != side)


def result(state: GameState) -> Outcome:
    name = str(state.board.get("victory"))
    sc = scores(state)
    rounds = state.round
    held = state.extra["control"]
    sudden = state.extra.get("sudden")
    if sudden is not None and name == "Loot and Plunder":  # looting decided it (AOS-V5)
        looted = state.extra["looted"]
        return Outcome(sudden, "major", (int(looted[0]), int(looted[1])), rounds,
                       f"{name}: looted all 3")  # fmt: skip
    if sudden is not None:
        return Outcome(sudden, "major", sc, rounds, f"{name}: sudden victory")
    if name == "Field of Glory":
        for side in (0, 1):
            if held.count(side) == 3:
                return Outcome(side, "major", sc, rounds, "holds all 3 objectives")
            if held.count(side) == 2:
                return Outcome(side, "minor", sc, rounds, "holds 2 objectives")
        return Outcome(None, "draw", sc, rounds, "nobody holds 2 objectives")
    if name in ("War of Attrition", "Drawn and Quartered"):
        return _double_or_more(sc, rounds, name)
    if name == "Invasion":
        return _invasion(state, sc)
    if name == "Arcane Prize":
        return _arcane(state, sc)
    if name == "Loot and Plunder":
        a, b = held.count(0), held.count(1)
        if a == b:
            return Outcome(None, "draw", sc, rounds, "equal objectives held")
        return Outcome(0 if a > b else 1, "minor", sc, rounds, "more objectives held")
    return _first_blood(state, sc)


def _double_or_more(sc: tuple[int, int], rounds: int, name: str) -> Outcome:
    if sc[0] == sc[1]:
        return Outcome(None, "draw", sc, rounds, f"{name}: equal totals")
    w = 0 if sc[0] > sc[1] else 1
    major = sc[w] >= 2 * sc[1 - w]
    return Outcome(w, "major" if major else "minor", sc, rounds, f"{name}: higher total")


def _invasion(state: GameState, sc: tuple[int, int]) -> Outcome:
    points = objectives(state)
    mid = np.array([state.board["width"] / 2, state.board["depth"] / 2])
    if not points:
        return Outcome(None, "draw", sc, state.round, "no objectives")
    k = int(np.argmin([np.hypot(*(np.asarray(p) - mid)) for p in points]))
    owner = state.extra["control"][k]
    if owner is None:
        return Outcome(None, "draw", sc, state.round, "nobody holds the central objective")
    return Outcome(owner, "minor", sc, state.round, "holds the objective nearer the centre")


def _arcane(state: GameState, sc: tuple[int, int]) -> Outcome:
    owner = state.extra["control"][0] if state.extra["control"] else None
    if owner is None:
        return Outcome(None, "draw", sc, state.round, "nobody controls the Arcane Prize")
    x, y = objectives(state)[0]
    point = shapely.Point(x, y)
    home = territory(state, owner).covers(point)
    far = territory(state, 1 - owner).distance(point) > battle_rules().prize_home_gap
    major = home and far
    text = "carried home" if major else "controls the Arcane Prize"
    return Outcome(owner, "major" if major else "minor", sc, state.round, text)


def _first_blood(state: GameState, sc: tuple[int, int]) -> Outcome:
    """First Blood: Wounds of slain enemy models; 50% more is a major victory."""
    if sc[0] == sc[1]:
        return Outcome(None, "draw", sc, state.round, "equal victory scores")
    w = 0 if sc[0] > sc[1] else 1
    major = 2 * sc[w] >= 3 * sc[1 - w]
    return Outcome(w, "major" if major else "minor", sc, state.round, "higher victory score")


def hero_near(state: GameState, side: int, point: tuple[float, float], reach: float) -> str | None:
    for unit in state.side_units(side):
        members = state.on_table(unit.id)
        if not len(members) or not has_keyword(state, unit.id, "HERO"):
            continue
        d = np.hypot(*(state.pos[members] - np.asarray(point)).T) + state.radius[members]
        if float(d.max()) <= reach:
            return unit.id
    return None
