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

from openwar.dice.pmf import FloatArray, clamp, floor_divide, trim


def slain_pooled(total: FloatArray, wounds_per_model: int, models: int | None) -> FloatArray:
    """Models slain when all damage is pooled and allocated one wound at a time.

    >>> slain_pooled(np.array([0.0, 0.0, 0.0, 1.0]), 2, None).tolist()  # 3 damage, 2 wounds each
    [0.0, 1.0]
    """
    if models is not None:
        total = clamp(total, models * wounds_per_model)
    return floor_divide(total, wounds_per_model)


def slain_packets(
    count: FloatArray, per_attack: FloatArray, wounds_per_model: int, models: int | None
) -> FloatArray:
    """Models slain by a random number (pmf ``count``) of independent attacks.

    ``per_attack[d, l]`` is the probability that one attack brings a packet of ``d`` wounds
    that must go on a single model and ``l`` loose wounds. Packets are allocated attack by
    attack to the wounded model first (any excess is lost); loose wounds are pooled after.

    >>> one = np.zeros((4, 1)); one[3, 0] = 1.0  # every attack: a packet of 3
    >>> slain_packets(np.array([0.0, 0.0, 1.0]), one, 2, None).tolist()  # 2 attacks, 2 wounds each
    [0.0, 0.0, 1.0]
    """
    w = wounds_per_model
    n_max = len(count) - 1
    packet_max, loose_max = per_attack.shape[0] - 1, per_attack.shape[1] - 1
    limited = models is not None
    if models is None:
        models = n_max * max(packet_max, loose_max, 1) + 1
    cap = models * w
    loose_cap = n_max * loose_max
    effective = np.arange(cap + 1)
    room = np.where(effective < cap, w - effective % w, 0)
    outcomes = [
        (np.minimum(effective + np.minimum(d, room), cap), loose, float(per_attack[d, loose]))
        for d, loose in zip(*np.nonzero(per_attack), strict=True)
    ]
    state = np.zeros((cap + 1, loose_cap + 1))
    state[0, 0] = 1.0
    total = count[0] * state
    for k in range(1, n_max + 1):
        state = _allocate_one_attack(state, outcomes)
        total += count[k] * state
    final = np.minimum(effective[:, None] + np.arange(loose_cap + 1)[None, :], cap) // w
    slain = np.bincount(final.ravel(), weights=total.ravel(), minlength=models + 1)
    return slain.astype(np.float64) if limited else trim(slain.astype(np.float64))


def _allocate_one_attack(
    state: FloatArray, outcomes: list[tuple[np.ndarray, int, float]]
) -> FloatArray:
    out = np.zeros_like(state)
    width = state.shape[1]
    for target, loose, p in outcomes:
        if loose >= width:
            continue
        np.add.at(out[:, loose:], target, p * state[:, : width - loose])
    return out
