"""Each validation rule has a failing and a passing case; all problems come at once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from .helpers import army, report, rules

CHIEF = {"name": "Chief", "type": "Command"}
WARDEN = {"name": "Warden", "type": "Gilded Warden"}
SPEARS = {"name": "Spears", "type": "Ironclad Spearmen"}


def aos(units: Sequence[Any], **fields: Any) -> list[str]:
    return rules(report("aos", units, **{"points_limit": 2000, "general": "Warden", **fields}))


# openwar ---------------------------------------------------------------------------------


def test_openwar_u12_exactly_one_command_unit() -> None:
    assert rules(report("openwar", [CHIEF], points_limit=100)) == []
    assert rules(report("openwar", [], points_limit=100)) == ["U12"]
    two = [CHIEF, {"name": "Chief 2", "type": "Command"}]
    assert rules(report("openwar", two, points_limit=100)) == ["U12"]


def test_openwar_u13_points_limit() -> None:
    units = [CHIEF, {"name": "D", "type": "Defenders"}]
    assert rules(report("openwar", units, points_limit=100)) == []
    over = report("openwar", units, points_limit=99)
    hint = "(to play it all the same, raise the file's points_limit)"
    assert rules(over) == ["U13"]
    assert f"over the limit of 99 by 1 {hint}" in over.problems[0].message
    assert rules(report("openwar", units)) == ["U13"]  # no limit given, none by default


def test_openwar_u2_unit_size() -> None:
    assert rules(report("openwar", [{**CHIEF, "size": 5}], points_limit=0)) == []
    assert rules(report("openwar", [{**CHIEF, "size": 6}], points_limit=0)) == ["U2"]


def test_openwar_u9_option_for_more_miniatures_than_the_unit_has() -> None:
    ok = {**CHIEF, "options": [{"name": "Axe", "models": 3}]}
    bad = {**CHIEF, "options": [{"name": "Axe", "models": 4}]}
    twice = {**CHIEF, "options": [{"name": "Axe", "models": 2}, {"name": "Axe", "models": 2}]}
    assert rules(report("openwar", [ok], points_limit=100)) == []
    assert rules(report("openwar", [bad], points_limit=100)) == ["U9"]
    assert rules(report("openwar", [twice], points_limit=100)) == ["U9"]
    cased = {**CHIEF, "options": [{"name": "Axe", "models": 2}, {"name": "axe", "models": 2}]}
    assert rules(report("openwar", [cased], points_limit=100)) == ["U9"]  # case aside, as U14
    (said,) = report("openwar", [twice], points_limit=100).problems  # not "chosen for 4"
    assert "Axe is listed 2 times, for 4 miniatures in all; the unit has 3" in str(said)


def test_openwar_u10_one_armour_and_one_shield_per_miniature() -> None:
    ok = {
        **CHIEF,
        "options": [
            {"name": "Light armour", "models": 2},
            {"name": "Heavy armour", "models": 1},
            {"name": "Small shield"},
        ],
    }
    bad = {**CHIEF, "options": [{"name": "Light armour"}, {"name": "Heavy armour", "models": 1}]}
    assert rules(report("openwar", [ok], points_limit=100)) == []
    assert rules(report("openwar", [bad], points_limit=100)) == ["U10"]  # fmt: skip
    lower = {**CHIEF, "options": [{"name": "light armour"}, {"name": "heavy armour", "models": 1}]}
    assert rules(report("openwar", [lower], points_limit=100)) == ["U10"]  # case aside, as U14


def test_openwar_u11_alternate_profile_is_not_bought() -> None:
    unit = {**CHIEF, "options": [{"name": "Sword (Halfsword)"}]}
    result = report("openwar", [unit], points_limit=100)
    assert rules(result) == ["U11"] and "comes with Sword" in result.problems[0].message


def test_openwar_u14_unknown_names_suggest_the_closest() -> None:
    units = [
        CHIEF,
        {"name": "B", "type": "Brakers"},
        {"name": "D", "type": "Defenders", "options": [{"name": "Large sheild"}]},
    ]
    result = report("openwar", units, points_limit=1000)
    assert rules(result) == ["U1", "U14"]
    assert "did you mean 'Breakers'" in result.problems[0].message
    assert "did you mean 'Large shield'" in result.problems[1].message  # fmt: skip


def test_openwar_u15_u16_other_rulesets_fields_and_duplicate_names() -> None:
    units = [CHIEF, {**CHIEF, "type": "Scouts", "allied": True}]
    result = report("openwar", units, points_limit=1000, general="Chief")
    assert sorted(rules(result)) == ["U15", "U15", "U16"]


def test_openwar_u16_names_are_compared_as_read_and_a_blank_name_is_no_name() -> None:
    """A name with a combining accent and one with the accented letter are one name; " " was
    taken as a name."""
    import pydantic

    twins = [CHIEF, {"name": "Dé", "type": "Scouts"}, {"name": "De\u0301", "type": "Scouts"}]
    assert rules(report("openwar", twins, points_limit=1000)) == ["U16"]
    assert army("openwar", [{"name": "  Chief ", "type": "Command"}]).units[0].name == "Chief"
    with pytest.raises(pydantic.ValidationError, match="at least 1 character"):
        army("openwar", [{"name": " ", "type": "Command"}])
    with pytest.raises(pydantic.ValidationError, match=r"control character \\x1b"):
        army("openwar", [{"name": "\x1b[31mRed", "type": "Command"}])
    with pytest.raises(pydantic.ValidationError, match=r"control character \\u202e"):
        army("openwar", [{"name": "Red\u202e", "type": "Command"}])
    joined = army("openwar", [{"name": "Mi\u200cnu", "type": "Command"}])  # a joiner is spelling
    assert joined.units[0].name == "Mi\u200cnu"


def test_every_problem_is_reported_at_once_naming_unit_option_and_rule() -> None:
    units = [{"name": "A", "type": "Defenders", "size": 40,
              "options": [{"name": "Shock"}, {"name": "Axe", "models": 50}]}]  # fmt: skip
    result = report("openwar", units, points_limit=10)
    assert rules(result) == ["U2", "U8", "U9", "U13", "U12"]
    shock = result.problems[1]
    assert (shock.unit, shock.option, shock.title) == (
        "A",
        "Shock",
        "ways marked '-' are not offered",
    )
    assert str(shock).startswith("A / Shock: ") and "[U8 " in str(shock)
    assert "Shock is not bought: it comes with the " in str(shock)  # not "(offered: none)"


def test_openwar_u14_an_unknown_option_is_answered_with_the_options_that_can_be_bought() -> None:
    """The list began with a weapon's special rules and alternate profiles and stopped at
    eight names, before the armour and shields."""
    unit = {**CHIEF, "options": [{"name": "Plasma Rifle"}]}
    (said,) = report("openwar", [unit], points_limit=1000).problems
    assert "unknown option 'Plasma Rifle' (known: Axe, Dagger," in str(said)
    assert "Large shield" in str(said) and "Warhammer)" in str(said)
    assert "Halfsword" not in str(said) and "(Thrown)" not in str(said) and "..." not in str(said)


# aos -------------------------------------------------------------------------------------


def test_aos_u8_a_general() -> None:
    assert aos([WARDEN]) == []
    assert rules(report("aos", [WARDEN], points_limit=2000)) == ["U8"]
    assert aos([WARDEN], general="Nobody") == ["U8"]
    allied = {"name": "Lord", "type": "Grave Lord", "allied": True}
    four = [WARDEN, allied, SPEARS, {**SPEARS, "name": "Spears 2"}]
    assert rules(report("aos", four, points_limit=2000, general="Lord")) == ["U8"]


def test_aos_u9_one_allied_unit_in_every_four() -> None:
    ally = {"name": "Ally 1", "type": "Grave Wardens", "allied": True}
    three = [WARDEN, SPEARS, {"name": "Bows", "type": "Ashwood Longbows"}]
    assert aos([*three, ally]) == []
    assert aos([*three[:2], ally]) == ["U9"]
    second = {**ally, "name": "Ally 2"}
    assert aos([*three, ally, second]) == ["U9"]
    # allies inside a battalion do not count against the limit
    battalion = {"name": "Warden Host", "units": ["Warden", "Ally 1"]}
    host = [WARDEN, {**ally, "type": "Grave Lord"}]
    assert "U9" not in aos(host, battalions=[battalion])


def test_aos_u6_allegiance() -> None:
    assert aos([WARDEN, SPEARS], allegiance="Gilded Host") == []
    assert aos([WARDEN, SPEARS], allegiance="Order") == []
    ghouls = {"name": "Ghouls", "type": "Grave Wardens"}
    assert aos([WARDEN, SPEARS, ghouls], allegiance="Order") == ["U6"]


def test_aos_u10_u11_u12_battalions() -> None:
    units = [WARDEN, SPEARS, {"name": "Drake", "type": "Ember Drake"}]
    assert aos(units, battalions=[{"name": "Warden Host", "units": ["Warden", "Spears"]}]) == []
    assert aos(units, battalions=[{"name": "Warden Host", "units": ["Warden"]}]) == ["U11"]
    assert aos(units, battalions=[{"name": "Warden Hots", "units": ["Warden", "Spears"]}]) == [
        "U10"
    ]
    assert aos(units, battalions=[{"name": "Warden Host", "units": ["Warden", "Drake"]}]) == ["U12"]
    small = [WARDEN, {**SPEARS, "size": 5}]
    assert aos(small, battalions=[{"name": "Warden Host", "units": ["Warden", "Spears"]}]) == [
        "U12"
    ]
    both = [{"name": "Warden Host", "units": ["Warden", "Spears"]},
            {"name": "Warden Host", "units": ["Spears", "Warden"]}]  # fmt: skip
    assert aos([WARDEN, SPEARS], battalions=both) == ["U12", "U12"]
    # a battalion named in lower case is the same battalion, and a unit named twice is one
    lower = [{"name": "warden host", "units": ["Warden", "Drake"]}]
    assert aos(units, battalions=lower) == ["U12"]
    twice = [{"name": "Warden Host", "units": ["Warden", "Warden"]}]
    assert aos(units, battalions=twice) == ["U11", "U11"]
    found = report("aos", units, battalions=twice, general="Warden", points_limit=2000)
    assert [(p.unit, p.option, p.message) for p in found.problems] == [
        ("Warden", "Warden Host", "'Warden' is named 2 times; a unit counts once"),
        (None, "Warden Host", "1 unit; a battalion needs at least 2"),
    ]
    thrice = [{"name": "Warden Host", "units": ["Warden", "Drake", "Drake", "Drake"]}]
    assert aos(units, battalions=thrice) == ["U11", "U12"]  # its U12 once, not thrice


def test_aos_u3_points_per_block_and_u13_limit() -> None:
    result = report("aos", [WARDEN, {**SPEARS, "size": 25}], points_limit=400, general="Warden")
    assert result.cost.total == 100 + 3 * 100 and result.valid
    assert rules(report("aos", [WARDEN, SPEARS], points_limit=199, general="Warden")) == ["U13"]


def test_aos_u2_unit_size_from_1_to_max_size() -> None:
    assert aos([WARDEN, {**SPEARS, "size": 30}]) == []  # Ironclad Spearmen: max_size 30
    assert aos([WARDEN, {**SPEARS, "size": 1}]) == []  # understrength is still a unit
    result = report("aos", [WARDEN, {**SPEARS, "size": 31}], points_limit=2000, general="Warden")
    assert rules(result) == ["U2"] and "size 31 is outside 1-30" in result.problems[0].message


def test_aos_u4_command_models() -> None:
    one = {**SPEARS, "options": [{"name": "Champion", "models": 1}]}
    two = {**SPEARS, "options": [{"name": "Champion", "models": 2}]}
    assert aos([WARDEN, one]) == [] and aos([WARDEN, two]) == ["U4"]
    twice = {**SPEARS, "options": [{"name": "Champion", "models": 1}] * 2}  # one, then one more
    assert aos([WARDEN, twice]) == ["U4"]
    from openwar.rulesets.aos.forces import force_units

    for written in ("Champion", "champion"):  # no models: the one model's, in any case
        bare = {**SPEARS, "options": [{"name": written}]}
        assert aos([WARDEN, bare]) == []
        listed = army("aos", [WARDEN, bare], points_limit=2000, general="Warden")
        spears = force_units(listed, "a")[1]
        loadouts = spears.profile["loadouts"]
        champions = [k for k, names in enumerate(loadouts) if names["options"]]
        assert sum(spears.loadouts.count(k) for k in champions) == 1  # one model carries it
        assert [loadouts[k]["options"] for k in champions] == [["Champion"]]
        assert [loadouts[k]["effects"] for k in champions] != [[]]  # its +1 Attack is found


# opr -------------------------------------------------------------------------------------


def test_opr_u10_an_army_lists_at_least_one_unit() -> None:
    assert rules(report("opr", [])) == ["U10"]
    assert rules(report("opr", [{"name": "C", "type": "Warden Captain"}])) == []


def test_opr_u9_at_most_one_hero() -> None:
    captain, adept = {"name": "C", "type": "Warden Captain"}, {"name": "A", "type": "Ember Adept"}
    assert rules(report("opr", [captain])) == []
    result = report("opr", [captain, adept])
    assert rules(result) == ["U9"] and "2 Hero units (C, A)" in result.problems[0].message


def test_opr_u8_points_limit_350_by_default() -> None:
    drakes = [{"name": "D1", "type": "Ember Drake"}, {"name": "D2", "type": "Ember Drake"}]
    assert rules(report("opr", drakes)) == []  # 300
    assert rules(report("opr", [*drakes, {"name": "D3", "type": "Ember Drake"}])) == ["U8"]
    assert rules(report("opr", [*drakes], points_limit=299)) == ["U8"]


def test_opr_u3_two_copies_of_an_infantry_unit_combine() -> None:
    big = {"name": "Big", "type": "Ironclad Spearmen", "size": 20,
           "options": [{"name": "Sergeant"}]}  # fmt: skip
    result = report("opr", [big])  # the Sergeant is one model: paid once (it was twice)
    assert result.valid and result.cost.total == 2 * 70 + 5
    banner = {**big, "options": [{"name": "Musician/Standard"}]}  # the whole unit's: for both
    assert report("opr", [banner]).cost.total == 2 * 70 + 2 * 10
    assert rules(report("opr", [{**big, "size": 15}])) == ["U2"]
    assert rules(report("opr", [{"name": "D", "type": "Ember Drake", "size": 2}])) == ["U2"]


def test_opr_u4_per_unit_upgrades_are_for_the_whole_unit() -> None:
    unit = {
        "name": "S",
        "type": "Ironclad Spearmen",
        "options": [{"name": "Sergeant", "models": 3}],
    }
    assert rules(report("opr", [unit])) == ["U4"]
    rider = {"name": "C", "type": "Warden Captain", "options": [{"name": "Warhorse", "models": 2}]}
    [problem] = report("opr", [rider]).problems  # it said "not 2 of 1 models"
    assert "Warhorse is bought once for the whole unit (1 model), not for 2" in problem.message
    twice = {**unit, "options": [{"name": "Sergeant"}] * 2}  # a unit buys it once
    assert rules(report("opr", [twice])) == ["U4"]
    wrong_twice = {**unit, "options": [{"name": "Sergeant", "models": 3}] * 2}
    assert rules(report("opr", [wrong_twice])) == ["U4"]  # the same line was said twice


def test_opr_u4_a_sergeant_is_one_models_upgrade_written_with_or_without_models_1() -> None:
    """The Sergeant changes one model: ``models: 1`` was refused as "not 1 of 10 models"."""
    for written in ({"name": "Sergeant"}, {"name": "Sergeant", "models": 1}):
        unit = {"name": "S", "type": "Ironclad Spearmen", "options": [written]}
        found = report("opr", [unit], points_limit=500)
        assert rules(found) == []
        [sergeant] = found.cost.units[0].options
        assert (sergeant.models, sergeant.points) == (1, 5)
    unit = {
        "name": "S",
        "type": "Ironclad Spearmen",
        "options": [{"name": "Sergeant", "models": 3}],
    }
    assert (
        "one model's, bought once for the unit: not 3 models"
        in report("opr", [unit]).problems[0].message
    )


# oldworld --------------------------------------------------------------------------------


def test_oldworld_u7_a_general_who_is_a_character() -> None:
    captain = {"name": "Harl", "type": "Warden Captain"}
    spears = {"name": "Spears", "type": "Ironclad Spearmen"}
    assert rules(report("oldworld", [captain], points_limit=100, general="Harl")) == []
    assert rules(report("oldworld", [captain], points_limit=100)) == ["U7"]
    assert rules(report("oldworld", [captain, spears], points_limit=500,
                        general="Spears")) == ["U7"]  # fmt: skip
    lower = {"name": "Spears", "type": "ironclad spearmen"}
    assert rules(report("oldworld", [captain, lower], points_limit=500,
                        general="Spears")) == ["U7"]  # fmt: skip


def test_oldworld_a_command_model_option_without_models_is_taken_by_one() -> None:
    """An option one model at most may take (a Champion) is that one model's when ``models``
    is not written: it was read as the whole unit and refused ("taken by 20 models")."""
    captain = {"name": "Harl", "type": "Warden Captain"}
    spears = {"name": "S", "type": "Ironclad Spearmen", "options": [{"name": "Champion"}]}
    found = report("oldworld", [captain, spears], points_limit=999, general="Harl")
    assert rules(found) == []
    assert [(o.option, o.models, o.points) for o in found.cost.units[1].options] == [
        ("Champion", 1, 6)
    ]
    shields = {**spears, "options": [{"name": "Shields"}]}  # no limit: still the whole unit
    found = report("oldworld", [captain, shields], points_limit=999, general="Harl")
    assert [(o.option, o.models) for o in found.cost.units[1].options] == [("Shields", 20)]


def test_oldworld_u8_points_limit_and_u2_size() -> None:
    captain = {"name": "Harl", "type": "Warden Captain"}
    assert rules(report("oldworld", [captain], points_limit=79, general="Harl")) == ["U8"]
    spears = {"name": "S", "type": "Ironclad Spearmen", "size": 41}
    assert rules(report("oldworld", [captain, spears], points_limit=999, general="Harl")) == ["U2"]
    shields = {**captain, "options": [{"name": "Shield"}] * 2}  # one captain, two shields
    assert rules(report("oldworld", [shields], points_limit=999, general="Harl")) == ["U4"]


def test_unknown_ruleset_is_a_problem_not_an_exception() -> None:
    result = report("warmaster", [])
    assert rules(result) == ["ruleset"] and not result.valid
    # no clause to cite, so no [clause title] tag after the message
    assert str(result.problems[0]).startswith("ruleset: unknown ruleset 'warmaster'")
    assert not str(result.problems[0]).endswith("]")


def test_openwar_u10_in_battle_each_miniature_wears_one_armour_and_one_shield() -> None:
    """Light armour for 2 and Heavy armour for 1 of 3: the third miniature wears the heavy,
    not the first (both were piled on the first, whose Armor was 8 for the 7 the validator
    allowed); option names in another case are the catalogue's (they stopped the battle)."""
    from openwar.armies.model import ArmyList
    from openwar.rulesets import load_ruleset
    from openwar.rulesets.openwar.catalog import OpenWarCatalog
    from openwar.rulesets.openwar.forces import force_units

    bought = [
        {"name": "Light armour", "models": 2},
        {"name": "heavy ARMOUR", "models": 1},
        {"name": "small shield"},
    ]
    chief = {**CHIEF, "options": bought}
    army = ArmyList.model_validate(
        {"ruleset": "openwar", "name": "A", "points_limit": 100, "units": [chief]}
    )
    assert rules(report("openwar", [chief], points_limit=100)) == []
    (unit,) = force_units(army, "a", {})
    catalog = load_ruleset("openwar").data
    assert isinstance(catalog, OpenWarCatalog)
    armour = {a.name: a.armor for a in catalog.armour}
    light, heavy, small = armour["Light armour"], armour["Heavy armour"], armour["Small shield"]
    worn = [unit.profile["loadouts"][k] for k in unit.loadouts]
    assert [(w["armour"], w["shield"]) for w in worn] == [(light, small)] * 2 + [(heavy, small)]
