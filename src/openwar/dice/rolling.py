"""Rolling dice: only through a seeded numpy Generator, or a script in tests.

Every random number OpenWar uses comes from a :class:`Roller`. ``SeededRoller`` wraps
``numpy.random.Generator(PCG64(SeedSequence(seed)))`` so the same seed gives the same
rolls on every machine; ``ScriptedRoller`` replays listed values so a test states the
rolls it needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from openwar.dice.notation import DiceExpr

IntArray = npt.NDArray[np.int64]


class Roller(Protocol):
    def dice(self, sides: int, count: int) -> IntArray:
        """Roll ``count`` dice of ``sides`` sides."""
        ...


class SeededRoller:
    """Rolls from ``Generator(PCG64(SeedSequence(seed)))``; its state can be saved.

    >>> SeededRoller(7).dice(6, 5).tolist() == SeededRoller(7).dice(6, 5).tolist()
    True
    """

    def __init__(self, seed: int | np.random.SeedSequence) -> None:
        sequence = (
            seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        )
        self.generator = np.random.Generator(np.random.PCG64(sequence))

    def dice(self, sides: int, count: int) -> IntArray:
        return self.generator.integers(1, sides + 1, size=count, dtype=np.int64)

    @property
    def state(self) -> dict[str, Any]:
        return dict(self.generator.bit_generator.state)

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        self.generator.bit_generator.state = value


class ScriptExhaustedError(RuntimeError):
    """A scripted roller was asked for more dice than its script holds."""


class ScriptedRoller:
    """Returns the listed values in order; a test names the rolls it needs.

    >>> ScriptedRoller([6, 1, 3]).dice(6, 2).tolist()
    [6, 1]
    """

    def __init__(self, values: Iterable[int]) -> None:
        self._values = list(values)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._values) - self._next

    def dice(self, sides: int, count: int) -> IntArray:
        if count > self.remaining:
            raise ScriptExhaustedError(f"script needs {count} more dice, has {self.remaining}")
        out = np.array(self._values[self._next : self._next + count], dtype=np.int64)
        if np.any((out < 1) | (out > sides)):
            raise ValueError(f"scripted values {out.tolist()} are not all rolls of a D{sides}")
        self._next += count
        return out


def roll(expr: DiceExpr, roller: Roller) -> int:
    """Roll a dice expression once.

    >>> from openwar.dice.notation import parse_dice
    >>> roll(parse_dice("2D6+1"), ScriptedRoller([3, 4]))
    8
    """
    if expr.is_constant:
        return expr.modifier
    return int(roller.dice(expr.sides, expr.count).sum()) + expr.modifier
