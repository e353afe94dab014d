"""What each action of a phase does: spells and scenery in the hero phase, moves, runs and
retreats, shooting, charges, fighting, command abilities and battleshock choices."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.events import Event
from openwar.engine.game import Dice
from openwar.engine.space import (
    OVERLAP_TOLERANCE,
    centroid,
    dot2,
    furthest_translation,
    placement_clear,
)
from openwar.engine.state import POSITION_DECIMALS, GameState, UnitState
from openwar.rulesets.aos import attacks, characteristics, garrisons, magic, phases, victory
from openwar.rulesets.aos.board import base_to_shape, terrain
from openwar.rulesets.aos.moves import (
    EPS,
    apply_shift,
    charge_positions,
    clearance_limit,
    enemy_gap,
    enemy_minis,
    file_positions,
    keep_away,
    near_enemy,
    pile_in,
)
from openwar.rulesets.aos.rules import battle_rules
from openwar.rulesets.aos.wounds import allocate, has_keyword, roll_expr, templates

Handler = Callable[[GameState, Action, Dice], list[Event]]
START_OF_PHASE = ("sacrifice",)
MOVE_TOLERANCE = 1e-3  # inches: a move is measured to a thousandth (rounding, not a rule)


def own_unit(state: GameState, action: Action, clause: str) -> UnitState:
    try:
        unit = state.unit(str(action.unit))
    except KeyError:
        raise IllegalActionError(clause, f"there is no unit {action.unit!r}") from None
    if unit.side != action.side or not len(state.on_table(unit.id)):
        raise IllegalActionError(
            clause, f"{unit.id} is not a unit of side {action.side} on the table"
        )
    return unit


def flies(unit: UnitState) -> bool:
    return any(a["template"] == "fly" for a in unit.profile["abilities"])


def end_phase(state: GameState, action: Action, dice: Dice) -> list[Event]:
    if state.phase == "movement" and must_arrive(state):
        raise IllegalActionError(
            "AOS-R3", "Outflank: the reserve must arrive in this movement phase"
        )
    return phases.next_phase(state, dice)


# -- hero phase ------------------------------------------------------------------------------
def cast(state: GameState, action: Action, dice: Dice) -> list[Event]:
    return magic.cast(state, action, dice) + phases.check_end(state, dice)


def sacrifice(state: GameState, action: Action, dice: Dice) -> list[Event]:
    unit = own_unit(state, action, "AOS-T1")
    if not state.extra["phase_started"] or unit.flags.get("damned") is not None:
        raise IllegalActionError(
            "AOS-T1", "a Damned sacrifice is made at the start of the hero phase"
        )
    features = damned_features(state, unit.id)
    if not features:
        raise IllegalActionError(
            "AOS-T1",
            f'{unit.id} is not within 1" of a Damned terrain feature that has not '
            "taken a sacrifice this hero phase",
        )
    # the feature the fewest other friendly units could sacrifice at, so none is kept from it
    others = [u.id for u in state.side_units(unit.side) if u.id != unit.id]
    crowd = {k: sum(k in damned_features(state, o) for o in others) for k in features}
    state.extra.setdefault("damned_used", []).append(min(features, key=lambda k: (crowd[k], k)))
    unit.flags["damned"] = unit.side
    events = [Event("sacrifice", {"unit": unit.id})]
    return (
        events
        + allocate(state, unit.id, roll_expr("D3", dice), dice, None, "Damned")
        + phases.check_end(state, dice)
    )


def damned_features(state: GameState, unit_id: str) -> list[int]:
    """The Damned features within 1" of the unit that no unit has made its sacrifice at this
    hero phase (each picks one friendly unit, AOS-T1)."""
    members = state.on_table(unit_id)
    used = set(state.extra.get("damned_used", []))
    found = []
    for k, (feature, shape) in enumerate(
        zip(state.board.get("terrain", []), terrain(state), strict=True)
    ):
        if feature.get("scenery") != "Damned" or k in used or not len(members):
            continue
        gap = float(base_to_shape(shape, state.pos[members], state.radius[members]).min())
        if gap <= battle_rules().scenery_range + EPS:
            found.append(k)
    return found


def near_scenery(state: GameState, side: int, scenery: str) -> list[str]:
    found = []
    for feature, shape in zip(state.board.get("terrain", []), terrain(state), strict=True):
        if feature.get("scenery") != scenery:
            continue
        for unit in state.side_units(side):
            members = state.on_table(unit.id)
            if (
                len(members)
                and float(base_to_shape(shape, state.pos[members], state.radius[members]).min())
                <= battle_rules().scenery_range + EPS
            ):
                found.append(unit.id)
    return sorted(set(found))


def fire_targets(state: GameState, side: int) -> list[int]:
    if state.board["ruses"][side] != "Firestarter" or state.extra["ruse_used"][side]:
        return []
    found = []
    for k, shape in enumerate(terrain(state)):
        for unit in state.side_units(side):
            members = state.on_table(unit.id)
            if (
                has_keyword(state, unit.id, "HERO")
                and len(members)
                and (
                    float(base_to_shape(shape, state.pos[members], state.radius[members]).min())
                    <= battle_rules().firestarter_range + EPS
                )
            ):
                found.append(k)
                break
    return found


def firestarter(state: GameState, action: Action, dice: Dice) -> list[Event]:
    k = int(action.choice or -1)
    if k not in fire_targets(state, action.side):
        raise IllegalActionError(
            "AOS-R4", 'Firestarter: once, a terrain feature within 3" of a friendly HERO'
        )
    state.extra["ruse_used"][action.side] = True
    state.extra["burning"].append(k)
    return [
        Event(
            "ruse",
            {
                "side": action.side,
                "ruse": "Firestarter",
                "terrain": state.board["terrain"][k]["name"],
            },
        )
    ]


# -- movement phase --------------------------------------------------------------------------
def move_allowance(state: GameState, unit: UnitState) -> float:
    """The Move characteristic (a damage-table row's, a random Move's roll)."""
    return characteristics.move(state, unit)


def roll_move(state: GameState, action: Action, dice: Dice) -> list[Event]:
    """Seed "Random Values": a random Move is rolled when the unit is picked to move and is
    its Move for the rest of the movement phase (AOS-D9)."""
    unit = own_unit(state, action, "AOS-D9")
    if unit.flags.get("moved") or state.extra["ending_movement"]:
        raise IllegalActionError("AOS-D9", f"{unit.id} has already moved this phase")
    if not characteristics.needs_move_roll(state, unit):
        raise IllegalActionError("AOS-D9", f"{unit.id} has no random Move left to roll")
    text = characteristics.move_text(state, unit)
    unit.tokens["move_roll"] = roll_expr(text, dice)
    return [Event("move_roll", {"unit": unit.id, "move": text, "roll": unit.tokens["move_roll"]})]


def check_move(
    state: GameState, unit: UnitState, point: tuple[float, float], limit: float, kind: str
) -> np.ndarray:
    """The shift of a legal move to ``point``: at most ``limit``, never across a base (unless
    flying) or off the table; a normal move or run never within 3" of an enemy; a retreat
    ends more than 3" from every enemy."""
    rules = battle_rules()
    members = state.on_table(unit.id)
    shift = np.asarray(point, dtype=np.float64) - centroid(state, members)
    length = float(np.hypot(*shift))
    if length > limit + MOVE_TOLERANCE:
        raise IllegalActionError("AOS-M1", f'{unit.id} can move {limit:g}", not {length:.2f}"')
    enemies = enemy_minis(state, unit.side)
    clear = clearance_limit(state, members, shift, enemies, rules.enemy_gap)
    if kind != "retreat" and clear < length - MOVE_TOLERANCE:
        raise IllegalActionError(
            "AOS-M2", 'no part of a normal move may be within 3" of an enemy unit'
        )
    if (
        kind != "retreat"
        and garrisons.path_fraction(state, unit.id, shift) * length < length - MOVE_TOLERANCE
    ):
        raise IllegalActionError(
            "AOS-G2", 'no part of a normal move may be within 3" of a feature the enemy garrisons'
        )
    if flies(unit):
        ok = placement_clear(state, members, state.pos[members] + shift)
    else:
        stopped = furthest_translation(state, members, shift)
        ok = float(np.hypot(*(shift - stopped))) <= MOVE_TOLERANCE or only_grazes(
            state, members, shift
        )
    if not ok:
        raise IllegalActionError("AOS-M1", f"{unit.id} cannot cross other models or the table edge")
    # every move ends more than 3" away: a gap of exactly 3" is within 3" (AOS-M2, AOS-M3); a
    # normal move's path was checked above to a thousandth, a retreat's may pass within 3"
    if not ends_clear(state, unit.side, members, state.pos[members] + shift):
        clause, move = ("AOS-M3", "a retreat") if kind == "retreat" else ("AOS-M2", "a normal move")
        raise IllegalActionError(clause, f'{move} must end more than 3" from every enemy unit')
    return shift


