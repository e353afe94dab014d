"""OpenWar combat on the table: the attack sequence, the Presence roll, Push, shooting.

Clause numbers (OW-...) refer to docs/rules/openwar.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from openwar.engine.events import Event
from openwar.engine.game import Dice
from openwar.engine.space import OVERLAP_TOLERANCE, centroid, furthest_translation, unit_gaps
from openwar.engine.state import POSITION_DECIMALS, GameState, IntArray
from openwar.rulesets.openwar import prize, ruses, scenery
from openwar.rulesets.openwar.odds import attack_rules
from openwar.rulesets.openwar.rules import battle_rules
from openwar.rulesets.openwar.twists import presence_rerolled

SECOND_RANK, THIRD_RANK, SHOCK, THROWN = "Second Rank", "Third Rank", "Shock", "Thrown"
SHIELDSTICK = "Shieldstick"


@dataclass(frozen=True)
class Weapon:
    name: str
    ranged: bool
    range: float
    attacks: int
    difficulty: int
    pierce: int
    special: tuple[str, ...]
    thrown_profile: bool = False

    @classmethod
    def from_profile(cls, data: dict[str, Any]) -> Weapon:
        return cls(
            data["name"],
            data["type"] == "ranged",
            float(data.get("range") or 0),
            int(data["attacks"]),
            int(data["difficulty"]),
            int(data["pierce"]),
            tuple(data.get("special", [])),
            bool(data.get("thrown_profile", False)),
        )


def loadout(state: GameState, mini: int) -> dict[str, Any]:
    profile = state.units[int(state.unit_of[mini])].profile
    loadouts: list[dict[str, Any]] = profile["loadouts"]
    return loadouts[int(state.loadout[mini])]


def weapons(state: GameState, mini: int, *, ranged: bool) -> list[Weapon]:
    """The miniature's weapons of one kind; once it has thrown, its Thrown weapons are gone."""
    unit = state.units[int(state.unit_of[mini])]
    thrown = mini in unit.flags.get("thrown", [])
    return [
        weapon
        for weapon, throwable in armoury(state, mini)
        if weapon.ranged == ranged and not (thrown and throwable)
    ]


def armoury(state: GameState, mini: int) -> list[tuple[Weapon, bool]]:
    """The miniature's loadout parsed once per battle: (weapon, lost once thrown)."""
    key = ("openwar.armoury", int(state.unit_of[mini]), int(state.loadout[mini]))
    memo = state.lookup().memo
    if key not in memo:
        memo[key] = [
            (weapon, THROWN in weapon.special or bool(data.get("thrown_profile", False)))
            for data in loadout(state, mini)["weapons"]
            for weapon in [Weapon.from_profile(data)]
        ]
    found: list[tuple[Weapon, bool]] = memo[key]
    return found


def skills(state: GameState, mini: int) -> frozenset[str]:
    """The miniature's skills: its unit's, its loadout's and its weapons' specials (gathered
    once per battle and loadout, like :func:`armoury`: every fight and threat asks them)."""
    key = ("openwar.skills", int(state.unit_of[mini]), int(state.loadout[mini]))
    memo = state.lookup().memo
    found: frozenset[str] | None = memo.get(key)
    if found is None:
        unit = state.units[int(state.unit_of[mini])]
        own = set(unit.profile.get("skills", [])) | set(loadout(state, mini).get("skills", []))
        for data in loadout(state, mini)["weapons"]:
            own |= set(data.get("special", []))
        found = memo[key] = frozenset(own)
    return found


def armor(state: GameState, mini: int) -> int:
    """A miniature's Armor: profile + its equipment + Hold / Hold the Line bonuses (OW-B5)."""
    unit = state.units[int(state.unit_of[mini])]
    rules = battle_rules()
    gear = loadout(state, mini)
    shield = 0 if mini in unit.flags.get("shield_lost", []) else int(gear.get("shield", 0))
    value = int(unit.profile["armor"]) + int(gear.get("armour", 0)) + shield
    value += rules.hold_armor * unit.tokens.get("holding", 0)
    value += rules.hold_the_line_armor * unit.tokens.get("hold_the_line", 0)
    return value


