"""The aos, opr and oldworld sample catalogues cover every kind of unit the issue asks for."""

from __future__ import annotations

import io
import json

import pytest

from openwar.cli.app import main
from openwar.rulesets import load_ruleset
from openwar.rulesets.aos.catalog import AosCatalog
from openwar.rulesets.oldworld.catalog import OldWorldCatalog
from openwar.rulesets.opr.catalog import OprCatalog

KINDS = {"hero", "wizard", "monster", "war machine", "infantry", "cavalry", "shooters"}


def aos_kinds(catalog: AosCatalog) -> set[str]:
    kinds = set()
    for unit in catalog.units:
        kinds |= {k.lower() for k in unit.keywords} & KINDS
        if unit.missile_weapons and "INFANTRY" in unit.keywords:
            kinds.add("shooters")
    return kinds


def opr_kinds(catalog: OprCatalog) -> set[str]:
    names = {"Hero": "hero", "Wizard": "wizard", "Ordnance": "war machine", "Fast": "cavalry"}
    kinds = {names[r] for u in catalog.units for r in names if u.has_rule(r)}
    kinds |= {"monster" for u in catalog.units if u.has_rule("Tough") and u.has_rule("Fear")}
    kinds |= {"infantry" for u in catalog.units if u.infantry}
    ranged = {"Bow", "Shortbow", "Longbow", "Crossbow"}
    kinds |= {"shooters" for u in catalog.units if {e.weapon for e in u.equipment} & ranged}
    return kinds


def oldworld_kinds(catalog: OldWorldCatalog) -> set[str]:
    kinds: set[str] = {u.troop_type for u in catalog.units}
    kinds |= {"hero" for u in catalog.units if u.character and u.wizard_level is None}
    kinds |= {"wizard" for u in catalog.units if u.wizard_level}
    kinds |= {"shooters" for u in catalog.units if "Longbow" in u.equipment}
    return kinds


def test_aos_catalogue_covers_every_kind_with_at_least_8_warscrolls() -> None:
    catalog = load_ruleset("aos").data
    assert isinstance(catalog, AosCatalog)
    assert len(catalog.units) >= 8 and aos_kinds(catalog) >= KINDS


def test_opr_catalogue_covers_every_kind_with_at_least_8_units() -> None:
    catalog = load_ruleset("opr").data
    assert isinstance(catalog, OprCatalog)
    assert len(catalog.units) >= 8 and opr_kinds(catalog) >= KINDS


def test_oldworld_catalogue_covers_every_kind_with_at_least_8_units() -> None:
    catalog = load_ruleset("oldworld").data
    assert isinstance(catalog, OldWorldCatalog)
    assert len(catalog.units) >= 8 and oldworld_kinds(catalog) >= KINDS


@pytest.mark.parametrize("name", ["aos", "opr", "oldworld"])
def test_catalog_json_lists_the_units(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalog", name, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [u["name"] for u in data["units"]] == load_ruleset(name).data.unit_names()


def test_catalog_of_unknown_ruleset_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["catalog", "warmaster"]) == 2
    assert "unknown ruleset 'warmaster'" in capsys.readouterr().err


def test_rulesets_command_lists_versions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets", "--json", "--check"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == ["openwar", "aos", "opr", "oldworld"]
    assert all(r["version"] and r["problems"] == [] for r in rows)


@pytest.mark.parametrize("width", [60, 80, 120])
@pytest.mark.parametrize("name", ["openwar", "aos", "opr", "oldworld"])
def test_catalog_tables_never_cut_a_word_at_any_width(name: str, width: int) -> None:
    """At 80 columns the Old World's fifteen columns printed "char" and "acte" for
    "character", and cropped whole columns: every word of every table is shown whole, in a
    table where the columns fit, else one entry a row."""
    from rich.console import Console

    from openwar.cli.catalog import LONGEST_WORD, catalog_view

    for data in load_ruleset(name).data.tables():
        console = Console(width=width, record=True, file=io.StringIO())
        console.print(catalog_view(data, width))
        shown = console.export_text()
        assert max(len(line.rstrip()) for line in shown.splitlines()) <= width
        words = set(shown.split())
        # the first column names each entry (a row), its heading needed only in a table
        for text in (*data.columns[1:], *(cell for row in data.rows for cell in row)):
            for word in text.split():
                if len(word) <= LONGEST_WORD:  # longer ones may fold, as in a narrow column
                    assert word in words, (data.title, word)