def only_grazes(state: GameState, members: np.ndarray, shift: np.ndarray) -> bool:
    """Whether a straight move the exact sweep stops only grazes other bases: on the way no
    base comes nearer another than touching (to the positions' rounding, OVERLAP_TOLERANCE),
    and where the move ends, rounded as positions are, the unit stands on the table
    overlapping no base (:func:`placement_clear`). The sweep stops a base at a touch, and a
    move that passes a base at exactly touching distance (models side by side in a grid)
    stopped there or not by the last bit of its heading: the menu's point, rounded to a
    millionth, turned a run the menu had offered a hair towards a base it passes touching,
    and the run was refused (a battle stopped in 1 of 10,752 of stop 52's measurement).
    Touching is not crossing (AOS-M1). Dot products as :func:`dot2` makes them, the same
    bits on every machine."""
    start, r = state.pos[members], state.radius[members]
    if not placement_clear(state, members, np.round(start + shift, POSITION_DECIMALS)):
        return False
    others = np.setdiff1d(np.nonzero(state.alive & state.deployed)[0], members)
    length2 = float(dot2(shift, shift))
    if len(others) == 0 or length2 == 0.0:
        return True
    centres = state.pos[others]
    along = dot2(centres[None, :, :] - start[:, None, :], shift) / length2  # (n, m)
    nearest = start[:, None, :] + np.clip(along, 0.0, 1.0)[..., None] * shift
    apart = np.hypot(*np.moveaxis(nearest - centres[None, :, :], -1, 0))
    return bool((apart - r[:, None] - state.radius[others][None, :] >= -OVERLAP_TOLERANCE).all())


