"""What a simulation plays, and one battle of it played and measured.

A :class:`SimulationPlan` holds the army files' text (not their paths), so a worker on another
machine, or a run resumed next week from the store, plays exactly the armies that were given.
The armies' ruleset (openwar or aos) picks the rules, as in ``openwar battle``.
Battle ``i`` is the battle ``openwar battle ARMY_A ARMY_B --seed SEED_i`` would play (with
``--battleplan FILE`` if the run had one): without a battleplan, each battle generates its own
from its seed, so a run covers many battlefields and any single battle can be replayed alone.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

from openwar.armies.files import parse_army
from openwar.armies.model import ArmyList
from openwar.armies.ready import first_problem, no_battles
from openwar.armies.validate import assess
from openwar.battleplans.files import plan_board
from openwar.battles import BattleSetup, fight_battle, plan_points
from openwar.engine.events import Event
from openwar.engine.game import rules_for
from openwar.engine.runner import BattleRecord
from openwar.engine.state import GameState
from openwar.errors import OpenWarError

SIDES = ("A", "B")


@dataclass(frozen=True)
class ArmyFile:
    """An army file as read when the run started: where it was, its text and its hash."""

    path: str
    text: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()

    @classmethod
    def read(cls, path: Path) -> ArmyFile:
        from openwar.rulesets.sources import read_text_file

        return cls(str(path), read_text_file(path))  # at most 1 MB, as `army validate` reads


@dataclass(frozen=True)
class SimulationPlan:
    """Everything that decides a run's results: armies, battleplan (or None), players, seed, n."""

    armies: tuple[ArmyFile, ArmyFile]
    battleplan: dict[str, Any] | None
    players: tuple[str, str]
    seed: int
    battles: int
    board_points: int | None = None  # the points generated battleplans are for (None: the
    # armies' larger limit); a sweep keeps its files' own while it raises their limits

    def army_lists(self) -> tuple[ArmyList, ArmyList]:
        """Parse and validate both armies; a bad one raises an error naming its file."""
        first, second = _army(self.armies[0]), _army(self.armies[1])
        if first.ruleset != second.ruleset:
            raise OpenWarError(
                f"{self.armies[1].path}: its army is for the {second.ruleset} ruleset and "
                f"cannot fight the {first.ruleset} army of {self.armies[0].path}"
            )
        return first, second

    @property
    def ruleset(self) -> str:
        return self.army_lists()[0].ruleset

    def describe_board(self) -> str:
        if self.battleplan is None:
            return "a battleplan generated for each battle from its seed"
        return f"{_plan_name(self.battleplan)} (the same for every battle)"


# what a unit's "points destroyed" counts, as the tables say it
DESTROYED_BY_UNIT = (
    "enemy points its attacks and spells slew, and its share of those that fled (aos: a "
    "battleshock test's, by the models it slew of that unit that turn; openwar: a routed "
    "unit's, a Shaken token's worth for each its Presence wins gave); models lost to terrain, "
    "twists or ruses are no unit's"
)


