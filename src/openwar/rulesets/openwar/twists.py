"""The battleplan's twist in an OpenWar battle (docs/rules/openwar.md, OW-X1..OW-X6).

One twist applies to both sides for the whole battle (OW-BP.4 restates the Open War table in
OpenWar terms). OpenWar has no player turns, so "at the start of your turn" is read as the
start of each round, after the roll-off, each side in the order it gives orders (the
roll-off's winner first), as OW-V1 reads "the end of your turn" as the end of the round.
A board without a twist (the default scenario, a hand-made board, a replay recorded before
twists were played) has No Twist.
"""

from __future__ import annotations

import math

import numpy as np

from openwar.engine.events import Event
from openwar.engine.game import Dice
from openwar.engine.space import OVERLAP_TOLERANCE, placement_clear, unit_gaps
from openwar.engine.state import POSITION_DECIMALS, FloatArray, GameState, IntArray, UnitState
from openwar.rulesets.openwar import ruses
from openwar.rulesets.openwar.rules import battle_rules

NO_TWIST = "No Twist"
DEAD_OF_NIGHT = "Dead of Night"
LIGHTNING = "Lightning Strikes"
EAGER = "Eager for Battle"
HEALING = "Healing Winds"
GRUDGE = "Grudge Match"
TWISTS = (NO_TWIST, DEAD_OF_NIGHT, LIGHTNING, EAGER, HEALING, GRUDGE)
RING = 12  # places tried around each miniature for a returning one (OW-X5)


def twist(state: GameState) -> str:
    """The twist in play (OW-X1: none on a board that names none)."""
    return str(state.board.get("twist") or NO_TWIST)


def run_bonus(state: GameState) -> float:
    """cm added to every Run (OW-X4 Eager for Battle)."""
    return battle_rules().eager_bonus if twist(state) == EAGER else 0.0


def sight_limit(state: GameState) -> float | None:
    """How far apart units can still see each other (OW-X2 Dead of Night); None: no limit."""
    if twist(state) != DEAD_OF_NIGHT:
        return None
    return float(state.extra.get("sight_limit", battle_rules().night_sight))


def presence_rerolled(state: GameState) -> bool:
    """Whether a Presence roll that fails may be rolled again (OW-X6 Grudge Match)."""
    return twist(state) == GRUDGE


def start_of_round(state: GameState, dice: Dice) -> list[Event]:
    """The twist's effects at the start of a round, after the roll-off (``state.active`` is
    the side that gives the first order)."""
    name = twist(state)
    if name == DEAD_OF_NIGHT and state.round >= 2:
        return [_night_falls(state, dice)]
    if name not in (LIGHTNING, HEALING):
        return []
    events: list[Event] = []
    for side in (state.active, 1 - state.active):
        if not (ruses.army_stands(state, 0) and ruses.army_stands(state, 1)):
            break  # an army struck down: the battle is over (OW-B13)
        if name == LIGHTNING:
            events += _lightning(state, side, dice)
        else:
            events += _healing(state, side, dice)
    return events


def _night_falls(state: GameState, dice: Dice) -> Event:
    """OW-X2: from round 2, a 4+ on one die widens the distance units see by 15 cm."""
    rules = battle_rules()
    face = int(dice.d6(1)[0])
    limit = float(state.extra.get("sight_limit", rules.night_sight))
    if face >= rules.night_roll:
        limit += rules.night_growth
    state.extra["sight_limit"] = limit
    return Event("twist", {"twist": DEAD_OF_NIGHT, "roll": face, "sight": limit})


def _lightning(state: GameState, side: int, dice: Dice) -> list[Event]:
    """OW-X3: three dice; each 6 strikes a different enemy unit, which loses D3 miniatures.
    The most valuable enemy unit still on the table is struck first (design decision: the
    choice a player would make, as AOS-X3), its miniatures farthest from ``side``'s army
    first (OW-B15 removes the rearmost)."""
    faces = [int(f) for f in dice.d6(battle_rules().lightning_dice)]
    hits = sum(1 for f in faces if f >= battle_rules().lightning_hit)
    targets = sorted(
        (u for u in state.units if u.side != side and len(state.on_table(u.id))),
        key=lambda u: (-u.points, state.unit_index(u.id)),
    )[:hits]
    events = [Event("twist", {"twist": LIGHTNING, "side": side, "rolls": faces})]
    for unit in targets:
        events += strike(state, unit, int(dice.roll(battle_rules().lightning_loss_die, 1)[0]), dice)
    return events