def ends_clear(state: GameState, side: int, members: np.ndarray, xy: np.ndarray) -> bool:
    """Models at ``xy`` are more than 3" from every enemy model and enemy-garrisoned feature,
    where a move (a retreat or a normal move) must end."""
    from openwar.rulesets.aos.board import base_to_shape
    from openwar.rulesets.aos.moves import gap_after

    gap = battle_rules().enemy_gap + EPS
    if gap_after(state, xy, members, enemy_minis(state, side)) <= gap:
        return False
    r = state.radius[members]
    return all(
        float(base_to_shape(f, xy, r).min()) > gap for f in garrisons.enemy_features(state, side)
    )


def move(state: GameState, action: Action, dice: Dice) -> list[Event]:
    unit = own_unit(state, action, "AOS-M1")
    if state.extra["ending_movement"]:
        raise IllegalActionError("AOS-R3", "reserves have arrived: the movement phase is ending")
    if unit.flags.get("moved"):
        raise IllegalActionError("AOS-M1", f"{unit.id} has already moved this phase")
    if action.point is None:
        raise IllegalActionError("AOS-M1", "a move names where the unit goes")
    if garrisons.feature_of(state, unit.id) is not None or action.choice == "leave":
        return leave_garrison(state, unit, action.point)
    retreat = near_enemy(state, unit.id)
    if retreat != (action.choice == "retreat"):
        raise IllegalActionError(
            "AOS-M3", 'a unit within 3" of an enemy may only stay or retreat; others move normally'
        )
    if action.choice == "file":
        return _file_move(state, unit, action.point, move_limit(state, unit, action), dice)
    shift = check_move(
        state, unit, action.point, move_allowance(state, unit), "retreat" if retreat else "normal"
    )
    moved = apply_shift(state, unit.id, shift)
    unit.flags["moved"] = True
    if retreat:
        unit.flags["retreated"] = True
    victory.follow_prize(state)
    events = [Event("moved", {"unit": unit.id, "distance": round(moved, 2), "retreat": retreat})]
    return events + phases.deadly(state, unit.id, dice) + phases.check_end(state, dice)


def move_limit(state: GameState, unit: UnitState, action: Action) -> float:
    """How far the unit's models may go in this move or run (AOS-M1, AOS-M4)."""
    pending = state.extra.get("pending")
    if action.kind == "run_move" and pending is not None:
        return move_allowance(state, unit) + int(pending["roll"]) + int(pending["bonus"])
    return move_allowance(state, unit)