@dataclass(frozen=True)
class BattleResult:
    """How one battle of a run ended, measured per side (index 0 is A, 1 is B).

    ``points_lost`` counts each unit's points in proportion to its miniatures slain or fled;
    ``units_destroyed`` is, per unit, the enemy points it destroyed (:data:`DESTROYED_BY_UNIT`;
    each miniature its unit's points over its miniatures; ``Rules.kills``), empty in runs
    stored before it was measured.
    A battle the engine could not finish has ``error`` set and no outcome.
    """

    index: int
    seed: int
    winner: int | None = None
    victory: str = ""
    scores: tuple[int, int] = (0, 0)
    rounds: int = 0
    reason: str = ""
    battleplan: str = ""
    miniatures_lost: tuple[int, int] = (0, 0)
    points_lost: tuple[float, float] = (0.0, 0.0)
    units_lost: tuple[int, ...] = ()
    units_size: tuple[int, ...] = ()
    error: str | None = None
    condition: str = ""  # the battleplan's victory condition ("" for none): how scores count
    units_destroyed: tuple[float, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BattleResult:
        return cls(
            index=int(data["index"]),
            seed=int(data["seed"]),
            winner=None if data["winner"] is None else int(data["winner"]),
            victory=str(data["victory"]),
            scores=_pair(data["scores"]),
            rounds=int(data["rounds"]),
            reason=str(data["reason"]),
            battleplan=str(data["battleplan"]),
            miniatures_lost=_pair(data["miniatures_lost"]),
            points_lost=(float(data["points_lost"][0]), float(data["points_lost"][1])),
            units_lost=tuple(int(x) for x in data["units_lost"]),
            units_size=tuple(int(x) for x in data["units_size"]),
            error=data.get("error"),
            condition=str(data.get("condition", "")),
            units_destroyed=tuple(float(x) for x in data.get("units_destroyed", ())),
        )


def play_battles(plan: SimulationPlan, items: Sequence[tuple[int, int]]) -> list[BattleResult]:
    """Play battles ``(index, seed)`` of ``plan``; the function a worker runs.

    An engine failure in one battle is recorded in its result (with the seed to replay it) rather
    than stopping the whole run; the failure is deterministic, so results stay reproducible.
    """
    armies = plan.army_lists()
    ruleset = armies[0].ruleset
    board = None if plan.battleplan is None else plan_board(plan.battleplan, ruleset)
    results = []
    for index, seed in items:
        try:
            made = board or _generated(armies, seed, plan.board_points)
            setup = BattleSetup(ruleset, armies, made, seed)
            results.append(measure(index, seed, setup, fight_battle(setup, plan.players)))
        except Exception as exc:  # a bug in one battle must not lose the rest of the run
            results.append(BattleResult(index, seed, error=f"{type(exc).__name__}: {exc}"))
    return results


def measure(index: int, seed: int, setup: BattleSetup, record: BattleRecord) -> BattleResult:
    """The figures a simulation keeps from one played battle."""
    final = record.final
    count = len(final.units)
    size = np.bincount(final.unit_of, minlength=count)
    alive = np.bincount(final.unit_of[final.alive], minlength=count)
    lost = size - alive
    minis = [0, 0]
    points = [0.0, 0.0]
    for i, unit in enumerate(final.units):
        if unit.flags.get("reserve"):
            lost[i] = 0
            continue  # still waiting to arrive (OpenWar OW-R3): nothing lost
        minis[unit.side] += int(lost[i])
        if size[i]:
            points[unit.side] += unit.points * float(lost[i]) / float(size[i])
    events = list(chain(*record.events))
    for unit_id in _reinforced(final, events):  # destroyed once before coming back
        i = final.unit_index(unit_id)
        lost[i] = size[i]  # wiped out once, whatever it lost after it came back
        unit = final.units[i]
        minis[unit.side] += int(size[i])
        points[unit.side] += float(unit.points)
    destroyed = [0.0] * count
    for unit_id, target_id, models in rules_for(setup.ruleset).kills(events):
        target = final.unit_index(target_id)
        share = final.units[target].points * models / int(size[target])
        destroyed[final.unit_index(unit_id)] += share
    result = record.outcome
    return BattleResult(
        index=index,
        seed=seed,
        winner=result.winner,
        victory=result.victory,
        scores=(int(result.scores[0]), int(result.scores[1])),
        rounds=int(result.rounds),
        reason=result.reason,
        battleplan=str(setup.board.get("name", "")),
        miniatures_lost=(minis[0], minis[1]),
        points_lost=(round(points[0], 6), round(points[1], 6)),
        units_lost=tuple(int(x) for x in lost),
        units_size=tuple(int(x) for x in size),
        condition=str(setup.board.get("victory") or ""),
        units_destroyed=tuple(round(x, 6) for x in destroyed),
    )


def _reinforced(final: GameState, events: list[Event]) -> list[str]:
    """The units destroyed and set up again by the Reinforcements ruse: OpenWar's keeps them
    (OW-R2), Age of Sigmar's says so when it sets one up (AOS-R2)."""
    again = [
        str(e.data["unit"])
        for e in events
        if e.kind == "arrived" and e.data.get("how") == "reinforce"
    ]
    return list(dict.fromkeys([*final.extra.get("reinforced", []), *again]))


def _generated(
    armies: tuple[ArmyList, ArmyList], seed: int, points: int | None = None
) -> dict[str, Any]:
    """The battleplan ``load_setup`` generates for a battle without one (same points rule),
    or one for ``points`` when given."""
    if armies[0].ruleset == "aos":
        from openwar.rulesets.aos.board import generated_board
    else:
        from openwar.rulesets.openwar.board import generated_board

    return generated_board(points or plan_points(armies), seed)


@functools.lru_cache(maxsize=16)
def _army(file: ArmyFile) -> ArmyList:
    """Parse and validate once per process (a worker plays many chunks of the same armies)."""
    army = parse_army(file.text, file.path)
    refused = no_battles(file.path, army.ruleset)
    if refused:
        raise OpenWarError(refused)
    report = assess(army)
    if not report.valid:
        raise OpenWarError(first_problem(file.path, report))
    return army


def _plan_name(plan: dict[str, Any]) -> str:
    try:
        return f"{plan['map']['name']}: {plan['victory']['name']}"
    except (KeyError, TypeError):
        return "the given battleplan"


def _pair(values: Sequence[Any]) -> tuple[int, int]:
    return int(values[0]), int(values[1])
