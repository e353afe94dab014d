"""Seeds of the battles of a run: child ``i`` of ``SeedSequence(root).spawn(n)``.

A battle's seed depends only on the root seed and its index, never on which worker plays it
or in what order, so a run gives the same results on one core, a pool or a cluster.
"""

from __future__ import annotations

import numpy as np

MAX_SEED = 2**63 - 1  # the largest seed a results store (SQLite INTEGER) can keep
MAX_BATTLES = 1_000_000  # battles in one run: their seeds alone take seconds to spawn


def battle_seed(child: np.random.SeedSequence) -> int:
    """The integer seed a battle is played with: the first 32-bit word of the child's state.

    >>> battle_seed(np.random.SeedSequence(1).spawn(1)[0]) == battle_seeds(1, 1)[0]
    True
    """
    return int(child.generate_state(1, dtype=np.uint32)[0])


def battle_seeds(root: int, n: int) -> list[int]:
    """Seeds of battles ``0 .. n-1`` of a run with root seed ``root``."""
    return [battle_seed(child) for child in np.random.SeedSequence(root).spawn(n)]
