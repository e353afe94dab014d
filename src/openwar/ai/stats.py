"""Win rates with their uncertainty: the Wilson score interval."""

from __future__ import annotations

import math


def wilson(successes: float, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval (95% by default) for ``successes`` out of ``trials``.

    >>> low, high = wilson(9, 10)
    >>> round(low, 3), round(high, 3)
    (0.596, 0.982)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)
