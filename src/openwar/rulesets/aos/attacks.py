"""Shooting and fighting: which models attack with which weapons, the attack sequence rolled
with the same roll definitions as the exact odds (``AosAttack.tests()``), damage pooled and
allocated once the unit's attacks are done (seed "Allocating Wounds", "Mortal Wounds")."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import numpy as np

from openwar.dice.d6 import D6Test, Reroll
from openwar.dice.notation import parse_dice
from openwar.engine.events import Event
from openwar.engine.game import Dice
from openwar.engine.space import unit_gaps
from openwar.engine.state import GameState
from openwar.geometry.sight import visibility_matrix
from openwar.rulesets.aos import characteristics, garrisons
from openwar.rulesets.aos.board import base_to_shape, sight_blockers, terrain, wholly_within
from openwar.rulesets.aos.characteristics import model_weapon
from openwar.rulesets.aos.moves import EPS, enemy_gap, side_minis, unit_gap
from openwar.rulesets.aos.odds import AosAttack
from openwar.rulesets.aos.rules import battle_rules
from openwar.rulesets.aos.wounds import allocate, policies, roll_expr, templates, touched


@dataclass
class WeaponUse:
    weapon: dict[str, Any]
    attacks: int
    models: int = 0  # how many models attack with it (the AI builds exact attack counts)


def visible(
    state: GameState, viewers: np.ndarray, targets: np.ndarray, skip: tuple[int, ...] = ()
) -> np.ndarray:
    """(n, m) who sees whom: terrain that blocks sight (but not the features in ``skip``),
    and Dead of Night's limit. Remembered while the state is only read; read-only."""
    key = ("aos.visible", viewers.tobytes(), targets.tobytes(), skip)
    return state.remembered(key, lambda: _visible(state, viewers, targets, skip))


def _visible(
    state: GameState, viewers: np.ndarray, targets: np.ndarray, skip: tuple[int, ...]
) -> np.ndarray:
    seen = visibility_matrix(
        state.pos[viewers],
        state.radius[viewers],
        state.pos[targets],
        state.radius[targets],
        sight_blockers(state, skip),
    )
    limit = state.extra.get("sight_limit")
    if limit is not None:
        seen &= unit_gaps(state, viewers, targets) <= float(limit) + EPS
    seen = np.asarray(seen)
    seen.flags.writeable = False
    return seen


def weapon_for(state: GameState, unit_id: str, weapon: dict[str, Any]) -> dict[str, Any]:
    """A weapon with Thundering-Charge-style changes in a turn the unit charged."""
    unit = state.unit(unit_id)
    if not unit.flags.get("charged"):
        return weapon
    return charged_weapon(state, unit_id, weapon)


def charged_weapon(state: GameState, unit_id: str, weapon: dict[str, Any]) -> dict[str, Any]:
    """The weapon as it is in a turn the unit charged (its ``weapon_on_charge`` templates)."""
    changed = dict(weapon)
    for t in templates(state, unit_id, "weapon_on_charge"):
        if t["weapon"] == weapon["name"]:
            for key in ("rend", "damage"):
                if t[key] is not None:
                    changed[key] = t[key]
    return changed