def _file_move(
    state: GameState, unit: UnitState, point: tuple[float, float], limit: float, dice: Dice
) -> list[Event]:
    """A normal move made model by model towards ``point`` (AOS-M1, :func:`file_positions`):
    each model's own path within ``limit``, across no base, never within 3" of an enemy
    (AOS-M2), the unit coherent at the end (AOS-M6)."""
    members = state.on_table(unit.id)
    xy = file_positions(state, unit.id, np.asarray(point, dtype=np.float64), limit, keep_away())
    if xy is None or float(np.hypot(*(xy - state.pos[members]).T).max()) < MOVE_TOLERANCE:
        raise IllegalActionError(
            "AOS-M1", f"{unit.id} cannot move model by model towards {point} and stay coherent"
        )
    moved = float(np.hypot(*(xy - state.pos[members]).T).max())
    state.pos[members] = xy
    unit.flags["moved"] = True
    victory.follow_prize(state)
    events = [Event("moved", {"unit": unit.id, "distance": round(moved, 2), "retreat": False})]
    return events + phases.deadly(state, unit.id, dice) + phases.check_end(state, dice)


def garrison(state: GameState, action: Action, dice: Dice) -> list[Event]:
    """AOS-G1: instead of a normal move, a unit with every model within 6" of a feature that
    can be garrisoned, no enemy within 3" of it and nobody in it, garrisons it."""
    unit = own_unit(state, action, "AOS-G1")
    if unit.flags.get("moved") or state.extra["ending_movement"]:
        raise IllegalActionError("AOS-G1", f"{unit.id} has already moved this phase")
    k = int(str(action.choice)) if str(action.choice).isdigit() else -1
    if (
        near_enemy(state, unit.id)
        or garrisons.feature_of(state, unit.id) is not None
        or k not in garrisons.entry_features(state, unit.id)
    ):
        raise IllegalActionError(
            "AOS-G1",
            f'{unit.id} cannot garrison that feature (every model within 6", no enemy within 3" '
            'of it, nobody inside, room on it, and not within 3" of an enemy)',
        )
    garrisons.enter(state, unit.id, k)
    unit.flags["moved"] = True
    victory.follow_prize(state)
    name = state.board["terrain"][k]["name"]
    return [Event("garrison", {"unit": unit.id, "terrain": name}), *phases.check_end(state, dice)]


def leave_garrison(state: GameState, unit: UnitState, point: tuple[float, float]) -> list[Event]:
    """AOS-G2: a garrison moves only by leaving: set up wholly within 6" of the feature and
    more than 3" from every enemy; that is its move."""
    if garrisons.feature_of(state, unit.id) is None:
        raise IllegalActionError("AOS-G2", f"{unit.id} is not garrisoning a terrain feature")
    if point not in garrisons.leave_points(state, unit.id):
        raise IllegalActionError(
            "AOS-G2",
            'a garrison leaves to a place within 6" of its feature, more than 3" from enemies',
        )
    garrisons.leave(state, unit.id, point)
    unit.flags["moved"] = True
    victory.follow_prize(state)
    return [Event("left_garrison", {"unit": unit.id, "point": list(point)})]


def run(state: GameState, action: Action, dice: Dice) -> list[Event]:
    unit = own_unit(state, action, "AOS-M4")
    if garrisons.feature_of(state, unit.id) is not None:
        raise IllegalActionError("AOS-G2", f"{unit.id} garrisons a feature: it cannot run")
    if unit.flags.get("moved") or state.extra["ending_movement"]:
        raise IllegalActionError("AOS-M4", f"{unit.id} has already moved this phase")
    retreat = near_enemy(state, unit.id)  # a run is a normal move: within 3", a retreat's
    move_allowance(state, unit)  # a random Move is rolled before running (AOS-D9)
    roll = int(dice.d6(battle_rules().run_dice).sum())
    bonus = run_bonus(state, unit)
    state.extra["pending"] = {
        "kind": "run", "unit": unit.id, "roll": roll, "bonus": bonus, "retreat": retreat
    }  # fmt: skip
    unit.flags["moved"] = True
    unit.flags["ran"] = True
    event = {"unit": unit.id, "roll": roll, "bonus": bonus}
    return [Event("run", {**event, "retreat": True} if retreat else event)]


def run_bonus(state: GameState, unit: UnitState) -> int:
    bonus = battle_rules().eager_bonus if state.board.get("twist") == "Eager for Battle" else 0
    alive = {int(state.loadout[m]) for m in state.on_table(unit.id)}
    for k in alive:
        bonus += sum(
            int(e["value"])
            for e in unit.profile["loadouts"][k]["effects"]
            if e["template"] == "run_bonus"
        )
    for entry in templates(state, unit.id, "roll_modifier"):
        if entry["roll"] == "run":
            bonus += int(entry["value"])
    return bonus


