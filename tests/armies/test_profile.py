"""A unit's own numbers (``profile``, openwar U20 and aos U17): checked, priced and played."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from openwar.armies.files import army_yaml
from openwar.armies.profile import weapon_key
from openwar.battles import load_setup, start

from .helpers import army, report, rules

CHIEF = {"name": "Chief", "type": "Command"}
BREAKERS = {"name": "Wall", "type": "Breakers", "options": [{"name": "Heavy Javelin"}]}
WARDEN = {"name": "Warden", "type": "Gilded Warden"}
SPEARS = {"name": "Spears", "type": "Ironclad Spearmen"}
DRAKE = {"name": "Drake", "type": "Ember Drake"}


def openwar(profile: dict[str, int]) -> list[str]:
    return [str(p) for p in report("openwar", [CHIEF, {**BREAKERS, "profile": profile}],
                                   points_limit=1000).problems]  # fmt: skip


def test_openwar_u20_characteristics_and_carried_weapons_may_change() -> None:
    assert openwar({"armor": 6, "move": 15, "Heavy Javelin.attacks": 2, "Axe.pierce": 3}) == []
    assert openwar({"Heavy Jav. (Thrown).range": 20}) == []  # an alternate profile it carries


def test_openwar_u20_unknown_keys_and_weapons_not_carried_are_named() -> None:
    (typo,) = openwar({"armour": 5})
    assert typo.startswith("Wall: unknown profile key 'armour' (did you mean 'armor'?)")
    assert "[U20 a unit's own numbers]" in typo
    (sword,) = openwar({"Sword.attacks": 2})
    assert "unknown profile key 'Sword.attacks'" in sword


def test_openwar_u20_bounds_and_fixed_numbers() -> None:
    (high,) = openwar({"armor": 13})
    assert high == "Wall: profile armor 13 is outside 1..12 [U20 a unit's own numbers]"
    assert openwar({"armor": 12, "presence": -3}) == []
    (melee,) = openwar({"Axe.range": 3})
    assert "profile Axe.range cannot be changed: a melee weapon has no range" in melee


def test_openwar_u20_own_cost_prices_the_unit() -> None:
    plain = report("openwar", [CHIEF, BREAKERS], points_limit=1000).cost.units[1]
    own = {**BREAKERS, "profile": {"points_per_miniature": 8}}
    dear = report("openwar", [CHIEF, own], points_limit=1000).cost.units[1]
    assert dear.total - plain.total == (8 - 5) * 20


def test_aos_u17_numbers_cost_and_damage_table() -> None:
    def aos(unit: Mapping[str, object]) -> list[str]:
        found = report("aos", [WARDEN, unit], points_limit=2000, general="Warden")
        return [str(p) for p in found.problems]

    spears = {**SPEARS, "profile": {"save": 3, "Long Spear.rend": -1, "points": 120}}
    assert aos(spears) == []
    result = report("aos", [WARDEN, spears], points_limit=2000, general="Warden")
    assert result.cost.units[1].total == 120
    assert aos({**SPEARS, "profile": {"Long Spear.rend": 1}}) == [
        "Spears: profile Long Spear.rend 1 is outside -6..0 [U17 a unit's own numbers]"
    ]
    cannon = {"name": "Cannon", "type": "Thunder Cannon"}
    (short,) = aos({**cannon, "profile": {"Cannon Shot.range": 4}})  # it shoots from 6"
    assert "profile Cannon Shot.range 4 is outside 7..60" in short
    assert aos({**cannon, "profile": {"Cannon Shot.range": 7}}) == []
    (table,) = aos({**DRAKE, "profile": {"Jaws.attacks": 4}})
    assert "Jaws.attacks cannot be changed: it changes with the warscroll's damage table" in table
    assert aos({**DRAKE, "profile": {"Talons.attacks": 7, "wounds": 14}}) == []


@pytest.mark.parametrize(("ruleset", "unit"), [("opr", "Warden Captain"), ("oldworld", "General")])
def test_rulesets_without_battles_refuse_a_profile(ruleset: str, unit: str) -> None:
    found = report(ruleset, [{"name": "U", "type": unit, "profile": {"x": 1}}])
    text = [p.message for p in found.problems if "profile" in p.message]
    assert text and "'profile' is not a rule of" in text[0]


def test_weapon_keys_split_at_the_last_dot() -> None:
    assert weapon_key("Heavy Jav. (Thrown).range") == ("Heavy Jav. (Thrown)", "range")
    assert weapon_key("armor") is None and weapon_key(".x") is None


def test_own_numbers_reach_the_battle(tmp_path: Path) -> None:
    own = {**BREAKERS, "name": "Own Wall", "profile": {"armor": 6, "Heavy Javelin.attacks": 2}}
    units = [CHIEF, own, BREAKERS]
    path = tmp_path / "own.yaml"
    path.write_text(army_yaml(army("openwar", units, points_limit=1000)))
    state, _ = start(load_setup((path, path), None, 1))
    changed, plain = state.unit("a2").profile, state.unit("a3").profile
    assert (changed["armor"], plain["armor"]) == (6, 4)

    def attacks(profile: dict[str, object], name: str) -> set[int]:
        loadouts = profile["loadouts"]
        assert isinstance(loadouts, list)
        return {w["attacks"] for lo in loadouts for w in lo["weapons"] if w["name"] == name}

    assert attacks(changed, "Heavy Javelin") == {2} and attacks(plain, "Heavy Javelin") == {1}
    assert attacks(changed, "Heavy Jav. (Thrown)") == {1}  # its own profile, unchanged
    assert rules(report("openwar", units, points_limit=1000)) == []


def test_own_numbers_reach_an_aos_battle(tmp_path: Path) -> None:
    sample = Path(__file__).parents[2] / "examples" / "armies" / "aos" / "gilded_vanguard.yaml"
    text = sample.read_text().replace(
        "    size: 20\n", "    size: 20\n    profile: {save: 3, Long Spear.attacks: 2}\n", 1
    )
    path = tmp_path / "own.yaml"
    path.write_text(text)
    state, _ = start(load_setup((path, sample), None, 1))
    changed, plain = state.unit("a3").profile, state.unit("b3").profile
    assert (changed["save"], plain["save"]) == (3, 4)
    assert [w["attacks"] for w in changed["melee"]] == ["2"]
    assert [w["attacks"] for w in plain["melee"]] == ["1"]


def test_an_option_listed_twice_arms_the_next_miniatures(tmp_path: Path) -> None:
    """Two entries of ten Heavy Javelins on twenty Breakers are priced as twenty: all twenty
    carry one (both entries went to the first ten)."""
    twice = {**BREAKERS, "options": [{"name": "Heavy Javelin", "models": 10}] * 2}
    path = tmp_path / "twice.yaml"
    path.write_text(army_yaml(army("openwar", [CHIEF, twice], points_limit=1000)))
    state, _ = start(load_setup((path, path), None, 1))
    unit = state.unit("a2")
    loadouts = unit.profile["loadouts"]
    kinds = state.loadout[state.members(unit.id)].tolist()
    armed = [any(w["name"] == "Heavy Javelin" for w in loadouts[k]["weapons"]) for k in kinds]
    assert armed == [True] * 20


def test_army_show_json_lists_the_units_own_numbers() -> None:
    own = {**BREAKERS, "profile": {"armor": 6}}
    assert report("openwar", [CHIEF, own], points_limit=1000).to_json()["profiles"] == [
        {"unit": "Wall", "profile": {"armor": 6}}
    ]
    assert "profiles" not in report("openwar", [CHIEF, BREAKERS], points_limit=1000).to_json()
