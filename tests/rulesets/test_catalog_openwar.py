"""The OpenWar catalogue: the seed's weapons table cell by cell, unit types, options, skills."""

from __future__ import annotations

import json

import pytest

from openwar.cli.app import main
from openwar.rulesets import load_ruleset
from openwar.rulesets.openwar.catalog import WEAPON_JSON_KEYS, OpenWarCatalog

# Seed 002, "Unit options" > "Weapons", transcribed here independently of catalog.yaml:
# name, type, range, attacks, difficulty, pierce, cost 1/10/20/unit (None = '-'), special.
SEED_WEAPONS = [
    ("Dagger", "melee", None, 1, 7, 3, (2, None, None, 15), []),
    ("Sword", "melee", None, 3, 5, 0, (10, 8, 7, None), ["Halfsword"]),
    ("Sword (Halfsword)", "melee", None, 1, 6, 1, (None, None, None, None), []),
    ("Axe", "melee", None, 2, 6, 2, (3, 2, 2, 30), []),
    ("Warhammer", "melee", None, 2, 5, 1, (4, 3, 2, 35), ["Shock", "Spike"]),
    ("Warhammer (Spike)", "melee", None, 1, 5, 2, (None, None, None, None), []),
    ("Spear", "melee", None, 1, 4, 1, (3, 2, 2, 30), ["Second Rank"]),
    ("Javelin", "melee", None, 1, 4, 0, (3, 2, 2, 25), ["Thrown"]),
    ("Javelin (Thrown)", "ranged", 10, 1, 5, 1, (None, None, None, None), []),
    ("Heavy Javelin", "melee", None, 1, 5, 1, (5, 4, 3, 40), ["Thrown"]),
    ("Heavy Jav. (Thrown)", "ranged", 10, 1, 6, 2, (None, None, None, None), ["Shieldstick"]),
]


def catalog() -> OpenWarCatalog:
    data = load_ruleset("openwar").data
    assert isinstance(data, OpenWarCatalog)
    return data


def weapons_json(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    assert main(["catalog", "openwar", "--json"]) == 0
    weapons: list[dict[str, object]] = json.loads(capsys.readouterr().out)["weapons"]
    return weapons


def test_openwar_weapons_json_reproduces_every_cell_of_the_seed_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    expected = [
        {"name": n, "type": t, "range": r, "attacks": a, "difficulty": d, "pierce": p,
         "cost_1": c[0], "cost_10": c[1], "cost_20": c[2], "cost_unit": c[3], "special": s}
        for n, t, r, a, d, p, c, s in SEED_WEAPONS
    ]  # fmt: skip
    assert weapons_json(capsys) == expected


def test_openwar_weapon_json_has_exactly_the_issue_keys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for weapon in weapons_json(capsys):
        assert tuple(weapon) == WEAPON_JSON_KEYS


def test_openwar_u11_alternate_profiles_belong_to_their_weapon() -> None:
    alternates = {w.name: w.profile_of for w in catalog().weapons if w.profile_of}
    assert alternates == {
        "Sword (Halfsword)": "Sword",
        "Warhammer (Spike)": "Warhammer",
        "Javelin (Thrown)": "Javelin",
        "Heavy Jav. (Thrown)": "Heavy Javelin",
    }


@pytest.mark.parametrize(
    ("name", "move", "size", "cost"),
    [("Defenders", 10, 20, 100), ("Breakers", 12, 20, 100), ("Skirmishers", 12, 10, 100),
     ("Scouts", 18, 5, 50), ("Siege", 0, 1, 100), ("Command", 12, 3, 0)],
)  # fmt: skip
def test_openwar_u1_u3_unit_types_take_move_size_and_cost_from_the_notes(
    name: str, move: int, size: int, cost: int
) -> None:
    kind = catalog().unit_type(name)
    assert kind is not None
    assert (kind.move, kind.size, kind.cost) == (move, size, cost)


def test_openwar_u1_unit_type_profiles() -> None:
    profiles = {
        t.name: (t.melee, t.ranged, t.armor, t.morale, t.presence) for t in catalog().unit_types
    }
    assert profiles == {
        "Defenders": (0, 0, 5, 10, 0),
        "Breakers": (1, 0, 4, 8, 1),
        "Skirmishers": (0, 1, 3, 6, 0),
        "Scouts": (0, 1, 3, 7, 0),
        "Siege": (0, 2, 5, 8, 2),
        "Command": (1, 0, 4, 10, 2),
    }


def test_openwar_u17_siege_engine_reaches_the_notes_20cm() -> None:
    siege = catalog().unit_type("Siege")
    assert siege is not None and siege.engine is not None
    assert siege.engine.range is not None
    assert siege.engine.range + siege.ranged == 20


def test_openwar_u6_eight_skills_each_with_an_effect() -> None:
    skills = {s.name: s for s in catalog().skills}
    assert list(skills) == ["Second Rank", "Third Rank", "Specialist", "Shock", "Halfsword",
                            "Spike", "Thrown", "Shieldstick"]  # fmt: skip
    assert all(len(s.effect) > 20 for s in skills.values())
    granted = ["Shock", "Halfsword", "Spike", "Thrown", "Shieldstick"]
    assert not any(skills[name].tiers.offered for name in granted)


def test_openwar_u5_armour_and_shields() -> None:
    armour = {a.name: (a.slot, a.armor) for a in catalog().armour}
    assert armour == {
        "Light armour": ("armour", 1), "Heavy armour": ("armour", 2),
        "Small shield": ("shield", 1), "Large shield": ("shield", 2),
    }  # fmt: skip


def test_catalog_table_output_lists_every_weapon(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalog", "openwar"]) == 0
    out = capsys.readouterr().out
    assert "Warhammer" in out and "10,8,7,-" in out and "Skills" in out
    said = " ".join(out.split())  # the costs' columns explained under their tables
    assert "Cost 1,10,20,U: points a miniature when any, 10 or more, or 20 or more" in said
    assert "Cost: the unit's points at its default size (size x Pts/mini)" in said