def at_the_double(state: GameState, action: Action, dice: Dice) -> list[Event]:
    pending = state.extra["pending"]
    unit = state.unit(str(pending["unit"]))
    if not can_command(state, unit) or pending["roll"] >= 6:
        raise IllegalActionError(
            "AOS-K1", "At the Double needs a command point and a HERO in range"
        )
    state.extra["cp"][unit.side] -= 1
    pending["roll"] = 6
    return [Event("command", {"ability": "At the Double", "unit": unit.id})]


def can_command(state: GameState, unit: UnitState) -> bool:
    return state.extra["cp"][unit.side] > 0 and phases.in_command_range(state, unit.id)


def run_move(state: GameState, action: Action, dice: Dice) -> list[Event]:
    pending = state.extra["pending"]
    unit = state.unit(str(pending["unit"]))
    if action.unit != unit.id:
        raise IllegalActionError("AOS-M4", f"finish the run of {unit.id} first")
    limit = move_limit(state, unit, action)
    retreat = bool(pending.get("retreat"))  # a run from within 3" of an enemy (AOS-M4)
    state.extra["pending"] = None
    if action.point is None:
        return [Event("moved", {"unit": unit.id, "distance": 0.0, "run": True})]
    shift = check_move(state, unit, action.point, limit, "retreat" if retreat else "run")
    moved = apply_shift(state, unit.id, shift)
    if retreat:
        unit.flags["retreated"] = True
    victory.follow_prize(state)
    moved_data = {"unit": unit.id, "distance": round(moved, 2), "run": True}
    events = [Event("moved", {**moved_data, "retreat": True} if retreat else moved_data)]
    return events + phases.deadly(state, unit.id, dice) + phases.check_end(state, dice)


def edge_points(state: GameState, unit: UnitState) -> list[tuple[float, float]]:
    """Centres where the unit is wholly within 6" of a table edge and more than 9" from every
    enemy model (Outflank, Reinforcements)."""
    from openwar.engine.space import gaps
    from openwar.rulesets.aos.setup import formation_at

    rules = battle_rules()
    w, d = float(state.board["width"]), float(state.board["depth"])
    members = state.members(unit.id, alive=False)
    r = float(state.radius[members[0]])
    inset = min(rules.reserve_edge / 2, rules.reserve_edge - r)
    candidates = [(x, y) for x in np.linspace(6, w - 6, 9) for y in (inset, d - inset)]
    candidates += [(x, y) for y in np.linspace(6, d - 6, 5) for x in (inset, w - inset)]
    found = []
    enemies = enemy_minis(state, unit.side)
    for x, y in candidates:
        point = (round(float(x), 3), round(float(y), 3))
        xy = formation_at(state, unit, point)
        if not placement_clear(state, members, xy):
            continue
        edge = np.minimum.reduce([xy[:, 0] + r, xy[:, 1] + r, w - xy[:, 0] + r, d - xy[:, 1] + r])
        if float(edge.max()) > rules.reserve_edge + EPS:
            continue
        if (
            len(enemies)
            and float(
                gaps(xy, state.radius[members], state.pos[enemies], state.radius[enemies]).min()
            )
            <= rules.reserve_enemy_gap
        ):
            continue
        found.append(point)
    return found


def must_arrive(state: GameState) -> bool:
    side = int(state.extra["turn"])
    return state.round >= battle_rules().outflank_last_turn and bool(waiting_reserves(state, side))


def waiting_reserves(state: GameState, side: int) -> list[str]:
    return [
        u
        for u in state.extra["reserves"]
        if state.unit(u).side == side
        and not state.is_destroyed(u)
        and not state.deployed[state.members(u)].any()
    ]


def arrive(state: GameState, action: Action, dice: Dice) -> list[Event]:
    """Outflank arrival or Reinforcements, at the end of the movement phase."""
    from openwar.rulesets.aos.setup import formation_at

    unit = state.unit(str(action.unit))
    side = action.side
    if action.kind == "arrive":
        if (
            unit.id not in waiting_reserves(state, side)
            or state.round > battle_rules().outflank_last_turn
        ):
            raise IllegalActionError("AOS-R3", f"{unit.id} is not a reserve that may arrive now")
    else:
        if unit.id not in reinforceable(state, side):
            raise IllegalActionError("AOS-R2", f"{unit.id} cannot be set up again")
        state.extra["ruse_used"][side] = True
        members = state.members(unit.id, alive=False)
        state.alive[members] = True
        unit.tokens["damage"] = 0
        unit.flags["wounded"] = None  # it stays among the destroyed units (AOS-R2, AOS-V3)
    if action.point is None or action.point not in edge_points(state, unit):
        if action.kind == "reinforce":
            raise IllegalActionError(
                "AOS-R2", 'set up wholly within 6" of an edge, more than 9" from enemies'
            )
        if action.point is not None:
            raise IllegalActionError(
                "AOS-R3", 'set up wholly within 6" of an edge, more than 9" from enemies'
            )
    members = state.members(unit.id)
    if action.point is None and edge_points(state, unit):
        raise IllegalActionError("AOS-R3", f"{unit.id} has room to arrive and must be set up")
    if action.point is None:
        state.alive[members] = False
        state.extra["destroyed"].append(unit.id)
        return [Event("reserve_lost", {"unit": unit.id}), *phases.check_end(state, dice)]
    state.pos[members] = formation_at(state, unit, action.point)
    state.deployed[members] = True
    unit.flags["arrived"] = True
    unit.flags["moved"] = True
    state.extra["ending_movement"] = True
    return [Event("arrived", {"unit": unit.id, "point": list(action.point), "how": action.kind})]


