"""Who slew whom: each ruleset's ``kills`` and the per-unit points slain a simulation keeps."""

from __future__ import annotations

import io
import json
from collections import Counter, defaultdict
from dataclasses import replace
from itertools import chain
from pathlib import Path

import pytest
from rich.console import Console

from openwar.battles import fight_battle, load_setup
from openwar.engine.events import Event
from openwar.engine.game import rules_for
from openwar.sim.plan import BattleResult, measure
from openwar.sim.report import print_summary
from openwar.sim.summary import SideInfo, summarise

from .conftest import small_plan

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "armies"
ARMIES = {
    "aos": ("aos/ember_court.yaml", "aos/gilded_vanguard.yaml"),
    "openwar": ("openwar/iron_road_legion.yaml", "openwar/hearthhold_lodge.yaml"),
}


def wounds(unit: str, slain: int, source: str = "attack", by: int | None = 0) -> Event:
    data = {"unit": unit, "wounds": 3, "negated": 0, "slain": slain, "source": source, "by": by}
    return Event("wounds", data)


def test_an_aos_kill_is_the_last_attack_or_spell_at_the_wounded_unit() -> None:
    """In the order the engine tells them: a split attack's wounds each their own target's,
    allocated in the order attacked; an attack whose wounds the defender allocates in a later
    action (AOS-D10) still its attacker's, not an earlier attacker's of the same unit; a
    spell's its caster's; lightning and terrain no unit's. The models that flee a battleshock
    test are shared among the causes of the unit's slain that turn (AOS-L1), the lightning's
    share no unit's, the turn before's not counted."""
    events = [
        Event("attack", {"unit": "a4", "target": "b1", "damage": 3}),  # the turn before
        wounds("b1", 3),
        Event("turn", {"round": 2, "side": 0}),
        # one action: a1's split attack (AOS-F3), both targets allocated at once
        Event("attack", {"unit": "a1", "target": "b1", "damage": 4}),
        Event("attack", {"unit": "a1", "target": "b1", "damage": 4}),
        Event("attack", {"unit": "a1", "target": "b2", "damage": 1}),
        wounds("b1", 1),
        wounds("b2", 1),
        # an action: a2 attacks b1 and its defender is to choose how to allocate (pending)
        Event("attack", {"unit": "a2", "target": "b1", "damage": 2}),
        # the next action: the defender's allocation
        wounds("b1", 2),
        Event("spell", {"spell": "Arcane Bolt", "target": "b1", "caster": "a3"}),
        wounds("b1", 1, source="Arcane Bolt"),
        wounds("b1", 1, source="Lightning Strikes"),
        wounds("a1", 1, source="Deadly", by=None),
        Event("battleshock", {"unit": "b1", "roll": 6, "slain": 5, "fled": 2}),
        wounds("b2", 0),  # nothing slain: no kill
    ]
    assert list(rules_for("aos").kills(events)) == [
        ("a4", "b1", 3),
        ("a1", "b1", 1),
        ("a1", "b2", 1),
        ("a2", "b1", 2),
        ("a3", "b1", 1),
        ("a1", "b1", 2 * 1 / 5),  # b1's 5 slain this turn: a1 1, a2 2, a3 1, lightning 1
        ("a2", "b1", 2 * 2 / 5),
        ("a3", "b1", 2 * 1 / 5),
    ]


def test_an_openwar_kill_is_its_attacks_slain_and_its_share_of_the_units_it_routed() -> None:
    """A unit routed by its third Shaken token (OW-B9) is shared among the Presence wins that
    gave its tokens, a token each (OW-A5); a token the Realmvault Key gave (OW-P4) is no
    unit's, one it took off is the oldest; a win under Inspiring Speech gave none (OW-R6); a
    unit set up again by Reinforcements comes back with none."""

    def beats(unit: str, target: str, **more: object) -> Event:
        return Event("presence", {"unit": unit, "target": target, "beaten": True, **more})

    events = [
        Event("attack", {"unit": "a", "target": "b", "slain": 2, "ranged": True}),
        Event("attack", {"unit": "b", "target": "a", "slain": 0, "ranged": False}),
        Event("struck", {"unit": "b", "rolled": 2, "slain": 1}),  # lightning (OW-X3)
        beats("a", "b"),
        beats("c", "b"),
        beats("a", "b", no_shaken=True),
        beats("a", "b"),
        Event("routed", {"unit": "b", "miniatures": 9}),
        beats("a", "d"),
        Event("prize_effect", {"result": "Realmvault Key", "side": 1, "calmed": "d"}),
        beats("c", "d"),
        beats("e", "d"),
        Event("prize_effect", {"result": "Realmvault Key", "side": 1, "shaken": "d"}),
        Event("routed", {"unit": "d", "miniatures": 3}),
        Event("presence", {"unit": "d", "target": "a", "beaten": False}),
        beats("a", "f"),  # f is wiped out holding a's token, then set up again (OW-R2)
        Event("ruse", {"ruse": "Reinforcements", "side": 1, "unit": "f"}),
        *(beats("c", "f") for _ in range(3)),
        Event("routed", {"unit": "f", "miniatures": 10}),
    ]
    assert list(rules_for("openwar").kills(events)) == [
        ("a", "b", 2),
        ("a", "b", 6.0),
        ("c", "b", 3.0),
        ("c", "d", 1.0),
        ("e", "d", 1.0),
        ("c", "f", 10.0),
    ]


