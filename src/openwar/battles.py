"""Battles from files: armies and a battleplan in, a played battle, its summary and replay out.

This is the layer the CLI (and later the simulator and the web page) call; it picks the
ruleset's set-up, players and summary.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from openwar import __version__
from openwar.armies.model import ArmyList
from openwar.battleplans.files import MOST_TABLE
from openwar.engine.actions import Action
from openwar.engine.errors import IllegalActionError
from openwar.engine.events import Event
from openwar.engine.game import BATTLE_MODULES, rules_for
from openwar.engine.players import Player, RandomPlayer
from openwar.engine.runner import BattleRecord, play, replay_actions
from openwar.engine.state import GameState
from openwar.errors import OpenWarError, plain_words
from openwar.outputs import write_text
from openwar.rulesets.problems import validate_strictly
from openwar.rulesets.sources import YamlReadError, json_problem, read_text_file
from openwar.sim.seeds import MAX_SEED

PLAYERS = ("random", "simple", "heuristic", "search")
SEARCH_BUDGETS = range(1, 101)  # search:N, rollouts per candidate and halving round
PLAYERS_HELP = "random, simple, heuristic, search or search:N (N rollouts per try, default 3)"
PLAYERS_OPTION_HELP = (
    f"Players of A and B, such as heuristic,random (one name plays both): {PLAYERS_HELP}."
)
REPLAY_FORMAT = "openwar-replay/1"


@dataclass(frozen=True)
class BattleSetup:
    """What decides a battle before anyone acts: both armies, the board and the seed."""

    ruleset: str
    armies: tuple[ArmyList, ArmyList]
    board: dict[str, Any]
    seed: int


def load_setup(
    army_files: tuple[Path, Path],
    board: dict[str, Any] | None,
    seed: int,
    points: int | None = None,
) -> BattleSetup:
    """Read both armies; without a board, generate an Open War battleplan from the seed. The
    first army file's ruleset picks the rules (both must share it)."""
    from openwar.armies.files import load_army

    ruleset = load_army(army_files[0]).ruleset
    if ruleset == "aos":
        from openwar.rulesets.aos.board import generated_board
        from openwar.rulesets.aos.forces import load_force
    else:
        from openwar.rulesets.openwar.board import generated_board
        from openwar.rulesets.openwar.forces import load_force  # type: ignore[assignment]

    first, _ = load_force(army_files[0], "a")
    second, _ = load_force(army_files[1], "b")
    if board is None:
        board = generated_board(points or plan_points((first, second)), seed)
    return BattleSetup(ruleset, (first, second), board, seed)


def plan_points(armies: Sequence[Any]) -> int:
    """The points a battle's generated battleplan is for: the larger of the armies' limits,
    1000 when neither has one (its table and terrain follow them, BP.1).

    >>> from types import SimpleNamespace as Army
    >>> plan_points([Army(points_limit=750), Army(points_limit=None)])
    750
    """
    return max((army.points_limit or 0 for army in armies), default=0) or 1000


def last_round(setup: BattleSetup) -> int:
    """The round the battle ends after at the latest: its board's, else its rules' (read as
    the engine reads it)."""
    if setup.ruleset == "aos":
        from openwar.rulesets.aos.rules import battle_rules
    else:
        from openwar.rulesets.openwar.rules import battle_rules  # type: ignore[assignment]
    return int(setup.board.get("rounds", battle_rules().rounds))


def start(setup: BattleSetup) -> tuple[GameState, list[Event]]:
    """The initial state (before set-up) of a battle."""
    if setup.ruleset == "aos":
        from openwar.rulesets.aos.forces import force_units as aos_units
        from openwar.rulesets.aos.setup import new_battle as aos_battle

        sides = (aos_units(setup.armies[0], "a"), aos_units(setup.armies[1], "b"))
        return aos_battle(sides, setup.board, setup.seed)
    from openwar.armies.validate import assess
    from openwar.rulesets.openwar.forces import force_units
    from openwar.rulesets.openwar.setup import new_battle

    forces = []
    for prefix, army in zip(("a", "b"), setup.armies, strict=True):
        costs = {cost.unit: cost.total for cost in assess(army).cost.units}
        forces.append(force_units(army, prefix, costs))
    return new_battle((forces[0], forces[1]), setup.board, setup.seed)


def player_kind(name: str) -> tuple[str, int | None]:
    """A player's name as (kind, search budget): ``"search:6"`` -> ("search", 6), the search
    with six rollouts per candidate in each halving round (twice the default's budget and
    about twice its thinking time); any other known name has no budget.

    >>> player_kind("search:6"), player_kind("heuristic")
    (('search', 6), ('heuristic', None))
    """
    kind, colon, budget = name.partition(":")
    if kind not in PLAYERS or (colon and kind != "search"):
        raise OpenWarError(f"unknown player {name!r} (expected one of: {PLAYERS_HELP})")
    if not colon:
        return kind, None
    if not re.fullmatch(r"[0-9]{1,3}", budget) or int(budget) not in SEARCH_BUDGETS:
        raise OpenWarError(
            f"player {name!r}: the search's budget is a whole number of rollouts from "
            f"{SEARCH_BUDGETS.start} to {SEARCH_BUDGETS.stop - 1}, such as search:6"
        )
    return kind, int(budget)


