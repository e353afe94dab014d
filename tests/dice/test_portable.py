"""The odds come out the same to the last bit on every machine: no BLAS kernel in the sums.

``np.convolve``, ``np.dot`` and ``@`` sum through the BLAS dot kernel the CPU selects, and an
AVX-512 kernel rounds differently from an AVX2 one (seen: P(2D6 >= 2) came out 1.0 on one
machine and 1.0000000000000002 on another). The pmf arithmetic therefore uses exact IEEE
multiplies and adds in one fixed order.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from openwar.cli.app import main
from openwar.dice import pmf
from openwar.dice.pmf import FloatArray, add, at_least, die, mean, power


def reference_add(a: FloatArray, b: FloatArray) -> list[float]:
    """The convolution in plain Python floats: each term of the shorter pmf in turn."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    out = [0.0] * (len(a) + len(b) - 1)
    for i, p in enumerate(short.tolist()):
        if p:
            for j, q in enumerate(long.tolist()):
                out[i + j] += p * q
    return out


@pytest.mark.parametrize("sizes", [(7, 7), (3, 40), (40, 3), (25, 60), (1, 9)])
def test_add_sums_in_one_fixed_order_bit_for_bit(sizes: tuple[int, int]) -> None:
    rng = np.random.default_rng(sum(sizes))
    a, b = (rng.random(n) for n in sizes)
    a, b = a / a.sum(), b / b.sum()
    a[rng.random(len(a)) < 0.2] = 0.0  # zero terms are skipped, as the reference skips them
    assert add(a, b).tobytes() == np.asarray(reference_add(a, b)).tobytes()


def test_add_in_blocks_of_rows_keeps_the_same_order_bit_for_bit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # long pmfs are added in blocks (bounded memory), each block starting from the last's sum
    rng = np.random.default_rng(11)
    a, b = rng.random(70), rng.random(90)
    a, b = a / a.sum(), b / b.sum()
    a[rng.random(len(a)) < 0.2] = 0.0
    monkeypatch.setattr(pmf, "ADD_BLOCK", 500)  # 3 rows of 160 a block: 24 blocks
    assert add(a, b).tobytes() == np.asarray(reference_add(a, b)).tobytes()


def test_a_tail_never_passes_one_and_a_mean_is_correctly_rounded() -> None:
    for dice in range(1, 13):
        assert float(at_least(power(die(6), dice)).max()) <= 1.0, dice
    assert at_least(power(die(6), 2))[:3].tolist() == [1.0, 1.0, 1.0]  # once 1.0000000000000002
    assert mean(power(die(6), 2)) == 7.0
    pmf = np.random.default_rng(5).random(40)
    pmf /= pmf.sum()
    products = (np.arange(40) * pmf).tolist()  # each an exact IEEE product
    assert mean(pmf) == float(sum(Fraction(p) for p in products))  # their sum, rounded once


ODDS = [
    ["odds", "aos", "--attacks", "20", "--hit", "4+", "--wound", "3+", "--rend", "-1",
     "--damage", "D3", "--save", "4+", "--reroll-hits", "ones", "--json"],
    ["odds", "openwar", "--models", "10", "--attacks", "3", "--melee", "1", "--armor", "4",
     "--json"],
    ["odds", "opr", "--models", "10", "--attacks", "2", "--quality", "4", "--target-quality",
     "5", "--poison", "--json"],
    ["odds", "oldworld", "--models", "10", "--ws", "4", "--target-ws", "3", "--strength", "4",
     "--toughness", "3", "--armour", "5+", "--json"],
    ["odds", "opr", "--models", "10", "--attacks", "2", "--quality", "4", "--target-quality",
     "5", "--deadly", "--tough", "3", "--target-models", "5", "--json"],  # packets (Deadly)
    ["odds", "aos", "--attacks", "8", "--hit", "3+", "--wound", "3+", "--damage", "D6",
     "--save", "6+", "--models-wounds", "4", "--allocation", "per-attack", "--mortal-on-6-hit",
     "1", "--json"],  # packets and loose mortal wounds in one attack
    ["odds", "opr", "--models", "5", "--weapon", "Heavy", "--impact", "1", "--armored",
     "--tough", "2", "--target-models", "8", "--json"],  # Impact's loose wounds added (OPR-A15)
]  # fmt: skip


@pytest.mark.parametrize("args", ODDS, ids=lambda args: args[1])
def test_the_odds_of_every_ruleset_never_reach_a_blas_sum(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refused(*_: Any, **__: Any) -> Any:
        raise AssertionError("a BLAS sum: its last bits depend on the machine")

    for name in ("convolve", "dot", "correlate", "inner", "vdot", "einsum"):
        monkeypatch.setattr(np, name, refused)
    assert main(args) == 0
    assert '"distribution"' in capsys.readouterr().out


# sha256 (first 16 hex digits) of each ODDS command's JSON as printed on 2026-11-28 (numpy
# 2.4.6; the same with numpy's AVX-512 and AVX2 kernels switched off by
# NPY_DISABLE_CPU_FEATURES): bits that move on another machine or another numpy are a broken
# promise of the odds, not noise. A deliberate change of the output records its new digest
# (2026-11-29: the opr profile's new "single_model": false; without that line, the bytes of
# 2026-11-28, fbe3ba790385fd3e and 036caea9e7cf234d; later that day its new "impact": 0,
# without which the bytes are those of before, ba2c4cf9c256c5ea and 689f56e173627684; the
# Impact line recorded then, the same with AVX2, FMA3 and AVX-512 switched off; 2026-12-06: the
# aos profile's new "extra_hits_on_6": 0, "mortal_on_6_wound": 0 and
# "mortal_wound_ends_sequence": false, without which the bytes are those of before,
# 9e18ebb593758f03 and 1fc048860d1d54e5: the distributions kept every bit; 2026-12-07: the
# opr and oldworld objects' new "rolls" text, without which the bytes are those of before,
# 9ebb9e107967ef6e, 52f5e8cfd60e5344, f3aa11145452e788 and 3740ad1413370bf0).
PINNED = ["05a479fc4e2708db", "31bea8b5c68cb80b", "02664e683c31fb6c", "986376f263d42d80",
          "dfc283c490e4893b", "7f938126053c1629", "6c3743973658cd42"]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "digest"),
    list(zip(ODDS, PINNED, strict=True)),
    ids=[f"{args[1]}-{i}" for i, args in enumerate(ODDS)],
)
def test_the_odds_json_is_the_bytes_recorded(
    args: list[str], digest: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import hashlib

    assert main(args) == 0
    printed = capsys.readouterr().out
    assert hashlib.sha256(printed.encode()).hexdigest()[:16] == digest, printed[:400]
