"""Every test's results store is a file of its own: no test writes to the user's data folder
(``openwar simulate`` and ``openwar sweep`` record what they play)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENWAR_STORE", str(tmp_path / "runs.sqlite3"))
