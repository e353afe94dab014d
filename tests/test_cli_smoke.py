"""The console script's first contract: the issue's example prints the exact distribution."""

from __future__ import annotations

import json

import pytest

from openwar.cli.app import main


def test_aos_example_prints_exact_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    argv = "odds aos --attacks 20 --hit 4+ --wound 3+ --rend -1 --damage D3 --save 4+"
    assert main([*argv.split(), "--reroll-hits", "ones", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ruleset"] == "aos"
    assert data["mean"] == pytest.approx(280 / 27, abs=1e-12)
    assert sum(data["distribution"]) == pytest.approx(1.0, abs=1e-12)
