"""OpenWar option points: the cheapest way the tiers allow; '-' ways are never used."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from openwar.rulesets.openwar.points import Tiers, cheapest, ways

from .helpers import report, rules

COMMAND = {"name": "Chief", "type": "Command"}
cost_or_dash = st.one_of(st.none(), st.integers(min_value=0, max_value=100))


def option_points(unit: dict[str, Any]) -> int:
    result = report("openwar", [COMMAND, unit], points_limit=10_000)
    assert result.valid, [str(p) for p in result.problems]
    return sum(o.points for o in result.cost.units[1].options)


@pytest.mark.parametrize(
    ("models", "size", "points", "way"),
    [
        (1, 20, 10, "1 x 10 (each)"),        # Sword: 10 for one
        (9, 20, 90, "9 x 10 (each)"),        # below 10: only the cost for 1
        (10, 20, 80, "10 x 8 (10+ each)"),   # 10+: 8 each
        (19, 20, 152, "19 x 8 (10+ each)"),
        (20, 20, 140, "20 x 7 (20+ each)"),  # 20+: 7 each; unit cost is '-'
    ],
)  # fmt: skip
def test_openwar_u7_sword_each_tier(models: int, size: int, points: int, way: str) -> None:
    found = cheapest(Tiers(10, 8, 7, None), models, size)
    assert found is not None and (found.points, found.text) == (points, way)


def test_openwar_u7_unit_cost_used_when_cheaper() -> None:
    heavy_javelin = Tiers(5, 4, 3, 40)
    assert (
        option_points({"name": "C", "type": "Breakers", "options": [{"name": "Heavy Javelin"}]})
        == 40
    )
    assert cheapest(heavy_javelin, 12, 20) == cheapest(heavy_javelin, 12, 12 + 8)
    found = cheapest(heavy_javelin, 12, 20)
    assert found is not None and found.points == 48  # 12 x 4: the unit cost needs all 20


def test_openwar_u8_dash_ways_are_not_offered() -> None:
    dagger = Tiers(2, None, None, 15)
    assert [w.text for w in ways(dagger, 12, 20)] == ["12 x 2 (each)"]  # no 10+ tier
    assert cheapest(Tiers(None, None, None, 15), 5, 20) is None  # only the whole unit


def test_openwar_u8_a_skill_with_every_way_dashed_is_refused() -> None:
    unit = {"name": "S", "type": "Skirmishers", "options": [{"name": "Shock", "models": 2}]}
    result = report("openwar", [COMMAND, unit], points_limit=1000)
    assert rules(result) == ["U8"]
    assert result.problems[0].unit == "S" and result.problems[0].option == "Shock"
    assert result.problems[0].message == "Shock is not bought: it comes with the Warhammer"
    stick = {"name": "S", "type": "Skirmishers", "options": [{"name": "Shieldstick"}]}
    (said,) = report("openwar", [COMMAND, stick], points_limit=1000).problems
    assert said.message.endswith("comes with the Heavy Javelin")  # not its thrown profile


def test_openwar_u8_specialist_has_only_the_cost_for_1() -> None:
    unit = {"name": "S", "type": "Skirmishers", "options": [{"name": "Specialist", "models": 2}]}
    assert option_points(unit) == 12
    assert [w.text for w in ways(Tiers(6, None, None, None), 10, 10)] == ["10 x 6 (each)"]


def test_openwar_u8_sword_for_a_whole_small_unit_uses_the_cost_for_1() -> None:
    # Sword has no unit cost ('-'), so a whole 5-miniature unit pays 5 x 10.
    unit = {"name": "Sc", "type": "Scouts", "options": [{"name": "Sword"}]}
    assert option_points(unit) == 50


def test_openwar_u4_default_options_are_free() -> None:
    unit = {"name": "D", "type": "Defenders", "options": [{"name": "Spear"}]}
    assert option_points(unit) == 0


@given(
    st.tuples(cost_or_dash, cost_or_dash, cost_or_dash, cost_or_dash),
    st.integers(min_value=1, max_value=40),
    st.integers(min_value=0, max_value=40),
)
def test_openwar_u7_cheapest_is_optimal_and_never_negative(
    costs: tuple[int | None, int | None, int | None, int | None], models: int, extra: int
) -> None:
    tiers, size = Tiers(*costs), models + extra
    found = cheapest(tiers, models, size)
    brute = []
    if costs[0] is not None:
        brute.append(costs[0] * models)
    if costs[1] is not None and models >= 10:
        brute.append(costs[1] * models)
    if costs[2] is not None and models >= 20:
        brute.append(costs[2] * models)
    if costs[3] is not None and models == size:
        brute.append(costs[3])
    assert (found.points if found else None) == (min(brute) if brute else None)
    assert found is None or found.points >= 0
