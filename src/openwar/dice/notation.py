"""Dice notation: "D6", "2D6", "D3+1", "3".

A :class:`DiceExpr` is an immutable description of a random (or fixed) number; it
knows its exact distribution and can be rolled by any :class:`~openwar.dice.rolling.Roller`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from openwar.dice.pmf import FloatArray, die, power, shift
from openwar.errors import OpenWarError

_PATTERN = re.compile(r"^(?:(?P<count>\d*)[dD](?P<sides>\d+)(?P<mod>[+-]\d+)?|(?P<const>\d+))$")
MAX_DICE = 200
MAX_SIDES = 100


class DiceNotationError(OpenWarError):
    """Raised for text that is not dice notation; the message says what was expected."""


@dataclass(frozen=True)
class DiceExpr:
    """``count`` dice of ``sides`` sides plus ``modifier`` (``sides == 0``: a constant).

    >>> parse_dice("2D3+1").mean
    5.0
    >>> str(parse_dice("d6"))
    'D6'
    """

    count: int
    sides: int
    modifier: int = 0

    @property
    def is_constant(self) -> bool:
        return self.count == 0 or self.sides == 0

    @property
    def minimum(self) -> int:
        return self.modifier + (0 if self.is_constant else self.count)

    @property
    def maximum(self) -> int:
        return self.modifier + (0 if self.is_constant else self.count * self.sides)

    @property
    def mean(self) -> float:
        return float(self.modifier + (0 if self.is_constant else self.count * (self.sides + 1) / 2))

    @cached_property
    def distribution(self) -> FloatArray:
        """Exact pmf indexed by value: ``distribution[v] == P(value == v)``."""
        base = np.array([1.0]) if self.is_constant else power(die(self.sides), self.count)
        return shift(base, self.modifier)

    def __str__(self) -> str:
        if self.is_constant:
            return str(self.modifier)
        count = "" if self.count == 1 else str(self.count)
        mod = "" if self.modifier == 0 else f"{self.modifier:+d}"
        return f"{count}D{self.sides}{mod}"


def parse_dice(text: str | int) -> DiceExpr:
    """Parse dice notation such as "D6", "2D3+1" or "4" (never below zero).

    >>> parse_dice("D3+1").maximum
    4
    >>> parse_dice("2Q")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    openwar.dice.notation.DiceNotationError: '2Q' is not dice notation (expected e.g. 3, D6, ...)
    """
    raw = str(text).strip().replace(" ", "")
    match = _PATTERN.match(raw)
    if not raw or match is None:
        raise DiceNotationError(f"{text!r} is not dice notation (expected e.g. 3, D6, 2D6, D3+1)")
    if match["const"] is not None:
        expr = DiceExpr(0, 0, int(match["const"]))
    else:
        count = int(match["count"] or 1)
        sides = int(match["sides"])
        if not 1 <= count <= MAX_DICE:
            raise DiceNotationError(f"{text!r}: the number of dice must be 1 to {MAX_DICE}")
        if not 2 <= sides <= MAX_SIDES:
            raise DiceNotationError(f"{text!r}: a die needs 2 to {MAX_SIDES} sides")
        expr = DiceExpr(count, sides, int(match["mod"] or 0))
    if expr.minimum < 0:
        raise DiceNotationError(f"{text!r} can go below zero; a count or damage cannot")
    return expr