def strike(
    state: GameState, unit: UnitState, count: int, dice: Dice, cause: str | None = None
) -> list[Event]:
    """``unit`` loses ``count`` miniatures, the farthest from the enemy first (OW-B15), by a
    twist, the Arcane Prize or Deadly ground (``cause``, named in the event when given); a
    loss that falls on a miniature within 3 cm of a Mystical feature is negated on a 6 (OW-T5,
    as a mortal wound is), and the next loss falls on the same miniature. A unit left without
    miniatures is destroyed, else its coherency is checked."""
    from openwar.rulesets.openwar.odds import attack_rules
    from openwar.rulesets.openwar.orders import check_coherency
    from openwar.rulesets.openwar.scenery import mystical

    slain = negated = 0
    for _ in range(count):
        rearmost = rearmost_order(state, unit.id, 1 - unit.side)
        if not len(rearmost):
            break
        mini = rearmost[:1]
        if mystical(state, mini)[0] and int(dice.d6(1)[0]) >= attack_rules().ward_roll:
            negated += 1
            continue
        state.alive[mini] = False
        slain += 1
    struck = {"unit": unit.id, "rolled": count, "slain": slain}
    struck |= {"negated": negated} if negated else {}
    events = [Event("struck", struck if cause is None else {**struck, "by": cause})]
    if state.is_destroyed(unit.id):
        return [*events, Event("destroyed", {"unit": unit.id})]
    return events + check_coherency(state, unit.id)


def rearmost_order(state: GameState, unit_id: str, enemy_side: int) -> IntArray:
    """The unit's miniatures on the table, the farthest from the enemy first (OW-B15)."""
    members = state.on_table(unit_id)
    enemies = np.flatnonzero(state.alive & state.deployed & (state.lookup().side_of == enemy_side))
    far = unit_gaps(state, members, enemies).min(axis=1) if len(enemies) else np.zeros(len(members))
    return np.asarray(members[np.lexsort((members, -far))], dtype=np.int64)


def _healing(state: GameState, side: int, dice: Dice) -> list[Event]:
    """OW-X5: up to D3 slain miniatures return to one friendly unit still on the table, each
    within 5 cm of a miniature of that unit and more than 5 cm from every enemy. Design
    decisions: of the units with room for a returning miniature, the one that has lost the
    most miniatures (then the most points; the earlier in its army) is healed; its slain
    miniatures return in the order of its list, each at the first clear place found around
    the unit (never worse for a side, so it is always taken)."""
    wounded = [
        u
        for u in state.side_units(side)
        if 0 < len(state.on_table(u.id)) < len(state.members(u.id, alive=False))
    ]
    if not wounded:
        return []
    roll = int(dice.roll(battle_rules().healing_die, 1)[0])

    def lost(u: UnitState) -> tuple[int, int, int]:
        left = len(state.on_table(u.id)) - len(state.members(u.id, alive=False))
        return (left, -u.points, state.unit_index(u.id))

    def slain(u: UnitState) -> list[int]:
        return [int(m) for m in state.members(u.id, alive=False) if not state.alive[m]]

    def has_room(u: UnitState) -> bool:
        return _clear_place(state, u.id, slain(u)[0], side) is not None

    healed = next((u for u in sorted(wounded, key=lost) if has_room(u)), None)
    unit = None if healed is None else healed.id
    returned: list[int] = []
    for mini in [] if healed is None else slain(healed)[:roll]:
        place = _clear_place(state, str(unit), mini, side)
        if place is None:
            break
        state.pos[mini] = place
        state.alive[mini] = True
        returned.append(mini)
    data = {"twist": HEALING, "side": side, "unit": unit, "roll": roll, "returned": returned}
    return [Event("twist", data)]


def _clear_place(state: GameState, unit_id: str, mini: int, side: int) -> FloatArray | None:
    """The first place (around the unit's miniatures, nearest the unit's centre first) where
    ``mini`` stands on the table clear of every base, within 5 cm of a miniature of its unit
    and more than 5 cm from every enemy miniature."""
    rules = battle_rules()
    members = state.on_table(unit_id)
    radius = float(state.radius[mini])
    centre = state.pos[members].mean(axis=0)
    enemies = np.flatnonzero(state.alive & state.deployed & (state.lookup().side_of != side))
    angles = np.arange(RING) * (2.0 * math.pi / RING)
    ring = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    found: list[FloatArray] = []
    nearest = members[np.argsort(np.hypot(*(state.pos[members] - centre).T), kind="stable")]
    for gap in rules.healing_gaps:  # rings ever farther out, all within 5 cm of a friend
        for other in nearest:
            step = float(state.radius[other]) + radius + gap
            for offset in ring:
                spot: FloatArray = np.round(state.pos[other] + step * offset, POSITION_DECIMALS)
                found.append(spot)
    mover = np.array([mini])
    for xy in found:
        if len(enemies):
            gaps = np.hypot(*(state.pos[enemies] - xy).T) - state.radius[enemies] - radius
            if float(gaps.min()) <= rules.healing_enemy_gap + OVERLAP_TOLERANCE:
                continue
        if placement_clear(state, mover, xy.reshape(1, 2)):
            return xy
    return None
