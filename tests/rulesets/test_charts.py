"""The Old World charts and the One Page Fantasy weapons table, checked cell by cell.

The data files (src/openwar/rulesets/*/data/*.yaml) were transcribed from the seed texts in
shared/seeds. These tests parse the seeds themselves and compare every cell; CI runs with
shared/ beside the clone. Without the seeds those tests skip, and the hand-picked cells below
still pin the data.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from openwar.rulesets.oldworld.odds import charts
from openwar.rulesets.opr.odds import Weapon, weapons

SEEDS = Path(__file__).resolve().parents[2] / ".." / "shared" / "seeds"
OLD_WORLD = SEEDS / "003_bda4e168249354ad.txt"
ONE_PAGE = SEEDS / "004_5f076325793ff1d0.txt"
HEADER = "A\\T12345678910"


def seed_text(path: Path) -> str:
    if not path.is_file():
        pytest.skip(f"seed file {path.name} not found at {path.parent} (shared/ beside the clone)")
    return path.read_text(encoding="utf-8")


def chart_after(text: str, marker: str) -> list[list[int | None]]:
    """The 10x10 chart whose header line follows ``marker``: rows 1..10, '-' as None."""
    lines = text[text.index(marker) :].splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == HEADER) + 1
    rows: list[list[int | None]] = []
    for number, line in enumerate(lines[start : start + 10], start=1):
        body = line.strip()
        assert body.startswith(str(number)), (number, body)
        cells = re.findall(r"\d+\+|-", body[len(str(number)) :])
        assert len(cells) == 10, (number, body)
        rows.append([None if cell == "-" else int(cell[:-1]) for cell in cells])
    return rows


def bs_chart(text: str) -> list[int]:
    section = text[text.index("Ballistic Skill") : text.index("One or more of the following")]
    skills, rolls = section.split("D6 roll To Hit")
    assert re.findall(r"\d+", skills) == ["1", "2", "3", "4", "5"]
    return [int(cell) for cell in re.findall(r"(\d)\+", rolls)]


def opr_weapons(text: str) -> list[Weapon]:
    lines = text[text.index("Name\tRange\tAttacks") :].splitlines()[1:]
    table = []
    for line in lines:
        if not line.strip():
            break
        name, reach, attacks = line.split("\t")
        mark = attacks[-1] if attacks[-1] in "px" else ""
        table.append(
            Weapon(
                name=name,
                range=None if reach == "-" else int(reach.rstrip('"')),
                attacks=int(attacks.rstrip("px")),
                piercing=mark in ("p", "x"),
                single_model=mark == "x",
            )
        )
    return table


# ----------------------------------------------------------------- against the seed texts


def test_oldworld_ws_vs_ws_chart_matches_seed_cell_by_cell() -> None:
    seed = chart_after(seed_text(OLD_WORLD), "Make a roll To Hit for each attacking model")
    data = charts().to_hit_ws
    for a in range(10):
        for t in range(10):
            assert data[a][t] == seed[a][t], f"WS {a + 1} vs WS {t + 1}"


@pytest.mark.parametrize(
    "marker", ["Roll To Wound: For each hit", "1.3. Roll To Wound & Make Armour Saves"]
)
def test_oldworld_s_vs_t_chart_matches_seed_cell_by_cell(marker: str) -> None:
    # the quick reference prints the chart twice (shooting and combat): both must agree
    seed = chart_after(seed_text(OLD_WORLD), marker)
    data = charts().to_wound
    for s in range(10):
        for t in range(10):
            assert data[s][t] == seed[s][t], f"S {s + 1} vs T {t + 1}"


def test_oldworld_bs_chart_matches_seed() -> None:
    assert charts().to_hit_bs == bs_chart(seed_text(OLD_WORLD))


def test_opr_weapons_table_matches_seed_row_by_row() -> None:
    seed = opr_weapons(seed_text(ONE_PAGE))
    data = list(weapons().values())
    assert [w.name for w in data] == [w.name for w in seed]
    for ours, theirs in zip(data, seed, strict=True):
        assert ours == theirs, ours.name


# ------------------------------------------------------- hand-picked cells (no seeds needed)


@pytest.mark.parametrize(
    ("ws", "target", "needed"),
    [(1, 1, 4), (1, 10, 5), (2, 1, 3), (3, 1, 2), (4, 3, 3), (5, 2, 2), (7, 4, 3), (10, 10, 4)],
)
def test_oldworld_ws_chart_hand_picked_cells(ws: int, target: int, needed: int) -> None:
    assert charts().to_hit_ws[ws - 1][target - 1] == needed


@pytest.mark.parametrize(
    ("strength", "toughness", "needed"),
    [
        (1, 1, 4),
        (1, 6, 6),
        (1, 7, None),
        (3, 3, 4),
        (3, 9, None),
        (4, 10, None),
        (5, 10, 6),
        (10, 1, 2),
        (10, 10, 4),
        (6, 4, 2),
        (2, 4, 6),
    ],
)
def test_oldworld_s_vs_t_chart_hand_picked_cells(
    strength: int, toughness: int, needed: int | None
) -> None:
    assert charts().to_wound[strength - 1][toughness - 1] == needed


def test_oldworld_bs_chart_hand_picked() -> None:
    assert charts().to_hit_bs == [6, 5, 4, 3, 2]


def test_oldworld_charts_are_10_by_10() -> None:
    assert len(charts().to_hit_ws) == 10
    assert all(len(row) == 10 for row in charts().to_hit_ws)
    assert len(charts().to_wound) == 10
    assert all(len(row) == 10 for row in charts().to_wound)


@pytest.mark.parametrize(
    ("name", "reach", "attacks", "piercing", "single"),
    [
        ("light", None, 1, False, False),
        ("force", None, 5, False, False),
        ("pistol", 12, 1, True, False),
        ("fire thrower", 18, 6, False, False),
        ("crossbow", 30, 1, True, False),
        ("stone thrower", 48, 3, True, False),
        ("bolt thrower", 48, 3, True, True),
        ("cannon", 48, 6, True, True),
    ],
)
def test_opr_weapons_hand_picked_rows(
    name: str, reach: int | None, attacks: int, piercing: bool, single: bool
) -> None:
    weapon = weapons()[name]
    assert (weapon.range, weapon.attacks, weapon.piercing, weapon.single_model) == (
        reach,
        attacks,
        piercing,
        single,
    )


def test_opr_weapons_table_has_sixteen_rows() -> None:
    assert len(weapons()) == 16