def read_players(text: str, option: str = "--players") -> tuple[str, str]:
    """``"search:06,Heuristic"`` -> ("search:6", "heuristic"), each name as
    :func:`player_kind` reads it (so one player has one name in runs and replays); one name
    plays both sides. ``option`` is the command-line option the text came from, for errors."""
    names = [p.strip().lower() for p in text.split(",")]  # SIMPLE is simple, as options are
    if len(names) == 1:
        names *= 2
    if len(names) != 2:
        raise OpenWarError(
            f"{option} {text!r}: expected two players such as simple,random, or one for both"
        )
    found = []
    for name in names:
        try:
            kind, budget = player_kind(name)
        except OpenWarError as exc:
            raise OpenWarError(f"{option}: {exc}") from None
        found.append(kind if budget is None else f"{kind}:{budget}")
    return found[0], found[1]


def make_players(
    names: tuple[str, str], seed: int, ruleset: str = "openwar"
) -> tuple[Player, Player]:
    from openwar.ai import HeuristicPlayer, SearchPlayer

    streams = np.random.SeedSequence(seed).spawn(2)
    made: list[Player] = []
    for name, stream in zip(names, streams, strict=True):
        kind, budget = player_kind(name)
        if kind == "random":
            made.append(RandomPlayer(stream))
        elif kind == "simple":
            made.append(_simple_player(ruleset, stream))
        elif kind == "heuristic":
            made.append(HeuristicPlayer(stream))
        elif budget is None:
            made.append(SearchPlayer(stream))
        else:
            made.append(SearchPlayer(stream, rollouts=budget))
    return made[0], made[1]


def _simple_player(ruleset: str, stream: np.random.SeedSequence) -> Player:
    if ruleset == "aos":
        from openwar.rulesets.aos.players import SimplePlayer as AosSimplePlayer

        return AosSimplePlayer(stream)
    from openwar.rulesets.openwar.players import SimplePlayer

    return SimplePlayer(stream)


def fight_battle(
    setup: BattleSetup,
    players: tuple[str, str],
    keep_rounds: bool = False,
    on_action: Callable[[GameState], None] | None = None,
) -> BattleRecord:
    state, events = start(setup)
    chosen = make_players(players, setup.seed, setup.ruleset)
    return play(state, chosen, events, keep_rounds, on_action)


def replay_json(
    setup: BattleSetup, players: tuple[str, str], record: BattleRecord
) -> dict[str, Any]:
    rules = rules_for(setup.ruleset)
    return {
        "format": REPLAY_FORMAT,
        "engine_version": __version__,
        "ruleset": setup.ruleset,
        "ruleset_version": rules.version,
        "armies": [army.model_dump(mode="json") for army in setup.armies],
        "battleplan": setup.board,
        "seed": setup.seed,
        "players": list(players),
        "actions": [a.to_json() for a in record.actions],
        "final_state_hash": record.final.state_hash(),
    }


def save_replay(path: Path, data: dict[str, Any]) -> None:
    """Write the replay atomically: a file is either whole or not there."""
    write_text(path, json.dumps(data, indent=1) + "\n", "--replay")


class ReplayError(OpenWarError):
    """A replay file cannot be read, or does not reproduce its recorded result."""


MAX_REPLAY_BYTES = 50_000_000


def load_replay(path: Path) -> tuple[BattleSetup, list[Action], str, tuple[str, str]]:
    """Read a replay file; anything in it that could not have been written by ``battle
    --replay`` (an unknown ruleset, an invalid army, a seed or player that is not one, an
    action that is not a mapping) is one line naming the file and the field."""
    try:
        data = json.loads(read_text_file(path, MAX_REPLAY_BYTES))
    except YamlReadError as exc:  # it names the file: cannot be read, too large, not UTF-8
        raise ReplayError(str(exc)) from exc
    except json.JSONDecodeError as exc:  # said as people say it, not as the parser does
        text = f"{path}, {json_problem(exc)}; a replay is written by battle --replay"
        raise ReplayError(text) from None
    except ValueError as exc:
        raise ReplayError(f"{path}: not a readable replay ({exc})") from exc
    except RecursionError:
        raise ReplayError(f"{path}: not a readable replay (nested too deeply)") from None
    if not isinstance(data, dict) or data.get("format") != REPLAY_FORMAT:
        raise ReplayError(f"{path}: not an OpenWar replay (format {REPLAY_FORMAT!r} expected)")
    try:
        ruleset, seed = data["ruleset"], data["seed"]
        if ruleset not in BATTLE_MODULES:
            raise ValueError(f"ruleset {ruleset!r} plays no battles")
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed {seed!r} is not a whole number from 0 to 2**63-1")
        armies = tuple(_replay_army(a, k, ruleset) for k, a in enumerate(data["armies"]))
        if len(armies) != 2 or not isinstance(data["battleplan"], dict):
            raise ValueError("expected two armies and a battleplan mapping")
        for edge in ("width", "depth"):
            size = data["battleplan"].get(edge)
            if not (
                isinstance(size, int | float)
                and not isinstance(size, bool)
                and 0 < size <= MOST_TABLE
            ):
                raise ValueError(f"battleplan.{edge} {size!r} is not a table size above 0 "
                                 f"and at most {MOST_TABLE:,}")  # fmt: skip
        setup = BattleSetup(ruleset, (armies[0], armies[1]), data["battleplan"], seed)
        actions = [_replay_action(a, number) for number, a in enumerate(data["actions"], 1)]
        if not isinstance(data["players"], list) or len(data["players"]) != 2:
            raise ValueError(f"players {data['players']!r}: expected the two players' names")
        players = (str(data["players"][0]), str(data["players"][1]))
        for name in players:
            player_kind(name)
        return setup, actions, str(data["final_state_hash"]), players
    except OpenWarError as exc:
        raise ReplayError(f"{path}: malformed replay ({exc})") from exc
    except KeyError as exc:
        raise ReplayError(f"{path}: malformed replay (the field {exc} is missing)") from exc
    except (TypeError, ValueError, IndexError, AttributeError) as exc:
        raise ReplayError(f"{path}: malformed replay ({exc})") from exc


