"""One six-sided test roll: a target number, modifiers, automatic results and re-rolls.

The model is the distribution of the *final unmodified face* after any re-roll
(re-rolls happen before modifiers), plus which faces succeed. Every effect
triggered by a face (an unmodified 6 that also causes a mortal wound, One Page
Fantasy Deadly and Poison) is computed from that same distribution, so a face is
never counted twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import numpy.typing as npt

FACES = np.arange(1, 7)


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

    @property
    def success_faces(self) -> npt.NDArray[np.bool_]:
        """Boolean mask over faces 1..6 (index 0 is face 1)."""
        return np.array([self.passes(int(f)) for f in FACES], dtype=np.bool_)

    @property
    def reroll_faces(self) -> npt.NDArray[np.bool_]:
        ok = self.success_faces
        masks = {
            Reroll.NONE: np.zeros(6, dtype=bool),
            Reroll.ONES: FACES == 1,
            Reroll.FAILED: ~ok,
            Reroll.SUCCESSES: ok,
            Reroll.ALL: np.ones(6, dtype=bool),
        }
        return np.asarray(masks[self.reroll], dtype=np.bool_)

    @property
    def face_probabilities(self) -> npt.NDArray[np.float64]:
        """P(final unmodified face == f) for f = 1..6, after the re-roll."""
        again = self.reroll_faces
        kept = np.where(again, 0.0, 1.0 / 6.0)
        return np.asarray(kept + again.sum() / 36.0, dtype=np.float64)

    @property
    def probability(self) -> float:
        return float(self.face_probabilities[self.success_faces].sum())

    def probability_of_face(self, face: int) -> float:
        """P(the final unmodified face is ``face``), e.g. an unmodified 6."""
        return float(self.face_probabilities[face - 1])


def parse_roll(text: str, allow_dash: bool = False, lowest: int = 2, highest: int = 6) -> int:
    """Parse a needed roll written "4+" (or "-" for "cannot", returned as 7).

    >>> parse_roll("3+")
    3
    >>> parse_roll("-", allow_dash=True)
    7
    """
    raw = text.strip()
    if allow_dash and raw in {"-", "7+"}:
        return 7
    body = raw[:-1] if raw.endswith("+") else raw
    expected = f"a roll from {lowest}+ to {highest}+" + (" or -" if allow_dash else "")
    if not body.isdigit() or not lowest <= int(body) <= highest:
        raise ValueError(f"{text!r} is not {expected}")
    return int(body)
