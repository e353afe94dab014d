"""Small armies (three units a side) so a test battle takes a fraction of a second."""

from __future__ import annotations

from pathlib import Path

import pytest

from openwar.sim.plan import ArmyFile, SimulationPlan

DATA = Path(__file__).parent / "data"
ARMY_A = DATA / "small_legion.yaml"
ARMY_B = DATA / "small_lodge.yaml"


def small_plan(
    battles: int = 4, players: tuple[str, str] = ("random", "random"), seed: int = 5
) -> SimulationPlan:
    return SimulationPlan(
        (ArmyFile.read(ARMY_A), ArmyFile.read(ARMY_B)), None, players, seed, battles
    )


@pytest.fixture
def store_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh store, also as $OPENWAR_STORE so no test writes to the user's data folder."""
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("OPENWAR_STORE", str(path))
    return path
