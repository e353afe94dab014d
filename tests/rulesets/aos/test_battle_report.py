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
    assert len(slain) == 4 and all("leads" in line for line in slain[:3])
    # since fights go only at what a pile-in reaches (2026-12-06) this battle's last general falls
    assert slain[3].endswith("B: Court Spears, the general, is slain; no general left")


def test_aos_report_says_what_lightning_struck() -> None:
    """It said only "twist Lightning Strikes", once for each 6, naming no unit and no harm."""
    from openwar.rulesets.aos.report import moments

    setup = load_setup((EXAMPLES / "gilded_vanguard.yaml", EXAMPLES / "ember_court.yaml"), None, 7)
    record = fight_battle(setup, ("simple", "simple"))
    lines = moments(report(record))
    strikes = [
        e.data
        for events in record.events
        for e in events
        if e.kind == "wounds" and e.data.get("source") == "Lightning Strikes"
    ]
    struck = [line for line in lines if "lightning strikes" in line]
    assert len(struck) == len(strikes) > 1 and not any("twist" in line for line in lines)
    assert struck[0] == "round 1: lightning strikes Cinderwing for 3 wounds: 0 slain"
