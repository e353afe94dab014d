"""Vectorised dice for Monte Carlo: many attack sequences rolled at once with numpy.

This is deliberately a separate code path from the exact distributions (it compares
rolled faces instead of summing probabilities), so the two can check each other.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from openwar.dice.d6 import Reroll
from openwar.dice.notation import DiceExpr

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class RolledTest:
    faces: npt.NDArray[np.int8]
    success: BoolArray


def roll_test(
    rng: np.random.Generator,
    shape: tuple[int, ...],
    target: int,
    modifier: int = 0,
    *,
    cap: int | None = None,
    one_fails: bool = False,
    six_succeeds: bool = False,
    reroll: Reroll = Reroll.NONE,
) -> RolledTest:
    """Roll a D6 test for every cell of ``shape``, re-rolling once before modifiers."""
    count = int(np.prod(shape))
    flat = roll_test_sparse(rng, count, target, modifier, cap=cap, one_fails=one_fails,
                            six_succeeds=six_succeeds, reroll=reroll)  # fmt: skip
    return RolledTest(flat.faces.reshape(shape), flat.success.reshape(shape))


def roll_test_sparse(
    rng: np.random.Generator,
    count: int,
    target: int,
    modifier: int = 0,
    *,
    cap: int | None = None,
    one_fails: bool = False,
    six_succeeds: bool = False,
    reroll: Reroll = Reroll.NONE,
) -> RolledTest:
    """Roll ``count`` independent D6 tests. Success and re-roll are looked up per face in
    7-entry tables (index = face); re-roll dice are rolled only for the faces re-rolled."""
    mod = modifier if cap is None else int(np.clip(modifier, -cap, cap))
    face = np.arange(7)
    ok = face + mod >= target
    if one_fails:
        ok[1] = False
    if six_succeeds:
        ok[6] = True
    faces = rng.integers(1, 7, size=count, dtype=np.int8)
    if reroll is not Reroll.NONE:
        again = {
            Reroll.ONES: face == 1,
            Reroll.FAILED: ~ok,
            Reroll.SUCCESSES: ok,
            Reroll.ALL: np.ones(7, dtype=bool),
        }[reroll]
        which = np.flatnonzero(again[faces])
        faces[which] = rng.integers(1, 7, size=len(which), dtype=np.int8)
    return RolledTest(faces, ok[faces])


def roll_expr(rng: np.random.Generator, expr: DiceExpr, shape: tuple[int, ...]) -> IntArray:
    """Roll a dice expression independently for every cell of ``shape``."""
    if expr.is_constant:
        return np.full(shape, expr.modifier, dtype=np.int64)
    if expr.count == 1:
        rolled = rng.integers(1, expr.sides + 1, size=shape, dtype=np.int64)
        return rolled + expr.modifier if expr.modifier else rolled
    rolled = rng.integers(1, expr.sides + 1, size=(*shape, expr.count), dtype=np.int64)
    return np.asarray(rolled.sum(axis=-1) + expr.modifier, dtype=np.int64)


def negate_points(
    rng: np.random.Generator, amounts: IntArray, target: int | None, most: int
) -> IntArray:
    """Roll once per point of each amount; each roll of ``target``+ removes that point."""
    if target is None or most == 0:
        return amounts
    rolls = rng.integers(1, 7, size=(*amounts.shape, most))
    live = np.arange(most) < amounts[..., None]
    return np.asarray(amounts - ((rolls >= target) & live).sum(axis=-1), dtype=np.int64)


def empirical(values: IntArray, length: int | None = None) -> npt.NDArray[np.float64]:
    """Relative frequencies of non-negative integer values."""
    counts = np.bincount(values.ravel(), minlength=length or 0)
    return (counts / max(values.size, 1)).astype(np.float64)


def chunks(trials: int, size: int = 65_536) -> list[int]:
    """Split ``trials`` into fixed-size batches (the split never depends on the machine)."""
    full, rest = divmod(trials, size)
    return [size] * full + ([rest] if rest else [])