@pytest.mark.parametrize(
    ("ruleset", "seed"), [("aos", 7), ("aos", 8), ("openwar", 8), ("openwar", 10)]
)
def test_a_battles_kills_account_for_every_model_slain_by_a_unit(ruleset: str, seed: int) -> None:
    """In played battles: every model slain by an attack or a spell is some enemy unit's
    kill (checked against the side the wounds name, in AoS), and in OpenWar every unit routed
    by a Presence roll is the roller's; no unit is credited more models
    of a target than the target lost, and a side's units slew no more points than the other
    side lost, models that came back included (the rest fled, or fell to terrain, twists
    and ruses)."""
    a, b = (EXAMPLES / name for name in ARMIES[ruleset])
    setup = load_setup((a, b), None, seed)
    record = fight_battle(setup, ("heuristic", "heuristic"))
    events = list(chain(*record.events))
    kills = list(rules_for(ruleset).kills(events))
    final = record.final
    side = {u.id: u.side for u in final.units}
    assert kills and all(side[unit] != side[target] for unit, target, _ in kills)
    if ruleset == "aos":
        spells = {str(e.data["spell"]) for e in events if e.kind == "spell"}
        by_unit = [
            e
            for e in events
            if e.kind == "wounds" and e.data["slain"] and e.data["source"] in {"attack", *spells}
        ]
        assert all(e.data["by"] == 1 - side[str(e.data["unit"])] for e in by_unit)
        # the fled shared by this turn's slain, over the engine's own count of them
        fled = 0.0
        ours: Counter[str] = Counter()
        for e in events:
            if e.kind == "turn":
                ours.clear()
            elif e in by_unit:
                ours[str(e.data["unit"])] += int(e.data["slain"])
            elif e.kind == "battleshock" and e.data.get("fled"):
                fled += e.data["fled"] * ours[str(e.data["unit"])] / e.data["slain"]
        assert fled or seed != 8  # this battle has a unit flee
        slain = sum(int(e.data["slain"]) for e in by_unit)
        assert sum(n for *_, n in kills) == pytest.approx(slain + fled)
    else:  # every attack's slain, and every rout (no Arcane Prize token in these battles)
        assert not any(e.kind == "prize_effect" for e in events)
        slain = sum(int(e.data["slain"]) for e in events if e.kind == "attack")
        routs = [int(e.data["miniatures"]) for e in events if e.kind == "routed"]
        assert routs  # these battles have routs to share
        assert sum(n for *_, n in kills) == pytest.approx(slain + sum(routs))
    lost: dict[str, float] = defaultdict(float)
    for _, target, models in kills:
        lost[target] += models
    back = set(final.extra.get("reinforced", []))  # OW-R2, AOS-R2: slain once, then again
    back |= {e.data["unit"] for e in events if e.kind == "arrived" and e.data["how"] == "reinforce"}
    returned = Counter[str]()  # AoS: slain models some units bring back
    for e in events:
        if e.kind == "returned":
            returned[str(e.data["unit"])] += int(e.data["models"])
    for target, credited in lost.items():
        everyone, alive = final.members(target, alive=False), final.members(target)
        dead = len(everyone) - len(alive) + returned[target]
        assert credited <= (2 * len(everyone) if target in back else dead) + 1e-9
    result = measure(0, seed, setup, record)
    assert len(result.units_destroyed) == len(final.units)
    came_back = [0.0, 0.0]  # the points of the models that returned, lost before they did
    for unit in final.units:
        came_back[unit.side] += (
            unit.points * returned[unit.id] / len(final.members(unit.id, alive=False))
        )
    for s in (0, 1):
        slew = sum(
            x for x, u in zip(result.units_destroyed, final.units, strict=True) if u.side == s
        )
        assert 0 < slew <= result.points_lost[1 - s] + came_back[1 - s] + 1e-6


def test_an_aos_unit_set_up_again_by_reinforcements_counts_lost_once_whole() -> None:
    """AOS-R2 as OW-R2: a unit destroyed and set up again has been lost once whole, whatever
    it lost after it came back (it counted only what it lost after, until 2026-12-07)."""
    a, b = (EXAMPLES / name for name in ("aos/gilded_vanguard.yaml", "aos/ember_court.yaml"))
    setup = load_setup((a, b), None, 7)
    record = fight_battle(setup, ("simple", "simple"))
    again = [
        e.data["unit"] for e in chain(*record.events)
        if e.kind == "arrived" and e.data["how"] == "reinforce"
    ]  # fmt: skip
    assert len(again) == 1  # this battle's Thunder Battery (side B's Reinforcements)
    final = record.final
    k = final.unit_index(again[0])
    result = measure(0, 7, setup, record)
    assert len(final.members(again[0])) == result.units_size[k]  # whole on the table at the end
    assert result.units_lost[k] == result.units_size[k]
    lost = sum(
        u.points * n / size
        for u, n, size in zip(final.units, result.units_lost, result.units_size, strict=True)
        if u.side == 1
    )
    assert result.points_lost[1] == pytest.approx(lost)


