"""One six-sided test roll: a target number, modifiers, automatic results and re-rolls.

The model is the distribution of the *final unmodified face* after any re-roll
(re-rolls happen before modifiers), plus which faces succeed. Every effect
triggered by a face (an unmodified 6 that also causes a mortal wound, One Page
Fantasy Deadly and Poison) is computed from that same distribution, so a face is
never counted twice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

import numpy as np
import numpy.typing as npt

FACES = np.arange(1, 7)  # faces 1..6, for vectorised callers


class Reroll(StrEnum):
    """Which dice are rolled again, once, before modifiers."""

    NONE = "none"
    ONES = "ones"
    FAILED = "failed"
    SUCCESSES = "successes"
    ALL = "all"


@dataclass(frozen=True)
class D6Test:
    """Roll one D6, add ``modifier`` and succeed on ``target`` or more.

    ``modifier_cap`` limits the total modifier to ``±cap`` (Age of Sigmar's hit and wound
    rolls in the 3rd-edition excerpts); ``one_fails`` / ``six_succeeds`` make an
    unmodified 1 always fail and an unmodified 6 always succeed.

    >>> D6Test(4, reroll=Reroll.ONES).probability
    0.5833333333333333
    >>> D6Test(7, modifier=1).probability  # a 7+ save made possible by cover
    0.16666666666666666
    """

    target: int
    modifier: int = 0
    modifier_cap: int | None = None
    one_fails: bool = False
    six_succeeds: bool = False
    reroll: Reroll = Reroll.NONE
    probability: float = field(init=False, repr=False, compare=False)
    _success: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    _rerolled: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    _faces: tuple[float, ...] = field(init=False, repr=False, compare=False)

    @property
    def effective_modifier(self) -> int:
        if self.modifier_cap is None:
            return self.modifier
        return max(-self.modifier_cap, min(self.modifier_cap, self.modifier))

    def passes(self, face: int) -> bool:
        """Whether an unmodified ``face`` (after re-rolls) succeeds."""
        if face == 1 and self.one_fails:
            return False
        if face == 6 and self.six_succeeds:
            return True
        return face + self.effective_modifier >= self.target

    def __post_init__(self) -> None:
        success, rerolled, faces, chance = _analyse(
            self.target, self.effective_modifier, self.one_fails, self.six_succeeds, self.reroll
        )
        object.__setattr__(self, "_success", success)
        object.__setattr__(self, "_rerolled", rerolled)
        object.__setattr__(self, "_faces", faces)
        object.__setattr__(self, "probability", chance)

    @property
    def success_faces(self) -> npt.NDArray[np.bool_]:
        """Boolean mask over faces 1..6 (index 0 is face 1)."""
        return np.array(self._success, dtype=np.bool_)

    @property
    def reroll_faces(self) -> npt.NDArray[np.bool_]:
        """Which faces are rolled again (index 0 is face 1)."""
        return np.array(self._rerolled, dtype=np.bool_)

    @property
    def face_probabilities(self) -> npt.NDArray[np.float64]:
        """P(final unmodified face == f) for f = 1..6, after the re-roll."""
        return np.array(self._faces, dtype=np.float64)

    def probability_of_face(self, face: int) -> float:
        """P(the final unmodified face is ``face``), e.g. an unmodified 6."""
        return self._faces[face - 1]


REROLL_FIXED: dict[Reroll, tuple[bool, ...]] = {
    Reroll.NONE: (False,) * 6,
    Reroll.ONES: (True,) + (False,) * 5,
    Reroll.ALL: (True,) * 6,
}


@lru_cache(maxsize=4096)
def _analyse(
    target: int, mod: int, one_fails: bool, six_succeeds: bool, reroll: Reroll
) -> tuple[tuple[bool, ...], tuple[bool, ...], tuple[float, ...], float]:
    """(successful faces, re-rolled faces, final face probabilities, P(success)).

    Six faces are cheaper in plain floats than in numpy, and there are few distinct tests.
    """
    success = tuple(face + mod >= target for face in range(1, 7))
    success = (
        success[0] and not one_fails,
        *success[1:5],
        success[5] or six_succeeds,
    )
    if reroll is Reroll.FAILED:
        rerolled = tuple(not ok for ok in success)
    elif reroll is Reroll.SUCCESSES:
        rerolled = success
    else:
        rerolled = REROLL_FIXED[reroll]
    again = sum(rerolled) / 36.0
    faces = tuple((0.0 if r else 1.0 / 6.0) + again for r in rerolled)
    chance = min(math.fsum(p for p, ok in zip(faces, success, strict=True) if ok), 1.0)
    if all(success):
        chance = 1.0  # exactly: a sum of sixths can round to 0.9999999999999999
    return success, rerolled, faces, chance


def parse_roll(text: str, allow_dash: bool = False, lowest: int = 2, highest: int = 6) -> int:
    """Parse a needed roll written "4+" (or "-" for "cannot", returned as 7).

    >>> parse_roll("3+")
    3
    >>> parse_roll("-", allow_dash=True)
    7
    """
    raw = text.strip()
    if allow_dash and raw in {"-", "7+", "7"}:
        return 7
    body = raw[:-1] if raw.endswith("+") else raw
    expected = f"a roll from {lowest}+ to {highest}+" + (
        " or - (none, as 7+)" if allow_dash else ""
    )
    if not body.isdigit() or not lowest <= int(body) <= highest:
        raise ValueError(f"{text!r} is not {expected}")
    return int(body)