def _replay_action(data: Any, number: int) -> Action:
    """Action ``number`` of a replay, as ``battle --replay`` wrote it: an object with a kind,
    a side and, if any, a point of two numbers."""
    if not isinstance(data, dict):
        raise ValueError(f"action {number}: {repr(data)[:40]} is not an action object")
    point = data.get("point")
    if point is not None and not (
        isinstance(point, list)
        and len(point) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in point)
    ):
        raise ValueError(f"action {number}: point {str(point)[:40]} is not two numbers")
    try:
        action = Action.from_json(data)
    except KeyError as exc:
        raise ValueError(f"action {number}: the field {exc} is missing") from None
    except (TypeError, ValueError) as exc:
        raise ValueError(f"action {number}: {exc}") from None
    if action.point is not None and not all(abs(v) < 1e6 for v in action.point):
        raise ValueError(f"action {number}: point {action.point} is off any table")
    return action


def _replay_army(data: Any, index: int, ruleset: str) -> ArmyList:
    """Army ``index`` of a replay, valid for ``ruleset`` (as ``battle`` checked it)."""
    from openwar.armies.validate import assess

    try:
        army = validate_strictly(ArmyList, data)  # as an army file is read
    except ValidationError as exc:
        first = exc.errors()[0]
        where = "".join(f".{p}" for p in first["loc"])
        raise ValueError(f"armies[{index}]{where}: {plain_words(first['msg'])}") from None
    if army.ruleset != ruleset:
        raise ValueError(f"armies[{index}]: an army of ruleset {army.ruleset!r}, not {ruleset!r}")
    report = assess(army)
    if not report.valid:
        raise ValueError(f"armies[{index}]: {report.problems[0]}")  # with its unit and clause
    return army


def version_note(path: Path) -> str:
    """For a replay that :func:`replay` has verified: a note when another version of OpenWar
    or of its ruleset wrote it (it still ends in the recorded state), else ""."""
    data = json.loads(read_text_file(path, MAX_REPLAY_BYTES))
    ruleset = str(data["ruleset"])
    now = (__version__, rules_for(ruleset).version)
    then = (data.get("engine_version"), data.get("ruleset_version"))
    if then == now:
        return ""
    written = f"OpenWar {then[0]} ({ruleset} rules {then[1]})"
    if None in then:  # a replay that names no versions (battle --replay always writes them)
        written = "a version of OpenWar the file does not name"
    current = f"OpenWar {now[0]} ({ruleset} rules {now[1]})"
    return f"written by {written}, replayed by {current}: it still ends in the recorded state"


def replay(
    path: Path, keep_rounds: bool = False
) -> tuple[BattleSetup, BattleRecord, tuple[str, str]]:
    """Replay a file and check it ends in the recorded state (with ``keep_rounds``, keeping
    the state at the end of every round, as :func:`openwar.engine.runner.play` does)."""
    setup, actions, expected, players = load_replay(path)
    try:
        state, events = start(setup)
        record = replay_actions(state, actions, keep_rounds)
    except IllegalActionError as exc:
        raise ReplayError(
            f"{path}: the replay goes off course, a recorded action is refused ({exc}): the "
            "file was changed, or written by another version of OpenWar"
        ) from exc
    except OpenWarError:
        raise
    except Exception as exc:  # a battleplan field no battle was set up with
        raise ReplayError(
            f"{path}: the replay cannot be played ({type(exc).__name__}: {exc}): its battleplan "
            "was changed, or written by another version of OpenWar"
        ) from exc
    record.setup_events = events
    if record.final.state_hash() != expected:
        raise ReplayError(f"{path}: the replay ends in a different state than recorded")
    return setup, record, players
