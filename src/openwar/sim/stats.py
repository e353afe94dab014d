"""Statistics of a run: Wilson score intervals for rates, and summaries of distributions."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal
DECIMALS = 6  # rounding of every reported float: short JSON, same bytes everywhere


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (Wilson 1927; Newcombe 1998, method 3).
    ``successes`` may count a draw as half a success.

    >>> [round(x, 4) for x in wilson(81, 263)]
    [0.2553, 0.3662]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, not 1 - 1e-16
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def rate(successes: int, trials: int) -> dict[str, Any]:
    """A count, its rate and the rate's Wilson 95% interval, as JSON."""
    low, high = wilson(successes, trials)
    return {
        "count": successes,
        "rate": _round(successes / trials if trials else 0.0),
        "ci95": [_round(low), _round(high)],
    }


def describe(values: Sequence[float]) -> dict[str, float]:
    """Mean, standard deviation and quantiles (nearest rank) of ``values``.

    >>> describe([1, 2, 3, 4])["median"]
    2.5
    """
    if not values:
        return {}
    ordered = sorted(values)
    n = len(ordered)
    mean = math.fsum(ordered) / n
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in ordered) / (n - 1)) if n > 1 else 0.0
    return {
        "mean": _round(mean),
        "sd": _round(sd),
        "min": _round(ordered[0]),
        "p10": _round(_quantile(ordered, 0.1)),
        "median": _round(_quantile(ordered, 0.5)),
        "p90": _round(_quantile(ordered, 0.9)),
        "max": _round(ordered[-1]),
    }


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The normal 95% interval of the mean of ``values`` (mean +- z sd / sqrt(n); a single
    value gives no spread to measure: the value itself).

    >>> mean_interval([10.0, 20.0, 30.0])
    (8.684143, 31.315857)
    """
    summary = describe(values)
    half = z * summary["sd"] / math.sqrt(len(values)) if values else 0.0
    return _round(summary["mean"] - half), _round(summary["mean"] + half)


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _round(value: float) -> float:
    rounded = round(float(value), DECIMALS)
    return 0.0 if rounded == 0 else rounded