def accuracy(state: GameState, unit_id: str, holding: bool) -> int:
    rules = battle_rules()
    unit = state.unit(unit_id)
    bonus = attack_rules().hold_accuracy if holding else 0  # the attack sequence's data
    return bonus + rules.exhaustion_accuracy * min(unit.tokens.get("exhaustion", 0), 1)


def expected_wounds(weapon: Weapon, skill: int, target_armor: int) -> float:
    p_hit = min(max((7 - (weapon.difficulty - skill)) / 6.0, 0.0), 1.0)
    p_wound = min(max((7 - (target_armor - weapon.pierce)) / 6.0, 0.0), 1.0)
    return weapon.attacks * p_hit * p_wound


def in_contact(state: GameState, a: IntArray, b: IntArray) -> np.ndarray:
    """(len(a), len(b)) base contact matrix."""
    return unit_gaps(state, a, b) <= battle_rules().contact


def fighters(state: GameState, unit_id: str, enemy_id: str) -> list[tuple[int, int]]:
    """(attacker, target) pairs: base contact, then Second Rank, then Third Rank (seed
    "Fighting"). A miniature of each rank joins the first friend in base contact (in the
    unit's order) that fights after the rank before, and strikes that friend's target."""
    ours, theirs = state.on_table(unit_id), state.on_table(enemy_id)
    if len(ours) == 0 or len(theirs) == 0:
        return []
    touching = in_contact(state, ours, theirs)
    engaged = np.asarray(touching.any(axis=1), dtype=bool)
    target = theirs[touching.argmax(axis=1)]  # the first enemy touched (engaged ones only)
    friends = in_contact(state, ours, ours)
    np.fill_diagonal(friends, False)
    own = [skills(state, mini) for mini in ours.tolist()]
    for rank_skill in (SECOND_RANK, THIRD_RANK):
        may = np.array([_has_rank(found, rank_skill) for found in own], dtype=bool)
        reach = friends & engaged[None, :]
        joins = may & ~engaged & reach.any(axis=1)
        if joins.any():
            target = np.where(joins, target[reach.argmax(axis=1)], target)
            engaged = engaged | joins
    fighting = np.flatnonzero(engaged)
    return sorted(zip(ours[fighting].tolist(), target[fighting].tolist(), strict=True))


def _has_rank(own: frozenset[str], rank_skill: str) -> bool:
    return rank_skill in own or (rank_skill == SECOND_RANK and THIRD_RANK in own)


def resolve_attacks(
    state: GameState,
    attacker_id: str,
    target_id: str,
    pairs: list[tuple[int, int]],
    dice: Dice,
    *,
    ranged: bool,
    holding: bool,
) -> tuple[int, int, list[Event]]:
    """Roll every attacking miniature's attack (seed "Attack Sequence" 1). Returns slain,
    Shock hitters and events. Wounds slay miniatures of the target unit (OW-B15)."""
    unit = state.unit(attacker_id)
    skill_name = "ranged" if ranged else "melee"
    skill = int(unit.profile[skill_name]) + accuracy(state, attacker_id, holding)
    revenge = ruses.damage_bonus(state, unit.side)  # OW-R5
    talisman = prize.talisman_unit(state) == attacker_id  # OW-P3
    struck = np.array([target for _, target in pairs], dtype=np.int64)
    warded = prize.warded(state, struck) | scenery.mystical(state, struck)  # OW-P5, OW-T5
    wounds, shock_hitters, threw = 0, 0, []
    for (mini, target), ward in zip(pairs, warded.tolist(), strict=True):
        choice = _best_weapon(state, mini, target, skill, ranged=ranged, bonus=revenge)
        if choice is None:
            continue
        hits = _hits(dice, choice, skill, talisman)
        rolls = dice.d6(hits)
        damaged = int((rolls + choice.pierce + revenge >= armor(state, target)).sum())
        scored = damaged
        if ward and damaged:  # OW-P5 Ward: each Wound negated on a 6
            scored = int((dice.d6(damaged) < attack_rules().ward_roll).sum())
        wounds += scored
        if hits and SHOCK in choice.special:
            shock_hitters += 1
        if SHIELDSTICK in choice.special and hits > damaged:
            unit_t = state.units[int(state.unit_of[target])]
            lost = set(unit_t.flags.get("shield_lost", [])) | {target}
            unit_t.flags["shield_lost"] = sorted(lost)
        if ranged and choice.thrown_profile:
            threw.append(mini)
    if threw:
        unit.flags["thrown"] = sorted(set(unit.flags.get("thrown", [])) | set(threw))
    slain = remove_casualties(state, target_id, attacker_id, wounds)
    event = Event(
        "attack",
        {
            "unit": attacker_id,
            "target": target_id,
            "attackers": len(pairs),
            "wounds": wounds,
            "slain": slain,
            "ranged": ranged,
        },
    )
    return slain, shock_hitters, [event]


