"""From damage to models slain.

Two readings of "wounds stay on one model until it is slain" are supported:

* **pooled** — all damage of an attacking unit is added up and then allocated one wound at
  a time (Age of Sigmar 2nd edition core rules, "Allocating Wounds"; The Old World quick
  reference, "Remove Casualties"). Nothing is lost: slain = total // wounds per model.
* **packets** — some damage arrives as a packet that must go on one model, so what the model
  cannot take is lost (One Page Fantasy Deadly; the later-edition reading of Age of Sigmar
  damage). Loose single wounds (mortal wounds, ordinary wounds) are pooled after the packets.
"""

from __future__ import annotations

import numpy as np

from openwar.dice.pmf import FloatArray, add, clamp, floor_divide, trim
from openwar.errors import ProfileError


def slain_pooled(total: FloatArray, wounds_per_model: int, models: int | None) -> FloatArray:
    """Models slain when all damage is pooled and allocated one wound at a time.

    >>> slain_pooled(np.array([0.0, 0.0, 0.0, 1.0]), 2, None).tolist()  # 3 damage, 2 wounds each
    [0.0, 1.0]
    """
    if models is not None:
        total = clamp(total, models * wounds_per_model)
    return floor_divide(total, wounds_per_model)


# The packets chain's work (attacks x outcomes x wounds a model x wounds that count, halved):
# 1,000 Deadly attacks on 1,000 Tough(100) models, about 1,000,000,000, take 4-8 s; 1,000
# attacks of Damage D20 on 100-wound models, 21,000,000,000, took a minute.
MAX_PACKET_WORK = 2_000_000_000


def slain_packets(
    count: FloatArray,
    per_attack: FloatArray,
    wounds_per_model: int,
    models: int | None,
    loose: FloatArray | None = None,
) -> FloatArray:
    """Models slain by a random number (pmf ``count``) of independent attacks, and with
    ``loose`` (a pmf) as many more loose wounds of other dice, pooled as the attacks' are.

    ``per_attack[d, l]`` is the probability that one attack brings a packet of ``d`` wounds
    that must go on a single model and ``l`` loose wounds. Packets are allocated attack by
    attack to the wounded model first (any excess is lost); loose wounds are pooled after.

    The chain runs on (wounds already on the wounded model, all wounds that will count): a
    packet's fate depends only on the first (the room left on that model), and the models
    slain only on the second, so loose wounds can be added as they come even though they are
    allocated last. That is ``wounds_per_model`` rows, not one row per wound the packets could
    have allocated, and every step is a shift of whole rows.

    >>> one = np.zeros((4, 1)); one[3, 0] = 1.0  # every attack: a packet of 3
    >>> slain_packets(np.array([0.0, 0.0, 1.0]), one, 2, None).tolist()  # 2 attacks, 2 wounds each
    [0.0, 0.0, 1.0]
    """
    w = wounds_per_model
    n_max = len(count) - 1
    steps = [
        (int(d), int(loose), float(per_attack[d, loose]))
        for d, loose in zip(*np.nonzero(per_attack), strict=True)
    ]
    most = max((min(d, w) + loose for d, loose, _ in steps), default=0)
    reach = n_max * most  # the most wounds that can count
    cap = reach if models is None else min(models * w, reach)
    work = n_max * len(steps) * w * (cap + 1) // 2  # cells shifted, about
    if work > MAX_PACKET_WORK:
        raise ProfileError(
            f"damage on one model per attack: {n_max:,} attacks of {len(steps)} outcomes on "
            f"{w}-wound models are about {work:,} steps; the exact odds are worked out up to "
            f"{MAX_PACKET_WORK:,} (fewer attacks or wounds, or pooled damage)"
        )
    state = np.zeros((w, cap + 1))
    state[0, 0] = 1.0
    total = count[0] * state
    for k in range(1, n_max + 1):
        state = _allocate_one_attack(state, steps, most, min((k - 1) * most, cap) + 1)
        if count[k]:
            total += count[k] * state
    counted = total[0].copy()  # the wounds that count, capped at what the target has
    for row in total[1:]:  # row by row, element-wise: the same floats on any machine
        counted += row
    if loose is not None:  # loose wounds only add to those that count: the cap is the same
        counted = add(counted, loose)
        if models is not None:
            counted = clamp(counted, models * w)
    slain = np.bincount(np.arange(len(counted)) // w, weights=counted).astype(np.float64)
    return trim(slain) if models is None else np.pad(slain, (0, models + 1 - len(slain)))


def _allocate_one_attack(
    state: FloatArray, steps: list[tuple[int, int, float]], most: int, filled: int
) -> FloatArray:
    """One more attack: ``state[r, s]`` is P(r wounds on the wounded model, s wounds that
    count), zero beyond column ``filled``; each step is (packet, loose wounds, probability),
    and none adds more than ``most`` wounds that count.
    A packet fills the wounded model up to its room (``w - r``) and the excess is lost; the
    wounds that count stop at the last column (the target's every wound)."""
    w, width = state.shape
    out = np.zeros_like(state)
    now, then = state[:, :filled], out[:, : min(filled + most, width)]
    for d, loose, p in steps:
        if d == 0:
            _shift_add(then, slice(None), now, slice(None), loose, p)
            continue
        fits = max(w - d, 0)  # rows whose room takes the whole packet
        _shift_add(then, slice(d, w), now, slice(0, fits), d + loose, p)
        for r in range(fits, w):  # the packet slays the wounded model; the excess is lost
            _shift_add(then, slice(0, 1), now, slice(r, r + 1), w - r + loose, p)
    return out


def _shift_add(
    out: FloatArray, rows: slice, state: FloatArray, source: slice, by: int, p: float
) -> None:
    """``out[rows, s + by] += p * state[source, s]``; what would pass ``out``'s last column
    (the target's every wound) is kept there."""
    fit = max(min(state.shape[1], out.shape[1] - by), 0)
    out[rows, by : by + fit] += p * state[source, :fit]
    for column in range(fit, state.shape[1]):  # one by one: no SIMD-ordered reduction
        out[rows, -1] += p * state[source, column]
