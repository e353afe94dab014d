"""Checks shared by the ruleset tests: a distribution, and Monte Carlo within stated bounds."""

from __future__ import annotations

import math

import numpy as np

from openwar.dice.pmf import FloatArray

SIGMAS = 5.0


def assert_distribution(pmf: FloatArray) -> None:
    """Non-negative and summing to 1 within 1e-12."""
    assert np.all(pmf >= -1e-15), pmf
    assert abs(float(pmf.sum()) - 1.0) <= 1e-12, float(pmf.sum())


def assert_same_pmf(actual: FloatArray, expected: FloatArray, tol: float = 1e-12) -> None:
    """Equal value by value (shorter one padded with zeros)."""
    n = max(len(actual), len(expected))
    a = np.pad(actual, (0, n - len(actual)))
    b = np.pad(expected, (0, n - len(expected)))
    np.testing.assert_allclose(a, b, rtol=0, atol=tol)


def assert_monte_carlo_agrees(exact: FloatArray, simulated: FloatArray, trials: int) -> None:
    """Every bin within 5 binomial standard errors plus a floor of 3 counts; the mean within
    5 standard errors of the exact distribution. With a fixed seed the test is deterministic;
    for a fresh seed a false alarm has probability well under 1e-4."""
    n = max(len(exact), len(simulated))
    p = np.pad(exact, (0, n - len(exact)))
    q = np.pad(simulated, (0, n - len(simulated)))
    assert abs(float(q.sum()) - 1.0) < 1e-9
    se = np.sqrt(np.clip(p * (1 - p), 0.0, None) / trials)
    slack = SIGMAS * se + 3.0 / trials
    worst = int(np.argmax(np.abs(q - p) - slack))
    assert np.all(np.abs(q - p) <= slack), (worst, p[worst], q[worst], slack[worst])
    k = np.arange(n)
    mean = float(k @ p)
    sd = math.sqrt(max(float((k * k) @ p) - mean * mean, 0.0))
    assert abs(float(k @ q) - mean) <= SIGMAS * sd / math.sqrt(trials) + 1e-12
