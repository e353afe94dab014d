"""Every sample army validates and costs what a hand calculation says."""

from __future__ import annotations

from pathlib import Path

import pytest

from openwar.armies.files import load_army
from openwar.armies.validate import assess

EXAMPLES = Path(__file__).parents[2] / "examples" / "armies"

# Hand calculations (see docs/rules/<ruleset>.md "Units and army lists"):
EXPECTED = {
    # openwar: Dartmen 10x10=100; Cohorts 20x5=100 + Heavy Javelin unit 40 + Large shield
    # unit 45 = 185 (twice); Third: 100 + 12x4 (10+) 48 + 45 = 193; Ashwood 100 + Specialist
    # 2x6 = 112; Dustriders 5x10=50 + Light armour 5x3 = 65; Bolt Engine 100;
    # Command 0 + Small shield 2x2 + Heavy armour 1x6 = 10.  Total 950.
    "openwar/iron_road_legion.yaml": 950,
    # Shieldwall 30x5=150 + Heavy armour unit 60 + Large shield unit 45 = 255; Spearwall
    # 125 + 60 + Small shield 25x1 (20+) = 210; Greataxe 100 + Axe unit 30 + 60 = 190;
    # Crossbows 100; Deepdelve Scouts 50 + Sword 5x10 = 100; Command Warhammer 1x4 +
    # Heavy armour 3x6 = 22.  Total 877.
    "openwar/hearthhold_lodge.yaml": 877,
    # 100 + 120 + Spearmen 2 blocks x100 + 110 + 120 + Grave Wardens 90 + Warden Host 140
    "aos/gilded_vanguard.yaml": 880,
    "aos/ember_court.yaml": 780,  # 120 + 280 + 160 + 100 + Ember Conclave 120
    "opr/warden_patrol.yaml": 320,  # 55 + (70 + 5 + 10) + 60 + 80 + 40
    "opr/ember_brood.yaml": 330,  # 50 + 150 + 60 + 70
    # 80+3 + 60+35 + 20x6=120 + 6+6+6 + Shields 20x1 + 10x10 + 5x22
    "oldworld/warden_muster.yaml": 546,
    "oldworld/ember_host.yaml": 600,  # 60 + 260 + 100 + 15x12
}


def test_every_sample_army_file_is_listed() -> None:
    found = {str(p.relative_to(EXAMPLES)) for p in EXAMPLES.glob("*/*.yaml")}
    assert found == set(EXPECTED)


@pytest.mark.parametrize(("path", "points"), sorted(EXPECTED.items()))
def test_sample_army_validates_and_costs_the_hand_calculation(path: str, points: int) -> None:
    result = assess(load_army(EXAMPLES / path))
    assert [str(p) for p in result.problems] == []
    assert result.cost.total == points
    assert result.limit is not None and points <= result.limit


def test_opr_u8_default_limit_350_applies_when_the_file_gives_none() -> None:
    result = assess(load_army(EXAMPLES / "opr/ember_brood.yaml"))
    assert result.army.points_limit is None and result.limit == 350