def _hits(dice: Dice, weapon: Weapon, skill: int, talisman: bool) -> int:
    """Hit dice (OW-A2); under the Talisman (OW-P3) a 1 that misses is rolled again."""
    faces = dice.d6(weapon.attacks)
    if talisman:
        again = np.flatnonzero((faces == 1) & (faces + skill < weapon.difficulty))
        if len(again):
            faces = faces.copy()
            faces[again] = dice.d6(len(again))
    return int((faces + skill >= weapon.difficulty).sum())


def _best_weapon(
    state: GameState, mini: int, target: int, skill: int, *, ranged: bool, bonus: int = 0
) -> Weapon | None:
    options = weapons(state, mini, ranged=ranged)
    if not ranged and not in_contact(state, np.array([mini]), np.array([target]))[0, 0]:
        options = reaching_weapons(state, mini, options)
    if ranged and len(options) > 1:  # a weapon whose range + Ranged reaches it (OW-H2); one
        # weapon alone is the one the shooter was paired by
        gap = float(unit_gaps(state, np.array([mini]), np.array([target]))[0, 0])
        reach = float(state.units[int(state.unit_of[mini])].profile["ranged"])
        options = [w for w in options if gap <= w.range + reach + OVERLAP_TOLERANCE]
    if not options:
        return None
    target_armor = armor(state, target) - bonus
    return max(options, key=lambda w: (expected_wounds(w, skill, target_armor), w.name))


def reaching_weapons(state: GameState, mini: int, options: list[Weapon]) -> list[Weapon]:
    """A miniature attacking past a friend (Second or Third Rank) uses a weapon with that rule,
    unless the rule is a skill of its own (seed "Specials": "attack with this weapon")."""
    unit = state.units[int(state.unit_of[mini])]
    own = set(unit.profile.get("skills", [])) | set(loadout(state, mini).get("skills", []))
    if own & {SECOND_RANK, THIRD_RANK}:
        return options
    return [w for w in options if {SECOND_RANK, THIRD_RANK} & set(w.special)]


def remove_casualties(state: GameState, unit_id: str, enemy_id: str, wounds: int) -> int:
    """The defender removes ``wounds`` miniatures, rearmost first (OW-B15)."""
    members = state.on_table(unit_id)
    count = min(wounds, len(members))
    if count == 0:
        return 0
    enemy = state.on_table(enemy_id)
    far = unit_gaps(state, members, enemy).min(axis=1) if len(enemy) else np.zeros(len(members))
    order = np.lexsort((members, -far))
    state.alive[members[order[:count]]] = False
    return count


def morale_of(state: GameState, unit_id: str) -> int:
    """A unit's Morale against a Presence roll: its profile's, less 1 a Shaken token (OW-B9),
    and Inspiring or Sinister scenery within 3 cm (OW-T3)."""
    unit = state.unit(unit_id)
    shaken = battle_rules().shaken_morale * unit.tokens.get("shaken", 0)
    return int(unit.profile["morale"]) + shaken + scenery.morale_change(state, unit_id)