def attackers(
    state: GameState,
    unit_id: str,
    target_id: str,
    missile: bool,
    dice: Dice | None,
    names: Collection[str] | None = None,
) -> list[WeaponUse]:
    """Each weapon and how many attacks it makes at the target. Missile weapons need range
    and sight, and cannot attack a unit wholly within their minimum range; melee weapons
    need range. A model's damage-table values replace its weapon's (AOS-D8). Random Attacks
    are rolled per model (seed "Random Values"); without dice (for menus) only whether
    anyone can attack matters. ``names`` limits the weapons (those aimed at this target)."""
    unit = state.unit(unit_id)
    ours, theirs = state.on_table(unit_id), state.on_table(target_id)
    if len(ours) == 0 or len(theirs) == 0:
        return []
    pair_gaps = unit_gaps(state, ours, theirs)
    gap = pair_gaps.min(axis=1)
    skip = garrison_skip(state, unit_id, target_id)
    if skip:  # AOS-G2: range from and to a garrison is measured from and to its feature
        here, there = garrisons.shape_of(state, unit_id), garrisons.shape_of(state, target_id)
        if here is not None:
            gap = np.full(len(ours), unit_gap(state, unit_id, target_id))
        elif there is not None:
            gap = garrisons.gap_to(state, there, ours)
    weapons = [
        w
        for w in unit.profile["missile" if missile else "melee"]
        if names is None or w["name"] in names
    ]
    seen = np.ones(len(ours), bool)
    if missile:  # sight matters only for models with a weapon in range: trace only theirs
        if unit.profile.get("damage_table"):
            reach = [max((float(model_weapon(state, int(m), w)["range"]) for w in weapons),
                         default=-1.0) for m in ours]  # fmt: skip
            in_range = gap <= np.asarray(reach) + EPS
        else:
            in_range = gap <= max((float(w["range"]) for w in weapons), default=-1.0) + EPS
        rows = np.flatnonzero(in_range)
        seen = np.zeros(len(ours), bool)
        if len(rows):
            seen[rows] = np.asarray(visible(state, ours[rows], theirs, skip).any(axis=1))
    wholly: np.ndarray | None = None
    if missile and any(int(w.get("min_range", 0)) for w in weapons):
        # the far side of the target's furthest base, from this model's base
        wholly = (pair_gaps + 2 * state.radius[theirs][None, :]).max(axis=1)
    found: dict[str, WeaponUse] = {}
    for k, mini in enumerate(ours):
        loadout = unit.profile["loadouts"][int(state.loadout[mini])]
        for base in weapons:
            weapon = model_weapon(state, int(mini), base)
            if gap[k] > float(weapon["range"]) + EPS or not seen[k]:
                continue
            least = int(weapon.get("min_range", 0))
            if least and wholly is not None and float(wholly[k]) <= least + EPS:
                continue
            count = roll_expr(weapon["attacks"], dice) if dice is not None else 1
            count += sum(
                int(e["value"])
                for e in loadout["effects"]
                if e["template"] == "extra_attacks" and e.get("weapon") in (None, weapon["name"])
            )
            key = weapon["name"] if weapon is base else f"{weapon['name']}|{sorted(weapon.items())}"
            use = found.setdefault(key, WeaponUse(weapon_for(state, unit_id, weapon), 0))
            use.attacks += max(count, 0)
            use.models += 1
    return [u for u in found.values() if u.attacks > 0]


def garrison_skip(state: GameState, a: str, b: str) -> tuple[int, ...]:
    """The features garrisoned by either unit (they do not block sight between them)."""
    if not garrisons.garrisons(state):
        return ()
    found = (garrisons.feature_of(state, a), garrisons.feature_of(state, b))
    return tuple(k for k in found if k is not None)


def in_cover(state: GameState, unit_id: str, phase: str, shooter: str | None = None) -> bool:
    """Seed "Cover": every model wholly on or within one terrain feature, or (against a
    ``shooter``) behind an obstacle; not in combat after charging; never for MONSTER or WAR
    MACHINE units with Wounds 8 or more."""
    unit = state.unit(unit_id)
    rules = battle_rules()
    if garrisons.feature_of(state, unit_id) is not None:
        return True  # AOS-G2: a garrison counts as being in cover
    big = int(unit.profile["wounds"]) >= rules.cover_big_wounds
    if big and ({"MONSTER", "WAR MACHINE"} & set(unit.profile["keywords"])):
        return False
    if phase == "combat" and unit.flags.get("charged"):
        return False
    members = state.on_table(unit_id)
    if shooter is not None and behind_obstacle(state, unit_id, shooter):
        return True
    return any(
        wholly_within(shape, state.pos[members], state.radius[members]) for shape in terrain(state)
    )


def behind_obstacle(state: GameState, unit_id: str, shooter: str) -> bool:
    """Seed "Obstacles": every model of the target within 1" of an obstacle, and the shooting
    unit closer to the obstacle than to the target (AOS-D7: measured from the shooting unit's
    closest model)."""
    rules = battle_rules()
    members, shooters = state.on_table(unit_id), state.on_table(shooter)
    if not len(members) or not len(shooters):
        return False
    to_target = unit_gap(state, shooter, unit_id)
    for feature, shape in zip(state.board.get("terrain", []), terrain(state), strict=True):
        if feature["name"] not in rules.obstacles:
            continue
        near = base_to_shape(shape, state.pos[members], state.radius[members])
        if float(near.max()) <= rules.obstacle_range + EPS:
            mine = float(base_to_shape(shape, state.pos[shooters], state.radius[shooters]).min())
            if mine < to_target:
                return True
    return False


