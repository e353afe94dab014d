"""Battle seeds come from SeedSequence(root).spawn(n); battle i is `openwar battle --seed s_i`."""

from __future__ import annotations

import numpy as np

from openwar.battles import fight_battle, load_setup
from openwar.sim.plan import measure, play_battles
from openwar.sim.seeds import battle_seeds

from .conftest import ARMY_A, ARMY_B, small_plan


def test_seed_i_is_first_word_of_spawned_child_i() -> None:
    children = np.random.SeedSequence(2024).spawn(5)
    expected = [int(c.generate_state(1, dtype=np.uint32)[0]) for c in children]
    assert battle_seeds(2024, 5) == expected
    assert len(set(expected)) == 5


def test_seeds_do_not_depend_on_the_number_of_battles() -> None:
    assert battle_seeds(7, 3) == battle_seeds(7, 10)[:3]
    assert battle_seeds(7, 3) != battle_seeds(8, 3)


def test_battle_i_is_the_battle_command_with_its_seed() -> None:
    plan = small_plan(battles=2, players=("simple", "random"))
    seed = battle_seeds(plan.seed, 2)[1]
    [simulated] = play_battles(plan, [(1, seed)])
    setup = load_setup((ARMY_A, ARMY_B), None, seed)
    alone = measure(1, seed, setup, fight_battle(setup, ("simple", "random")))
    assert simulated == alone
    assert simulated.error is None
    assert simulated.winner in (0, 1, None)
    assert sum(simulated.units_size[:3]) == 23  # 10 + 10 + 3 miniatures on side A