def reinforceable(state: GameState, side: int) -> list[str]:
    if state.board["ruses"][side] != "Reinforcements" or state.extra["ruse_used"][side]:
        return []
    return [
        u.id
        for u in state.units
        if u.side == side
        and state.is_destroyed(u.id)
        and u.id not in state.extra["reserves"]
        and not {"HERO", "MONSTER"} & set(u.profile["keywords"])
    ]


# -- shooting, charge and combat phases ------------------------------------------------------
def can_shoot(state: GameState, unit: UnitState) -> bool:
    if unit.flags.get("shot") or unit.flags.get("ran") or unit.flags.get("retreated"):
        return False
    if unit.flags.get("moved") and templates(state, unit.id, "no_shooting_after_moving"):
        return False
    return bool(unit.profile["missile"]) and bool(len(state.on_table(unit.id)))


def shoot(state: GameState, action: Action, dice: Dice) -> list[Event]:
    unit = own_unit(state, action, "AOS-H1")
    if not can_shoot(state, unit):
        raise IllegalActionError(
            "AOS-H1", f"{unit.id} cannot shoot (ran, retreated, already shot or no missile weapons)"
        )
    target = str(action.target)
    if target not in [
        u.id for u in state.side_units(1 - unit.side)
    ] or not attacks.can_target_missile(state, unit.id, target):
        raise IllegalActionError(
            "AOS-H2",
            f'{target} is not a target in range and visible (within 3" only units within 3")',
        )
    split = check_split(state, unit, target, action.choice, missile=True)
    unit.flags["shot"] = True
    events = [Event("order", {"unit": unit.id, "order": "shoot"}), *declare(state, unit, action)]
    events += attacks.attack(
        state, unit.id, target, dice, missile=True, phase="shooting", split=split
    )
    if state.extra["pending"] is not None:
        return events  # the defender allocates the wounds first (AOS-D10)
    return events + phases.check_end(state, dice)


def check_split(
    state: GameState, unit: UnitState, primary: str, choice: str | None, *, missile: bool
) -> dict[str, str]:
    """AOS-F3: weapons aimed away from the primary target, each at an enemy unit it may
    attack (shooting: a target the unit may shoot that the weapon can reach; combat: a unit
    the weapon reaches once the fighter has piled in)."""
    split, word = attacks.parse_split(choice)
    unused = phases.unused_triumph(state, unit.side)
    usable = word in ("Inspired", "Bloodthirsty") and unused == word
    if word is not None and not usable:
        text = f"{word!r} is not an unused triumph of side {unit.side}"
        raise IllegalActionError("AOS-B10", text)
    names = {w["name"] for w in unit.profile["missile" if missile else "melee"]}
    for weapon, target in split.items():
        if weapon not in names:
            raise IllegalActionError("AOS-F3", f"{unit.id} has no weapon {weapon!r} to aim")
        if target == primary:
            continue
        if missile:
            ok = attacks.can_target_missile(state, unit.id, target) and weapon in attacks.reach(
                state, unit.id, target, True
            )
        else:
            ok = weapon in phases.fight_reach(state, unit.id).get(target, ())
        if not ok:
            raise IllegalActionError(
                "AOS-F3", f"{unit.id}'s {weapon} cannot attack {target}: not an eligible target"
            )
    return {w: t for w, t in split.items() if t != primary}


def declare(state: GameState, unit: UnitState, action: Action) -> list[Event]:
    """AOS-B10: the unit picked to shoot or fight is inspired (bloodthirsty) for the phase."""
    _, word = attacks.parse_split(action.choice)
    if word is None:
        return []
    state.extra["triumph_used"][unit.side] = True
    unit.flags["triumph"] = word
    return [Event("triumph", {"unit": unit.id, "triumph": word})]