def _condition(state: GameState, unit_id: str, entry: dict[str, Any]) -> bool:
    when = entry.get("when", "always")
    unit = state.unit(unit_id)
    if when == "charged":
        return bool(unit.flags.get("charged"))
    if when == "not_charged":
        return not unit.flags.get("charged")
    if when == "no_enemy_within":
        return enemy_gap(state, unit_id) > float(entry["range"]) + EPS
    if when == "near_hero":
        return any(
            "HERO" in u.profile["keywords"] and unit_gap(state, unit_id, u.id) <= entry["range"]
            for u in state.side_units(unit.side)
            if u.id != unit_id
        )
    return True


def _applies(entry: dict[str, Any], missile: bool) -> bool:
    kind = str(entry.get("attacks", "all"))
    return kind == "all" or (kind == "missile") == missile


def roll_modifier(state: GameState, unit_id: str, roll: str, missile: bool, side: str) -> int:
    total = 0
    for entry in templates(state, unit_id, "roll_modifier"):
        if entry["roll"] == roll and entry["side"] == side and _applies(entry, missile):
            total += int(entry["value"]) if _condition(state, unit_id, entry) else 0
    if side == "attacker":
        total += _aura(state, unit_id, roll)
    return total


def _aura(state: GameState, unit_id: str, roll: str) -> int:
    unit = state.unit(unit_id)
    total = 0
    for friend in state.side_units(unit.side):
        for entry in templates(state, friend.id, "aura_roll_modifier"):
            if entry["roll"] != roll or entry["keyword"] not in unit.profile["keywords"]:
                continue
            if _wholly_within_unit(state, unit_id, friend.id, float(entry["range"])):
                total += int(entry["value"])
    return total


def _wholly_within_unit(state: GameState, unit_id: str, other: str, distance: float) -> bool:
    ours, theirs = state.on_table(unit_id), state.on_table(other)
    if len(ours) == 0 or len(theirs) == 0:
        return False
    if unit_id == other:
        return True
    centre = np.hypot(*(state.pos[ours][:, None, :] - state.pos[theirs][None, :, :]).T).T
    far_edge = centre + state.radius[ours][:, None] - state.radius[theirs][None, :]
    return bool((far_edge.min(axis=1) <= distance + EPS).all())


def _reroll(
    state: GameState, unit_id: str, roll: str, missile: bool, side_flags: list[str]
) -> Reroll:
    found = Reroll.NONE
    for entry in templates(state, unit_id, "reroll"):
        if entry["roll"] == roll and _applies(entry, missile) and _condition(state, unit_id, entry):
            found = (
                Reroll.FAILED if entry["which"] == "failed" else max(found, Reroll.ONES, key=_rank)
            )
    if any(state.unit(unit_id).flags.get(flag) is not None for flag in side_flags):
        found = max(found, Reroll.ONES, key=_rank)
    if TRIUMPH_REROLLS.get(str(state.unit(unit_id).flags.get("triumph"))) == roll:
        found = Reroll.FAILED  # AOS-B10: Inspired, Bloodthirsty, Indomitable
    return found


TRIUMPH_REROLLS = {"Inspired": "hit", "Bloodthirsty": "wound", "Indomitable": "save"}


def _rank(reroll: Reroll) -> int:
    return {Reroll.NONE: 0, Reroll.ONES: 1, Reroll.FAILED: 2}.get(reroll, 0)


def look_out_sir(state: GameState, target_id: str) -> bool:
    """Seed "Look Out, Sir!": a HERO (not a MONSTER) within 3" of a friendly unit of 3+."""
    rules = battle_rules()
    target = state.unit(target_id)
    keywords = target.profile["keywords"]
    if "HERO" not in keywords or "MONSTER" in keywords:
        return False
    return any(
        state.size(u.id) >= rules.look_out_sir_models
        and unit_gap(state, target_id, u.id) <= rules.look_out_sir_range + EPS
        for u in state.side_units(target.side)
        if u.id != target_id
    )


