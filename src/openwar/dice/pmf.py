"""Exact probability mass functions as numpy float64 arrays indexed by value.

``pmf[k]`` is the probability of the value ``k``; values are non-negative integers.
Sums of independent values are convolutions (:func:`add`), so a whole attack sequence is a
few convolutions instead of an enumeration of every die.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


def point(value: int) -> FloatArray:
    """The pmf of a certain value.

    >>> point(2).tolist()
    [0.0, 0.0, 1.0]
    """
    out = np.zeros(value + 1)
    out[value] = 1.0
    return out


def die(sides: int) -> FloatArray:
    """The pmf of one fair die numbered 1..sides.

    >>> die(3).tolist()  # doctest: +ELLIPSIS
    [0.0, 0.333..., 0.333..., 0.333...]
    """
    out = np.full(sides + 1, 1.0 / sides)
    out[0] = 0.0
    return out


def bernoulli(p: float) -> FloatArray:
    return np.array([1.0 - p, p])


def shift(pmf: FloatArray, offset: int) -> FloatArray:
    """Add a constant to a value (never below zero: mass below 0 is an error)."""
    if offset >= 0:
        return np.concatenate([np.zeros(offset), pmf])
    if np.any(pmf[:-offset] > 0):
        raise ValueError("shift would move probability below zero")
    return pmf[-offset:].copy()


def add(a: FloatArray, b: FloatArray) -> FloatArray:
    """The pmf of the sum of two independent values: their convolution, summed in one fixed
    order (each term of the shorter pmf in turn, as exact IEEE multiplies and adds) so that
    every machine gets the same last bits. ``np.convolve`` is avoided on purpose: it sums
    through the BLAS dot kernel the CPU selects, and an AVX-512 kernel rounds differently
    from an AVX2 one.

    >>> add(bernoulli(0.5), bernoulli(0.5)).tolist()
    [0.25, 0.5, 0.25]
    """
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    s, width = len(short), len(a) + len(b)
    if s * width <= ADD_BLOCK:
        return _skewed_sum(short, long, None)
    # long pmfs in blocks of rows, each block's sum starting from the last: the same order
    # (and the same floats) as one block, in bounded memory (one block of 1,000 x 100,000
    # rows would take 800 MB)
    out = np.zeros(width - 1)
    rows = max(ADD_BLOCK // width, 1)
    for start in range(0, s, rows):
        part = short[start : start + rows]
        window = out[start : start + len(part) + len(long) - 1]
        window[:] = _skewed_sum(part, long, window)
    return out


ADD_BLOCK = 1 << 20  # elements of one block of :func:`add`'s rows (8 MB)


def _skewed_sum(short: FloatArray, long: FloatArray, carried: FloatArray | None) -> FloatArray:
    """``carried`` (if any), then ``short[i] * long`` shifted right by ``i`` for each ``i`` in
    turn, added up row after row (row ``i`` of a table ``width`` wide, read ``width - 1``
    wide, is shifted by ``i``)."""
    s, width = len(short), len(short) + len(long)
    rows = np.zeros((s, width))
    np.multiply(short[:, None], long[None, :], out=rows[:, : len(long)])
    skewed = rows.ravel()[: s * (width - 1)].reshape(s, width - 1)
    if carried is not None:
        skewed = np.concatenate([carried[None, :], skewed])
    out: FloatArray = skewed.sum(axis=0)  # row after row: the same order on every machine
    return out


def power(pmf: FloatArray, n: int) -> FloatArray:
    """The pmf of the sum of ``n`` independent copies (repeated squaring).

    >>> power(bernoulli(0.5), 2).tolist()
    [0.25, 0.5, 0.25]
    """
    if n < 0:
        raise ValueError("n must be >= 0")
    result = np.array([1.0])
    base = pmf
    while n:
        if n & 1:
            result = add(result, base)
        n >>= 1
        if n:
            base = add(base, base)
    return result


def binomial(n: int, p: float) -> FloatArray:
    """Number of successes in ``n`` independent trials of probability ``p``."""
    return power(bernoulli(p), n)


def compound(count: FloatArray, item: FloatArray) -> FloatArray:
    """The pmf of the sum of a random number (pmf ``count``) of iid ``item`` values."""
    n_max = len(count) - 1
    if count[n_max] == 1.0:
        return power(item, n_max)
    out = np.zeros(n_max * (len(item) - 1) + 1)
    partial = np.array([1.0])
    for k, p_k in enumerate(count):
        if k:
            partial = add(partial, item)
        if p_k:
            out[: len(partial)] += p_k * partial
    return out


def thin(pmf: FloatArray, keep: float) -> FloatArray:
    """Keep each unit of the value independently with probability ``keep``.

    This is a per-wound negation roll (a ward): each point is negated with ``1 - keep``.

    >>> thin(point(2), 0.5).tolist()
    [0.25, 0.5, 0.25]
    """
    if keep == 1.0:
        return pmf.copy()
    out = np.zeros(len(pmf))
    for k, p_k in enumerate(pmf):
        if p_k:
            out[: k + 1] += p_k * binomial(k, keep)
    return out


def clamp(pmf: FloatArray, maximum: int) -> FloatArray:
    """Cap the value at ``maximum``: the tail's mass moves onto ``maximum``."""
    if len(pmf) <= maximum + 1:
        return pmf.copy()
    out = pmf[: maximum + 1].copy()
    out[maximum] += pmf[maximum + 1 :].sum()
    return out


def floor_divide(pmf: FloatArray, divisor: int) -> FloatArray:
    """The pmf of ``value // divisor``."""
    groups = np.arange(len(pmf)) // divisor
    return np.bincount(groups, weights=pmf, minlength=int(groups[-1]) + 1).astype(np.float64)


def at_least(pmf: FloatArray) -> FloatArray:
    """``result[k] = P(value >= k)``, never above 1 (a sum of rounded terms can pass it by
    an ulp where the probability is certain).

    >>> at_least(add(die(6), die(6)))[:3].tolist()
    [1.0, 1.0, 1.0]
    """
    return np.minimum(np.cumsum(pmf[::-1])[::-1], 1.0)


def mean(pmf: FloatArray) -> float:
    """The expected value, correctly rounded (``math.fsum``: the same on every machine,
    unlike a BLAS dot product)."""
    return math.fsum((np.arange(len(pmf)) * pmf).tolist())


def trim(pmf: FloatArray, tolerance: float = 0.0) -> FloatArray:
    """Drop trailing values whose probability is at most ``tolerance`` (keeps at least one)."""
    nonzero = np.nonzero(pmf > tolerance)[0]
    end = int(nonzero[-1]) + 1 if len(nonzero) else 1
    return pmf[:end].copy()


def convolve2d(a: FloatArray, b: FloatArray) -> FloatArray:
    """Joint pmf of the element-wise sum of two independent pairs of values."""
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1))
    for i, j in zip(*np.nonzero(b), strict=True):
        out[i : i + a.shape[0], j : j + a.shape[1]] += b[i, j] * a
    return out


def power2d(joint: FloatArray, n: int) -> FloatArray:
    """Joint pmf of the sum of ``n`` independent copies of a pair of values."""
    result = np.ones((1, 1))
    base = joint
    while n:
        if n & 1:
            result = convolve2d(result, base)
        n >>= 1
        if n:
            base = convolve2d(base, base)
    return result
