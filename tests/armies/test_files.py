"""Army files are parsed once per process for the same contents, and read again when changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from openwar.armies.files import ArmyFileError, load_army, parse_army

SAMPLE = (
    Path(__file__).resolve().parents[2]
    / "examples"
    / "armies"
    / "openwar"
    / "hearthhold_lodge.yaml"
)


def test_the_same_contents_are_parsed_once(tmp_path: Path) -> None:
    path = tmp_path / "army.yaml"
    path.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    first = load_army(path)
    assert load_army(path) is first
    parse_army.cache_clear()
    assert load_army(path) == first  # parsed afresh: the same army


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "army.yaml"
    text = SAMPLE.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    before = load_army(path)
    path.write_text(text.replace(f"name: {before.name}", "name: Renamed", 1), encoding="utf-8")
    assert load_army(path).name == "Renamed"
    path.write_text("units: [", encoding="utf-8")
    with pytest.raises(ArmyFileError, match="not valid YAML"):
        load_army(path)
