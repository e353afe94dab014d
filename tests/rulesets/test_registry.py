"""The registry: every ruleset loads with its description, data and hooks."""

from __future__ import annotations

import pytest

from openwar.rulesets import RULESETS, UnknownRulesetError, check_ruleset, load_ruleset
from openwar.rulesets.registry import ruleset_problems


@pytest.mark.parametrize("name", RULESETS)
def test_every_ruleset_loads_with_description_data_and_hooks(name: str) -> None:
    ruleset = load_ruleset(name)
    assert ruleset.name == name
    assert ruleset.version
    assert ruleset.length_unit == ("cm" if name == "openwar" else "inch")
    assert {"catalogue", "army lists", "army validation"} <= set(ruleset.supports)
    assert ruleset.hooks.ruleset == name
    assert ruleset.data.unit_names()


@pytest.mark.parametrize("name", RULESETS)
def test_every_ruleset_data_has_no_problems(name: str) -> None:
    assert ruleset_problems(name) == []


def test_unknown_ruleset_is_refused_with_the_known_names() -> None:
    with pytest.raises(
        UnknownRulesetError, match=r"'warmaster' \(known: aos, oldworld, openwar, opr\)"
    ):
        load_ruleset("warmaster")
    with pytest.raises(UnknownRulesetError, match="'OldWorld' \\(did you mean 'oldworld'\\?\\)"):
        check_ruleset("OldWorld")  # as `army validate` words it
    assert check_ruleset("opr") == "opr"


@pytest.mark.parametrize("name", RULESETS)
def test_a_ruleset_says_it_plays_battles_exactly_when_it_has_battle_rules(name: str) -> None:
    """`openwar rulesets` lists "battles" for the rulesets the engine can play, and only those."""
    from openwar.engine.game import BATTLE_MODULES

    assert ("battles" in load_ruleset(name).supports) == (name in BATTLE_MODULES)


@pytest.mark.parametrize("name", RULESETS)
def test_a_ruleset_lists_charge_odds_that_openwar_charge_computes(name: str) -> None:
    """`openwar charge` answers for every ruleset; `openwar rulesets` did not say so."""
    from openwar.charges import charge_odds

    assert (
        charge_odds(name, 7.0, move=4 if name in ("openwar", "oldworld") else None).ruleset == name
    )
    assert "charge odds" in load_ruleset(name).supports
