"""Whole Age of Sigmar battles: the sample armies on generated Open War battleplans play to
the end with random and simple players, replay exactly, and the ability data is checked when
the rules load (docs/rules/aos.md, "Battle")."""

from __future__ import annotations

from pathlib import Path

import pytest

from openwar.battles import fight_battle, load_setup
from openwar.engine.runner import replay_actions
from openwar.rulesets.aos.abilities import AbilityBook, ability_book, check_book
from openwar.rulesets.aos.catalog import AosCatalog

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "armies" / "aos"
ARMIES = (EXAMPLES / "gilded_vanguard.yaml", EXAMPLES / "ember_court.yaml")


@pytest.mark.parametrize(
    ("seed", "players"),
    [(1, ("simple", "simple")), (3, ("random", "simple")), (8, ("random", "random"))],
)
def test_aos_b1_sample_armies_play_a_whole_battle(seed: int, players: tuple[str, str]) -> None:
    setup = load_setup(ARMIES, None, seed)
    record = fight_battle(setup, players)
    result = record.outcome
    assert record.final.phase == "over"
    assert 1 <= result.rounds <= 5
    again = replay_actions(record.initial, record.actions)
    assert again.final.state_hash() == record.final.state_hash()


def test_aos_w1_every_ability_and_option_has_a_checked_template() -> None:
    from openwar.rulesets import load_ruleset

    book = ability_book()
    catalog = load_ruleset("aos").data
    assert isinstance(catalog, AosCatalog)
    broken = AbilityBook.model_validate(
        {
            "abilities": [
                {**a.model_dump(), "weapon": "Nothing"}
                if a.template == "weapon_on_charge"
                else a.model_dump()
                for a in book.abilities[1:]
            ],
            "options": [o.model_dump() for o in book.options],
        }
    )
    problems = check_book(broken, catalog, {"Arcane Bolt", "Mystic Shield"})
    assert any("no template for Gilded Warden: Hold Fast" in p for p in problems)
    assert any("no weapon 'Nothing'" in p for p in problems)
    assert check_book(book, catalog, {"Arcane Bolt", "Mystic Shield"}) == []