def attack_profile(
    state: GameState,
    unit_id: str,
    target_id: str,
    weapon: dict[str, Any],
    missile: bool,
    phase: str,
) -> AosAttack:
    """The odds module's attack for one weapon: its tests are the battle's rolls."""
    target = state.unit(target_id)
    hit_mod = roll_modifier(state, unit_id, "hit", missile, "attacker")
    if missile and look_out_sir(state, target_id):
        hit_mod += battle_rules().look_out_sir_hit
    if garrisons.feature_of(state, target_id) is not None:
        hit_mod += battle_rules().garrison_hit
    wound_mod = roll_modifier(state, unit_id, "wound", missile, "attacker")
    side = state.unit(unit_id).side
    if state.extra["revenge"][side] > state.extra["turns"]:
        wound_mod += 1
    save = characteristics.save(state, target)
    mortal = sum(
        int(t["mortal"])
        for t in templates(state, unit_id, "mortal_on_6_hit")
        if _applies(t, missile)
    )
    return AosAttack(
        attacks=parse_dice(1),
        hit=int(weapon["to_hit"]),
        wound=int(weapon["to_wound"]),
        rend=int(weapon["rend"]),
        damage=parse_dice(weapon["damage"]),
        save=7 if save is None else int(save),
        cover=in_cover(state, target_id, phase, unit_id if missile else None),
        hit_modifier=hit_mod,
        wound_modifier=wound_mod,
        save_modifier=roll_modifier(state, target_id, "save", missile, "defender"),
        reroll_hits=_reroll(state, unit_id, "hit", missile, ["damned", "talisman"]),
        reroll_wounds=_reroll(state, unit_id, "wound", missile, []),
        reroll_saves=_reroll(state, target_id, "save", missile, ["mystic_shield"]),
        mortal_on_6_hit=mortal,
    )


def roll_test(test: D6Test, count: int, dice: Dice) -> tuple[np.ndarray, np.ndarray]:
    """Roll ``count`` dice for one test, re-roll once the faces it re-rolls, and judge every
    final unmodified face with ``D6Test.passes`` (the exact-odds definition)."""
    if count == 0:
        return np.zeros(0, np.int64), np.zeros(0, bool)
    faces = np.asarray(dice.d6(count), dtype=np.int64).copy()
    again = test.reroll_faces[faces - 1]
    if again.any():
        faces[again] = dice.d6(int(again.sum()))
    passed = np.array([test.passes(int(f)) for f in faces], dtype=bool)
    return faces, passed


def attack(
    state: GameState,
    unit_id: str,
    target_id: str,
    dice: Dice,
    *,
    missile: bool,
    phase: str,
    split: dict[str, str] | None = None,
) -> list[Event]:
    """All of a unit's attacks: hit, wound and save rolls weapon by weapon (seed "Multiple
    Attacks"), each weapon at its own target (``split`` names the weapons aimed elsewhere
    than ``target_id``, AOS-F3); once every attack is made, each target's damage and mortal
    wounds are allocated, the targets in the order they were attacked."""
    split = split or {}
    weapons = [w["name"] for w in state.unit(unit_id).profile["missile" if missile else "melee"]]
    targets = list(dict.fromkeys([target_id, *split.values()]))
    results: list[tuple[str, int, list[dict[str, Any]]]] = []
    declared: list[Event] = []
    for target in targets:
        aimed = [n for n in weapons if split.get(n, target_id) == target]
        if target != target_id and not aimed:
            continue
        names = None if not split else aimed
        damage, detail = _resolve(state, unit_id, target, dice, missile, phase, names, declared)
        results.append((target, damage, detail))
    events: list[Event] = declared
    side = state.unit(unit_id).side
    queue: list[list[Any]] = [[target, damage] for target, damage, _ in results]
    decide = any(len(policies(state, t, touched(state, t, d))) > 1 for t, d in queue)
    for target, damage, detail in results:
        before = state.size(target)
        head = Event(
            "attack",
            {
                "unit": unit_id,
                "target": target,
                "missile": missile,
                "weapons": detail,
                "damage": damage,
            },
        )
        events.append(head)
        if not decide:
            events += allocate(state, target, damage, dice, side, "attack")
        head.data["slain"] = before - state.size(target)  # 0 while the defender decides
    if decide:
        state.extra["pending"] = {"kind": "allocate", "queue": queue, "by": side}
        events += allocate_next(state, dice)
    return events


