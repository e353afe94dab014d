"""What a run's summary says of the armies."""

from __future__ import annotations

from pathlib import Path

from openwar.armies.files import load_army
from openwar.armies.validate import assess
from openwar.sim.summary import SideInfo

AOS = Path(__file__).resolve().parents[2] / "examples" / "armies" / "aos"


def test_an_armys_points_include_its_battalions() -> None:
    """The points a summary gives an army (and divides its points destroyed by) are the
    army's validated total, an Age of Sigmar battalion included, not only its units'."""
    army = load_army(AOS / "gilded_vanguard.yaml")
    info = SideInfo.of(army)
    assert info.points == assess(army).cost.total
    assert info.points > sum(points for _, points in info.units)  # the battalion's points
