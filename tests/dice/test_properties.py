"""Property tests of the dice engine (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from openwar.dice.d6 import D6Test, Reroll
from openwar.dice.notation import parse_dice
from openwar.dice.pmf import (
    FloatArray,
    at_least,
    clamp,
    compound,
    floor_divide,
    mean,
    power,
    thin,
)

TOL = 1e-12


@st.composite
def notation(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return str(draw(st.integers(0, 50)))
    count = draw(st.integers(1, 12))
    sides = draw(st.integers(2, 12))
    modifier = draw(st.integers(-count, 10))
    count_text = "" if count == 1 and draw(st.booleans()) else str(count)
    mod_text = "" if modifier == 0 else f"{modifier:+d}"
    return f"{count_text}{draw(st.sampled_from('dD'))}{sides}{mod_text}"


@st.composite
def pmfs(draw: st.DrawFn, max_len: int = 6) -> FloatArray:
    weights = draw(
        arrays(np.float64, st.integers(1, max_len), elements=st.floats(0.0, 1.0, width=32))
    )
    if weights.sum() <= 0:
        weights[0] = 1.0
    return np.asarray(weights / weights.sum(), dtype=np.float64)


@given(notation())
def test_parsed_expression_distribution_sums_to_one_with_its_mean(text: str) -> None:
    expr = parse_dice(text)
    dist = expr.distribution
    assert abs(dist.sum() - 1.0) < TOL
    assert abs(mean(dist) - expr.mean) < 1e-9
    assert len(dist) - 1 == expr.maximum
    assert int(np.nonzero(dist)[0][0]) == expr.minimum
    assert np.all(dist >= 0)


@given(notation())
def test_parsed_expression_round_trips_through_str(text: str) -> None:
    expr = parse_dice(text)
    assert parse_dice(str(expr)) == expr


@given(pmfs(), st.integers(0, 6), st.integers(0, 6))
@settings(max_examples=60)
def test_power_adds_exponents(a: FloatArray, m: int, n: int) -> None:
    np.testing.assert_allclose(
        power(a, m + n), np.convolve(power(a, m), power(a, n)), rtol=0, atol=TOL
    )


@given(pmfs(), st.integers(0, 8))
@settings(max_examples=60)
def test_power_keeps_mass_and_multiplies_mean(a: FloatArray, n: int) -> None:
    result = power(a, n)
    assert abs(result.sum() - 1.0) < TOL
    assert abs(mean(result) - n * mean(a)) < 1e-9


@given(pmfs(), pmfs())
@settings(max_examples=60)
def test_compound_mean_is_product_of_means(count: FloatArray, item: FloatArray) -> None:
    result = compound(count, item)
    assert abs(result.sum() - 1.0) < TOL
    assert abs(mean(result) - mean(count) * mean(item)) < 1e-9


@given(pmfs(), st.floats(0.0, 1.0), st.floats(0.0, 1.0))
@settings(max_examples=60)
def test_thinning_twice_is_thinning_by_the_product(a: FloatArray, p: float, q: float) -> None:
    np.testing.assert_allclose(thin(thin(a, p), q), thin(a, p * q), rtol=0, atol=1e-10)
    assert abs(mean(thin(a, p)) - p * mean(a)) < 1e-9


@given(pmfs(), st.integers(0, 8), st.integers(1, 5))
def test_clamp_and_floor_divide_keep_mass(a: FloatArray, cap: int, divisor: int) -> None:
    assert abs(clamp(a, cap).sum() - 1.0) < TOL
    assert abs(floor_divide(a, divisor).sum() - 1.0) < TOL
    tail = at_least(a)
    assert abs(tail[0] - 1.0) < TOL
    assert np.all(np.diff(tail) <= TOL)


@given(
    st.integers(1, 8),
    st.integers(-3, 3),
    st.sampled_from([None, 1]),
    st.booleans(),
    st.booleans(),
    st.sampled_from(list(Reroll)),
)
def test_d6_probabilities_are_a_distribution(
    target: int, modifier: int, cap: int | None, one: bool, six: bool, reroll: Reroll
) -> None:
    test = D6Test(target, modifier, cap, one, six, reroll)
    assert abs(test.face_probabilities.sum() - 1.0) < 1e-15
    assert 0.0 <= test.probability <= 1.0
    easier = D6Test(max(target - 1, 1), modifier, cap, one, six, Reroll.NONE)
    harder = D6Test(target, modifier, cap, one, six, Reroll.NONE)
    assert easier.probability >= harder.probability
    if reroll is Reroll.FAILED:
        assert test.probability >= harder.probability
    if reroll is Reroll.SUCCESSES:
        assert test.probability <= harder.probability
