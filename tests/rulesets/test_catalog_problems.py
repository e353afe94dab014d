"""A broken catalogue reports every problem at once, each with file, path and line."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from openwar.rulesets.problems import Severity
from openwar.rulesets.registry import check_catalog_doc
from openwar.rulesets.sources import YamlReadError, read_yaml_text


def packaged(name: str) -> str:
    return (resources.files(f"openwar.rulesets.{name}") / "data" / "catalog.yaml").read_text()


def test_broken_openwar_catalogue_gives_all_its_problems_with_file_and_path() -> None:
    text = packaged("openwar")
    text = text.replace("attacks: 1, difficulty: 7", "attacks: 0, difficulty: 7", 1)  # Dagger
    text = text.replace("special: [Halfsword]", "special: [Halfsward]", 1)
    text = text.replace("default_options: [Axe]", "default_options: [Greataxe]", 1)
    text = text.replace("    morale: 10\n", "    morale: 10\n    moral: 3\n", 1)
    doc = read_yaml_text(text, "broken.yaml")
    catalog, problems = check_catalog_doc("openwar", doc)
    assert catalog is None  # schema errors: attacks 0 and the unknown key
    found = {(p.path, p.file) for p in problems}
    assert ("weapons.0.attacks", "broken.yaml") in found
    assert ("unit_types.0.moral", "broken.yaml") in found
    assert all(p.line and p.severity is Severity.ERROR for p in problems)


def test_cross_reference_problems_are_collected_together() -> None:
    text = packaged("openwar")
    text = text.replace("special: [Halfsword]", "special: [Halfsward]", 1)
    text = text.replace("default_options: [Axe]", "default_options: [Greataxe]", 1)
    text = text.replace("command_type: Command", "command_type: Commander", 1)
    _, problems = check_catalog_doc("openwar", read_yaml_text(text, "x.yaml"))
    paths = [p.path for p in problems]
    assert paths == ["weapons.1.special.0", "unit_types.1.default_options.0", "army.command_type"]
    assert "x.yaml:" in str(problems[0]) and "Halfsward" in str(problems[0])


@pytest.mark.parametrize("name", ["aos", "opr", "oldworld"])
def test_broken_sample_catalogue_names_the_unknown_references(name: str) -> None:
    text = packaged(name).replace("starter: [", "starter: [Nobody, ", 1)
    _, problems = check_catalog_doc(name, read_yaml_text(text, "c.yaml"))
    assert [p.path for p in problems] == ["army.starter.0"]


def test_opr_equipment_must_be_a_row_of_the_weapons_table() -> None:
    text = packaged("opr").replace("weapon: Stone Thrower", "weapon: Catapult", 1)
    _, problems = check_catalog_doc("opr", read_yaml_text(text, "c.yaml"))
    assert len(problems) == 1 and "Catapult" in problems[0].message


def test_invalid_yaml_names_file_and_line() -> None:
    with pytest.raises(YamlReadError, match=r"bad.yaml: line \d+, column \d+: not valid YAML"):
        read_yaml_text("a: 1\nb: [1, 2\n", "bad.yaml")


def test_rule_data_is_read_as_army_files_are(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Rule data went through YAML 1.1's safe_load (010 was eight, yes was true, a key given
    twice kept the last) while catalogues and armies did not."""
    from openwar.rulesets import data

    (tmp_path / "data").mkdir()
    monkeypatch.setattr(resources, "files", lambda package: tmp_path)
    data._read.cache_clear()
    try:
        (tmp_path / "data" / "x.yaml").write_text("a: 010\nb: yes\n")
        assert data._read("openwar", "x.yaml") == {"a": 10, "b": "yes"}
        (tmp_path / "data" / "y.yaml").write_text("a: 1\na: 2\n")
        with pytest.raises(data.DataFileError, match=r"y\.yaml: line 2: 'a' is given twice"):
            data._read("openwar", "y.yaml")
    finally:
        data._read.cache_clear()


@pytest.mark.parametrize("written", ['"1"', "1.0", "1e0", "true"])
def test_a_catalogue_number_is_a_whole_number_as_written(written: str) -> None:
    """A catalogue is read as strictly as an army file: pydantic's lax mode took the text "1",
    the decimal 1.0 and true for the whole number 1, so a typo in a cost or an Attacks went
    by unseen."""
    text = packaged("openwar").replace("attacks: 1, difficulty: 7", f"attacks: {written}, "
                                       "difficulty: 7", 1)  # fmt: skip
    catalog, problems = check_catalog_doc("openwar", read_yaml_text(text, "c.yaml"))
    assert catalog is None
    assert [(p.path, p.message) for p in problems] == [
        ("weapons.0.attacks", "must be a whole number")
    ]
