"""OpenWar's evaluation for the AI: orders valued in points of the victory condition.

An order is worth what it changes of the final score (OW-B16: objective points plus points of
destroyed units): attacks through the exact odds (slain distribution and P(Presence roll
wins), so Shaken tokens and routs count), moves through objectives held and threat ranges
(enemy Run + combat range, shooting range + a move), with the enemy's counter-attack weighed
against each charge and fight. Each side also gathers on one objective it can outnumber the
holders of (:func:`gathering`): every order gets its share of taking it. Late in a battle that
a side is not winning, it weighs the enemy's replies less (:func:`caution`, judged before the
order): a draw or a loss kept safely is worth nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property, lru_cache

import numpy as np
from shapely.geometry import Point, Polygon

from openwar.ai.common import army_points, initial_size
from openwar.ai.evaluation import SearchMode
from openwar.engine.actions import Action
from openwar.engine.game import legal_actions
from openwar.engine.space import OVERLAP_TOLERANCE, centroid, gaps
from openwar.engine.state import FloatArray, GameState, IntArray, UnitState
from openwar.rulesets.openwar import fight, orders, prize, ruses, scenery, victory
from openwar.rulesets.openwar.board import objectives, territory
from openwar.rulesets.openwar.menu import ROUNDING_SLACK
from openwar.rulesets.openwar.odds import OpenWarAttack, slain_and_presence
from openwar.rulesets.openwar.rules import battle_rules
from openwar.rulesets.openwar.shooting import shooters
from openwar.rulesets.openwar.twists import presence_rerolled, sight_limit


@dataclass(frozen=True)
class Weights:
    """The evaluation's judgement calls (everything else is the rules' own numbers)."""

    material: float = 0.6  # a slain miniature of a surviving unit, as a share of its points
    shaken: float = 0.5  # a Shaken token, as a share of the unit's points per token to rout
    glory: float = 3.0  # points for a Glory token won
    retaliation: float = 0.5  # share of the enemy's counter-attack counted against a fight
    replied: float = 0.6  # that share again when the enemy has had its order this round
    threat_now: float = 0.3  # an enemy that still acts this round and can reach us
    threat_later: float = 0.1  # one that has acted (it may act first next round)
    opportunity: float = 0.3  # an enemy we could charge or shoot next
    objective: float = 0.7  # share of the objective points still to score that a hold is worth
    stake: float = 0.5  # deciding the battle by its condition, as a share of an army's points
    score_point: float = 0.3  # a Drawn and Quartered point, as a share of the stake
    margin: float = 0.25  # a margin this share of an army's points makes a win ~73% likely
    approach: float = 25.0  # cm: closing this far on an objective we lack is worth holding it
    advance: float = 0.3  # points per cm closer to the nearest enemy, with no objective to take
    run_cost: float = 2.0  # Exhaustion: -1 to hit, no Run next order
    rest: float = 3.0  # a Hold that clears Exhaustion
    holding: float = 0.5  # share of an objective's worth added to the units standing on it
    invasion_near: float = 0.7  # Invasion: the objective nearer the centre, share of the stake
    invasion_far: float = 0.4  # the other one (it counts only with the first: a win at once)
    loot: float = 0.6  # Loot and Plunder: an objective in either territory, or one looted
    loot_elsewhere: float = 0.3  # one in neither territory (held at the end counts only)
    control_spread: float = 4.0  # miniatures: a margin this big holds an objective ~76% surely
    control_growth: float = 8.0  # the spread's growth per end of round still to come
    gather: float = 0.5  # share of the gathering objective's worth, spread over its deficit
    gather_rounds: int = 2  # rounds of Runs within which units count towards a gathering
    desperate: float = 0.3  # the share of the enemy's replies weighed when not winning late
    desperate_rounds: int = 4  # "late": this many ends of rounds to come, or fewer
    desperate_need: float = 0.5  # the gathering's last rounds, behind: the deficit's share
    objective_charges: bool = True  # weigh Runs onto objectives that end as Charges too
    objective_fights: bool = True  # and Advances onto objectives that end in a fight

    @cached_property
    def _hash(self) -> int:
        return hash(tuple(getattr(self, f.name) for f in fields(self)))

    def __hash__(self) -> int:
        """The hash dataclasses would give (of the fields' tuple), worked out once: weights
        are part of every remembered evaluation's key."""
        return self._hash


WEIGHTS = Weights()


@dataclass(frozen=True)
class Forecast:
    """An attack's expected miniatures slain, P(Presence roll wins) and value in points."""

    slain: float
    beaten: float
    value: float


NOTHING = Forecast(0.0, 0.0, 0.0)


# -- what units are worth ------------------------------------------------------------------
def loss(
    state: GameState,
    unit: UnitState,
    left: int,
    shaken: int,
    w: Weights = WEIGHTS,
    worth: float | None = None,
) -> float:
    """How much of ``unit``'s points (or ``worth``) its enemy has as good as won: all of them
    once it is destroyed or routed (OW-B9, OW-B16), else a share for casualties and Shaken
    tokens."""
    value = float(unit.points) if worth is None else worth
    full = max(initial_size(state, unit.id), 1)
    return lost_share(value, left, shaken, full, battle_rules().rout_shaken, w)


def lost_share(value: float, left: int, shaken: int, full: int, rout: int, w: Weights) -> float:
    """:func:`loss` of a unit worth ``value`` that started ``full`` strong and routs at
    ``rout`` Shaken tokens, with ``left`` miniatures and ``shaken`` tokens."""
    if left <= 0 or shaken >= rout:
        return value
    return value * (w.material * (1.0 - left / full) + w.shaken * min(shaken, rout) / rout)


def unit_worth(state: GameState, unit: UnitState, w: Weights = WEIGHTS) -> float:
    """What a unit is worth to the battle: its points, plus a share (``w.holding``) of the
    worth of every objective it stands on, so that wearing down the unit that holds a
    decisive objective (or guarding our own holder) counts for more than its points."""
    key = ("openwar.unit_worth", unit.id, w)
    if state.scratch is not None and key in state.scratch:
        found: float = state.scratch[key]
        return found
    worth = float(unit.points)
    points = live_points(state)
    members = state.on_table(unit.id)
    if points and len(members) and w.holding:
        control = float(state.board.get("control_range", battle_rules().objective_range))
        xy, r = state.pos[members], state.radius[members]
        for (_, point), value in zip(points, objective_worths(state, unit.side, w), strict=True):
            if bool((np.hypot(*(xy - np.asarray(point)).T) - r <= control).any()):
                worth += w.holding * value
    if state.scratch is not None:
        state.scratch[key] = worth
    return worth


def current_loss(state: GameState, unit: UnitState) -> float:
    return loss(state, unit, state.size(unit.id), unit.tokens.get("shaken", 0))


# -- attacks with the exact odds -----------------------------------------------------------
@lru_cache(maxsize=8192)
def _odds(profile: OpenWarAttack) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """P(k slain) and P(Presence roll wins | k slain), for k = 0..target size."""
    slain_pmf, by_slain, _ = slain_and_presence(profile)
    slain = tuple(float(p) for p in slain_pmf)
    return slain, tuple(0.0 if p is None else float(p) for p in by_slain)


def best_weapon(
    state: GameState, mini: int, skill: int, target_armor: int, *, ranged: bool
) -> fight.Weapon | None:
    options = fight.weapons(state, mini, ranged=ranged)
    if not options:
        return None
    return max(options, key=lambda w: (fight.expected_wounds(w, skill, target_armor), w.name))


def forecast(
    state: GameState,
    attacker_id: str,
    target_id: str,
    models: int,
    *,
    ranged: bool,
    holding: bool = False,
    charged: bool = False,
    armor_bonus: int = 0,
    w: Weights = WEIGHTS,
) -> Forecast:
    """``models`` miniatures of the attacker attack the target with their best weapon
    (remembered while the state is only read: a threat is weighed for every move asked)."""
    args = (attacker_id, target_id, models, ranged, holding, charged, armor_bonus, w)
    return state.remembered(("openwar.forecast", *args), lambda: _forecast(state, *args))


def _forecast(
    state: GameState,
    attacker_id: str,
    target_id: str,
    models: int,
    ranged: bool,
    holding: bool,
    charged: bool,
    armor_bonus: int,
    w: Weights,
) -> Forecast:
    theirs = state.on_table(target_id)
    armed = _armed(state, attacker_id, ranged=ranged)
    models = min(models, len(armed))
    if models <= 0 or len(theirs) == 0:
        return NOTHING
    profile = attack_profile(state, attacker_id, target_id, armed[0], int(theirs[0]), models,
                             ranged=ranged, holding=holding, charged=charged,
                             armor_bonus=armor_bonus)  # fmt: skip
    if profile is None:
        return NOTHING
    return value_of(state, attacker_id, target_id, profile, w)


def _armed(state: GameState, unit_id: str, *, ranged: bool) -> tuple[int, ...]:
    """The unit's miniatures on the table with a weapon of the kind (remembered while the
    state is only read: every forecast of the unit's attacks asks it)."""

    def armed() -> tuple[int, ...]:
        members = state.on_table(unit_id).tolist()
        thrown = state.unit(unit_id).flags.get("thrown", [])
        kinds: dict[int, tuple[bool, bool]] = {}  # by loadout: a weapon of the kind, a kept one
        found = []
        for mini, gear in zip(members, state.loadout[members].tolist(), strict=True):
            kind = kinds.get(gear)
            if kind is None:
                ours = [
                    lost for weapon, lost in fight.armoury(state, mini) if weapon.ranged == ranged
                ]
                kind = kinds[gear] = (bool(ours), not all(ours))
            if kind[1] or (kind[0] and mini not in thrown):  # fight.weapons(...) is not empty
                found.append(mini)
        return tuple(found)

    return state.remembered(("openwar.armed", unit_id, ranged), armed)


def attack_profile(
    state: GameState,
    attacker_id: str,
    target_id: str,
    mini: int,
    target_mini: int,
    models: int,
    *,
    ranged: bool,
    holding: bool,
    charged: bool,
    armor_bonus: int,
) -> OpenWarAttack | None:
    """The attack as :class:`OpenWarAttack` with every modifier the rules would apply."""
    rules = battle_rules()
    unit = state.unit(attacker_id)
    skill = int(unit.profile["ranged" if ranged else "melee"])
    skill += fight.accuracy(state, attacker_id, holding)
    target_armor = fight.armor(state, target_mini) + armor_bonus
    target_armor -= ruses.damage_bonus(state, unit.side)  # OW-R5 Revenge
    weapon = best_weapon(state, mini, skill, target_armor, ranged=ranged)
    if weapon is None:
        return None
    presence = int(unit.profile["presence"]) + rules.glory_presence * unit.tokens.get("glory", 0)
    presence += rules.charge_push_bonus if charged else 0
    morale = fight.morale_of(state, target_id)
    members = state.on_table(target_id)
    # OW-P5, OW-T5: warded if most of them stand where a Wound is negated on a 6
    warded = prize.warded(state, members) | scenery.unit_mystical(state, target_id)
    return OpenWarAttack(
        models=models, attacks=weapon.attacks, melee=skill, accuracy=0,
        difficulty=weapon.difficulty, pierce=weapon.pierce, armor=target_armor,
        target_size=state.size(target_id), shock=fight.SHOCK in weapon.special,
        presence=presence, morale=morale, grudge=presence_rerolled(state),
        talisman=prize.talisman_unit(state) == attacker_id,
        ward=2 * int(warded.sum()) > len(warded),
    )  # fmt: skip


def value_of(
    state: GameState, attacker_id: str, target_id: str, profile: OpenWarAttack, w: Weights
) -> Forecast:
    """Expected change of the target's loss, over the exact joint odds of slain and Presence
    (the target valued with the objectives it stands on, :func:`unit_worth`)."""
    enemy = state.unit(target_id)
    size, shaken = state.size(target_id), enemy.tokens.get("shaken", 0)
    worth = unit_worth(state, enemy, w)
    before = loss(state, enemy, size, shaken, w, worth)
    rout, full = battle_rules().rout_shaken, max(initial_size(state, enemy.id), 1)
    token = 0 if ruses.no_shaken(state, enemy.side) else 1  # OW-R6 Inspiring Speech
    expected, slain, beaten = _expected_loss(profile, worth, size, shaken, full, rout, w, token)
    glory = w.glory * beaten if state.unit(attacker_id).tokens.get("glory", 0) < 2 else 0.0
    return Forecast(slain, beaten, expected - before + glory)


@lru_cache(maxsize=16384)
def _expected_loss(
    profile: OpenWarAttack,
    worth: float,
    size: int,
    shaken: int,
    full: int,
    rout: int,
    w: Weights,
    token: int = 1,
) -> tuple[float, float, float]:
    """The target's expected loss after the attack, expected miniatures slain and P(Presence
    roll wins), over the exact joint odds (the same numbers for the same attack on a target of
    the same worth, size and tokens: remembered across the battle)."""
    slain_pmf, beats = _odds(profile)
    expected = slain = beaten = 0.0
    for k, p in enumerate(slain_pmf):
        if p <= 0.0:
            continue
        b = beats[k] if k < size else 0.0
        after = b * lost_share(worth, size - k, shaken + token, full, rout, w)
        after += (1.0 - b) * lost_share(worth, size - k, shaken, full, rout, w)
        expected += p * after
        slain += p * k
        beaten += p * b
    return expected, slain, beaten


def fighting_front(state: GameState, unit_id: str) -> int:
    """How many miniatures of a unit can fight when it meets an enemy: one rank, and one more
    for each rank skill (an estimate for threats; an actual fight counts bases)."""
    members = state.on_table(unit_id)
    if len(members) == 0:
        return 0
    own = fight.skills(state, int(members[0]))
    ranks = 1 + (fight.SECOND_RANK in own or fight.THIRD_RANK in own) + (fight.THIRD_RANK in own)
    return min(len(members), battle_rules().rank_width * ranks)


# -- threat ranges -------------------------------------------------------------------------
def reach(state: GameState, unit: UnitState) -> tuple[float, float]:
    """(charge reach, shooting reach): how far away an enemy may be for this unit to charge it
    next order (a Run, or a move if Exhausted), or to move and shoot it (remembered while the
    state is only read: every threat weighed asks it again)."""
    return state.remembered(("openwar.reach", unit.id), lambda: _reach(state, unit))


def _reach(state: GameState, unit: UnitState) -> tuple[float, float]:
    move = orders.move_allowance(state, unit.id)
    charge = move if unit.tokens.get("exhaustion") else orders.run_allowance(state, unit.id)
    members = state.on_table(unit.id)
    shots = [w.range for m in members[:1] for w in fight.weapons(state, int(m), ranged=True)]
    if not shots:
        return charge, -1.0
    sight = sight_limit(state)  # OW-X2 Dead of Night: nothing farther is seen
    aim = max(shots) + float(unit.profile["ranged"])
    return charge, move + (aim if sight is None else min(aim, sight))


def pressure(
    state: GameState,
    unit: UnitState,
    xy: FloatArray,
    *,
    armor_bonus: int = 0,
    w: Weights = WEIGHTS,
) -> float:
    """Our opportunity minus our exposure if ``unit`` stood at ``xy``: the best attack we could
    make next, against what every enemy that reaches us could do to us (remembered while the
    state is only read: each order of a unit weighs where it stands now)."""
    if state.scratch is None:  # no key to build
        return _pressure(state, unit, xy, armor_bonus, w)
    key = ("openwar.pressure", unit.id, xy.tobytes(), armor_bonus, w)
    return state.remembered(key, lambda: _pressure(state, unit, xy, armor_bonus, w))


def _pressure(
    state: GameState, unit: UnitState, xy: FloatArray, armor_bonus: int, w: Weights
) -> float:
    members = state.on_table(unit.id)
    own_charge, own_shoot = reach(state, unit)
    enemies, starts, rest_xy, rest_r = _enemy_table(state, 1 - unit.side)
    if not enemies:
        return 0.0
    # every enemy's gap in one table: each gap is the same sum, each enemy's least exact
    table = gaps(xy, state.radius[members], rest_xy, rest_r)
    nearest = np.minimum.reduceat(table.min(axis=0), starts).tolist()
    # an enemy's threat and our chance against it depend on the gap only through the reach
    # it falls within: each worked out once per reach while the state is read
    parts: dict[tuple[str, str, int], float] = state.remembered(
        ("openwar.pressure_parts", unit.id, armor_bonus, w), dict
    )
    exposure = opportunity = 0.0
    for enemy, gap in zip(enemies, nearest, strict=True):
        charge, shoot = reach(state, enemy)
        key = ("threat", enemy.id, 0 if gap <= charge else 1 if gap <= shoot else 2)
        threat = parts.get(key)
        if threat is None:
            threat = parts[key] = _threat(state, enemy, unit, gap, armor_bonus, w)
        exposure += threat
        key = ("chance", enemy.id, 0 if gap <= own_charge else 1 if gap <= own_shoot else 2)
        chance = parts.get(key)
        if chance is None:
            chance = parts[key] = _chance(state, unit, enemy, gap, own_charge, own_shoot, w)
        opportunity = max(opportunity, chance)
    return w.opportunity * opportunity - exposure * caution(state, unit.side, w)


def _enemy_table(
    state: GameState, side: int
) -> tuple[list[UnitState], IntArray, FloatArray, FloatArray]:
    """``side``'s units on the table, where each one's miniatures start in the rest, and the
    positions and radii of those miniatures (remembered while the state is only read)."""

    def table() -> tuple[list[UnitState], IntArray, FloatArray, FloatArray]:
        enemies = [e for e in state.side_units(side) if len(state.on_table(e.id))]
        if not enemies:
            return [], np.zeros(0, dtype=np.int64), np.zeros((0, 2)), np.zeros(0)
        theirs = [state.on_table(enemy.id) for enemy in enemies]
        starts = np.cumsum([0] + [len(t) for t in theirs[:-1]])
        rest = np.concatenate(theirs)
        return enemies, starts, state.pos[rest], state.radius[rest]

    return state.remembered(("openwar.enemy_table", side), table)


def _threat(
    state: GameState, enemy: UnitState, unit: UnitState, gap: float, armor_bonus: int, w: Weights
) -> float:
    charge, shoot = reach(state, enemy)
    weight = w.threat_later if enemy.flags.get("ordered") else w.threat_now
    if gap <= charge:
        rested = not enemy.tokens.get("exhaustion")
        melee = forecast(state, enemy.id, unit.id, fighting_front(state, enemy.id), ranged=False,
                         charged=rested, armor_bonus=armor_bonus)  # fmt: skip
        return weight * max(melee.value, 0.0)
    if gap <= shoot:
        shot = forecast(state, enemy.id, unit.id, state.size(enemy.id), ranged=True,
                        armor_bonus=armor_bonus)  # fmt: skip
        return weight * max(shot.value, 0.0)
    return 0.0


def _chance(
    state: GameState,
    unit: UnitState,
    enemy: UnitState,
    gap: float,
    charge: float,
    shoot: float,
    w: Weights,
) -> float:
    if gap <= charge:
        return forecast(state, unit.id, enemy.id, fighting_front(state, unit.id), ranged=False,
                        charged=True, w=w).value  # fmt: skip
    if gap <= shoot:
        return forecast(state, unit.id, enemy.id, state.size(unit.id), ranged=True, w=w).value
    return 0.0


# -- objectives, per victory condition ---------------------------------------------------
def rounds_to_score(state: GameState) -> int:
    """Ends of rounds still to come, this round's included (objectives score at each)."""
    total = int(state.board.get("rounds", battle_rules().rounds))
    return max(total - max(state.round, 1) + 1, 0)


def standing(state: GameState, side: int) -> int:
    """+1, 0 or -1: whether ``side`` would win, draw or lose if the battle ended now, by its
    victory condition (remembered while the state is only read)."""

    def judged() -> int:
        from openwar.rulesets.openwar.battle import RULES

        winner = RULES.result_now(state).winner
        return 0 if winner is None else 1 if winner == side else -1

    return int(state.remembered(("openwar.standing", side), judged))


def behind_late(state: GameState, side: int, rounds: int) -> bool:
    """Whether the battle ends within ``rounds`` ends of rounds and ``side`` would not win if
    it ended now."""
    return rounds_to_score(state) <= rounds and standing(state, side) < 1


def caution(state: GameState, side: int, w: Weights = WEIGHTS) -> float:
    """How much of the enemy's replies ``side`` weighs: all of them, except late in a battle
    it is not winning, where only a bold order can still change the result."""
    if w.desperate == 1.0 or not behind_late(state, side, w.desperate_rounds):
        return 1.0
    return w.desperate


def stake(state: GameState, w: Weights = WEIGHTS) -> float:
    """What deciding the battle by its victory condition is worth, in points."""
    return w.stake * army_points(state)


def live_points(state: GameState) -> list[tuple[int, tuple[float, float]]]:
    """(number, position) of the objectives in play; a carried Arcane Prize is where its
    carrier stands now (the rules move the marker at the end of the round, OW-V5; remembered
    while the state is only read)."""
    return list(state.remembered("openwar.live_points", lambda: _live_points(state)))


def _live_points(state: GameState) -> list[tuple[int, tuple[float, float]]]:
    """The objectives in play where they are now (the rules' own: the Arcane Prize with its
    carrier, OW-V5)."""
    return victory.live_objectives(state)


def _carried(
    state: GameState, points: list[tuple[int, tuple[float, float]]], pos: FloatArray
) -> list[tuple[int, tuple[float, float]]]:
    """``points`` with a carried Arcane Prize where its carrier stands in ``pos`` (a unit that
    moves takes the prize with it, OW-V5)."""
    carrier = state.extra.get("carrier")
    if carrier is None or not state.alive[carrier] or victory.victory_name(state) != victory.PRIZE:
        return points
    x, y = (float(v) for v in pos[carrier])
    return [(points[0][0], (x, y))]


def holders(
    state: GameState,
    side: int,
    moved: IntArray | None = None,
    xy: FloatArray | None = None,
    thinned: tuple[str, float] | None = None,
) -> list[float]:
    """For each objective of :func:`live_points`: +1 held by ``side``, -1 by the enemy, 0 by
    nobody (OW-B14), with the miniatures ``moved`` standing at ``xy`` and the unit of
    ``thinned`` reduced to that share of its miniatures (an attack's expected survivors)."""
    return _held(control_margins(state, side, moved, xy, thinned))


def _held(margins: list[float]) -> list[float]:
    """+1, -1 or 0 for each margin of miniatures (OW-B14: more miniatures hold)."""
    return [0.0 if abs(m) < 1e-9 else float(np.sign(m)) for m in margins]


def control_margins(
    state: GameState,
    side: int,
    moved: IntArray | None = None,
    xy: FloatArray | None = None,
    thinned: tuple[str, float] | None = None,
) -> list[float]:
    """For each objective of :func:`live_points`: ``side``'s miniatures within control range
    less the enemy's (OW-B14), as :func:`holders` sees them (remembered while the state is
    only read: an order's objective value and its part of a gathering both ask it)."""
    if state.scratch is None:  # no key to build
        return _control_margins(state, side, moved, xy, thinned)
    placed = None if moved is None or xy is None else (moved.tobytes(), xy.tobytes())
    key = ("openwar.control_margins", side, placed, thinned)
    return list(state.remembered(key, lambda: _control_margins(state, side, moved, xy, thinned)))


def _control_margins(
    state: GameState,
    side: int,
    moved: IntArray | None,
    xy: FloatArray | None,
    thinned: tuple[str, float] | None,
) -> list[float]:
    points = live_points(state)
    if not points:
        return []
    pos = state.pos
    if moved is not None and xy is not None:
        pos = pos.copy()
        pos[moved] = xy
        points = _carried(state, points, pos)
    live = state.alive & state.deployed
    control = float(state.board.get("control_range", battle_rules().objective_range))
    offsets = pos[None, :, :] - np.asarray([point for _, point in points])[:, None, :]
    within = np.hypot(offsets[:, :, 0], offsets[:, :, 1]) - state.radius <= control
    ours = state.lookup().side_of == side
    if thinned is None:  # each weight 1 or 0: the sums are the counts, exact in any order
        counts = np.count_nonzero(within & (live & ours), axis=1).tolist()
        others = np.count_nonzero(within & (live & ~ours), axis=1).tolist()
        return [float(a) - float(b) for a, b in zip(counts, others, strict=True)]
    weight = live.astype(np.float64)
    weight[state.unit_of == state.unit_index(thinned[0])] *= thinned[1]
    found = []
    for near in within:  # each objective's miniatures, summed in the same order
        mine = float(weight[near & ours].sum())
        theirs = float(weight[near & ~ours].sum())
        found.append(mine - theirs)
    return found


def hold_chance(margin: float, spread: float = WEIGHTS.control_spread) -> float:
    """How surely a margin of miniatures holds an objective, from -1 (the enemy's) to +1:
    a few miniatures more can be lost to one attack or outnumbered by one move, a margin of
    ``spread`` is about 76% sure and twice that nearly safe."""
    return float(np.tanh(margin / spread))


def control_spread(state: GameState, w: Weights = WEIGHTS) -> float:
    """The margin of miniatures that holds an objective about 76% surely: wider while more
    ends of rounds are to come (until the last, fights and moves can swing a margin a long
    way, so wearing down a big holder counts; in the last round a few miniatures decide).
    Drawn and Quartered scores a point at every end of round, so there this round's margin
    decides as in the last round (its worth already counts the rounds to come)."""
    if victory.victory_name(state) == victory.QUARTERED:
        return w.control_spread
    return w.control_spread + w.control_growth * (rounds_to_score(state) - 1)


def _in_territory(state: GameState, side: int, point: tuple[float, float]) -> bool:
    lands = state.board.get("lands") or state.board["territories"]
    return _polygon(tuple((float(x), float(y)) for x, y in lands[side])).covers(Point(*point))


@lru_cache(maxsize=64)
def _polygon(coords: tuple[tuple[float, float], ...]) -> Polygon:
    return Polygon(coords)


def objective_worths(state: GameState, side: int, w: Weights = WEIGHTS) -> list[float]:
    """What holding each objective of :func:`live_points` (rather than the enemy holding it)
    is worth to ``side`` now, in points, under the battleplan's victory condition:

    - no condition (OW-V7): ``objective_points`` at every end of round left;
    - War of Attrition (OW-V3): nothing (only destroyed points score);
    - Drawn and Quartered (OW-V1): one score point at every end of round left;
    - Field of Glory (OW-V2), Arcane Prize (OW-V5): held at the end decides the battle;
    - Invasion (OW-V4): the objective nearer the centre decides at the end; the other one
      matters only for holding both (a win at once), so it is worth as much as we are sure
      to hold the first;
    - Loot and Plunder (OW-V6): an objective in the enemy's territory is looted by its holder
      at the end of the round; held ones decide at the end.

    Remembered while the state is only read: every unit's worth and objective value asks it.
    """
    return list(
        state.remembered(("openwar.objective_worths", side, w), lambda: _worths(state, side, w))
    )


def _worths(state: GameState, side: int, w: Weights) -> list[float]:
    name = victory.victory_name(state)
    points = [p for _, p in live_points(state)]
    if not points:
        return []
    rounds = rounds_to_score(state)
    big = stake(state, w)
    if name == victory.ATTRITION:
        return [0.0] * len(points)
    if name == victory.QUARTERED:
        return [w.objective * w.score_point * big * rounds] * len(points)
    if name == victory.FIELD:
        return [big / 2.0] * len(points)
    if name == victory.PRIZE:
        return [big] * len(points)
    if name == victory.INVASION:
        centre = np.array([state.board["width"] / 2.0, state.board["depth"] / 2.0])
        near = [float(np.hypot(*(np.asarray(p) - centre))) for p in points]
        first = near.index(min(near))
        # the other one counts only with the first (a win at once): as surely as we hold it
        ours = 1.0 + hold_chance(control_margins(state, side)[first], control_spread(state, w))
        far = w.invasion_far * ours / 2.0
        return [big * (w.invasion_near if d == min(near) else far) for d in near]
    if name == victory.LOOT:
        return [
            big * (w.loot if _in_territory(state, 1 - side, p) or _in_territory(state, side, p)
                   else w.loot_elsewhere)
            for p in points
        ]  # fmt: skip
    return [w.objective * float(state.board.get("objective_points", 0)) * rounds] * len(points)


def objective_value(
    state: GameState, side: int, moved: IntArray | None = None, xy: FloatArray | None = None,
    w: Weights = WEIGHTS, thinned: tuple[str, float] | None = None,
) -> float:  # fmt: skip
    """The objectives' part of ``side``'s expected margin, in points: each objective's worth
    times how surely we (+) or the enemy (-) hold it (:func:`hold_chance`), and the
    condition's decisive patterns (Invasion: both held; Loot and Plunder: objectives looted
    so far; remembered while the state is only read: every order weighs the objectives as
    they stand)."""
    if state.scratch is None:  # no key to build
        return _objective_value(state, side, moved, xy, w, thinned)
    placed = None if moved is None or xy is None else (moved.tobytes(), xy.tobytes())
    key = ("openwar.objective_value", side, placed, w, thinned)
    return state.remembered(key, lambda: _objective_value(state, side, moved, xy, w, thinned))


def _objective_value(
    state: GameState,
    side: int,
    moved: IntArray | None,
    xy: FloatArray | None,
    w: Weights,
    thinned: tuple[str, float] | None,
) -> float:
    margins = control_margins(state, side, moved, xy, thinned)
    held = _held(margins)
    worths = objective_worths(state, side, w)
    spread = control_spread(state, w)
    value = sum(hold_chance(m, spread) * v for m, v in zip(margins, worths, strict=True))
    name = victory.victory_name(state)
    if name == victory.INVASION and len(held) == 2 and held[0] == held[1] != 0:
        value += held[0] * stake(state, w)
    if name == victory.LOOT:
        counts = state.extra.get("loot_count", [0, 0])
        value += w.loot * stake(state, w) * (counts[side] - counts[1 - side])
    return value


@dataclass(frozen=True)
class Gathering:
    """The objective a side gathers its units on (:func:`gathering`)."""

    index: int  # into :func:`live_points`
    worth: float  # :func:`objective_worths`
    margin: float  # :func:`control_margins` now (at most 0: the side does not hold it)

    @property
    def deficit(self) -> float:
        """Miniatures the side lacks to hold it (OW-B14: one more than the enemy)."""
        return 1.0 - self.margin


def gathering(state: GameState, side: int, w: Weights = WEIGHTS) -> Gathering | None:
    """The objective ``side`` should gather on: of the objectives worth holding that it does
    not hold, the most valuable one (then the one lacking fewest miniatures) that its units
    out of combat could outnumber the enemy on by running there within ``w.gather_rounds``
    rounds (when the battle ends within those rounds and the side is not winning, it is
    enough that they make good ``w.desperate_need`` of the deficit: the enemy's miniatures
    there may still leave or fall); None when there is none. No single unit can take an
    objective that a mass holds, and a hold chance that one unit hardly moves gives no unit
    a reason to go: the gathering gives each unit its share of the whole (remembered while
    the state is only read)."""
    return state.remembered(("openwar.gathering", side, w), lambda: _gathering(state, side, w))


def _gathering(state: GameState, side: int, w: Weights) -> Gathering | None:
    points = live_points(state)
    if not points:
        return None
    worths = objective_worths(state, side, w)
    margins = control_margins(state, side)
    wanted = [k for k, (v, m) in enumerate(zip(worths, margins, strict=True)) if v > 0 >= m]
    if not wanted:
        return None
    control = float(state.board.get("control_range", battle_rules().objective_range))
    rounds = min(w.gather_rounds, max(rounds_to_score(state), 1))
    free = [u for u in state.side_units(side) if not orders.in_combat(state, u.id)]
    minis = [state.on_table(u.id) for u in free]
    if not free or not sum(len(m) for m in minis):
        return None
    ours = np.concatenate(minis)
    runs = np.repeat([reach(state, u)[0] * rounds for u in free], [len(m) for m in minis])
    goals = np.asarray([points[k][1] for k in wanted])
    offsets = state.pos[ours][None, :, :] - goals[:, None, :]
    gaps_ = np.hypot(offsets[..., 0], offsets[..., 1]) - state.radius[ours]
    coming = np.count_nonzero((gaps_ > control) & (gaps_ <= control + runs), axis=1).tolist()
    need = w.desperate_need if behind_late(state, side, w.gather_rounds) else 1.0
    best: Gathering | None = None
    for k, count in zip(wanted, coming, strict=True):
        found = Gathering(k, worths[k], margins[k])
        if (
            count > 0
            and count >= found.deficit * need
            and (best is None or (found.worth, found.margin) > (best.worth, best.margin))
        ):
            best = found
    return best


def gathering_gain(
    state: GameState, side: int, margins: list[float], w: Weights = WEIGHTS
) -> float:
    """What ``side``'s control margins becoming ``margins`` (after an order) is worth towards
    its :func:`gathering`: ``w.gather`` of the objective's worth for the whole deficit made
    good, a like share for each miniature of it (none beyond holding it)."""
    goal = gathering(state, side, w)
    if goal is None or goal.index >= len(margins):
        return 0.0
    made_good = min(margins[goal.index], 1.0) - goal.margin
    return w.gather * goal.worth * made_good / goal.deficit


def score_value(state: GameState, side: int, w: Weights = WEIGHTS) -> float:
    """The scores already won, in points (OW-B16, OW-V1)."""
    margin = float(state.scores[side] - state.scores[1 - side])
    if victory.victory_name(state) == victory.QUARTERED:
        return margin * w.score_point * stake(state, w)
    return margin


def wanted_objectives(state: GameState, side: int) -> list[tuple[tuple[float, float], float]]:
    """Objectives worth taking that ``side`` does not hold yet, with their worth (remembered
    while the state is only read: every move of the side's units asks it)."""

    def wanted() -> list[tuple[tuple[float, float], float]]:
        held = holders(state, side)
        worths = objective_worths(state, side)
        points = live_points(state)
        return [(p, v) for h, v, (_, p) in zip(held, worths, points, strict=True) if h <= 0 < v]

    return list(state.remembered(("openwar.wanted_objectives", side), wanted))


def nearest_objective(
    state: GameState, xy: FloatArray, points: list[tuple[float, float]] | None = None
) -> float:
    points = [p for _, p in live_points(state)] if points is None else points
    if not points:
        return 0.0
    middle = xy.mean(axis=0)
    return float(min(np.hypot(*(middle - np.asarray(p))) for p in points))


def nearest_enemy(state: GameState, unit: UnitState, xy: FloatArray) -> float:
    theirs = orders.enemy_minis(state, unit.side)
    if len(theirs) == 0:
        return 0.0
    ours = state.on_table(unit.id)
    return float(gaps(xy, state.radius[ours], state.pos[theirs], state.radius[theirs]).min())


def _objective_gap(state: GameState, members: IntArray, point: tuple[float, float]) -> float:
    """:func:`nearest_objective` of ``point`` from where ``members`` stand now (remembered
    while the state is only read: each move of their unit asks it)."""
    return state.remembered(
        ("openwar.objective_gap", members.tobytes(), point),
        lambda: nearest_objective(state, state.pos[members], [point]),
    )


def _enemy_gap(state: GameState, unit: UnitState, members: IntArray) -> float:
    """:func:`nearest_enemy` of ``unit`` from where ``members`` stand now (remembered while
    the state is only read: each move of the unit asks it)."""
    return state.remembered(
        ("openwar.enemy_gap", unit.id, members.tobytes()),
        lambda: nearest_enemy(state, unit, state.pos[members]),
    )


# -- the evaluation ------------------------------------------------------------------------
class OpenWarEvaluation:
    """Orders and positions of OpenWar valued in points (see the module docstring)."""

    def __init__(self, weights: Weights = WEIGHTS) -> None:
        self.w = weights

    def action_value(self, state: GameState, action: Action) -> float:
        if action.kind == "deploy":
            return self._deploy(state, action)
        value = self._order_value(state, action)
        if not state.extra.get("burning"):
            return value
        unit = state.unit(str(action.unit))
        size = len(state.on_table(unit.id))
        burnt = self._burnt(state, unit, action)
        if burnt == 0:
            return value
        # the burnt miniatures gain nothing where they would have stood
        kept = value * (size - burnt) / size if value > 0 else value
        shaken = unit.tokens.get("shaken", 0)
        cost = loss(state, unit, size - burnt, shaken, self.w) - loss(
            state, unit, size, shaken, self.w
        )
        return kept - cost

    def _burnt(self, state: GameState, unit: UnitState, action: Action) -> int:
        """How many of the unit's miniatures a burning feature would slay where its order
        ends (OW-R4)."""
        members = state.on_table(unit.id)
        xy = state.pos[members]
        if action.point is not None:
            xy = xy + (np.asarray(action.point) - centroid(state, members))
        return int(ruses.burning_near(state, xy, state.radius[members]).sum())

    def _order_value(self, state: GameState, action: Action) -> float:
        unit = state.unit(str(action.unit))
        if action.kind == "regroup":
            return 1000.0  # a split unit may do nothing else
        if action.kind == "skill":
            return self._skill(state, action)
        if action.kind == "run" and action.choice == "retreat":
            return self._retreat(state, unit, action)
        if action.target is not None and action.point is None:
            return self._attack_in_place(state, unit, action)
        if action.point is not None:
            return self._move(state, unit, action)
        return self._hold(state, unit)

    # -- fighting and shooting ---------------------------------------------------------------
    def _attack_in_place(self, state: GameState, unit: UnitState, action: Action) -> float:
        target = str(action.target)
        if orders.in_combat(state, unit.id):
            after = state.clone()
            after.unit(unit.id).tokens["holding"] = 1
            orders.fight_move(after, unit.id, target)
            careful = caution(state, unit.side, self.w)
            return self._melee(after, unit.id, target, careful, holding=True, charged=False)
        pairs = shooters(state, unit.id, target)
        shot = forecast(state, unit.id, target, len(pairs), ranged=True, holding=True, w=self.w)
        holding = pressure(state, unit, state.pos[state.on_table(unit.id)], armor_bonus=1,
                           w=self.w)  # fmt: skip
        taken = self._thinning(state, unit.side, target, shot)
        return (
            shot.value + taken + self.w.rest * bool(unit.tokens.get("exhaustion")) + 0.5 * holding
        )

    def _thinning(self, state: GameState, side: int, target: str, attack: Forecast) -> float:
        """What the attack's expected casualties (and a rout) change of the objectives."""
        enemy = state.unit(target)
        size = max(state.size(target), 1)
        share = max(1.0 - attack.slain / size, 0.0) * (
            1.0 - attack.beaten * self._routs(state, enemy)
        )
        if share >= 1.0 or not live_points(state):
            return 0.0
        return self._objective_change(state, side, thinned=(target, share))

    def _melee(
        self,
        after: GameState,
        unit_id: str,
        target: str,
        careful: float,
        *,
        holding: bool,
        charged: bool,
    ) -> float:
        """Our fight on ``after`` (the position once we moved in), less the share ``careful``
        (:func:`caution`, judged before the order) of the enemy's reply."""
        pairs = fight.fighters(after, unit_id, target)
        ours = forecast(after, unit_id, target, len(pairs), ranged=False, holding=holding,
                        charged=charged, w=self.w)  # fmt: skip
        reply_pairs = fight.fighters(after, target, unit_id)
        enemy = after.unit(target)
        theirs = forecast(after, target, unit_id, len(reply_pairs), ranged=False, w=self.w,
                          charged=False)  # fmt: skip
        size = max(after.size(target), 1)
        survives = max(1.0 - ours.slain / size, 0.0) * (
            1.0 - ours.beaten * self._routs(after, enemy)
        )
        weight = self.w.retaliation * (1.0 if not enemy.flags.get("ordered") else self.w.replied)
        weight *= careful
        taken = self._thinning(after, after.unit(unit_id).side, target, ours)
        return ours.value + taken - weight * survives * max(theirs.value, 0.0)

    def _routs(self, state: GameState, unit: UnitState) -> float:
        if ruses.no_shaken(state, unit.side):
            return 0.0
        return 1.0 if unit.tokens.get("shaken", 0) + 1 >= battle_rules().rout_shaken else 0.0

    def _objective_change(
        self,
        state: GameState,
        side: int,
        *,
        after: GameState | None = None,
        moved: IntArray | None = None,
        xy: FloatArray | None = None,
        thinned: tuple[str, float] | None = None,
    ) -> float:
        """What an order changes of ``side``'s objectives: :func:`objective_value` once it is
        given (on ``after``, or with ``moved`` standing at ``xy``, or the unit ``thinned``)
        less now, and its part of the side's :func:`gathering`."""
        then = state if after is None else after
        change = objective_value(then, side, moved, xy, self.w, thinned)
        change -= objective_value(state, side, w=self.w)
        if gathering(state, side, self.w) is not None:
            margins = control_margins(then, side, moved, xy, thinned)
            change += gathering_gain(state, side, margins, self.w)
        return change

    # -- moving --------------------------------------------------------------------------------
    def _move(self, state: GameState, unit: UnitState, action: Action) -> float:
        assert action.point is not None
        members = state.on_table(unit.id)
        shift = np.asarray(action.point) - centroid(state, members)
        xy = state.pos[members] + shift
        if action.kind == "run" and action.choice == "charge" and action.target:
            return self._charge(state, unit, action, shift) - self.w.run_cost
        if action.choice == "move-fight" and action.target:
            return self._contact(state, unit, action, shift)
        value = self._position_gain(state, unit, members, xy)
        if action.target is not None and action.choice == "move-shoot":
            moved = state.clone()
            moved.pos[members] = xy
            pairs = shooters(moved, unit.id, action.target)
            value += forecast(moved, unit.id, action.target, len(pairs), ranged=True,
                              w=self.w).value  # fmt: skip
        return value - (self.w.run_cost if action.kind == "run" else 0.0)

    def _position_gain(
        self, state: GameState, unit: UnitState, members: IntArray, xy: FloatArray
    ) -> float:
        here = state.pos[members]
        held = self._objective_change(state, unit.side, moved=members, xy=xy)
        goal = gathering(state, unit.side, self.w)
        if goal is None:
            lacking = wanted_objectives(state, unit.side)
        else:  # every unit closes on the gathering
            lacking = [(live_points(state)[goal.index][1], goal.worth)]
        if lacking:
            drive = (
                max(
                    worth * (_objective_gap(state, members, p) - nearest_objective(state, xy, [p]))
                    for p, worth in lacking
                )
                / self.w.approach
            )
        else:
            closer = _enemy_gap(state, unit, members) - nearest_enemy(state, unit, xy)
            drive = self.w.advance * closer
        threat = pressure(state, unit, xy, w=self.w) - pressure(state, unit, here, w=self.w)
        return held + drive + threat

    def _charge(
        self, state: GameState, unit: UnitState, action: Action, shift: FloatArray
    ) -> float:
        after = state.clone()
        members = after.on_table(unit.id)
        after.pos[members] += shift
        after.unit(unit.id).tokens["exhaustion"] = 1
        orders.fight_move(after, unit.id, str(action.target))  # the fight starts as OW-F2
        moved = self._objective_change(state, unit.side, after=after)
        careful = caution(state, unit.side, self.w)
        return moved + self._melee(after, unit.id, str(action.target), careful, holding=False,
                                   charged=True)  # fmt: skip

    def _contact(
        self, state: GameState, unit: UnitState, action: Action, shift: FloatArray
    ) -> float:
        after = state.clone()
        members = after.on_table(unit.id)
        after.pos[members] += shift
        target = str(action.target)
        if target not in orders.enemies_within(after, unit.id, battle_rules().combat_range):
            return self._position_gain(state, unit, members, after.pos[members])
        orders.fight_move(after, unit.id, target)
        moved = self._objective_change(state, unit.side, after=after)
        careful = caution(state, unit.side, self.w)
        return moved + self._melee(after, unit.id, target, careful, holding=False, charged=False)

    # -- other orders --------------------------------------------------------------------------
    def _hold(self, state: GameState, unit: UnitState) -> float:
        here = state.pos[state.on_table(unit.id)]
        guarded = pressure(state, unit, here, armor_bonus=1, w=self.w)
        return (
            self.w.rest * bool(unit.tokens.get("exhaustion"))
            + guarded
            - pressure(state, unit, here, w=self.w)
        )

    def _retreat(self, state: GameState, unit: UnitState, action: Action) -> float:
        """Leaving a fight we are losing: worth the reply we no longer take."""
        assert action.point is not None
        members = state.on_table(unit.id)
        xy = state.pos[members] + (np.asarray(action.point) - centroid(state, members))
        here = state.pos[members]
        gain = pressure(state, unit, xy, w=self.w) - pressure(state, unit, here, w=self.w)
        kept = self._objective_change(state, unit.side, moved=members, xy=xy)
        return gain - self.w.run_cost + kept

    def _skill(self, state: GameState, action: Action) -> float:
        friend = state.unit(str(action.target))
        if friend.flags.get("ordered"):
            return -1.0
        unit_id = str(action.unit)  # OW-P6 Soul Stone; OW-T2 Arcane ground adds to its roll
        fails_on = prize.skill_fails_on(state, unit_id) - scenery.skill_roll_bonus(state, unit_id)
        works = 1.0 - max(fails_on, 0) / 6.0
        if action.choice == battle_rules().command_skills[0]:
            here = state.pos[state.on_table(friend.id)]
            return works * 0.5 * (pressure(state, friend, here, armor_bonus=1, w=self.w)
                                  - pressure(state, friend, here, w=self.w))  # fmt: skip
        return works

    def _deploy(self, state: GameState, action: Action) -> float:
        """Largest units first (they fit in fewest places), towards the enemy and objectives.
        A unit waits in reserve (OW-R3: where it arrives is the rules' choice, not ours) only
        when it has no room to set up: arriving later beats taking no part (OW-B12)."""
        if action.point is None:
            return -999.0 if action.choice == ruses.OUTFLANK else -1000.0
        point = np.asarray(action.point)
        enemy_zone = territory(state, 1 - action.side).polygon.centroid
        to_enemy = float(np.hypot(point[0] - enemy_zone.x, point[1] - enemy_zone.y))
        wanted = [p for p, worth in wanted_objectives(state, action.side)]
        goal = nearest_objective(state, point[None, :], wanted) if wanted else to_enemy
        return 10.0 * state.size(str(action.unit)) - 0.1 * to_enemy - 0.2 * goal

    # -- positions -----------------------------------------------------------------------------
    def position_value(self, state: GameState, side: int) -> float:
        score = score_value(state, side, self.w)
        for unit in state.units:
            if ruses.in_reserve(unit):
                continue  # waiting to arrive (OW-R3), not lost
            sign = 1.0 if unit.side != side else -1.0
            score += sign * current_loss(state, unit)
        if state.phase != "over":
            score += objective_value(state, side, w=self.w)
        return score

    def more_orders(self, state: GameState) -> list[Action]:
        """Legal orders the menu leaves out that are worth weighing, for each unit of the
        side to act out of combat with no order yet and each objective: with
        ``objective_charges``, the Run as near the objective as it reaches when it ends within
        combat range of an enemy, which the rules make a Charge on it (OW-M2; the menu offers
        a Run to an objective only where it ends out of combat, and a Charge only into base
        contact, so an objective held by a few enemies could not be run onto); with
        ``objective_fights``, the Advance that ends so, fighting that enemy (OW-O1)."""
        if not (self.w.objective_charges or self.w.objective_fights) or state.phase != "battle":
            return []
        found: list[Action] = []
        for unit in state.side_units(state.active):
            if unit.flags.get("ordered") or unit.flags.get("split"):
                continue
            if orders.in_combat(state, unit.id) or not len(state.on_table(unit.id)):
                continue
            ways = []
            if self.w.objective_fights:
                ways.append(("advance", orders.move_allowance(state, unit.id), "move-fight"))
            if self.w.objective_charges and not unit.tokens.get("exhaustion"):
                ways.append(("run", orders.run_allowance(state, unit.id), "charge"))
            for kind, limit, choice in ways:
                for goal in objectives(state):
                    found += self._onto(state, unit, goal, kind, limit, choice)
        return found

    def _onto(
        self, state: GameState, unit: UnitState, goal: tuple[float, float], kind: str,
        limit: float, choice: str,
    ) -> list[Action]:  # fmt: skip
        """The order that takes ``unit`` as near ``goal`` as ``limit`` allows and fights the
        nearest enemy it ends in combat with there (none if it ends out of combat: the
        menu's own move to the objective)."""
        members = state.on_table(unit.id)
        point = orders.reachable_point(state, unit.id, np.asarray(goal, float), limit)
        if point is None:
            return []
        xy = state.pos[members] + (np.asarray(point) - centroid(state, members))
        # in combat with room to spare (as orders.enemies_within measures, less the rounding
        # slack): the engine, rounding the positions, finds it so too
        reach = battle_rules().combat_range - ROUNDING_SLACK + OVERLAP_TOLERANCE
        near = []
        for enemy in state.side_units(1 - unit.side):
            theirs = state.on_table(enemy.id)
            if len(theirs):
                gap = float(gaps(xy, state.radius[members], state.pos[theirs],
                                 state.radius[theirs]).min())  # fmt: skip
                if gap <= reach:
                    near.append((gap, enemy.id))
        if not near:
            return []
        return [Action(kind, unit.side, unit.id, min(near)[1], point, choice)]

    def distinct(self, a: Action, b: Action) -> bool:
        """Different units: one unit's orders go in alternation with the enemy's, so which
        unit acts now is the choice the rollouts weigh (its best order the heuristic finds)."""
        return a.unit != b.unit

    def rollout_menu(self, state: GameState) -> list[Action]:
        """The whole legal menu: a side gives one order at a time, so the whole menu is only
        the waiting units' orders, and a rollout's side chooses from it as the heuristic
        player does (the search's own side too, since stop 44: with one unit's orders, the
        nearest the enemy first, the rollouts after "unit A acts now" played the other units
        in an order the player never would, at some 20% less thinking time)."""
        return legal_actions(state)

    def margin_scale(self, state: GameState) -> float:
        return max(self.w.margin * army_points(state), 10.0)

    def search_mode(self, state: GameState, menu: list[Action]) -> SearchMode:
        """Short rollouts for every decision: units act in alternation, so which unit acts
        now is decided again at each order, and a few actions ahead show it."""
        return "short"


EVALUATION = OpenWarEvaluation()
