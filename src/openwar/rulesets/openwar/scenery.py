"""Scenery rules in battle (OW-BP.3, OW-T2 to OW-T6): each feature of a generated battleplan
has one of six scenery rules, read within 3 cm of the feature's edge. A unit is within 3 cm
of a feature when a miniature's base is; a miniature, when its own base is.

Played: Arcane (OW-T2), Inspiring and Sinister (OW-T3), Deadly (OW-T4), Mystical (OW-T5).
Damned (OW-T6) asks the player for a sacrifice that neither the menu nor the AI players
offer yet, so a Damned feature does nothing (docs/rules/openwar.md, "Not implemented").
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import Polygon

from openwar.engine.events import Event
from openwar.engine.game import Dice
from openwar.engine.space import OVERLAP_TOLERANCE
from openwar.engine.state import BoolArray, FloatArray, GameState, IntArray
from openwar.rulesets.openwar.rules import battle_rules

ARCANE, INSPIRING, SINISTER = "Arcane", "Inspiring", "Sinister"
DEADLY, MYSTICAL, DAMNED = "Deadly", "Mystical", "Damned"


def _features(state: GameState) -> tuple[list[str], np.ndarray, FloatArray]:
    """The scenery rule, shape and bounds (min x, min y, max x, max y) of every feature that
    has one (worked out once a battle)."""
    memo = state.lookup().memo
    found: tuple[list[str], np.ndarray, FloatArray] | None = memo.get("openwar.scenery")
    if found is None:
        kept = [f for f in state.board.get("terrain", []) if f.get("scenery")]
        shapes = np.array([Polygon(f["polygon"]) for f in kept], dtype=object)
        bounds = np.array([shape.bounds for shape in shapes], dtype=np.float64).reshape(-1, 4)
        found = memo["openwar.scenery"] = ([str(f["scenery"]) for f in kept], shapes, bounds)
    return found


def _within(state: GameState, minis: IntArray) -> tuple[list[str], BoolArray]:
    """The features' rules, and for each feature (rows) and miniature (columns) whether the
    base is within 3 cm of it. Only bases inside a feature's bounds widened by the reach are
    measured exactly (most are far from every feature)."""
    names, shapes, bounds = _features(state)
    within = np.zeros((len(names), len(minis)), dtype=np.bool_)
    if not names or len(minis) == 0:
        return names, within
    xy, radius = state.pos[minis], state.radius[minis]
    reach = battle_rules().scenery_range + OVERLAP_TOLERANCE + radius
    for k, (x0, y0, x1, y1) in enumerate(bounds.tolist()):
        close = np.flatnonzero(
            (xy[:, 0] >= x0 - reach) & (xy[:, 0] <= x1 + reach)
            & (xy[:, 1] >= y0 - reach) & (xy[:, 1] <= y1 + reach)
        )  # fmt: skip
        if len(close):
            gaps = shapely.distance(shapes[k], shapely.points(xy[close])) - radius[close]
            within[k, close] = gaps <= reach[close] - radius[close]
    return names, within


def near_each(state: GameState, minis: IntArray, rule: str) -> BoolArray:
    """For each of ``minis``, whether its base is within 3 cm of a feature with ``rule``."""
    return _of_rule(*_within(state, minis), rule)


def _of_rule(names: list[str], within: BoolArray, rule: str) -> BoolArray:
    """For each miniature (column), whether a feature with ``rule`` (row) reaches it."""
    rows = [k for k, name in enumerate(names) if name == rule]
    return np.asarray(within[rows].any(axis=0), dtype=np.bool_)


def unit_within(state: GameState, unit_id: str) -> tuple[list[str], BoolArray]:
    """:func:`_within` for the unit's miniatures on the table (remembered while the state is
    only read: the AI asks it of every attack it weighs)."""
    return state.remembered(
        ("openwar.scenery", unit_id), lambda: _within(state, state.on_table(unit_id))
    )


def rules_near(state: GameState, unit_id: str) -> set[str]:
    """The scenery rules of the features within 3 cm of a miniature of the unit."""
    names, within = unit_within(state, unit_id)
    return {name for name, row in zip(names, within, strict=True) if row.any()}


def unit_mystical(state: GameState, unit_id: str) -> BoolArray:
    """:func:`mystical` for the unit's miniatures on the table."""
    return _of_rule(*unit_within(state, unit_id), MYSTICAL)


def unit_near(state: GameState, unit_id: str, rule: str) -> bool:
    """Whether a miniature of the unit is within 3 cm of a feature with ``rule``."""
    return rule in rules_near(state, unit_id)


def morale_change(state: GameState, unit_id: str) -> int:
    """OW-T3: +1 Morale within 3 cm of an Inspiring feature, -1 within 3 cm of a Sinister one,
    once each however many such features."""
    near = rules_near(state, unit_id)
    return battle_rules().inspiring_morale * ((INSPIRING in near) - (SINISTER in near))


def skill_roll_bonus(state: GameState, unit_id: str) -> int:
    """OW-T2: +1 to every roll a Skill order of a unit within 3 cm of an Arcane feature calls
    for (the Soul Stone's, OW-P6)."""
    return battle_rules().arcane_bonus if unit_near(state, unit_id, ARCANE) else 0


def mystical(state: GameState, minis: IntArray) -> BoolArray:
    """OW-T5: which of ``minis`` stand within 3 cm of a Mystical feature (a Wound on them is
    negated on a 6, the one roll a Ward would make, OW-P5)."""
    return near_each(state, minis, MYSTICAL)


def deadly(state: GameState, unit_id: str, dice: Dice, moved: float) -> list[Event]:
    """OW-T4: a unit whose Advance or Run move (``moved`` cm, more than none) ends within 3 cm
    of a Deadly feature rolls a die (one roll however many such features); on a 1 it loses D3
    miniatures, the farthest from the enemy first (OW-B15; Mystical ground may save each,
    OW-T5)."""
    from openwar.rulesets.openwar.twists import strike

    if moved <= 0.0 or state.is_destroyed(unit_id) or not unit_near(state, unit_id, DEADLY):
        return []
    rules = battle_rules()
    face = int(dice.d6(1)[0])
    events = [Event("deadly", {"unit": unit_id, "roll": face})]
    if face > rules.deadly_roll:
        return events
    count = int(dice.roll(rules.deadly_loss_die, 1)[0])
    return events + strike(state, state.unit(unit_id), count, dice, DEADLY)
