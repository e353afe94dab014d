"""Exact pmf operations checked against direct enumeration of every outcome."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Iterable
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from openwar.dice.pmf import (
    FloatArray,
    add,
    at_least,
    bernoulli,
    binomial,
    clamp,
    compound,
    convolve2d,
    die,
    floor_divide,
    mean,
    point,
    power,
    power2d,
    shift,
    thin,
    trim,
)

EXACT = 1e-14


def as_array(outcomes: dict[int, Fraction]) -> FloatArray:
    out = np.zeros(max(outcomes) + 1)
    for value, p in outcomes.items():
        out[value] += float(p)
    return out


def enumerate_sum(
    pmfs: Iterable[FloatArray], combine: Callable[[tuple[int, ...]], int]
) -> FloatArray:
    """Every combination of values of independent pmfs, combined into one value."""
    supports = [[(v, Fraction(float(p))) for v, p in enumerate(pmf) if p] for pmf in pmfs]
    outcomes: dict[int, Fraction] = defaultdict(Fraction)
    for combo in itertools.product(*supports):
        weight = Fraction(1)
        for _, p in combo:
            weight *= p
        outcomes[combine(tuple(v for v, _ in combo))] += weight
    return as_array(outcomes)


SMALL_PMFS = [
    die(6),
    die(3),
    bernoulli(0.3),
    np.array([0.1, 0.0, 0.5, 0.4]),
    np.array([0.0, 0.0, 1.0]),
    np.array([0.25, 0.25, 0.25, 0.125, 0.125]),
]


def test_point_and_die() -> None:
    assert point(0).tolist() == [1.0]
    assert point(3).tolist() == [0.0, 0.0, 0.0, 1.0]
    np.testing.assert_allclose(die(6), [0] + [1 / 6] * 6, atol=EXACT)


@pytest.mark.parametrize("pmf", SMALL_PMFS)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_power_matches_enumeration(pmf: FloatArray, n: int) -> None:
    expected = enumerate_sum([pmf] * n, sum) if n else point(0)
    np.testing.assert_allclose(power(pmf, n), expected, atol=EXACT)


def test_power_rejects_negative_count() -> None:
    with pytest.raises(ValueError):
        power(die(6), -1)


@pytest.mark.parametrize(
    ("n", "p"), [(0, 0.5), (1, 0.25), (5, 0.5), (7, 1 / 3), (4, 0.0), (4, 1.0)]
)
def test_binomial_matches_formula(n: int, p: float) -> None:
    expected = [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
    np.testing.assert_allclose(binomial(n, p), expected, atol=EXACT)


@pytest.mark.parametrize("count", [die(3), point(2), np.array([0.5, 0.0, 0.5]), np.array([1.0])])
@pytest.mark.parametrize("item", [die(3), bernoulli(0.4), np.array([0.2, 0.3, 0.0, 0.5])])
def test_compound_matches_enumeration(count: FloatArray, item: FloatArray) -> None:
    outcomes: dict[int, Fraction] = defaultdict(Fraction)
    for n, p_n in enumerate(count):
        if not p_n:
            continue
        inner = enumerate_sum([item] * n, sum) if n else point(0)
        for value, p in enumerate(inner):
            outcomes[value] += Fraction(float(p_n)) * Fraction(float(p))
    result = compound(count, item)
    expected = as_array(outcomes)
    np.testing.assert_allclose(result[: len(expected)], expected, atol=EXACT)
    assert result[len(expected) :].sum() == pytest.approx(0.0, abs=EXACT)


@pytest.mark.parametrize("pmf", SMALL_PMFS)
@pytest.mark.parametrize("keep", [0.0, 0.5, 2 / 3, 1.0])
def test_thin_matches_one_roll_per_point(pmf: FloatArray, keep: float) -> None:
    # each point of the value survives its own roll independently: enumerate every roll
    outcomes: dict[int, Fraction] = defaultdict(Fraction)
    k = Fraction(keep)
    for value, p in enumerate(pmf):
        for survived in itertools.product([0, 1], repeat=value):
            weight = Fraction(float(p))
            for s in survived:
                weight *= k if s else 1 - k
            outcomes[sum(survived)] += weight
    expected = as_array(outcomes)
    result = thin(pmf, keep)
    np.testing.assert_allclose(result[: len(expected)], expected, atol=EXACT)


@pytest.mark.parametrize("pmf", SMALL_PMFS)
@pytest.mark.parametrize("maximum", [0, 1, 2, 5, 10])
def test_clamp_matches_min(pmf: FloatArray, maximum: int) -> None:
    expected = enumerate_sum([pmf], lambda v: min(v[0], maximum))
    result = clamp(pmf, maximum)
    assert len(result) <= maximum + 1
    np.testing.assert_allclose(result[: len(expected)], expected, atol=EXACT)
    assert result.sum() == pytest.approx(1.0, abs=EXACT)


@pytest.mark.parametrize("pmf", [*SMALL_PMFS, power(die(6), 3)])
@pytest.mark.parametrize("divisor", [1, 2, 3, 5])
def test_floor_divide_matches_integer_division(pmf: FloatArray, divisor: int) -> None:
    expected = enumerate_sum([pmf], lambda v: v[0] // divisor)
    np.testing.assert_allclose(floor_divide(pmf, divisor), expected, atol=EXACT)


def test_shift_up_and_down() -> None:
    assert shift(die(2), 2).tolist() == [0.0, 0.0, 0.0, 0.5, 0.5]
    assert shift(die(2), -1).tolist() == [0.5, 0.5]
    with pytest.raises(ValueError):
        shift(die(2), -2)


def test_add_is_the_sum_of_independent_values() -> None:
    np.testing.assert_allclose(
        add(die(6), die(3)), enumerate_sum([die(6), die(3)], sum), atol=EXACT
    )


def test_at_least_mean_and_trim() -> None:
    two_d6 = power(die(6), 2)
    tail = at_least(two_d6)
    assert tail[0] == pytest.approx(1.0)
    assert tail[12] == pytest.approx(1 / 36)
    assert tail[8] == pytest.approx(15 / 36)
    assert mean(two_d6) == pytest.approx(7.0)
    assert trim(np.array([0.5, 0.5, 0.0, 0.0])).tolist() == [0.5, 0.5]
    assert trim(np.array([0.0, 0.0])).tolist() == [0.0]


def test_power2d_matches_enumeration_of_pairs() -> None:
    joint = np.array([[0.2, 0.1], [0.3, 0.0], [0.1, 0.3]])  # P(first = i, second = j)
    cells = [((i, j), Fraction(float(p))) for (i, j), p in np.ndenumerate(joint) if p]
    for n in range(4):
        expected: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for combo in itertools.product(cells, repeat=n):
            weight = Fraction(1)
            for _, p in combo:
                weight *= p
            key = (sum(c[0][0] for c in combo), sum(c[0][1] for c in combo))
            expected[key] += weight
        result = power2d(joint, n)
        assert result.sum() == pytest.approx(1.0, abs=EXACT)
        for (i, j), p in expected.items():
            assert result[i, j] == pytest.approx(float(p), abs=EXACT)
    np.testing.assert_allclose(convolve2d(joint, np.ones((1, 1))), joint, atol=EXACT)
