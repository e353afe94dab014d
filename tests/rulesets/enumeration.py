"""An independent brute-force oracle: exact enumeration of every die with Fractions.

A distribution is a dict from outcome to exact probability. ``faces`` lists every roll of
``n`` dice (``itertools.product``); ``bind`` runs the next step of a rule for each outcome so
far, so a whole attack is enumerated die by die with no numpy and no shared code with
``openwar.dice``. Equal outcomes are merged as they appear, which keeps small cases fast
without changing the result.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

import numpy as np

from openwar.dice.pmf import FloatArray

A = TypeVar("A", bound=Hashable)
B = TypeVar("B", bound=Hashable)
Dist = dict[A, Fraction]


def certain(value: A) -> dict[A, Fraction]:
    return {value: Fraction(1)}


def faces(n: int, sides: int = 6) -> dict[tuple[int, ...], Fraction]:
    """Every roll of ``n`` dice, each equally likely."""
    weight = Fraction(1, sides**n)
    return {roll: weight for roll in itertools.product(range(1, sides + 1), repeat=n)}


def bind(
    dist: Mapping[A, Fraction], step: Callable[[A], Mapping[B, Fraction]]
) -> dict[B, Fraction]:
    out: dict[B, Fraction] = defaultdict(Fraction)
    for value, p in dist.items():
        for result, q in step(value).items():
            out[result] += p * q
    return dict(out)


def fmap(dist: Mapping[A, Fraction], f: Callable[[A], B]) -> dict[B, Fraction]:
    return bind(dist, lambda value: certain(f(value)))


def sequence(dists: Sequence[Mapping[A, Fraction]]) -> dict[tuple[A, ...], Fraction]:
    """Joint outcomes of independent steps, in order (every combination)."""
    out: dict[tuple[A, ...], Fraction] = defaultdict(Fraction)
    for combo in itertools.product(*(list(d.items()) for d in dists)):
        weight = Fraction(1)
        for _, p in combo:
            weight *= p
        out[tuple(v for v, _ in combo)] += weight
    return dict(out)


def d6_after_reroll(
    passes: Callable[[int], bool], rolled_again: Callable[[int, bool], bool]
) -> dict[int, Fraction]:
    """The final unmodified face: roll two dice, use the second only if the first is re-rolled."""
    return fmap(
        faces(2), lambda pair: pair[1] if rolled_again(pair[0], passes(pair[0])) else pair[0]
    )


def reroll_rule(policy: str) -> Callable[[int, bool], bool]:
    """Which first faces are rolled again: by face (ones) or by result (failed, successes)."""
    rules: dict[str, Callable[[int, bool], bool]] = {
        "none": lambda face, ok: False,
        "ones": lambda face, ok: face == 1,
        "failed": lambda face, ok: not ok,
        "successes": lambda face, ok: ok,
        "all": lambda face, ok: True,
    }
    return rules[policy]


def count_kept(points: int, negated_on: int | None) -> dict[int, Fraction]:
    """Roll a die for each point; a roll of ``negated_on``+ removes that point."""
    if negated_on is None or points == 0:
        return certain(points)
    return fmap(faces(points), lambda roll: sum(1 for r in roll if r < negated_on))


def dice_total(count: int, sides: int, modifier: int) -> dict[int, Fraction]:
    """A dice expression: roll every die and add them."""
    if count == 0 or sides == 0:
        return certain(modifier)
    return fmap(faces(count, sides), lambda roll: sum(roll) + modifier)


def pmf_array(dist: Mapping[int, Fraction]) -> FloatArray:
    out = np.zeros(max(dist) + 1)
    for value, p in dist.items():
        out[value] += float(p)
    return out
