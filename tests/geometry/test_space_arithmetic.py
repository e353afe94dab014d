"""Movement arithmetic gives the same last bits on every machine (determinism)."""

from __future__ import annotations

import numpy as np

from openwar.engine.space import dot2, gaps


def test_dot2_is_two_correctly_rounded_products_and_a_sum() -> None:
    # Python floats round every product and the sum (no fused multiply-add): the reference
    # any machine gives; einsum or matmul may fuse and differ in the last bit
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=(200, 7, 2)) * 40.0, rng.normal(size=(200, 7, 2)) * 40.0
    found = dot2(a, b)
    for i, j in np.ndindex(*found.shape):
        x0, x1, y0, y1 = float(a[i, j, 0]), float(a[i, j, 1]), float(b[i, j, 0]), float(b[i, j, 1])
        assert found[i, j] == x0 * y0 + x1 * y1
    u = np.array([0.6, 0.8])
    assert (dot2(a, u) == a[..., 0] * 0.6 + a[..., 1] * 0.8).all()


def test_gaps_are_centre_distances_less_both_radii() -> None:
    a, b = np.array([[0.0, 0.0], [3.0, 4.0]]), np.array([[6.0, 8.0]])
    found = gaps(a, np.array([1.0, 0.5]), b, np.array([2.0]))
    assert found.tolist() == [[10.0 - 3.0], [5.0 - 2.5]]


def test_gaps_are_dot2_of_the_offsets_to_the_bit() -> None:
    """The gaps (each offset's squared x plus squared y, then the root) are the very numbers
    of :func:`dot2` on the (n, m, 2) offsets, whatever the scale or memory layout of the
    positions."""
    rng = np.random.default_rng(7)
    for scale, decimals in [(1e-3, 7), (1.0, 6), (120.0, 6), (1e6, 0)]:
        points = np.round(rng.uniform(-scale, scale, size=(60, 2)), decimals)
        a, b = points[rng.integers(0, 60, 25)], np.asfortranarray(points[rng.integers(0, 60, 30)])
        a_r, b_r = rng.uniform(0.0, 3.0, 25), rng.uniform(0.0, 3.0, 30)
        offsets = a[:, None, :] - b[None, :, :]
        expected = np.sqrt(dot2(offsets, offsets)) - a_r[:, None] - b_r[None, :]
        assert gaps(a, a_r, b, b_r).tobytes() == expected.tobytes()