def allocate_next(state: GameState, dice: Dice, policy: str | None = None) -> list[Event]:
    """AOS-D10: allocate the pending attack's wounds target by target; ``policy`` is the
    defender's answer for the first. A later target with a choice hands the defender the
    decision (the pending stays); automatic ones are allocated at once."""
    pending = state.extra["pending"]
    events: list[Event] = []
    while pending["queue"]:
        target, damage = pending["queue"][0]
        options = policies(state, target, touched(state, target, int(damage)))
        if policy is None and len(options) > 1:
            state.active = state.unit(target).side
            return events
        pending["queue"].pop(0)
        events += allocate(state, target, int(damage), dice, pending["by"], "attack",
                           policy or "rear")  # fmt: skip
        policy = None
    state.extra["pending"] = None
    state.active = int(pending["by"])
    return events


def _resolve(
    state: GameState,
    unit_id: str,
    target_id: str,
    dice: Dice,
    missile: bool,
    phase: str,
    names: list[str] | None,
    declared: list[Event],
) -> tuple[int, list[dict[str, Any]]]:
    """The rolls of the weapons aimed at one target: the damage they deal, weapon by weapon."""
    uses = attackers(state, unit_id, target_id, missile, dice, names)
    damage = 0
    detail = []
    for use in uses:
        profile = attack_profile(state, unit_id, target_id, use.weapon, missile, phase)
        hit, wound, save = profile.tests()
        hit_faces, hits = roll_test(hit, use.attacks, dice)
        sixes = int((hit_faces == 6).sum()) if profile.mortal_on_6_hit else 0
        mortal = sixes * profile.mortal_on_6_hit
        _, wounds = roll_test(wound, int(hits.sum()), dice)
        if wounds.any() and _indomitable(state, target_id):
            declared.append(Event("triumph", {"unit": target_id, "triumph": "Indomitable"}))
            save = attack_profile(state, unit_id, target_id, use.weapon, missile, phase).tests()[2]
        _, saved = roll_test(save, int(wounds.sum()), dice)
        through = int(wounds.sum() - saved.sum())
        dealt = sum(roll_expr(use.weapon["damage"], dice) for _ in range(through))
        damage += dealt + mortal
        detail.append(
            {
                "weapon": use.weapon["name"],
                "attacks": use.attacks,
                "hits": int(hits.sum()),
                "wounds": int(wounds.sum()),
                "unsaved": through,
                "damage": dealt,
                "mortal": mortal,
            }
        )
    return damage, detail


def _indomitable(state: GameState, target_id: str) -> bool:
    """AOS-B10: the defending player's Indomitable is declared for them the first time one
    of their units has to make save rolls (design decision, AOS-D3's policy)."""
    from openwar.rulesets.aos.phases import unused_triumph

    target = state.unit(target_id)
    if unused_triumph(state, target.side) != "Indomitable":
        return False
    state.extra["triumph_used"][target.side] = True
    target.flags["triumph"] = "Indomitable"
    return True


def reach(state: GameState, unit_id: str, target_id: str, missile: bool) -> set[str]:
    """The weapons of the unit that could attack this target now."""
    return {u.weapon["name"] for u in attackers(state, unit_id, target_id, missile, None)}


def parse_split(choice: str | None) -> tuple[dict[str, str], str | None]:
    """An action's ``choice``: ``Weapon>target`` parts (weapons aimed away from the primary
    target) and at most one other word (a triumph), separated by ``;``."""
    split: dict[str, str] = {}
    word = None
    for part in (choice or "").split(";"):
        if ">" in part:
            weapon, _, target = part.partition(">")
            split[weapon] = target
        elif part:
            word = part
    return split, word


def split_choice(split: dict[str, str], word: str | None = None) -> str | None:
    parts = [f"{w}>{t}" for w, t in split.items()] + ([word] if word else [])
    return ";".join(parts) or None


def can_target_missile(state: GameState, unit_id: str, target_id: str) -> bool:
    """Seed "Shooting Phase": a unit within 3" of an enemy may only shoot units within 3"."""
    close = battle_rules().shooting_close
    if enemy_gap(state, unit_id) <= close + EPS and unit_gap(state, unit_id, target_id) > close:
        return False
    return bool(attackers(state, unit_id, target_id, True, None))


def friends_on_table(state: GameState, side: int) -> np.ndarray:
    return side_minis(state, side)