def test_the_units_table_gives_points_destroyed_per_battle_and_per_point() -> None:
    """Each unit's mean enemy points destroyed a battle and that over its own points, with
    the 95% interval of the mean (mean +- 1.96 sd / sqrt(n)); a unit of no points has no
    ratio; a run stored before kills were measured (no ``units_destroyed``) shows the table
    without them."""
    results = [
        BattleResult(0, 1, 0, "minor", (3, 2), 5, units_lost=(1, 2, 0), units_size=(5, 5, 1),
                     units_destroyed=(40.0, 10.0, 5.0)),
        BattleResult(1, 2, 1, "minor", (2, 3), 5, units_lost=(0, 5, 1), units_size=(5, 5, 1),
                     units_destroyed=(80.0, 0.0, 0.0)),
        BattleResult(2, 3, 1, "minor", (2, 3), 5, units_lost=(0, 5, 1), units_size=(5, 5, 1),
                     units_destroyed=(60.0, 5.0, 0.0)),
    ]  # fmt: skip
    sides = (
        SideInfo("A army", 200, (("Spears", 200),)),
        SideInfo("B army", 50, (("Bows", 50), ("Banner", 0))),
    )
    summary = summarise(small_plan(battles=3), sides, results)
    spears, bows, banner = summary["units"]
    half = 4.302653 * 0.1 / 3**0.5  # Student's t, 2 degrees of freedom; sd of (.2, .4, .3)
    assert spears["points_destroyed"]["mean"] == 60.0
    assert spears["destroyed_per_point"]["mean"] == 0.3
    interval = spears["destroyed_per_point"]["ci95"]
    assert interval == pytest.approx([0.3 - half, 0.3 + half], abs=1e-5)
    assert bows["points_destroyed"]["mean"] == 5.0 and bows["destroyed_per_point"]["mean"] == 0.1
    assert bows["destroyed_per_point"]["ci95"][0] == 0.0  # 0.1 - 0.248: none destroy less
    assert banner["points_destroyed"]["mean"] == pytest.approx(5 / 3, abs=1e-6)
    assert banner["destroyed_per_point"] is None  # a unit of no points
    out = io.StringIO()
    print_summary(Console(file=out, width=200), summary)
    text = out.getvalue()
    assert "destroyed/pt" in text and "0.30 (0.05-0.55)" in text and "60.0" in text
    one = summarise(small_plan(battles=1), sides, results[:1])  # no spread to measure
    assert one["units"][0]["destroyed_per_point"] == {"mean": 0.2, "ci95": None}
    older = [replace(r, units_destroyed=()) for r in results]
    summary = summarise(small_plan(battles=3), sides, older)
    assert "points_destroyed" not in summary["units"][0]
    out = io.StringIO()
    print_summary(Console(file=out, width=200), summary)
    assert "pts destroyed" not in out.getvalue() and "wiped out" in out.getvalue()


@pytest.mark.parametrize("ruleset", ["aos", "openwar"])
def test_a_battle_report_gives_each_units_losses_and_points_destroyed(
    ruleset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`openwar battle` ends with each unit's miniatures lost and enemy points slain (its
    `--json` under `units`), the figures a simulation keeps of the same battle."""
    from openwar.cli.app import main

    a, b = (str(EXAMPLES / name) for name in ARMIES[ruleset])
    assert main(["battle", a, b, "--seed", "7", "--players", "heuristic", "--json"]) == 0
    units = json.loads(capsys.readouterr().out)["units"]
    setup = load_setup((Path(a), Path(b)), None, 7)
    kept = measure(0, 7, setup, fight_battle(setup, ("heuristic", "heuristic")))
    assert [u["lost"] for u in units] == list(kept.units_lost)
    assert [u["points_destroyed"] for u in units] == list(kept.units_destroyed)
    assert [u["side"] for u in units] == sorted(u["side"] for u in units)  # A's, then B's
    assert any(u["points_destroyed"] for u in units if u["side"] == "A")
    assert any(u["points_destroyed"] for u in units if u["side"] == "B")
    assert main(["battle", a, b, "--seed", "7", "--players", "heuristic"]) == 0
    out = capsys.readouterr().out
    units_table = out.split("Units")[1].split("Result:")[0]
    assert "pts destroyed" in units_table and f"{units[0]['lost']}/{units[0]['miniatures']}" in out
