"""From an army list to the units of a battle: profiles, loadouts and points.

Each miniature carries its unit type's default options plus the options bought for the whole
unit or for some of its miniatures (the first ``models`` miniatures, the front ranks, that do
not have it yet: an option listed twice, or a second kind of armour or shield, goes to the
next ones). A weapon brings its alternate profiles (Halfsword, Spike, Thrown) with it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openwar.armies.model import ArmyList, ArmyUnit
from openwar.armies.profile import changed_weapon
from openwar.armies.ready import battle_ready
from openwar.armies.suggest import find_name
from openwar.rulesets import load_ruleset
from openwar.rulesets.openwar.catalog import Armour, OpenWarCatalog, Skill, UnitType, Weapon
from openwar.rulesets.openwar.rules import battle_rules
from openwar.rulesets.openwar.setup import ForceUnit


def load_force(path: Path, prefix: str) -> tuple[ArmyList, list[ForceUnit]]:
    """Read, validate and convert an OpenWar army file."""
    army, report = battle_ready(path, "openwar", "an OpenWar battle")
    costs = {cost.unit: cost.total for cost in report.cost.units}
    return army, force_units(army, prefix, costs)


def force_units(army: ArmyList, prefix: str, costs: dict[str, int]) -> list[ForceUnit]:
    catalog = load_ruleset("openwar").data
    assert isinstance(catalog, OpenWarCatalog)
    return [
        _force_unit(unit, f"{prefix}{i + 1}", catalog, costs.get(unit.name, 0))
        for i, unit in enumerate(army.units)
    ]


def _force_unit(unit: ArmyUnit, uid: str, catalog: OpenWarCatalog, points: int) -> ForceUnit:
    kind = catalog.unit_type(unit.type)
    assert kind is not None  # the army was validated
    size = unit.size or kind.size
    options = catalog.options()
    carried: list[list[str]] = [list(kind.default_options) for _ in range(size)]
    given: dict[str, int] = {}  # the miniatures an option, or an armour slot, has reached
    for choice in unit.options:
        name = find_name(choice.name, options)  # as the validator found it: case aside
        assert name is not None  # the army was validated
        option = options[name]
        # an option listed twice goes to the next miniatures (U9); so does another armour or
        # shield: one of each per miniature (U10), never two piled on the same ones
        goes = f"slot {option.slot}" if isinstance(option, Armour) else name.casefold()
        start = given.get(goes, 0)
        for mini in range(start, min(start + (choice.models or size), size)):
            carried[mini].append(name)
        given[goes] = start + (choice.models or size)
    combos: list[tuple[str, ...]] = []
    loadout_of: list[int] = []
    for names in carried:
        key = tuple(sorted(set(names)))
        if key not in combos:
            combos.append(key)
        loadout_of.append(combos.index(key))
    loadouts = [_loadout(combo, catalog, options, kind) for combo in combos]
    profile = _own_numbers(_profile(kind, loadouts), unit.profile)
    return ForceUnit(uid, unit.name, kind.name, points, profile, tuple(loadout_of))


def _profile(kind: UnitType, loadouts: list[dict[str, Any]]) -> dict[str, Any]:
    rules = battle_rules()
    commands = list(rules.command_skills) if kind.name == rules.command_type else []
    return {
        "move": kind.move,
        "melee": kind.melee,
        "ranged": kind.ranged,
        "armor": kind.armor,
        "morale": kind.morale,
        "presence": kind.presence,
        "skills": [],
        "command_skills": commands,
        "loadouts": loadouts,
    }


def _own_numbers(profile: dict[str, Any], own: dict[str, int]) -> dict[str, Any]:
    """U20: the unit's own characteristics and weapon numbers in place of its type's."""
    if not own:
        return profile
    changed = {**profile, **{k: v for k, v in own.items() if k in profile and k != "loadouts"}}
    changed["loadouts"] = [
        {**loadout, "weapons": [changed_weapon(w, own) for w in loadout["weapons"]]}
        for loadout in profile["loadouts"]
    ]
    return changed


def _loadout(
    names: tuple[str, ...], catalog: OpenWarCatalog, options: dict[str, Any], kind: UnitType
) -> dict[str, Any]:
    weapons: list[dict[str, Any]] = []
    armour = shield = 0
    skills: list[str] = []
    for name in names:
        option = options[name]
        if isinstance(option, Weapon):
            weapons += _with_alternates(option, catalog)
        elif isinstance(option, Armour):
            armour += option.armor if option.slot == "armour" else 0
            shield += option.armor if option.slot == "shield" else 0
        elif isinstance(option, Skill):
            skills.append(option.name)
    if kind.engine is not None:
        weapons.append(_weapon_json(kind.engine))
    return {"weapons": weapons, "armour": armour, "shield": shield, "skills": skills}


def _with_alternates(weapon: Weapon, catalog: OpenWarCatalog) -> list[dict[str, Any]]:
    found = [_weapon_json(weapon)]
    for alternate in catalog.weapons:
        if alternate.profile_of == weapon.name:
            data = _weapon_json(alternate)
            data["thrown_profile"] = alternate.type == "ranged"
            found.append(data)
    return found


def _weapon_json(weapon: Weapon) -> dict[str, Any]:
    return {
        "name": weapon.name,
        "type": weapon.type,
        "range": weapon.range,
        "attacks": weapon.attacks,
        "difficulty": weapon.difficulty,
        "pierce": weapon.pierce,
        "special": list(weapon.special),
    }