def presence_roll(
    state: GameState,
    attacker_id: str,
    target_id: str,
    slain: int,
    shock: int,
    dice: Dice,
    *,
    charged: bool,
) -> tuple[bool, Event]:
    """2D6 + Presence + slain (+Shock, Glory, charge bonus) against Morale (seed 2.1-2.2)."""
    rules = battle_rules()
    unit, enemy = state.unit(attacker_id), state.unit(target_id)
    dice_rolled = attack_rules().presence_dice  # the attack sequence's data, as the odds read it
    roll = int(dice.d6(dice_rolled).sum())
    bonus = rules.glory_presence * unit.tokens.get("glory", 0)
    bonus += rules.charge_push_bonus if charged else 0
    bonus += int(unit.profile["presence"]) + slain + attack_rules().shock_bonus * shock
    morale = morale_of(state, target_id)
    first = None
    if roll + bonus <= morale and presence_rerolled(state):
        first, roll = roll, int(dice.d6(dice_rolled).sum())  # OW-X6 Grudge Match
    total = roll + bonus
    # a success earns Glory even when the enemy is gone; a Shaken token and a Push need it there
    beaten = total > morale and not state.is_destroyed(target_id)
    spoken = beaten and ruses.no_shaken(state, enemy.side)  # OW-R6 Inspiring Speech
    if beaten and not spoken:
        enemy.tokens["shaken"] = enemy.tokens.get("shaken", 0) + 1
    if total > morale:
        unit.tokens["glory"] = min(unit.tokens.get("glory", 0) + 1, rules.glory_max)
    data = {
        "unit": attacker_id,
        "target": target_id,
        "roll": roll,
        "total": total,
        "morale": morale,
        "beaten": beaten,
        "glory": total > morale,
    }
    if first is not None:
        data["first_roll"] = first
    if spoken:
        data["no_shaken"] = True
    return beaten, Event("presence", data)


def rout_if_broken(state: GameState, unit_id: str) -> list[Event]:
    """A unit with too many Shaken tokens flees the table (OW-B9)."""
    unit = state.unit(unit_id)
    if unit.tokens.get("shaken", 0) < battle_rules().rout_shaken or state.is_destroyed(unit_id):
        return []
    fled = state.on_table(unit_id)
    state.alive[fled] = False
    return [Event("routed", {"unit": unit_id, "miniatures": len(fled)})]


def push(state: GameState, attacker_id: str, target_id: str) -> list[Event]:
    """Move the beaten unit up to 5 cm directly away, then advance 5 cm towards it."""
    rules = battle_rules()
    theirs, ours = state.on_table(target_id), state.on_table(attacker_id)
    if len(theirs) == 0 or len(ours) == 0:
        return []
    away = centroid(state, theirs) - centroid(state, ours)
    length = float(np.hypot(*away))
    if length == 0.0:
        return []
    shift = furthest_translation(state, theirs, away / length * rules.push_move)
    state.pos[theirs] = np.round(state.pos[theirs] + shift, POSITION_DECIMALS)  # as every move
    pushed = float(np.hypot(*shift))
    followed = follow_up(state, attacker_id, target_id, rules.follow_up_move)
    return [
        Event(
            "push",
            {
                "unit": attacker_id,
                "target": target_id,
                "pushed": round(pushed, 2),
                "followed": round(followed, 2),
            },
        )
    ]


def follow_up(state: GameState, unit_id: str, target_id: str, distance: float) -> float:
    """Translate a unit up to ``distance`` towards the target, stopping at base contact."""
    ours, theirs = state.on_table(unit_id), state.on_table(target_id)
    if len(ours) == 0 or len(theirs) == 0:
        return 0.0
    gap = unit_gaps(state, ours, theirs)
    i, j = np.unravel_index(int(np.argmin(gap)), gap.shape)
    direction = state.pos[theirs[j]] - state.pos[ours[i]]
    length = float(np.hypot(*direction))
    travel = min(distance, max(float(gap[i, j]), 0.0))
    if length == 0.0 or travel <= 0.0:
        return 0.0
    shift = furthest_translation(state, ours, direction / length * travel)
    state.pos[ours] = np.round(state.pos[ours] + shift, POSITION_DECIMALS)  # as every move
    return float(np.hypot(*shift))
