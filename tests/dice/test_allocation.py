"""Packets on one model, loose wounds pooled after: the chain against every sequence of attacks."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from openwar.dice.allocation import slain_packets
from openwar.dice.pmf import point
from openwar.errors import ProfileError


def enumerated(
    count: np.ndarray, per_attack: np.ndarray, wounds: int, models: int | None
) -> np.ndarray:
    """Every sequence of attacks, allocated one by one: the packet on the wounded model (its
    excess lost), then all loose wounds pooled; an independent reading of the rule."""
    cap = None if models is None else models * wounds
    pairs = zip(*np.nonzero(per_attack), strict=True)
    outcomes = [(d, loose, per_attack[d, loose]) for d, loose in pairs]
    found: dict[int, float] = {}
    for n, p_n in enumerate(count):
        for run in itertools.product(outcomes, repeat=n):
            on_models, pooled, p = 0, 0, p_n
            for d, loose, q in run:
                room = wounds - on_models % wounds
                if cap is not None and on_models >= cap:
                    room = 0
                on_models += min(d, room)
                pooled += loose
                p *= q
            counted = on_models + pooled if cap is None else min(on_models + pooled, cap)
            found[counted // wounds] = found.get(counted // wounds, 0.0) + p
    size = max(found) + 1 if models is None else models + 1
    out = np.zeros(size)
    for slain, p in found.items():
        out[slain] += p
    return out


def test_an_attack_bringing_a_packet_and_loose_wounds_counts_both_on_an_unlimited_target() -> None:
    # every attack: a packet of 1 and 1 loose wound; two attacks slay 4 one-wound models
    # (the chain once sized an unlimited target by the larger of the two, so 3 at most)
    both = np.zeros((2, 2))
    both[1, 1] = 1.0
    assert slain_packets(np.array([0.0, 0.0, 1.0]), both, 1, None).tolist() == [0, 0, 0, 0, 1]


def test_a_packet_slays_the_wounded_model_and_its_excess_is_lost() -> None:
    # packets of 3 on 2-wound models: each attack slays one model, a wound lost each time
    three = np.zeros((4, 1))
    three[3, 0] = 1.0
    assert slain_packets(np.array([0.0, 0.0, 0.0, 1.0]), three, 2, 5).tolist() == [0, 0, 0, 1, 0, 0]


def test_loose_wounds_are_allocated_after_every_packet() -> None:
    # each of two attacks: a packet of 2 and a loose wound, on 2-wound models. Loose wounds
    # pooled after the packets: the packets slay two, the loose two a third. Allocated as they
    # came, the first loose wound would wound a model the second packet then slays (1 lost).
    both = np.zeros((3, 2))
    both[2, 1] = 1.0
    assert slain_packets(np.array([0.0, 0.0, 1.0]), both, 2, None).tolist() == [0, 0, 0, 1]


def test_the_work_of_a_huge_chain_is_refused_before_it_starts() -> None:
    wide = np.full((21, 1), 1 / 21)  # damage 0-20, kept on one model
    with pytest.raises(ProfileError, match="1,000 attacks of 21 outcomes on 100-wound models"):
        slain_packets(point(1000), wide, 100, None)


@st.composite
def attacks(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, int, int | None]:
    packets, loose = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    weights = draw(st.lists(st.integers(0, 5), min_size=packets * loose, max_size=packets * loose))
    per_attack = np.asarray(weights, dtype=float).reshape(packets, loose)
    per_attack[0, 0] += 1.0
    per_attack /= per_attack.sum()
    n = draw(st.integers(0, 4))
    count = np.asarray(draw(st.lists(st.integers(0, 3), min_size=n + 1, max_size=n + 1)), float)
    count[-1] += 1.0
    count /= count.sum()
    models = draw(st.one_of(st.none(), st.integers(1, 6)))
    return count, per_attack, draw(st.integers(1, 4)), models


@settings(max_examples=150, deadline=None)
@given(attacks())
def test_slain_packets_matches_every_sequence_enumerated(
    case: tuple[np.ndarray, np.ndarray, int, int | None],
) -> None:
    count, per_attack, wounds, models = case
    chain = slain_packets(count, per_attack, wounds, models)
    oracle = enumerated(count, per_attack, wounds, models)
    if models is None:  # an unlimited target: both trimmed of impossible tails
        width = max(len(chain), len(oracle))
        chain = np.pad(chain, (0, width - len(chain)))
        oracle = np.pad(oracle, (0, width - len(oracle)))
    assert chain.shape == oracle.shape
    assert np.allclose(chain, oracle, atol=1e-12)
