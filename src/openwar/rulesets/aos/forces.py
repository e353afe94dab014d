"""From an Age of Sigmar army list to the units of a battle: warscroll characteristics,
weapons, ability templates, options per model, base sizes, general and battalions."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openwar.armies.model import ArmyList, ArmyUnit
from openwar.armies.profile import changed_weapon
from openwar.armies.ready import battle_ready
from openwar.armies.suggest import find_name
from openwar.armies.validate import assess
from openwar.rulesets import load_ruleset
from openwar.rulesets.aos.abilities import option_templates, templates_for
from openwar.rulesets.aos.catalog import AosCatalog, AosWeapon, DamageRow, Warscroll
from openwar.rulesets.aos.rules import battle_rules
from openwar.rulesets.hooks import option_count


@dataclass(frozen=True)
class ForceUnit:
    """One unit ready for battle: profile, which loadout each model carries, base radius."""

    id: str
    name: str
    kind: str
    points: int
    profile: dict[str, Any]
    loadouts: tuple[int, ...]
    base_radius: float


def load_force(path: Path, prefix: str) -> tuple[ArmyList, list[ForceUnit]]:
    """Read, validate and convert an Age of Sigmar army file."""
    army, _ = battle_ready(path, "aos", "an aos battle")
    return army, force_units(army, prefix)


def _battalion_tags(army: ArmyList) -> list[tuple[Any, str]]:
    """Each battalion with a name of its own: a second copy of one is "Name (2)", so each
    counts for its command point (AOS-B5)."""
    seen: dict[str, int] = {}
    tags = []
    for battalion in army.battalions:
        seen[battalion.name] = seen.get(battalion.name, 0) + 1
        count = seen[battalion.name]
        tags.append((battalion, battalion.name if count == 1 else f"{battalion.name} ({count})"))
    return tags


def force_units(army: ArmyList, prefix: str) -> list[ForceUnit]:
    catalog = load_ruleset("aos").data
    assert isinstance(catalog, AosCatalog)
    costs = {cost.unit: cost.total for cost in assess(army).cost.units}
    battalion_of = {name: tag for b, tag in _battalion_tags(army) for name in b.units}
    found = []
    for i, unit in enumerate(army.units):
        scroll = catalog.unit(unit.type)
        assert scroll is not None  # the army was validated
        found.append(
            _force_unit(
                unit,
                scroll,
                f"{prefix}{i + 1}",
                costs.get(unit.name, 0),
                battalion_of.get(unit.name),
                unit.name == army.general,
            )
        )
    return found


def base_radius(keywords: list[str]) -> float:
    """AOS-B3: a round base by keyword, first match in data/battle.yaml."""
    rules = battle_rules()
    for entry in rules.base_radius:
        if entry.keyword in keywords:
            return entry.radius
    return rules.default_base_radius


def _force_unit(
    unit: ArmyUnit,
    scroll: Warscroll,
    uid: str,
    points: int,
    battalion: str | None,
    general: bool,
) -> ForceUnit:
    size = unit.size or scroll.size
    carried: list[list[str]] = [[] for _ in range(size)]
    most = {o.name: o.max_models for o in scroll.options}
    for choice in unit.options:
        # the catalogue's name, as validation found it ignoring case: "champion" was carried
        # under its own spelling, so its effect was not found and its limit not read
        name = find_name(choice.name, most) or choice.name
        for model in range(option_count(choice.models, size, most.get(name))):
            carried[model].append(name)
    combos: list[tuple[str, ...]] = []
    loadout_of: list[int] = []
    for names in carried:
        key = tuple(sorted(set(names)))
        if key not in combos:
            combos.append(key)
        loadout_of.append(combos.index(key))
    loadouts = [
        {"options": list(c), "effects": [t for n in c for t in option_templates(scroll.name, n)]}
        for c in combos
    ]
    own = {k: v for k, v in unit.profile.items() if k in ("move", "wounds", "bravery", "save")}
    profile = {
        "warscroll": scroll.name,
        "move": scroll.move,
        "wounds": scroll.wounds,
        "bravery": scroll.bravery,
        "save": scroll.save,
        **own,  # U17: the unit's own numbers
        "keywords": list(scroll.keywords),
        "missile": [_own_weapon(w, unit.profile) for w in scroll.missile_weapons],
        "melee": [_own_weapon(w, unit.profile) for w in scroll.melee_weapons],
        "abilities": templates_for(scroll.name),
        "damage_table": [_row(row) for row in scroll.damage_table],
        "loadouts": loadouts,
        "battalion": battalion,
        "allied": unit.allied,
        "general": general,
    }
    return ForceUnit(
        uid,
        unit.name,
        scroll.name,
        points,
        profile,
        tuple(loadout_of),
        base_radius(scroll.keywords),
    )


def _row(row: DamageRow) -> dict[str, Any]:
    """A damage-table row as plain JSON: dice values as text, like a weapon's."""
    weapons = {
        name: {
            k: (str(v) if k in ("attacks", "damage") else v)
            for k, v in change.model_dump().items()
            if v is not None
        }
        for name, change in row.weapons.items()
    }
    return {
        "suffered": row.suffered,
        "move": row.move,
        "bravery": row.bravery,
        "save": row.save,
        "weapons": weapons,
    }


def _own_weapon(weapon: AosWeapon, own: dict[str, int]) -> dict[str, Any]:
    """A weapon with the unit's own numbers (U17; attacks and damage as text, like the
    catalogue's dice)."""
    changed = changed_weapon(_weapon(weapon), own)
    return {k: str(v) if k in ("attacks", "damage") else v for k, v in changed.items()}


def _weapon(weapon: AosWeapon) -> dict[str, Any]:
    return {
        "name": weapon.name,
        "range": weapon.range,
        "min_range": weapon.min_range,
        "attacks": str(weapon.attacks),
        "to_hit": weapon.to_hit,
        "to_wound": weapon.to_wound,
        "rend": weapon.rend,
        "damage": str(weapon.damage),
    }
