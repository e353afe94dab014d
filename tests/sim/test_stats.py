"""Wilson intervals against published values, and distribution summaries by hand."""

from __future__ import annotations

import pytest

from openwar.sim.stats import describe, rate, wilson

# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
# method 3 (score interval without continuity correction), to four decimals.
NEWCOMBE = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("k", "n", "low", "high"), NEWCOMBE)
def test_wilson_matches_newcombe_table(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_is_symmetric_and_stays_in_unit_interval() -> None:
    low, high = wilson(3, 10)
    mirror = wilson(7, 10)
    assert (low, high) == pytest.approx((1 - mirror[1], 1 - mirror[0]), abs=1e-12)
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 10)[0] == 0.0
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=5e-5)


def test_rate_reports_count_rate_and_interval() -> None:
    entry = rate(81, 263)
    assert (entry["count"], entry["rate"]) == (81, 0.307985)
    assert entry["ci95"] == pytest.approx([0.2553, 0.3662], abs=5e-5)
    assert rate(0, 0)["ci95"] == [0.0, 1.0]


def test_describe_mean_sd_and_interpolated_quantiles() -> None:
    stats = describe([1, 2, 3, 4, 10])
    assert stats["mean"] == 4.0
    assert stats["sd"] == pytest.approx(3.535534, abs=1e-6)
    assert (stats["min"], stats["median"], stats["max"]) == (1.0, 3.0, 10.0)
    assert stats["p10"] == pytest.approx(1.4)
    assert stats["p90"] == pytest.approx(7.6)
    assert describe([]) == {}
