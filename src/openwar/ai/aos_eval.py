"""Age of Sigmar's evaluation for the AI: actions valued in points of the victory condition.

A position is worth its expected final margin: the points of the enemy's losses less ours (a
destroyed unit all its points, a surviving one a share for every Wound it lost), what the
battleplan's victory condition has scored so far (victory points of Drawn and Quartered,
First Blood's slain Wounds, Loot and Plunder's loot) and the objectives held under it.
Control is the rules' own: the side with more models within range of a marker (each model
counting for its nearest one) takes it, and keeps it until the other side has more.

An action is worth what it changes of that margin. Attacks (shooting, fighting, Arcane Bolt)
use the exact damage distribution of the odds module for every weapon, pooled over the unit
as the rules allocate it, through wards, the wounded model and the battleshock test that
follows. A charge is worth the fight it leads to (the exact 2D6 odds of reaching each target)
less the target's reply; a move is worth the objectives it takes, the shooting and charges it
makes possible this turn, and the enemy attacks it walks into next turn (each enemy's Move
plus the 2D6 odds of its charge, or its weapons' range). Command abilities are worth the
roll or the models they save, less the command point. Each side also gathers on one
objective it can outnumber the holders of (:func:`gathering`, as OpenWar's evaluation does):
every move closes on it and gets its share of taking it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np
import shapely

from openwar.ai.common import army_points, initial_size
from openwar.ai.evaluation import SearchMode
from openwar.dice.notation import DiceExpr, parse_dice
from openwar.dice.pmf import FloatArray, add, die, power, thin
from openwar.engine.actions import Action
from openwar.engine.game import legal_actions
from openwar.engine.space import centroid, gaps
from openwar.engine.state import GameState, IntArray, UnitState
from openwar.rulesets.aos import (
    attacks,
    characteristics,
    garrisons,
    handlers,
    magic,
    menu,
    phases,
)
from openwar.rulesets.aos.board import objectives, territory
from openwar.rulesets.aos.moves import (
    charge_positions,
    enemy_gap,
    file_positions,
    keep_away,
    near_enemy,
    pile_in,
)
from openwar.rulesets.aos.odds import AosAttack, attack_odds
from openwar.rulesets.aos.rules import battle_rules
from openwar.rulesets.aos.setup import formation_at
from openwar.rulesets.aos.wounds import negation_target, templates

FIELD, INVASION, PRIZE, LOOT = "Field of Glory", "Invasion", "Arcane Prize", "Loot and Plunder"
QUARTERED, FIRST_BLOOD = "Drawn and Quartered", "First Blood"
ATTRITION = "War of Attrition"
DISTINCT_GAP = 3.0  # inches between two destinations of one order that the search weighs both
# decisions the search weighs by rollouts through the enemy's next turn (search_mode)
SEARCHED_KINDS = frozenset({"charge", "fight"})
TWO_D6: FloatArray = power(die(6), 2)  # P(2D6 == v), indexed by v


@dataclass(frozen=True)
class Weights:
    """The evaluation's judgement calls (everything else is the rules' own numbers)."""

    material: float = 0.7  # a Wound lost by a unit that survives, as a share of its points
    attrition_fade: float = 1.0  # War of Attrition: share of ``material`` gone by the last round
    battleshock: float = 0.7  # share of the expected flight after casualties that counts
    stake: float = 0.5  # deciding the battle by its condition, as a share of an army's points
    objective: float = 0.8  # share of an objective's worth that holding it now is worth
    field_pair: float = 0.5  # Field of Glory: holding two of three, on top of each one
    invasion_centre: float = 0.8  # Invasion: the objective nearer the centre, of the stake
    invasion_other: float = 0.3  # ... the other one (both at once win at the turn's end)
    loot: float = 0.35  # Loot and Plunder: a looted objective (three win at once)
    held_share: float = 0.3  # Loot and Plunder: an objective held at the end
    vp: float = 0.12  # a Drawn and Quartered victory point, as a share of the stake
    first_blood: float = 1.0  # a First Blood slain Wound, in an army's points per Wound
    retaliation: float = 0.8  # share of the enemy's reply counted against a charge or fight
    preempt: float = 0.7  # share of an enemy's fight we prevent by slaying it first
    now: float = 0.6  # shooting or a charge this turn that a move makes possible
    threat: float = 0.4  # an enemy attack next turn that can reach us
    margin: float = 0.25  # a margin this share of an army's points makes a win ~73% likely
    approach: float = 24.0  # inches: closing this far on an objective we lack is worth holding it
    advance: float = 1.5  # points per inch closer to the nearest enemy, with no objective to take
    command_point: float = 0.015  # a command point, as a share of an army's points
    shield: float = 0.5  # share of the attacks next turn that Mystic Shield's re-rolls count
    double_turn: float = 0.03  # taking two turns in a row, as a share of an army's points
    last_word: float = 0.05  # moving last in the final round (objectives), likewise
    guard: float = 2.0  # models: a held objective's security grows with this many more ...
    guard_bias: float = 1.5  # ... of ours in range than the rival's that could come (logit)
    gather: float = 0.5  # share of the gathering objective's worth, spread over its deficit
    gather_rounds: int = 2  # turns of Moves and runs within which models count towards it


WEIGHTS = Weights()

PLAN_CHANGES: dict[str, dict[str, Any]] = {
    "default": {},
    "bold": {"threat": 0.1, "retaliation": 0.4, "now": 1.0},
    "wary": {"threat": 1.0, "retaliation": 1.2, "now": 0.4},
    "objectives": {"objective": 1.2, "gather": 1.0, "advance": 0.5},
}
"""The search's plans for a turn (:meth:`AosEvaluation.plans`), as changes to the weights:
the default judgement, one that shrugs off the enemy's reply and seizes this turn's attacks,
one that fears the reply and keeps out of reach, one that wants the objectives more than the
enemy."""
PLANS: dict[str, Weights] = {name: replace(WEIGHTS, **c) for name, c in PLAN_CHANGES.items()}


@dataclass(frozen=True)
class Forecast:
    """An attack's expected damage (after wards), models slain, the share of the target's
    models left (battleshock included) and its value in points."""

    damage: float
    slain: float
    survive: float
    value: float


NOTHING = Forecast(0.0, 0.0, 1.0, 0.0)


def at_least_2d6(need: float) -> float:
    """P(2D6 >= need), exactly."""
    k = max(math.ceil(need - 1e-6), 0)
    return float(TWO_D6[k:].sum()) if k < len(TWO_D6) else 0.0


def _memo(state: GameState, w: Weights | None = None) -> dict[Any, Any]:
    """Facts about this state worth keeping while the state is only read (else nothing);
    those that depend on the weights ``w`` kept apart for each set of weights, so that
    evaluations with other weights (the search's plans) may read the same state."""
    if state.scratch is None:
        return {}
    found: dict[Any, Any] = state.scratch.setdefault(
        "aos_eval" if w is None else ("aos_eval", w), {}
    )
    return found


# -- what units are worth ------------------------------------------------------------------
def wounds_of(unit: UnitState) -> int:
    return int(unit.profile["wounds"])


def damage_taken(unit: UnitState) -> int:
    return int(unit.tokens.get("damage", 0)) if unit.flags.get("wounded") is not None else 0


def army_wounds(state: GameState) -> float:
    """The mean Wounds of the two armies as they started (kept with the battle's lookups)."""
    memo = state.lookup().memo
    if "aos_eval.army_wounds" not in memo:
        total = sum(initial_size(state, u.id) * wounds_of(u) for u in state.units)
        memo["aos_eval.army_wounds"] = max(total / 2.0, 1.0)
    return float(memo["aos_eval.army_wounds"])


def stake(state: GameState, w: Weights = WEIGHTS) -> float:
    """What deciding the battle by its victory condition is worth, in points."""
    return w.stake * army_points(state)


def wound_value(state: GameState, w: Weights = WEIGHTS) -> float:
    """First Blood: what one slain Wound scores, in points."""
    return w.first_blood * army_points(state) / army_wounds(state)


def victory_name(state: GameState) -> str:
    return str(state.board.get("victory") or FIRST_BLOOD)


def material(state: GameState, w: Weights = WEIGHTS) -> float:
    """What a Wound lost by a unit that survives costs it, as a share of its points per share
    of its Wounds. War of Attrition scores only destroyed units, so there the share fades
    round by round by ``w.attrition_fade`` of itself at the last."""
    if victory_name(state) != ATTRITION or w.attrition_fade == 0.0:
        return w.material
    total = int(state.board.get("rounds", battle_rules().rounds))
    done = min(max(state.round - 1, 0), total - 1) / max(total - 1, 1)
    return w.material * (1.0 - w.attrition_fade * done)


def losses(unit: UnitState, full: int, left: FloatArray, rem: FloatArray, share: float
           ) -> FloatArray:  # fmt: skip
    """How much of the unit's points the enemy has as good as won with ``left`` models and
    ``rem`` wounds on the wounded one: all once it is destroyed, else ``share`` of its points
    per share of its Wounds lost (see :func:`material`)."""
    kept = left * wounds_of(unit) - rem
    return np.where(left > 0, unit.points * share * (1.0 - kept / max(full, 1)), float(unit.points))


def current_loss(state: GameState, unit: UnitState, w: Weights = WEIGHTS) -> float:
    full = initial_size(state, unit.id) * wounds_of(unit)
    left = np.array([state.size(unit.id)], dtype=np.float64)
    rem = np.array([damage_taken(unit)], dtype=np.float64)
    return float(losses(unit, full, left, rem, material(state, w))[0])


# -- attacks with the exact odds -----------------------------------------------------------
@lru_cache(maxsize=16384)
def damage_pmf(profile: AosAttack) -> tuple[float, ...]:
    """P(damage == d) of one weapon's attacks: the odds module's exact distribution."""
    return tuple(float(p) for p in attack_odds(profile).distribution)


def attack_count(weapon: dict[str, Any], models: int, extra: int = 0) -> DiceExpr:
    """The attacks ``models`` models make with ``weapon``: their Attacks dice summed, plus
    ``extra`` (a champion's)."""
    expr = parse_dice(weapon["attacks"])
    if expr.is_constant:
        return DiceExpr(0, 0, models * expr.modifier + extra)
    return DiceExpr(models * expr.count, expr.sides, models * expr.modifier + extra)


def weapon_profile(
    state: GameState, unit_id: str, target_id: str, weapon: dict[str, Any], missile: bool
) -> AosAttack:
    """The rules' profile of one attack with this weapon (modifiers, cover, re-rolls)."""
    key = ("profile", unit_id, target_id, repr(sorted(weapon.items())), missile)
    memo = _memo(state)
    found: AosAttack | None = memo.get(key)
    if found is None:
        phase = "shooting" if missile else "combat"
        found = memo[key] = attacks.attack_profile(state, unit_id, target_id, weapon, missile,
                                                   phase)  # fmt: skip
    return found


def pooled_damage(
    state: GameState,
    unit_id: str,
    target_id: str,
    uses: list[tuple[dict[str, Any], DiceExpr]],
    missile: bool,
) -> FloatArray:
    """P(total damage == d) of all these weapons (the rules pool it before allocating)."""
    total: FloatArray = np.array([1.0])
    for weapon, count in uses:
        if count.maximum <= 0:
            continue
        base = weapon_profile(state, unit_id, target_id, weapon, missile)
        total = add(total, np.asarray(damage_pmf(replace(base, attacks=count))))
    return total


def actual_uses(
    state: GameState, unit_id: str, target_id: str, missile: bool, names: list[str] | None = None
) -> list[tuple[dict[str, Any], DiceExpr]]:
    """The weapons that can attack the target from where the unit stands (the rules' own
    range, sight and damage-table check) and their exact number of attacks."""
    found = []
    for use in attacks.attackers(state, unit_id, target_id, missile, None, names):
        extra = use.attacks - use.models  # without dice, each model counts 1 plus extras
        found.append((use.weapon, attack_count(use.weapon, use.models, extra)))
    return found


def on_charge(state: GameState, unit_id: str, weapon: dict[str, Any]) -> dict[str, Any]:
    """The weapon as it is in a turn the unit charged (Thundering-Charge-style changes)."""
    return attacks.charged_weapon(state, unit_id, weapon)


def front(state: GameState, unit: UnitState) -> int:
    """Models that can fight when the unit meets an enemy: a rank (two with long weapons)."""
    from openwar.rulesets.aos.phases import longest_melee
    from openwar.rulesets.aos.setup import rank_width

    # each model's damage-table row, as the rules read it (AOS-D8)
    return rank_width(unit) * (2 if longest_melee(state, unit.id) >= 2.0 else 1)


def potential_uses(
    state: GameState, unit: UnitState, missile: bool, charged: bool
) -> list[tuple[dict[str, Any], DiceExpr]]:
    """Every weapon of the unit as if all its models (melee: its front) were in range."""
    members = state.on_table(unit.id)
    if not len(members):
        return []
    models = len(members) if missile else min(len(members), front(state, unit))
    found = []
    for base in unit.profile["missile" if missile else "melee"]:
        weapon = characteristics.model_weapon(state, int(members[0]), base)
        if charged and not missile:
            weapon = on_charge(state, unit.id, weapon)
        found.append((weapon, attack_count(weapon, models)))
    return found


def judge(
    state: GameState,
    target_id: str,
    pmf: FloatArray,
    w: Weights = WEIGHTS,
    battleshock: bool = True,
) -> Forecast:
    """What ``pmf`` (P(damage == d) on the target) is worth: the target's expected loss, over
    the rules' allocation (the wounded model first, ward rolls per wound) and the battleshock
    test its casualties bring; First Blood adds the slain Wounds it scores."""
    unit = state.unit(target_id)
    n = state.size(target_id)
    if n == 0 or len(pmf) <= 1:
        return NOTHING
    members = state.on_table(target_id)
    if len(members):
        ward = negation_target(state, target_id, int(members[0]))
        if ward is not None:
            pmf = thin(pmf, (ward - 1) / 6.0)
    per = wounds_of(unit)
    full = initial_size(state, target_id) * per
    dealt = np.arange(len(pmf), dtype=np.float64)
    total = dealt + damage_taken(unit)
    slain = np.minimum(total // per, n)
    left = n - slain
    rem = np.where(left > 0, total - slain * per, 0.0)
    share = material(state, w)
    before = float(losses(unit, full, np.array([float(n)]), np.array([float(damage_taken(unit))]),
                          share)[0])  # fmt: skip
    after = losses(unit, full, left, rem, share)
    fled = np.zeros_like(dealt)
    if battleshock and w.battleshock > 0.0:
        brave = _bravery(state, target_id)
        already = unit.tokens.get("slain_turn", 0)
        tested = (slain + already) > 0
        faces = np.arange(1, 7, dtype=np.float64)[:, None]  # one row per battleshock roll
        flee = np.clip(faces + already + slain - brave, 0, left) * tested
        shock = losses(unit, full, left - flee, np.where(flee > 0, 0.0, rem), share).mean(axis=0)
        after = (1.0 - w.battleshock) * after + w.battleshock * shock
        fled = w.battleshock * flee.mean(axis=0)
    value = expected(pmf, after) - before
    gone = expected(pmf, slain + fled)
    if victory_name(state) == FIRST_BLOOD:
        value += wound_value(state, w) * per * gone
    return Forecast(expected(pmf, dealt), expected(pmf, slain), max(1.0 - gone / n, 0.0), value)


def expected(pmf: FloatArray, values: FloatArray) -> float:
    """The mean of ``values`` under ``pmf``, as exact IEEE products and numpy's fixed
    pairwise sum (a ``@`` product goes through the BLAS dot kernel the CPU selects, whose
    last bits differ between machines)."""
    return float((pmf * values).sum())


def _bravery(state: GameState, unit_id: str) -> int:
    memo = _memo(state)
    key = ("bravery", unit_id)
    if key not in memo:
        memo[key] = phases.bravery(state, unit_id)
    return int(memo[key])


def bare_profile(
    state: GameState,
    unit: UnitState,
    target: UnitState,
    weapon: dict[str, Any],
    missile: bool,
    shield: bool,
) -> AosAttack:
    """One attack with the weapon on the target's Save, wherever the two may stand (no cover,
    auras or terrain: a threat is weighed before anyone has moved)."""
    from openwar.dice.d6 import Reroll

    save = characteristics.save(state, target)
    shielded = shield or target.flags.get("mystic_shield") is not None
    kinds = ("all", "missile" if missile else "melee")
    mortal = sum(int(t["mortal"]) for t in templates(state, unit.id, "mortal_on_6_hit")
                 if str(t.get("attacks", "all")) in kinds)  # fmt: skip
    return AosAttack(
        hit=int(weapon["to_hit"]), wound=int(weapon["to_wound"]), rend=int(weapon["rend"]),
        damage=parse_dice(weapon["damage"]), save=7 if save is None else int(save),
        reroll_saves=Reroll.ONES if shielded else Reroll.NONE, mortal_on_6_hit=mortal,
    )  # fmt: skip


def potential(
    state: GameState,
    unit: UnitState,
    target_id: str,
    missile: bool,
    charged: bool,
    w: Weights,
    shield: bool = False,
) -> Forecast:
    """The unit's attack on the target with every weapon (melee: its front), as if in range
    (with ``shield``: the target re-rolls save rolls of 1)."""
    key = ("potential", unit.id, target_id, missile, charged, shield)
    memo = _memo(state, w)
    found: Forecast | None = memo.get(key)
    if found is None:
        target = state.unit(target_id)
        total: FloatArray = np.array([1.0])
        for weapon, count in potential_uses(state, unit, missile, charged):
            if count.maximum > 0:
                profile = bare_profile(state, unit, target, weapon, missile, shield)
                total = add(total, np.asarray(damage_pmf(replace(profile, attacks=count))))
        found = memo[key] = judge(state, target_id, total, w)
    return found


# -- reach: who can attack whom --------------------------------------------------------------
def move_of(state: GameState, unit: UnitState) -> float:
    """The Move characteristic (a random one at its mean)."""
    return parse_dice(characteristics.move_text(state, unit)).mean


def shooting_range(state: GameState, unit: UnitState) -> float:
    members = state.on_table(unit.id)
    if not len(members):
        return -1.0
    return max(
        (float(characteristics.model_weapon(state, int(members[0]), w)["range"])
         for w in unit.profile["missile"]),
        default=-1.0,
    )  # fmt: skip


def charge_bonus(state: GameState) -> int:
    return battle_rules().eager_bonus if state.board.get("twist") == "Eager for Battle" else 0


def charge_odds(state: GameState, gap: float) -> float:
    """P(a charge roll brings a unit ``gap`` away within 1/2" of its target), exactly."""
    rules = battle_rules()
    if gap > rules.charge_range + 1e-6:
        return 0.0
    return at_least_2d6(gap - rules.charge_contact / 2.0 - charge_bonus(state))


def next_turn_reach(state: GameState, enemy: UnitState, gap: float) -> tuple[float, bool]:
    """(P(it fights us), whether it can shoot us) in its next turn: within 3" it fights; else
    it moves up to its Move (never within 3") and charges with 2D6; it shoots after moving up
    to its Move unless its weapons forbid it."""
    rules = battle_rules()
    move, reach = _reach(state, enemy)
    if gap <= rules.enemy_gap + 1e-6:
        fights = 1.0
    else:
        fights = charge_odds(state, max(gap - move, rules.enemy_gap + 0.01))
    return fights, bool(reach >= 0 and gap <= reach)


def _reach(state: GameState, unit: UnitState) -> tuple[float, float]:
    """(Move, how far away it can shoot next turn: range plus Move unless it must not move)."""
    memo = _memo(state)
    key = ("reach", unit.id)
    found: tuple[float, float] | None = memo.get(key)
    if found is None:
        move, reach = move_of(state, unit), shooting_range(state, unit)
        if reach >= 0 and not templates(state, unit.id, "no_shooting_after_moving"):
            reach += move
        found = memo[key] = (move, reach)
    return found


def gaps_from(state: GameState, unit: UnitState, xy: FloatArray) -> dict[str, float]:
    """The gap from the unit standing at ``xy`` to each enemy unit on the table."""
    ours = state.on_table(unit.id)
    theirs = state.side_miniatures(1 - unit.side)
    if not len(theirs) or len(ours) != len(xy):
        return {}
    nearest = gaps(xy, state.radius[ours], state.pos[theirs], state.radius[theirs]).min(axis=0)
    owner = state.unit_of[theirs]
    best = np.full(len(state.units), np.inf)
    np.minimum.at(best, owner, nearest)
    return {state.units[int(k)].id: float(best[k]) for k in np.flatnonzero(np.isfinite(best))}


def exposure(
    state: GameState, unit: UnitState, xy: FloatArray, w: Weights, shield: bool = False
) -> float:
    """What the enemy's attacks next turn are expected to cost us if the unit stood at ``xy``
    (with Mystic Shield: save rolls of 1 re-rolled)."""
    total = 0.0
    for enemy_id, gap in gaps_from(state, unit, xy).items():
        enemy = state.unit(enemy_id)
        fights, shoots = next_turn_reach(state, enemy, gap)
        if fights > 0.0:
            total += fights * max(_threat(state, enemy, unit, False, shield, w), 0.0)
        if shoots:
            total += max(_threat(state, enemy, unit, True, shield, w), 0.0)
    return w.threat * total


def _threat(
    state: GameState, enemy: UnitState, unit: UnitState, missile: bool, shield: bool, w: Weights
) -> float:
    return potential(state, enemy, unit.id, missile, not missile, w, shield).value


def opportunity(
    state: GameState,
    unit: UnitState,
    xy: FloatArray,
    w: Weights,
    *,
    can_shoot: bool,
    can_charge: bool,
) -> float:
    """The best shooting and the best charge (or fight) the unit could make this turn from
    ``xy``: the exact odds of the charge roll times the fight less the target's reply."""
    rules = battle_rules()
    reach = shooting_range(state, unit) if can_shoot else -1.0
    best_shot = best_fight = 0.0
    for enemy_id, gap in gaps_from(state, unit, xy).items():
        if reach >= 0.0 and gap <= reach:
            best_shot = max(best_shot, potential(state, unit, enemy_id, True, False, w).value)
        if gap <= rules.enemy_gap + 1e-6:
            odds, charged = 1.0, False
        elif can_charge:
            odds, charged = charge_odds(state, gap), True
        else:
            continue
        if odds <= 0.0:
            continue
        ours = potential(state, unit, enemy_id, False, charged, w)
        reply = potential(state, state.unit(enemy_id), unit.id, False, False, w).value
        fight = ours.value - w.retaliation * ours.survive * max(reply, 0.0)
        best_fight = max(best_fight, odds * fight)
    return best_shot + best_fight


# -- objectives, per victory condition -----------------------------------------------------
def holders(
    state: GameState,
    side: int,
    moved: IntArray | None = None,
    xy: FloatArray | None = None,
    thinned: dict[str, float] | None = None,
) -> list[float]:
    """For each objective: +1 held by ``side`` at the next control check, -1 by the enemy, 0
    by nobody (see :func:`control`)."""
    return control(state, side, moved, xy, thinned)[0]


def control(
    state: GameState,
    side: int,
    moved: IntArray | None = None,
    xy: FloatArray | None = None,
    thinned: dict[str, float] | None = None,
    w: Weights = WEIGHTS,
) -> tuple[list[float], list[float]]:
    """(holders, security) of each objective, with the models ``moved`` standing at ``xy``
    and the units of ``thinned`` reduced to that share of their models (an attack's expected
    survivors). Holders: +1 held by ``side`` at the next control check, -1 by the enemy, 0 by
    nobody; the rules' control: each model counts for its nearest marker, more models take
    it, else it stays with its holder. Security: the chance its holder keeps it, from its
    models in range against the rival's models that could be in range after a Move and a
    run at its mean roll."""
    found = tally(state, moved, xy, thinned)
    if found is None:
        return [], []
    held, counts, reachable = found
    signs, security = [], []
    for k, h in enumerate(held):
        signs.append(0.0 if h is None else (1.0 if h == side else -1.0))
        if h is None:
            security.append(0.0)
            continue
        edge = (counts[h, k] - reachable[1 - h, k]) / w.guard + w.guard_bias
        security.append(1.0 / (1.0 + math.exp(-edge)))
    return signs, security


def tally(
    state: GameState,
    moved: IntArray | None = None,
    xy: FloatArray | None = None,
    thinned: dict[str, float] | None = None,
) -> tuple[list[int | None], FloatArray, FloatArray] | None:
    """(the side holding each objective at the next control check or None, each side's models
    counting for it (2, k), each side's models that could be in its range after a Move and a
    mean run (2, k)), as :func:`control` reads them; None when there are no objectives.
    Remembered while the state is only read: a move's objectives and its part of the
    gathering both ask it."""
    key = None
    if thinned is None:
        key = ("tally", None if moved is None else moved.tobytes(),
               None if xy is None else np.asarray(xy, dtype=np.float64).tobytes())  # fmt: skip
    memo = _memo(state)
    if key in memo:
        known: tuple[list[int | None], FloatArray, FloatArray] | None = memo[key]
        return known
    found = _tally(state, moved, xy, thinned)
    if key is not None:
        memo[key] = found
    return found


def _control_range(state: GameState) -> float:
    return float(state.board.get("control_range", battle_rules().objective_range))


def _tally(
    state: GameState,
    moved: IntArray | None,
    xy: FloatArray | None,
    thinned: dict[str, float] | None,
) -> tuple[list[int | None], FloatArray, FloatArray] | None:
    points = objectives(state)
    if not points:
        return None
    pos, live = state.pos, state.alive & state.deployed
    if moved is not None and xy is not None:
        pos, live = pos.copy(), live.copy()
        pos[moved] = xy
        live[moved] = True
        carrier = state.extra.get("prize", {}).get("carrier")
        if carrier is not None and int(carrier) in set(moved.tolist()):
            r = float(state.radius[carrier])
            points = [(float(pos[carrier][0]), float(pos[carrier][1]) + r), *points[1:]]
    weight = live.astype(np.float64)
    for unit_id, share in (thinned or {}).items():
        weight[state.members(unit_id)] *= share
    minis = np.flatnonzero(weight > 0.0)
    held = list(state.extra.get("control") or [None] * len(points))[: len(points)]
    counts = np.zeros((2, len(points)))
    reachable = np.zeros((2, len(points)))
    if len(minis):
        marks = np.asarray(points, dtype=np.float64)
        d = np.hypot(
            pos[minis, None, 0] - marks[None, :, 0], pos[minis, None, 1] - marks[None, :, 1]
        )
        d -= state.radius[minis, None]
        nearest = np.argmin(d, axis=1)
        reach = _control_range(state)
        ok = d[np.arange(len(minis)), nearest] <= reach + 1e-6
        sides = state.lookup().side_of[minis]
        np.add.at(counts, (sides[ok], nearest[ok]), weight[minis][ok])
        near = d <= reach + _mini_moves(state)[minis, None]
        for s in (0, 1):
            reachable[s] = (near[sides == s] * weight[minis][sides == s, None]).sum(axis=0)
        for k in range(len(points)):
            if abs(counts[0, k] - counts[1, k]) > 1e-9:
                held[k] = int(np.argmax(counts[:, k]))
    return held, counts, reachable


@dataclass(frozen=True)
class Gathering:
    """The objective a side gathers its units on (:func:`gathering`)."""

    index: int  # into the board's objectives
    worth: float  # :func:`worth` to the side
    margin: float  # the side's models counting for it less the enemy's now

    @property
    def deficit(self) -> float:
        """Models the side lacks to take it: one more than the enemy's."""
        return 1.0 - self.margin


def gathering(state: GameState, side: int, w: Weights = WEIGHTS) -> Gathering | None:
    """The objective ``side`` should gather on: of the objectives worth taking that it does
    not hold, the most valuable one (then the one lacking fewest models) that its units not
    within 3" of an enemy could outnumber the enemy on by moving and running there within
    ``w.gather_rounds`` turns; None when there is none (remembered while the state is only
    read). A mass no single unit can outnumber gives no unit a reason to go on its own."""
    memo = _memo(state, w)
    key = ("gathering", side)
    if key not in memo:
        memo[key] = _gathering(state, side, w)
    found: Gathering | None = memo[key]
    return found


def _gathering(state: GameState, side: int, w: Weights) -> Gathering | None:
    if w.gather == 0.0:
        return None
    found = tally(state)
    if found is None:
        return None
    held, counts, _ = found
    free = [u.id for u in state.side_units(side) if not near_enemy(state, u.id)]
    ours = np.concatenate([state.on_table(uid) for uid in free]) if free else np.zeros(0, int)
    if not len(ours):
        return None
    rounds = min(w.gather_rounds, max(scorings_left(state, side), 1))
    travel = _mini_moves(state)[ours] * rounds
    reach = _control_range(state)
    best: Gathering | None = None
    for k, point in enumerate(objectives(state)):
        value = worth(state, k, side, w)
        if held[k] == side or value <= 0.0:
            continue
        goal = Gathering(k, value, float(counts[side, k] - counts[1 - side, k]))
        gap = np.hypot(*(state.pos[ours] - np.asarray(point)).T) - state.radius[ours]
        coming = int(np.count_nonzero((gap > reach) & (gap <= reach + travel)))
        if coming >= goal.deficit and (
            best is None or (goal.worth, goal.margin) > (best.worth, best.margin)
        ):
            best = goal
    return best


def gathering_gain(
    state: GameState,
    side: int,
    moved: IntArray | None,
    xy: FloatArray | None,
    w: Weights = WEIGHTS,
    thinned: dict[str, float] | None = None,
) -> float:
    """What the models ``moved`` standing at ``xy`` (or the enemy models an attack is
    expected to slay: ``thinned``, each unit's share left) are worth towards ``side``'s
    :func:`gathering`: ``w.gather`` of the objective's worth for the whole deficit made good,
    a like share for each model of it (none beyond taking it)."""
    goal = gathering(state, side, w)
    found = None if goal is None else tally(state, moved, xy, thinned)
    if goal is None or found is None:
        return 0.0
    counts = found[1]
    margin = float(counts[side, goal.index] - counts[1 - side, goal.index])
    return w.gather * w.objective * goal.worth * (min(margin, 1.0) - goal.margin) / goal.deficit


def _mini_moves(state: GameState) -> FloatArray:
    """How far each model could go in its next movement phase: Move and a mean run."""
    memo = _memo(state)
    found: FloatArray | None = memo.get("mini_moves")
    if found is None:
        per_unit = np.array([_reach(state, u)[0] + 3.5 for u in state.units])
        found = memo["mini_moves"] = per_unit[state.unit_of]
    return found


def scorings_left(state: GameState, side: int) -> int:
    """Ends of ``side``'s turns still to come (Drawn and Quartered scores at each)."""
    total = int(state.board.get("rounds", battle_rules().rounds))
    if state.round < 1 or state.extra.get("first") is None:
        return total
    later = max(total - state.round, 0)
    turn, first = state.extra.get("turn"), state.extra.get("first")
    this_round = turn == side or (turn == first and side != first)
    return later + (1 if this_round else 0)


def worth(state: GameState, k: int, holder: int, w: Weights = WEIGHTS) -> float:
    """What holding objective ``k`` is worth to ``holder`` under the victory condition."""
    name, big = victory_name(state), stake(state, w)
    points = objectives(state)
    if name == FIELD:
        return big / 2.0
    if name == PRIZE:
        return big
    if name == INVASION:
        centre = np.array([state.board["width"] / 2.0, state.board["depth"] / 2.0])
        near = [float(np.hypot(*(np.asarray(p) - centre))) for p in points]
        return big * (w.invasion_centre if near[k] == min(near) else w.invasion_other)
    if name == LOOT:
        looted = territory(state, 1 - holder).covers(shapely.Point(*points[k]))
        return big * (w.loot if looted else w.held_share)
    if name == QUARTERED:
        return w.vp * big * scorings_left(state, holder)
    return 0.0


def objective_value(
    state: GameState,
    side: int,
    moved: IntArray | None = None,
    xy: FloatArray | None = None,
    thinned: dict[str, float] | None = None,
    w: Weights = WEIGHTS,
) -> float:
    """The objectives' part of ``side``'s expected margin, in points (see :func:`worth`),
    and the condition's decisive patterns (Field of Glory: two held; Invasion: both)."""
    held, security = control(state, side, moved, xy, thinned, w)
    if not held:
        return 0.0
    value = 0.0
    for k, (h, keep) in enumerate(zip(held, security, strict=True)):
        if h > 0:
            value += worth(state, k, side, w) * keep
        elif h < 0:
            value -= worth(state, k, 1 - side, w) * keep
    name, big = victory_name(state), stake(state, w)
    ours, theirs = held.count(1.0), held.count(-1.0)
    if name == FIELD:
        value += w.field_pair * big * ((ours >= 2) - (theirs >= 2))
    if name == INVASION and len(held) == 2:
        value += big * ((ours == 2) - (theirs == 2))
    return w.objective * value


def score_value(state: GameState, side: int, w: Weights = WEIGHTS) -> float:
    """What the victory condition has scored so far, in points."""
    name, other = victory_name(state), 1 - side
    extra = state.extra
    if name == QUARTERED:
        return w.vp * stake(state, w) * float(extra["vp"][side] - extra["vp"][other])
    if name == LOOT:
        return w.loot * stake(state, w) * float(extra["looted"][side] - extra["looted"][other])
    if name == FIRST_BLOOD:
        margin = float(extra["slain_wounds"][side] - extra["slain_wounds"][other])
        return wound_value(state, w) * margin
    return 0.0


def wanted(state: GameState, side: int, w: Weights = WEIGHTS) -> list[tuple[FloatArray, float]]:
    """Objectives worth taking (or securing) for ``side``: their marker and what it lacks of
    their worth (all of it if we will not hold it, else the chance we lose it)."""
    held, security = control(state, side, w=w)
    found = []
    for k, (h, keep, p) in enumerate(zip(held, security, objectives(state), strict=True)):
        lacking = worth(state, k, side, w) * ((1.0 - keep) if h > 0 else 1.0)
        if lacking > 0.0:
            found.append((np.asarray(p), lacking))
    return found


def distance_to(xy: FloatArray, point: FloatArray) -> float:
    return float(np.hypot(*(xy.mean(axis=0) - point)))


def nearest_enemy(state: GameState, unit: UnitState, xy: FloatArray) -> float:
    found = gaps_from(state, unit, xy)
    return min(found.values()) if found else 0.0


# -- the evaluation ------------------------------------------------------------------------
def one_unit_menu(state: GameState) -> list[Action] | None:
    """:meth:`AosEvaluation.rollout_menu` without building the whole menu, where that is
    simple: in the movement phase the on-table unit nearest the enemy with a move (none is
    left to the whole menu: reserves, no enemy on the table, a phase that cannot end);
    in the shooting phase the first unit with a target. ``None``: build the whole menu."""
    side = state.active
    end = Action("end_phase", side)
    if state.phase == "shooting":
        for unit in state.side_units(side):
            shots = menu.unit_shots(state, unit)
            if shots:
                return [*shots, end]
        return [end]
    if state.phase != "movement" or handlers.must_arrive(state):
        return None
    units = state.side_units(side)
    near = sorted(range(len(units)), key=lambda k: (enemy_gap(state, units[k].id), k))
    for k in near:
        if not math.isfinite(enemy_gap(state, units[k].id)):
            return None
        moves = menu.unit_moves(state, units[k])
        if moves:
            return [*moves, end]
    return None


class AosEvaluation:
    """Actions and positions of Age of Sigmar valued in points (see the module docstring)."""

    def __init__(self, weights: Weights = WEIGHTS) -> None:
        self.w = weights
        self._plans: dict[str, AosEvaluation] | None = None

    def plans(self) -> dict[str, AosEvaluation]:
        """The judgements the search player may play a turn of its side's by (:data:`PLANS`):
        this evaluation first, as "default", then the others, each this evaluation with
        another few weights."""
        if self._plans is None:
            self._plans = {
                name: AosEvaluation(replace(self.w, **changes)) if changes else self
                for name, changes in PLAN_CHANGES.items()
            }
        return self._plans

    def action_value(self, state: GameState, action: Action) -> float:
        with state.reading():
            return self._value(state, action)

    def _value(self, state: GameState, action: Action) -> float:
        kind = action.kind
        simple = {
            "deploy": self._deploy,
            "reserve": self._deploy,
            "first_turn": self._first_turn,
            "cast": self._cast,
            "unbind": self._unbind,
            "sacrifice": self._sacrifice,
            "firestarter": self._firestarter,
            "move": self._move,
            "run": self._run,
            "run_move": self._run_move,
            "at_the_double": self._at_the_double,
            "garrison": self._garrison,
            "arrive": self._arrive,
            "reinforce": self._arrive,
            "shoot": self._shoot,
            "charge": self._charge,
            "charge_move": self._charge_move,
            "forward_to_victory": self._forward,
            "fight": self._fight,
            "allocate": self._allocate,
            "flee": self._allocate,
            "inspiring_presence": self._inspiring,
            "hold_fast": self._inspiring,
        }
        handler = simple.get(kind)
        if handler is None:
            return 0.1 if kind == "roll_move" else 0.0  # end_phase, done, no_unbind
        return handler(state, action)

    def cp_cost(self, state: GameState) -> float:
        """A command point: worth less as the battle runs out (none are kept at the end) and
        when several are in hand."""
        total = int(state.board.get("rounds", battle_rules().rounds))
        left = max(total - max(state.round, 1) + 1, 0) / max(total, 1)
        side = state.active
        spare = max(int(state.extra["cp"][side]) - 1, 0)
        return self.w.command_point * army_points(state) * left / (1.0 + 0.5 * spare)

    # -- set-up and the first turn -----------------------------------------------------------
    def _deploy(self, state: GameState, action: Action) -> float:
        """Largest units first (they fit in fewest places), towards the most valuable
        objective we lack, the nearest of equals (else the enemy); ambushes, reserves and
        garrisons only where they help."""
        unit = state.unit(str(action.unit))
        base = 2.0 * state.size(unit.id)
        if action.kind == "reserve" or action.choice == "no room":
            return base - 30.0
        if (action.choice or "").startswith("garrison"):
            return base + (5.0 if unit.profile["missile"] else -30.0)
        if action.point is None:
            return base - 30.0
        point = np.asarray(action.point)
        enemy = territory(state, 1 - action.side).centroid
        to_enemy = float(np.hypot(point[0] - enemy.x, point[1] - enemy.y))
        lacking = wanted(state, action.side, self.w)
        top = max((worth for _, worth in lacking), default=0.0)
        goals = [p for p, worth in lacking if worth >= top - 1e-9]
        goal = min((float(np.hypot(*(point - p))) for p in goals), default=to_enemy)
        value = base - 0.1 * to_enemy - 0.3 * goal
        return value - (15.0 if action.choice == "ambush" else 0.0)

    def _first_turn(self, state: GameState, action: Action) -> float:
        """Two turns in a row for the side that went second last round; the last word on the
        objectives for the side that goes second in the final round."""
        side = action.side
        first = side if action.choice == "first" else 1 - side
        value = 0.0
        last_first = state.extra.get("first")
        if state.round > 1 and last_first is not None and last_first != side:
            value += self.w.double_turn * army_points(state) * (1.0 if first == side else -1.0)
        final = state.round >= int(state.board.get("rounds", battle_rules().rounds))
        if final and objectives(state):
            value += self.w.last_word * army_points(state) * (1.0 if first != side else -1.0)
        return value + (0.01 if action.choice == "first" else 0.0)

    # -- the hero phase --------------------------------------------------------------------
    def _spell_effect(self, state: GameState, caster: str, spell: str, target: str, roll: int
                      ) -> float:  # fmt: skip
        """A cast spell's value: Arcane Bolt's mortal wounds (D3 on a big roll) through the
        target's ward; Mystic Shield's re-rolls against the attacks its target faces."""
        found = battle_rules().spell(spell)
        unit = state.unit(target)
        if found.target == "friend":
            if unit.flags.get("mystic_shield") is not None:
                return 0.0
            here = state.pos[state.on_table(target)]
            saved = exposure(state, unit, here, self.w) - exposure(state, unit, here, self.w, True)
            return self.w.shield * saved / max(self.w.threat, 1e-9)
        amount = parse_dice(found.mortal_wounds).distribution
        if found.big_roll is not None and roll >= found.big_roll and found.big_mortal_wounds:
            amount = parse_dice(found.big_mortal_wounds).distribution
        return judge(state, target, np.asarray(amount, dtype=np.float64), self.w).value

    def _cast(self, state: GameState, action: Action) -> float:
        """Over the exact 2D6 casting roll: cast, not unbound by the best enemy wizard in
        range, and the spell's effect at that roll."""
        caster, spell = str(action.unit), str(action.choice)
        needed = battle_rules().spell(spell).casting_value
        bonus = magic.roll_modifier(state, caster, "cast")
        pending = {"caster": caster, "spell": spell, "target": action.target, "roll": 0}
        unbinders = magic.unbinders(state, pending)
        unbind_bonus = max((magic.roll_modifier(state, u, "unbind") for u in unbinders), default=0)
        big = battle_rules().spell(spell).big_roll
        effects = {
            band: self._spell_effect(state, caster, spell, str(action.target), band)
            for band in {needed, needed if big is None else max(big, needed)}
        }
        value = 0.0
        for face, p in enumerate(TWO_D6):
            roll = face + bonus
            if p <= 0.0 or roll < needed:
                continue
            kept = 1.0 - at_least_2d6(roll + 1 - unbind_bonus) if unbinders else 1.0
            band = needed if big is None or roll < big else max(big, needed)
            value += p * kept * effects[band]
        return value

    def _unbind(self, state: GameState, action: Action) -> float:
        pending = state.extra["pending"]
        roll = int(pending["roll"])
        odds = at_least_2d6(roll + 1 - magic.roll_modifier(state, str(action.unit), "unbind"))
        effect = self._spell_effect(state, str(pending["caster"]), str(pending["spell"]),
                                    str(pending["target"]), roll)  # fmt: skip
        return odds * effect

    def _sacrifice(self, state: GameState, action: Action) -> float:
        """D3 mortal wounds on our own unit for re-rolls of 1 to hit: only its cost counts."""
        pmf = np.asarray(parse_dice("D3").distribution, dtype=np.float64)
        return -judge(state, str(action.unit), pmf, self.w).value

    def _firestarter(self, state: GameState, action: Action) -> float:
        """Models within 1" of the burning feature at the end of their movement phase are
        slain: worth the enemy models standing there now less ours."""
        from openwar.rulesets.aos.board import base_to_shape, terrain

        shape = terrain(state)[int(str(action.choice))]
        value = 0.0
        for unit in state.units:
            members = state.on_table(unit.id)
            if not len(members):
                continue
            near = base_to_shape(shape, state.pos[members], state.radius[members])
            share = float(np.mean(near <= battle_rules().burning_range))
            sign = 1.0 if unit.side != action.side else -1.0
            value += sign * 0.5 * share * unit.points
        return value

    # -- moving ----------------------------------------------------------------------------
    def _position_gain(
        self,
        state: GameState,
        unit: UnitState,
        xy: FloatArray,
        *,
        can_shoot: bool,
        can_charge: bool,
        stay_shoot: bool,
        stay_charge: bool,
    ) -> float:
        """Moving the unit to ``xy`` rather than leaving it: objectives taken, the drive to
        those we lack (else towards the enemy), and this turn's attacks less next turn's."""
        members = state.on_table(unit.id)
        here = state.pos[members]
        w = self.w
        held = objective_value(state, unit.side, members, xy, w=w)
        held -= self._objectives(state, unit.side)
        lacking = wanted(state, unit.side, w)
        goal = gathering(state, unit.side, w)
        if goal is not None:  # every unit closes on the gathering and gets its share
            held += gathering_gain(state, unit.side, members, xy, w)
            point = np.asarray(objectives(state)[goal.index])
            drive = goal.worth * (distance_to(here, point) - distance_to(xy, point)) / w.approach
        elif lacking:
            drive = (
                max(worth * (distance_to(here, p) - distance_to(xy, p)) for p, worth in lacking)
                / w.approach
            )
        else:
            drive = w.advance * (nearest_enemy(state, unit, here) - nearest_enemy(state, unit, xy))
        now = opportunity(state, unit, xy, w, can_shoot=can_shoot, can_charge=can_charge)
        memo = _memo(state, w)
        key = ("staying", unit.id, stay_shoot, stay_charge)
        if key not in memo:
            memo[key] = (
                opportunity(state, unit, here, w, can_shoot=stay_shoot, can_charge=stay_charge),
                exposure(state, unit, here, w),
            )
        before, exposed = (float(v) for v in memo[key])
        threat = exposure(state, unit, xy, w) - exposed
        return held + drive + w.now * (now - before) - threat

    def _objectives(self, state: GameState, side: int) -> float:
        memo = _memo(state, self.w)
        key = ("objectives", side)
        if key not in memo:
            memo[key] = objective_value(state, side, w=self.w)
        return float(memo[key])

    def _shifted(self, state: GameState, unit: UnitState, point: tuple[float, float]
                 ) -> FloatArray:  # fmt: skip
        members = state.on_table(unit.id)
        shift = np.asarray(point) - centroid(state, members)
        return np.asarray(state.pos[members] + shift, dtype=np.float64)

    def _shoots_after_moving(self, state: GameState, unit: UnitState) -> bool:
        return bool(unit.profile["missile"]) and not templates(
            state, unit.id, "no_shooting_after_moving"
        )

    def _stay_flags(self, state: GameState, unit: UnitState) -> tuple[bool, bool]:
        """(can it still shoot, can it still charge) this turn if it does not move."""
        gone = bool(unit.flags.get("ran") or unit.flags.get("retreated"))
        shoot = bool(unit.profile["missile"]) and not unit.flags.get("shot") and not gone
        return shoot, not unit.flags.get("charge_tried") and not gone

    def _move(self, state: GameState, action: Action) -> float:
        assert action.point is not None
        unit = state.unit(str(action.unit))
        stay_shoot, stay_charge = self._stay_flags(state, unit)
        if action.choice == "leave":
            xy = self._left(state, unit, action.point)
        else:
            found = self._ends(state, unit, action)
            if found is None:
                return -math.inf
            xy = found
        retreat = action.choice == "retreat"
        return self._position_gain(
            state, unit, xy,
            can_shoot=not retreat and stay_shoot and self._shoots_after_moving(state, unit),
            can_charge=not retreat and stay_charge,
            stay_shoot=stay_shoot, stay_charge=stay_charge,
        )  # fmt: skip

    def _left(self, state: GameState, unit: UnitState, point: tuple[float, float]) -> FloatArray:
        after = state.clone()
        garrisons.leave(after, unit.id, point)
        return np.asarray(after.pos[state.on_table(unit.id)], dtype=np.float64)

    def _best_run(self, state: GameState, unit: UnitState, limit: float) -> float:
        from openwar.rulesets.aos.menu import move_points

        memo = _memo(state, self.w)
        key = ("best_run", unit.id, limit)
        if key in memo:
            return float(memo[key])
        stay_shoot, stay_charge = self._stay_flags(state, unit)
        best = self._stand_after_run(state, unit)
        way = "retreat" if near_enemy(state, unit.id) else "run"  # a run is a retreat there
        for point in move_points(state, unit, limit, way):
            xy = self._shifted(state, unit, point)
            gain = self._position_gain(state, unit, xy, can_shoot=False, can_charge=False,
                                       stay_shoot=stay_shoot, stay_charge=stay_charge)  # fmt: skip
            best = max(best, gain)
        memo[key] = best
        return best

    def _stand_after_run(self, state: GameState, unit: UnitState) -> float:
        """A run that ends where the unit stands: no ground gained, and no shooting or charge
        this turn (what it could have done staying is lost)."""
        stay_shoot, stay_charge = self._stay_flags(state, unit)
        here = state.pos[state.on_table(unit.id)]
        return self._position_gain(state, unit, here, can_shoot=False, can_charge=False,
                                   stay_shoot=stay_shoot, stay_charge=stay_charge)  # fmt: skip

    def _run(self, state: GameState, action: Action) -> float:
        """The best run at the mean roll (no shooting or charging after it)."""
        unit = state.unit(str(action.unit))
        limit = move_of(state, unit) + 3.5 + handlers.run_bonus(state, unit)
        return self._best_run(state, unit, limit)

    def _ends(self, state: GameState, unit: UnitState, action: Action) -> FloatArray | None:
        """Where a move or run leaves the unit's models: the block shifted to its point, or,
        made model by model (AOS-B8), each model's own end (None if it cannot be made)."""
        assert action.point is not None
        if action.choice != "file":
            return self._shifted(state, unit, action.point)
        limit = handlers.move_limit(state, unit, action)
        return file_positions(state, unit.id, np.asarray(action.point), limit, keep_away())

    def _run_move(self, state: GameState, action: Action) -> float:
        unit = state.unit(str(action.unit))
        if action.point is None:
            return self._stand_after_run(state, unit)
        stay_shoot, stay_charge = self._stay_flags(state, unit)
        xy = self._ends(state, unit, action)
        if xy is None:
            return -math.inf
        return self._position_gain(state, unit, xy, can_shoot=False, can_charge=False,
                                   stay_shoot=stay_shoot, stay_charge=stay_charge)  # fmt: skip

    def _at_the_double(self, state: GameState, action: Action) -> float:
        pending = state.extra["pending"]
        unit = state.unit(str(pending["unit"]))
        base = move_of(state, unit) + int(pending["bonus"])
        gain = self._best_run(state, unit, base + 6) - self._best_run(
            state, unit, base + int(pending["roll"])
        )
        return gain - self.cp_cost(state)

    def _garrison(self, state: GameState, action: Action) -> float:
        unit = state.unit(str(action.unit))
        after = state.clone()
        garrisons.enter(after, unit.id, int(str(action.choice)))
        xy = np.asarray(after.pos[state.on_table(unit.id)], dtype=np.float64)
        stay_shoot, stay_charge = self._stay_flags(state, unit)
        gain = self._position_gain(state, unit, xy, can_shoot=stay_shoot, can_charge=False,
                                   stay_shoot=stay_shoot, stay_charge=stay_charge)  # fmt: skip
        # cover and -1 to hit: a share of the shooting it faces
        return gain + (0.3 * exposure(state, unit, xy, self.w) if unit.profile["missile"] else 0.0)

    def _arrive(self, state: GameState, action: Action) -> float:
        """A reserve or reinforcement set up at an edge: worth the objectives and attacks it
        brings (a reinforcement also gives back the unit's points)."""
        unit = state.unit(str(action.unit))
        back = float(unit.points) if action.kind == "reinforce" else 0.0
        if action.point is None:
            return back - float(unit.points)
        members = state.members(unit.id, alive=False)
        xy = np.asarray(formation_at(state, unit, action.point), dtype=np.float64)
        held = objective_value(state, unit.side, members, xy, w=self.w)
        held -= self._objectives(state, unit.side)
        goals = [p for p, _ in wanted(state, unit.side, self.w)]
        goal = min((distance_to(xy, p) for p in goals), default=0.0)
        return back + held - 0.5 * goal + 10.0

    # -- attacks ---------------------------------------------------------------------------
    def _attack(
        self, state: GameState, unit_id: str, action: Action, missile: bool
    ) -> tuple[float, dict[str, float]]:
        """The action's attacks on ``state`` (already piled in for a fight): their value and
        each target's expected share of models left."""
        split, word = attacks.parse_split(action.choice)
        primary = str(action.target)
        weapons = [
            w["name"] for w in state.unit(unit_id).profile["missile" if missile else "melee"]
        ]
        if word is not None:
            state.unit(unit_id).flags["triumph"] = word  # a clone: the triumph's re-rolls
        value, left = 0.0, {}
        for target in dict.fromkeys([primary, *split.values()]):
            names = [n for n in weapons if split.get(n, primary) == target] if split else None
            uses = actual_uses(state, unit_id, target, missile, names)
            forecast = judge(state, target, pooled_damage(state, unit_id, target, uses, missile),
                             self.w)  # fmt: skip
            value += forecast.value
            left[target] = forecast.survive
        if word is not None:
            value -= 0.02 * army_points(state)  # the triumph is spent
        return value, left

    def _thinning(self, state: GameState, side: int, left: dict[str, float]) -> float:
        """What the attack's expected casualties change of the objectives."""
        if not objectives(state) or all(v >= 1.0 for v in left.values()):
            return 0.0
        after = objective_value(state, side, thinned=left, w=self.w)
        gain = gathering_gain(state, side, None, None, self.w, thinned=left)
        return after - self._objectives(state, side) + gain

    def _shoot(self, state: GameState, action: Action) -> float:
        unit = state.unit(str(action.unit))
        work = state.clone() if attacks.parse_split(action.choice)[1] else state
        value, left = self._attack(work, unit.id, action, True)
        return value + self._thinning(state, unit.side, left)

    def _fight(self, state: GameState, action: Action) -> float:
        """Pile in, attack, and the enemy fights we prevent by slaying them first."""
        unit = state.unit(str(action.unit))
        after = state.clone()
        pile_in(after, unit.id, battle_rules().pile_in)
        value, left = self._attack(after, unit.id, action, False)
        for target, share in left.items():
            enemy = state.unit(target)
            if enemy.flags.get("fought"):
                continue
            reply = potential(state, enemy, unit.id, False, bool(enemy.flags.get("charged")),
                              self.w).value  # fmt: skip
            value += self.w.preempt * (1.0 - share) * max(reply, 0.0)
        return value + self._thinning(state, unit.side, left)

    # -- charges ---------------------------------------------------------------------------
    def charge_value(self, state: GameState, unit_id: str, target: str, roll: float) -> float:
        """The fight a charge at ``target`` with ``roll`` leads to: our attacks on the charge
        (after piling in) less the target's reply, and the objectives the charge moves."""
        unit = state.unit(unit_id)
        xy = charge_positions(state, unit_id, target, roll, handlers.flies(unit))
        if xy is None:
            return 0.0
        after = state.clone()
        members = after.on_table(unit_id)
        after.pos[members] = xy
        after.unit(unit_id).flags["charged"] = True
        held = objective_value(after, unit.side, w=self.w) - self._objectives(state, unit.side)
        held += gathering_gain(state, unit.side, members, xy, self.w)  # a charge is a move
        pile_in(after, unit_id, battle_rules().pile_in)
        uses = actual_uses(after, unit_id, target, False)
        ours = judge(after, target, pooled_damage(after, unit_id, target, uses, False), self.w)
        reply = potential(state, state.unit(target), unit_id, False, False, self.w).value
        if objectives(after) and ours.survive < 1.0:  # the objectives its casualties change
            thinned = {target: ours.survive}
            held += objective_value(after, unit.side, thinned=thinned, w=self.w)
            held -= objective_value(after, unit.side, w=self.w)
        return ours.value - self.w.retaliation * ours.survive * max(reply, 0.0) + held

    def _charge_targets(self, state: GameState, unit: UnitState) -> list[tuple[float, float]]:
        """(gap, value of charging it) for every enemy within charge range."""
        found = []
        for enemy_id, gap in gaps_from(state, unit, state.pos[state.on_table(unit.id)]).items():
            if gap <= battle_rules().charge_range + 1e-6:
                value = self.charge_value(state, unit.id, enemy_id, battle_rules().charge_range)
                found.append((gap, value))
        return found

    def _expected_charge(self, state: GameState, targets: list[tuple[float, float]]) -> float:
        """E[best fight the 2D6 charge roll lets us reach] (nothing if none or all bad)."""
        contact = battle_rules().charge_contact / 2.0 - charge_bonus(state)
        value = 0.0
        for face, p in enumerate(TWO_D6):
            if p > 0.0:
                reach = [v for gap, v in targets if gap - contact <= face]
                value += p * max([0.0, *reach])
        return value

    def _charge(self, state: GameState, action: Action) -> float:
        unit = state.unit(str(action.unit))
        return self._expected_charge(state, self._charge_targets(state, unit)) - 0.5

    def _charge_move(self, state: GameState, action: Action) -> float:
        if action.target is None:
            return 0.0
        roll = float(state.extra["pending"]["roll"])
        return self.charge_value(state, str(action.unit), str(action.target), roll)

    def _forward(self, state: GameState, action: Action) -> float:
        """Re-rolling the charge: the expected best fight of a new roll less the best one the
        current roll reaches, less the command point."""
        pending = state.extra["pending"]
        unit = state.unit(str(pending["unit"]))
        targets = self._charge_targets(state, unit)
        roll = float(pending["roll"])
        contact = battle_rules().charge_contact / 2.0
        now = max([0.0, *(v for gap, v in targets if gap - contact <= roll)])
        return self._expected_charge(state, targets) - now - self.cp_cost(state)

    # -- wounds, battleshock ---------------------------------------------------------------
    def _allocate(self, state: GameState, action: Action) -> float:
        """The defender's choice: the rear models first keeps the front fighting; keeping a
        loadout with options (a champion, a standard) is next best."""
        choice = str(action.choice)
        return 1.0 if choice == "rear" else 0.5 if choice.startswith("keep") else 0.0

    def _inspiring(self, state: GameState, action: Action) -> float:
        """The models the spared units would be expected to lose to battleshock, less the
        command point."""
        spared = (
            [str(action.unit)]
            if action.kind == "inspiring_presence"
            else handlers.hold_fast_units(state, str(action.unit))
        )
        saved, share = 0.0, material(state, self.w)
        for unit_id in spared:
            if unit_id in state.extra["shock"]["immune"]:
                continue
            unit = state.unit(unit_id)
            n, brave = state.size(unit_id), _bravery(state, unit_id)
            slain = unit.tokens.get("slain_turn", 0)
            full = initial_size(state, unit_id) * wounds_of(unit)
            before = float(losses(unit, full, np.array([float(n)]),
                                  np.array([float(damage_taken(unit))]), share)[0])  # fmt: skip
            for face in range(1, 7):
                flee = float(min(max(face + slain - brave, 0), n))
                if flee > 0:
                    after = losses(unit, full, np.array([n - flee]), np.array([0.0]), share)
                    saved += (float(after[0]) - before) / 6.0
        return saved - self.cp_cost(state)

    # -- positions -------------------------------------------------------------------------
    def position_value(self, state: GameState, side: int) -> float:
        with state.reading():
            score = score_value(state, side, self.w)
            for unit in state.units:
                sign = 1.0 if unit.side != side else -1.0
                score += sign * current_loss(state, unit, self.w)
            if state.phase != "over":
                return score + objective_value(state, side, w=self.w)
            from openwar.rulesets.aos.victory import result

            winner = result(state).winner
            if winner is not None:
                score += stake(state, self.w) * (1.0 if winner == side else -1.0)
            return score

    def rollout_menu(self, state: GameState) -> list[Action]:
        """One unit's choices (and ending the phase): in the movement phase the unit nearest
        the enemy that has not moved, in other phases the first unit on the menu; decisions
        mid-action (charge and run rolls, allocations, unbinding) whole. In the movement and
        shooting phases only that unit's part of the menu is built (most of a rollout's time
        went on building the whole menu to keep a sixth of it)."""
        if state.phase in ("setup", "first_turn", "battleshock") or state.extra.get("pending"):
            return legal_actions(state)
        with state.reading():
            found = one_unit_menu(state)
            if found is not None:
                return found
            menu = legal_actions(state)
            units = [a.unit for a in menu if a.unit is not None and a.kind != "end_phase"]
            if not units:
                return menu
            if state.phase == "movement":
                pick = min(dict.fromkeys(units), key=lambda u: enemy_gap(state, str(u)))
            else:
                pick = units[0]
        return [a for a in menu if a.unit == pick or a.kind == "end_phase" or a.unit is None]

    def distinct(self, a: Action, b: Action) -> bool:
        """Different units, kinds, targets or options, or destinations more than
        ``DISTINCT_GAP`` apart: a side moves all its units in its turn, so which unit goes
        first matters little; where a unit goes, and what it shoots or charges, matters."""
        if (a.unit, a.kind, a.target, a.choice) != (b.unit, b.kind, b.target, b.choice):
            return True
        if a.point is None or b.point is None:
            return a.point != b.point
        return math.dist(a.point, b.point) > DISTINCT_GAP

    def margin_scale(self, state: GameState) -> float:
        return max(self.w.margin * army_points(state), 10.0)

    def search_mode(self, state: GameState, menu: list[Action]) -> SearchMode:
        """Rollouts to the end of the enemy's next turn for which charge to declare and which
        unit fights, to the end of the round for who goes first; the heuristic's pick
        elsewhere. A side acts with its whole army in its turn, so a few actions ahead end
        inside that turn, valued as the heuristic values them (they seldom told candidates
        apart, docs/ai.md); what a charge, a fight or the turn order starts is answered in the
        enemy's turn. The search with plans (its default, :meth:`plans`) asks this only of
        who goes first: it plays each turn by the plan it picked at the turn's start."""
        if state.phase == "first_turn":
            return "round"  # both orders played through
        return "turns" if any(action.kind in SEARCHED_KINDS for action in menu) else "none"


EVALUATION = AosEvaluation()