def can_charge(state: GameState, unit: UnitState) -> bool:
    rules = battle_rules()
    if unit.flags.get("charge_tried") or unit.flags.get("ran") or unit.flags.get("retreated"):
        return False
    if not len(state.on_table(unit.id)) or near_enemy(state, unit.id):
        return False
    if garrisons.feature_of(state, unit.id) is not None:
        return False  # AOS-G2: a garrison cannot move
    return enemy_gap(state, unit.id) <= rules.charge_range + EPS


def charge(state: GameState, action: Action, dice: Dice) -> list[Event]:
    unit = own_unit(state, action, "AOS-C1")
    if not can_charge(state, unit):
        raise IllegalActionError(
            "AOS-C1",
            f'{unit.id} cannot charge: it must be within 12" of an enemy, not within 3", '
            "and not have run or retreated",
        )
    unit.flags["charge_tried"] = True
    roll = charge_roll(state, dice)
    state.extra["pending"] = {"kind": "charge", "unit": unit.id, "roll": roll, "rerolled": False}
    return [Event("charge_roll", {"unit": unit.id, "roll": roll})]


def charge_roll(state: GameState, dice: Dice) -> int:
    rules = battle_rules()
    bonus = rules.eager_bonus if state.board.get("twist") == "Eager for Battle" else 0
    return int(dice.d6(rules.charge_dice).sum()) + bonus


def forward_to_victory(state: GameState, action: Action, dice: Dice) -> list[Event]:
    pending = state.extra["pending"]
    unit = state.unit(str(pending["unit"]))
    if pending["rerolled"] or not can_command(state, unit):
        raise IllegalActionError(
            "AOS-K2", "Forward to Victory needs a command point, a HERO in range, and re-rolls once"
        )
    state.extra["cp"][unit.side] -= 1
    pending["roll"] = charge_roll(state, dice)
    pending["rerolled"] = True
    return [
        Event(
            "command", {"ability": "Forward to Victory", "unit": unit.id, "roll": pending["roll"]}
        )
    ]


def charge_move(state: GameState, action: Action, dice: Dice) -> list[Event]:
    pending = state.extra["pending"]
    unit = state.unit(str(pending["unit"]))
    if action.unit != unit.id:
        raise IllegalActionError("AOS-C1", f"finish the charge of {unit.id} first")
    state.extra["pending"] = None
    if action.target is None:
        return [Event("charge_failed", {"unit": unit.id, "roll": pending["roll"]})]
    if state.unit(action.target).side == unit.side:
        raise IllegalActionError("AOS-C1", "charge an enemy unit")
    xy = charge_positions(state, unit.id, action.target, float(pending["roll"]), flies(unit))
    if xy is None:
        raise IllegalActionError(
            "AOS-C1",
            f'a roll of {pending["roll"]} cannot bring {unit.id} within 1/2" of {action.target}',
        )
    members = state.on_table(unit.id)
    moved = float(np.hypot(*(xy - state.pos[members]).T).max())
    state.pos[members] = xy
    unit.flags["charged"] = True
    victory.follow_prize(state)
    events = [
        Event(
            "charge",
            {
                "unit": unit.id,
                "target": action.target,
                "roll": pending["roll"],
                "distance": round(moved, 2),
            },
        )
    ]
    return events + phases.deadly(state, unit.id, dice) + phases.check_end(state, dice)


def fight(state: GameState, action: Action, dice: Dice) -> list[Event]:
    unit = own_unit(state, action, "AOS-F1")
    if action.side != state.extra["combat_side"] or unit.id not in phases.eligible_fighters(
        state, action.side
    ):
        raise IllegalActionError(
            "AOS-F1", f"{unit.id} is not eligible to fight now (players alternate, once each)"
        )
    target = str(action.target)
    if target not in phases.fight_targets(state, unit.id):
        raise IllegalActionError("AOS-F2", f"{target} is not an enemy unit {unit.id} can reach")
    split = check_split(state, unit, target, action.choice, missile=False)
    unit.flags["fought"] = True
    triumph = declare(state, unit, action)
    moved = pile_in(state, unit.id, battle_rules().pile_in)
    victory.follow_prize(state)
    events = [
        Event("order", {"unit": unit.id, "order": "fight"}),
        Event("pile_in", {"unit": unit.id, "distance": round(moved, 2)}),
        *triumph,
    ]
    events += attacks.attack(
        state, unit.id, target, dice, missile=False, phase="combat", split=split
    )
    if state.extra["pending"] is not None:
        return events  # the defender allocates the wounds first (AOS-D10)
    events += phases.check_end(state, dice)
    if state.phase == "over":
        return events
    return events + phases.next_fighter(state, 1 - action.side, dice)


