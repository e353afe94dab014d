"""What a run's summary says of the armies."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from openwar.armies.files import load_army
from openwar.armies.validate import assess
from openwar.sim.plan import BattleResult
from openwar.sim.report import print_summary
from openwar.sim.summary import SideInfo, summarise

from .conftest import small_plan

AOS = Path(__file__).resolve().parents[2] / "examples" / "armies" / "aos"


def test_an_armys_points_include_its_battalions() -> None:
    """The points a summary gives an army (and divides its points destroyed by) are the
    army's validated total, an Age of Sigmar battalion included, not only its units'."""
    army = load_army(AOS / "gilded_vanguard.yaml")
    info = SideInfo.of(army)
    assert info.points == assess(army).cost.total
    assert info.points > sum(points for _, points in info.units)  # the battalion's points


def test_scores_are_summarised_per_victory_condition() -> None:
    """Conditions score different things (objectives, points), so a run over several shows
    each condition's outcomes and mean scores, and the per-side table leaves the mixed
    score out; a run over one condition keeps it."""
    results = [
        BattleResult(0, 1, 0, "minor", (3, 2), 5, condition="Loot and Plunder"),
        BattleResult(1, 2, None, "draw", (3, 3), 5, condition="Loot and Plunder"),
        BattleResult(2, 3, 1, "minor", (120, 400), 5, condition="War of Attrition"),
    ]
    side = SideInfo("Side", 100, ())
    summary = summarise(small_plan(battles=3), (side, side), results)
    loot, attrition = (
        summary["conditions"]["Loot and Plunder"],
        summary["conditions"]["War of Attrition"],
    )
    assert (loot["battles"], loot["A wins"]["count"], loot["draws"]["count"]) == (2, 1, 1)
    assert loot["scores"]["A"]["mean"] == 3.0 and attrition["scores"]["B"]["mean"] == 400.0
    out = io.StringIO()
    print_summary(Console(file=out, width=200), summary)
    text = out.getvalue()
    assert "By victory condition" in text and "War of Attrition" in text
    assert "score" not in text.split("Per side")[1].split("By victory condition")[0]
    one = summarise(small_plan(battles=2), (side, side), results[:2])
    out = io.StringIO()
    print_summary(Console(file=out, width=200), one)
    assert "By victory condition" not in out.getvalue() and "score" in out.getvalue()
