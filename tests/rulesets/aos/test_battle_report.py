"""The round-by-round report of an Age of Sigmar battle adds up to what the events say."""

from __future__ import annotations

from pathlib import Path

from openwar.battles import fight_battle, load_setup
from openwar.rulesets.aos.report import report

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "armies" / "aos"


def test_aos_report_rounds_add_up_to_the_events() -> None:
    setup = load_setup((EXAMPLES / "gilded_vanguard.yaml", EXAMPLES / "ember_court.yaml"), None, 7)
    record = fight_battle(setup, ("simple", "simple"))
    rounds = report(record)
    assert [r.number for r in rounds] == list(range(1, record.final.round + 1))
    slain = sum(s.slain + s.lost for r in rounds for s in r.sides)
    assert slain == int(
        record.final.extra["slain_models"][0] + record.final.extra["slain_models"][1]
    )
    charges = sum(1 for events in record.events for e in events if e.kind == "charge")
    assert sum(s.charges for r in rounds for s in r.sides) == charges


def test_aos_report_names_the_slain_general_and_the_next() -> None:
    """It said "B: the general is slain" four times, naming neither (seed 7)."""
    from openwar.rulesets.aos.report import moments

    setup = load_setup((EXAMPLES / "gilded_vanguard.yaml", EXAMPLES / "ember_court.yaml"), None, 7)
    lines = moments(report(fight_battle(setup, ("simple", "simple"))))
    slain = [line for line in lines if "the general, is slain" in line]
    assert slain[0].endswith("B: High Magister, the general, is slain; Cinderwing leads")
    assert len(slain) == 4 and all("leads" in line for line in slain)