def allocate_wounds(state: GameState, action: Action, dice: Dice) -> list[Event]:
    """AOS-D10: the defending player's allocation policy for the head of the queue."""
    from openwar.rulesets.aos.wounds import policies, touched

    pending = state.extra["pending"]
    target, damage = pending["queue"][0]
    if action.unit != target or action.choice not in policies(
        state, target, touched(state, target, int(damage))
    ):
        raise IllegalActionError(
            "AOS-D10", f"allocate the wounds on {target} with one of its allocation choices"
        )
    events = attacks.allocate_next(state, dice, str(action.choice))
    if state.extra["pending"] is not None:
        return events
    events += phases.check_end(state, dice)
    if state.phase == "combat":
        return events + phases.next_fighter(state, 1 - int(pending["by"]), dice)
    return events


# -- battleshock -----------------------------------------------------------------------------
def inspiring_presence(state: GameState, action: Action, dice: Dice) -> list[Event]:
    from openwar.rulesets.aos.menu import shock_choices

    if action not in shock_choices(state, action.side):
        raise IllegalActionError(
            "AOS-K3", "Inspiring Presence: a command point, a unit that must test, a HERO in range"
        )
    state.extra["cp"][action.side] -= 1
    shock = state.extra["shock"]
    if action.kind == "inspiring_presence":
        shock["immune"].append(str(action.unit))
        used = Event("command", {"ability": "Inspiring Presence", "unit": action.unit})
        return [used, *phases.shock_next(state, dice)]
    hero = str(action.unit)
    spared = hold_fast_units(state, hero)
    shock["immune"] += spared
    shock.setdefault("used", []).append(hero)
    used = Event("command", {"ability": "Hold Fast", "unit": hero, "spared": spared})
    return [used, *phases.shock_next(state, dice)]


def hold_fast_units(state: GameState, hero: str) -> list[str]:
    entry = templates(state, hero, "command_no_battleshock")[0]
    side = state.unit(hero).side
    return [
        u
        for u in phases.unspared(state, side)
        if attacks._wholly_within_unit(state, u, hero, float(entry["range"]))
    ]


def flee(state: GameState, action: Action, dice: Dice) -> list[Event]:
    """AOS-D10: the player of a unit that failed its battleshock test picks who flees."""
    from openwar.rulesets.aos.wounds import policies

    pending = state.extra["pending"]
    unit_id = str(pending["unit"])
    if action.unit != unit_id or action.choice not in policies(state, unit_id, pending["flee"]):
        raise IllegalActionError(
            "AOS-D10", f"pick the models of {unit_id} that flee with one of its choices"
        )
    state.extra["pending"] = None
    events = phases.flight(state, pending, str(action.choice))
    return events + phases.shock_next(state, dice)


def shock_done(state: GameState, action: Action, dice: Dice) -> list[Event]:
    state.extra["shock"]["asked"].append(action.side)
    return phases.shock_next(state, dice)


HANDLERS: dict[tuple[str, str], Handler] = {
    ("hero", "cast"): cast,
    ("hero", "sacrifice"): sacrifice,
    ("hero", "firestarter"): firestarter,
    ("hero", "end_phase"): end_phase,
    ("movement", "move"): move,
    ("movement", "roll_move"): roll_move,
    ("movement", "garrison"): garrison,
    ("movement", "run"): run,
    ("movement", "run_move"): run_move,
    ("movement", "at_the_double"): at_the_double,
    ("movement", "arrive"): arrive,
    ("movement", "reinforce"): arrive,
    ("movement", "end_phase"): end_phase,
    ("shooting", "shoot"): shoot,
    ("shooting", "end_phase"): end_phase,
    ("charge", "charge"): charge,
    ("charge", "charge_move"): charge_move,
    ("charge", "forward_to_victory"): forward_to_victory,
    ("charge", "end_phase"): end_phase,
    ("combat", "fight"): fight,
    ("combat", "allocate"): allocate_wounds,
    ("shooting", "allocate"): allocate_wounds,
    ("battleshock", "inspiring_presence"): inspiring_presence,
    ("battleshock", "hold_fast"): inspiring_presence,
    ("battleshock", "done"): shock_done,
    ("battleshock", "flee"): flee,
}
