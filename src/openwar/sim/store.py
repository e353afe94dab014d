"""The results store: every simulation run in one SQLite file.

A run keeps its inputs (both army files' text and sha256, the battleplan, players, seed, number
of battles, code version), one row per finished battle (committed as each finishes, so an
interrupted run loses nothing it has played) and, once complete, its summary.

A sweep (:mod:`openwar.sim.sweep`) is kept as one run per value, all recorded at once; each
run's ``sweep`` column says which sweep it belongs to (the sweep's id is its first run's), its
value, the points its battleplans are generated for, and what the sweep varies in which files.
"""

from __future__ import annotations

import csv
import functools
import json
import os
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO, TypeVar

from openwar.errors import OpenWarError
from openwar.outputs import write_whole
from openwar.sim.locks import being_played
from openwar.sim.plan import ArmyFile, BattleResult, SimulationPlan
from openwar.sim.seeds import MAX_BATTLES

ENV_STORE = "OPENWAR_STORE"
STORE_FILE = "runs.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL,
    battles INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    players TEXT NOT NULL,
    battleplan TEXT,
    army_a_path TEXT NOT NULL, army_a_text TEXT NOT NULL, army_a_sha256 TEXT NOT NULL,
    army_b_path TEXT NOT NULL, army_b_text TEXT NOT NULL, army_b_sha256 TEXT NOT NULL,
    army_a_name TEXT NOT NULL, army_b_name TEXT NOT NULL,
    code_version TEXT NOT NULL,
    summary TEXT,
    sweep TEXT
);
CREATE TABLE IF NOT EXISTS battles (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    winner INTEGER,
    victory TEXT NOT NULL,
    score_a INTEGER NOT NULL, score_b INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    reason TEXT NOT NULL,
    battleplan TEXT NOT NULL,
    miniatures_lost_a INTEGER NOT NULL, miniatures_lost_b INTEGER NOT NULL,
    points_lost_a REAL NOT NULL, points_lost_b REAL NOT NULL,
    units_lost TEXT NOT NULL,
    units_size TEXT NOT NULL,
    error TEXT,
    condition TEXT NOT NULL DEFAULT '',
    units_destroyed TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (run_id, idx)
);
"""

BATTLE_COLUMNS = (
    "idx",
    "seed",
    "winner",
    "victory",
    "score_a",
    "score_b",
    "rounds",
    "reason",
    "battleplan",
    "miniatures_lost_a",
    "miniatures_lost_b",
    "points_lost_a",
    "points_lost_b",
    "units_lost",
    "units_size",
    "error",
    "condition",
    "units_destroyed",
)
# columns added since the first stores, with what a store without them reads instead
LATER_COLUMNS = {"condition": "''", "units_destroyed": "'[]'"}
# and in the runs table (NULL: a run of its own, not a sweep's)
LATER_RUN_COLUMNS = ("sweep",)


F = TypeVar("F", bound=Callable[..., Any])
DAMAGED = (sqlite3.Error, ValueError, TypeError, KeyError, IndexError)


def guarded(what: str) -> Callable[[F], F]:
    """A store method (``what`` it does to the store: "read", "written") whose SQLite errors
    and undecodable values become one line naming the store."""

    def wrap(method: F) -> F:
        @functools.wraps(method)
        def call(self: RunStore, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except OpenWarError:
                raise
            except DAMAGED as exc:
                raise OpenWarError(f"results store {self.path}: cannot be {what} ({exc})") from exc

        return call  # type: ignore[return-value]

    return wrap


def default_store() -> Path:
    """``$OPENWAR_STORE``, else ``runs.sqlite3`` in the user's data directory."""
    if os.environ.get(ENV_STORE):
        return Path(os.environ[ENV_STORE])
    from platformdirs import user_data_path

    return user_data_path("openwar", appauthor=False) / STORE_FILE


@dataclass(frozen=True)
class StoredRun:
    """A run as recorded: its inputs, state and (when complete) summary."""

    id: int
    created: str
    finished: str | None
    status: str
    plan: SimulationPlan
    army_names: tuple[str, str]
    code_version: str
    summary: dict[str, Any] | None
    done: int
    sweep: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        plan = self.plan
        sweep = None
        if self.sweep is not None:
            shown = ("id", "value", "unit", "side", "vary")
            sweep = {key: self.sweep.get(key) for key in shown}
        return {
            "id": self.id,
            "created": self.created,
            "finished": self.finished,
            "status": self.status,
            "battles": plan.battles,
            "done": self.done,
            "seed": plan.seed,
            "players": list(plan.players),
            "armies": [
                {"name": name, "path": army.path, "sha256": army.sha256}
                for name, army in zip(self.army_names, plan.armies, strict=True)
            ],
            "battleplan": plan.describe_board(),
            "code_version": self.code_version,
            "summary": self.summary,
            "sweep": sweep,
        }


def _remove_if_empty(path: Path) -> None:
    """Remove the empty file a failed first open left (never a store with anything in it:
    another run may have made it meanwhile)."""
    try:
        if path.is_file() and path.stat().st_size == 0:
            path.unlink()
    except OSError:
        pass


class RunStore:
    """The SQLite file of runs; opening creates it if needed (and, for the default store in
    the user's data folder only, its folder). A file that is not a store is refused, never
    given tables; a store that cannot be read or written is one line naming it."""

    def __init__(self, path: Path, *, make_folder: bool = False, create: bool = True) -> None:
        self.path = path
        existed = True
        try:
            existed = os.path.lexists(path)
            self._open(make_folder, create)
        except (OSError, sqlite3.Error, OpenWarError) as exc:
            if hasattr(self, "_db"):
                self._db.close()
            if not existed:  # a store that could not be made leaves no empty file behind
                _remove_if_empty(path)
            if isinstance(exc, OpenWarError):
                raise
            raise OpenWarError(f"results store {path}: cannot be opened ({exc})") from exc

    def _open(self, make_folder: bool, create: bool) -> None:
        path = self.path
        if not create and not os.path.lexists(path):  # said alike for a missing folder
            raise OpenWarError(f"{path}: no results store yet (run `openwar simulate` first)")
        if path.is_dir():
            raise OpenWarError(f"results store {path}: is a folder, not a file")
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        elif not path.parent.is_dir():
            raise OpenWarError(f"results store {path}: the folder {path.parent} does not exist")
        self._db = sqlite3.connect(path, timeout=30)
        if not _refuse_foreign(self._db, path) and not create:
            raise OpenWarError(f"results store {path}: no runs stored yet (run `openwar "
                               "simulate` first)")  # fmt: skip
        self._db.executescript(SCHEMA)
        self._missing = _add_later_columns(self._db)
        self._missing_runs = _add_later_run_columns(self._db)
        self._db.execute("PRAGMA foreign_keys = ON")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------
    @guarded("written")
    def create(self, plan: SimulationPlan, names: tuple[str, str], code_version: str) -> int:
        """Record a new run's inputs; returns its id. A run's battleplans are generated for
        its armies' limits (``board_points`` is a sweep's: see :meth:`create_sweep`)."""
        if plan.board_points is not None:
            raise ValueError("a plan with board_points (a sweep's) is stored by create_sweep")
        with self._db:
            return self._insert(plan, names, code_version, None)

    @guarded("written")
    def create_sweep(
        self,
        runs: list[tuple[SimulationPlan, tuple[str, str], dict[str, Any]]],
        code_version: str,
    ) -> list[int]:
        """Record every value of a sweep at once, as ``(plan, army names, about)`` (``about``:
        the value and what the sweep varies, kept in each run's ``sweep`` column with the
        plan's ``board_points``); returns the runs' ids, the first being the sweep's id."""
        with self._db:
            ids: list[int] = []
            first: dict[str, Any] = {}
            for plan, names, about in runs:
                sweep = {**about, "id": ids[0] if ids else None, "board_points": plan.board_points}
                ids.append(self._insert(plan, names, code_version, sweep, "pending"))
                first = first or sweep
            self._db.execute(  # the first run's sweep id is its own, known once it is in
                "UPDATE runs SET sweep = ? WHERE id = ?",
                (json.dumps({**first, "id": ids[0]}), ids[0]),
            )
        return ids

    def _insert(
        self,
        plan: SimulationPlan,
        names: tuple[str, str],
        code_version: str,
        sweep: dict[str, Any] | None,
        status: str = "running",
    ) -> int:
        """Insert a run (in the caller's transaction) with ``status`` ("pending": a sweep's
        value not played yet); returns its id."""
        a, b = plan.armies
        if sweep is not None and "sweep" in self._missing_runs:
            raise OpenWarError(f"results store {self.path}: cannot be written (a store from "
                               "before sweeps were kept, opened read-only)")  # fmt: skip
        cursor = self._db.execute(
            "INSERT INTO runs (created, status, battles, seed, players, battleplan,"
            " army_a_path, army_a_text, army_a_sha256, army_b_path, army_b_text,"
            " army_b_sha256, army_a_name, army_b_name, code_version"
            + (", sweep" if sweep is not None else "")
            + ") VALUES ("
            + ", ".join("?" * 15)
            + (", ?" if sweep is not None else "")
            + ")",
            (
                _now(),
                status,
                plan.battles,
                plan.seed,
                json.dumps(list(plan.players)),
                None if plan.battleplan is None else json.dumps(plan.battleplan),
                a.path,
                a.text,
                a.sha256,
                b.path,
                b.text,
                b.sha256,
                names[0],
                names[1],
                code_version,
                *([json.dumps(sweep)] if sweep is not None else []),
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    @guarded("written")
    def add(self, run_id: int, results: Iterable[BattleResult]) -> None:
        """Record finished battles and commit at once (a later Ctrl-C keeps them)."""
        rows = [(run_id, *_battle_row(r)) for r in results]
        marks = ", ".join("?" * (len(BATTLE_COLUMNS) + 1))
        with self._db:
            self._db.executemany(
                f"INSERT OR REPLACE INTO battles (run_id, {', '.join(BATTLE_COLUMNS)})"
                f" VALUES ({marks})",
                rows,
            )

    @guarded("written")
    def set_status(self, run_id: int, status: str) -> None:
        with self._db:
            self._db.execute(  # a complete run stays complete, whatever comes after
                "UPDATE runs SET status = ? WHERE id = ? AND status != 'complete'",
                (status, run_id),
            )

    @guarded("written")
    def finish(self, run_id: int, summary: dict[str, Any]) -> None:
        with self._db:
            self._db.execute(
                "UPDATE runs SET status = 'complete', finished = ?, summary = ? WHERE id = ?",
                (_now(), json.dumps(summary), run_id),
            )

    # -- reading ---------------------------------------------------------------------------
    @guarded("read")
    def run(self, run_id: int) -> StoredRun:
        row = self._db.execute(
            "SELECT id, created, finished, status, battles, seed, players, battleplan,"
            " army_a_path, army_a_text, army_b_path, army_b_text, army_a_name, army_b_name,"
            " code_version, summary,"
            " (SELECT COUNT(*) FROM battles WHERE run_id = runs.id),"
            + (" NULL" if "sweep" in self._missing_runs else " sweep")
            + " FROM runs WHERE id = ?",
            (run_id,),
        ).fetchone()
        if row is None:
            raise OpenWarError(f"run {run_id}: no such run in {self.path}")
        stored = _stored(row)
        if stored.status == "running" and being_played(self.path, run_id) is False:
            # its process was killed outright (or is stopping): nobody plays it
            return replace(stored, status="interrupted")
        return stored

    @guarded("read")
    def runs(self) -> list[StoredRun]:
        ids = [row[0] for row in self._db.execute("SELECT id FROM runs ORDER BY id")]
        return [self.run(i) for i in ids]

    @guarded("read")
    def sweep_runs(self, sweep_id: int) -> list[StoredRun]:
        """The runs of sweep ``sweep_id`` (its first run's id), in the order of its values."""
        if "sweep" in self._missing_runs:
            found: list[StoredRun] = []
        else:
            # the sweep's own runs, found by SQLite; a record that is not JSON is read too, so
            # that reading it says it is damaged
            rows = self._db.execute(
                "SELECT id FROM runs WHERE sweep IS NOT NULL AND id >= ? AND"
                " (NOT json_valid(sweep) OR json_extract(sweep, '$.id') = ?) ORDER BY id",
                (sweep_id, sweep_id),
            )
            found = [run for run in (self.run(row[0]) for row in rows.fetchall())
                     if run.sweep is not None and run.sweep.get("id") == sweep_id]  # fmt: skip
        if not found:
            raise OpenWarError(self._not_a_sweep(sweep_id))
        return found

    def _not_a_sweep(self, run_id: int) -> str:
        """Why ``run_id`` names no sweep: no such run, a run of a sweep begun at another, or
        a simulation's run."""
        try:
            run = self.run(run_id)
        except OpenWarError:
            return f"sweep {run_id}: no such sweep in {self.path}"
        if run.sweep is not None:
            first = run.sweep.get("id")
            return (f"run {run_id} is a value of sweep {first}, not a sweep's first run (openwar"
                    f" sweep --resume {first})")  # fmt: skip
        if run.status == "complete":
            return f"run {run_id} is a simulation, not a sweep (openwar runs show {run_id})"
        return (f"run {run_id} is a simulation, not a sweep (openwar simulate --resume {run_id}"
                " finishes it)")  # fmt: skip

    def _columns(self) -> tuple[str, ...]:
        """The battle columns to read (a column a store lacks reads as its default)."""
        return tuple(
            f"{LATER_COLUMNS[c]} AS {c}" if c in self._missing else c for c in BATTLE_COLUMNS
        )

    @guarded("read")
    def results(self, run_id: int) -> list[BattleResult]:
        """The finished battles of a run, by battle index."""
        rows = self._db.execute(
            f"SELECT {', '.join(self._columns())} FROM battles WHERE run_id = ? ORDER BY idx",
            (run_id,),
        )
        return [_battle(row) for row in rows]

    @guarded("read")
    def export_csv(self, run_id: int, path: Path | TextIO, units: bool = False) -> int:
        """Write a run's battles as CSV, one row per battle (with ``units``, one per unit of
        each battle), to a file (whole or not at all) or an open text stream; returns the
        number of battles written (with ``units``, those with units to list: not failed)."""
        run = self.run(run_id)
        results = self.results(run_id)
        header, table = (
            (UNITS_CSV_HEADER, _unit_rows(run, results)) if units else
            (CSV_HEADER, [_csv_row(r) for r in results])
        )  # fmt: skip
        count = len({row[0] for row in table}) if units else len(results)

        def rows(handle: TextIO) -> None:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(table)

        def write(temporary: Path) -> None:
            with temporary.open("w", newline="", encoding="utf-8") as handle:
                rows(handle)

        if isinstance(path, Path):
            write_whole(path, write, "--csv")
        else:
            rows(path)
        return count


CSV_HEADER = (
    "battle",
    "seed",
    "winner",
    "victory",
    "score_a",
    "score_b",
    "rounds",
    "reason",
    "battleplan",
    "miniatures_lost_a",
    "miniatures_lost_b",
    "points_lost_a",
    "points_lost_b",
    "error",
    "condition",
)


UNITS_CSV_HEADER = (
    "battle",
    "seed",
    "winner",
    "condition",
    "side",
    "unit",
    "points",
    "miniatures",
    "lost",
    "points_destroyed",
)


def _unit_rows(run: StoredRun, results: list[BattleResult]) -> list[tuple[Any, ...]]:
    """One row per unit of each finished battle: its miniatures lost and the enemy points it
    destroyed (empty in battles stored before it was measured); failed battles have none."""
    from openwar.sim.summary import SideInfo, named_units

    armies = run.plan.army_lists()
    named = named_units((SideInfo.of(armies[0]), SideInfo.of(armies[1])))
    rows = []
    for r in results:
        if r.error or len(r.units_lost) != len(named):
            continue
        destroyed = r.units_destroyed if len(r.units_destroyed) == len(named) else None
        winner = _winner(r)
        for k, (side, name, points) in enumerate(named):
            done = "" if destroyed is None else destroyed[k]
            rows.append((r.index, r.seed, winner, r.condition, side, name, points,
                         r.units_size[k], r.units_lost[k], done))  # fmt: skip
    return rows


def _winner(r: BattleResult) -> str:
    """The winning side's letter, "" for a draw or a failed battle."""
    return "" if r.winner is None or r.error else "AB"[r.winner]


def _csv_row(r: BattleResult) -> tuple[Any, ...]:
    winner = _winner(r)
    return (
        r.index,
        r.seed,
        winner,
        r.victory,
        *r.scores,
        r.rounds,
        r.reason,
        r.battleplan,
        *r.miniatures_lost,
        *r.points_lost,
        r.error or "",
        r.condition,
    )


def _refuse_foreign(db: sqlite3.Connection, path: Path) -> bool:
    """Whether the file holds a store's tables (False: none yet); an SQLite file with tables
    but not a store's is another program's, and refused."""
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    tables -= {"sqlite_sequence"}
    if not tables:
        return False
    runs = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
    needed = {"id", "created", "status", "battles", "seed", "players", "army_a_text"}
    if not needed <= runs or "battles" not in tables:
        shown = ", ".join(sorted(tables)[:5])
        raise OpenWarError(f"results store {path}: not an OpenWar results store (its tables: "
                           f"{shown})")  # fmt: skip
    return True


def _add_later_columns(db: sqlite3.Connection) -> set[str]:
    """Give a store written before battles recorded their victory condition, or each unit's
    kills, the columns (the conditions filled in for its battles; kills were not measured, so
    none are read); the columns the battles table still lacks (a store that cannot be
    written, or that another process is changing, is read without them)."""
    missing = [c for c in LATER_COLUMNS if c not in _table_columns(db)]
    if not missing:
        return set()
    try:
        db.execute("BEGIN IMMEDIATE")  # the columns and their filling, all or nothing
        for column in missing:
            default = LATER_COLUMNS[column]
            db.execute(f"ALTER TABLE battles ADD COLUMN {column} TEXT NOT NULL DEFAULT {default}")
        if "condition" in missing:
            _fill_conditions(db)
        db.commit()
    except sqlite3.OperationalError:
        db.rollback()
    return set(LATER_COLUMNS) - _table_columns(db)


def _table_columns(db: sqlite3.Connection, table: str = "battles") -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def _add_later_run_columns(db: sqlite3.Connection) -> set[str]:
    """Give a store written before sweeps were kept the runs' ``sweep`` column (NULL for
    every run it has); the columns the runs table still lacks (a store that cannot be
    written is read without them)."""
    missing = [c for c in LATER_RUN_COLUMNS if c not in _table_columns(db, "runs")]
    if not missing:
        return set()
    try:
        db.execute("BEGIN IMMEDIATE")
        for column in missing:
            db.execute(f"ALTER TABLE runs ADD COLUMN {column} TEXT")
        db.commit()
    except sqlite3.OperationalError:
        db.rollback()
    return set(LATER_RUN_COLUMNS) - _table_columns(db, "runs")


def _default_conditions() -> dict[str, str]:
    """The victory condition of each ruleset's board without a battleplan, by the board's
    name (those names do not end in the condition)."""
    from openwar.rulesets.aos.board import first_blood_board
    from openwar.rulesets.openwar.board import default_board

    boards = (default_board(), first_blood_board())
    return {str(board["name"]): str(board.get("victory") or "") for board in boards}


def _fill_conditions(db: sqlite3.Connection) -> None:
    """Each stored battle's victory condition: the run's own battleplan's, else the end of the
    generated board's name ("Map: Condition"), else a default board's."""
    plans = {rid: text for rid, text in db.execute("SELECT id, battleplan FROM runs")}
    defaults = _default_conditions()
    rows = db.execute("SELECT run_id, idx, battleplan FROM battles WHERE error IS NULL")
    for run_id, idx, board in rows.fetchall():
        plan = json.loads(plans[run_id]) if plans.get(run_id) else None
        if isinstance(plan, dict) and isinstance(plan.get("victory"), dict):
            condition = str(plan["victory"].get("name", ""))
        elif ": " in board:
            condition = board.rsplit(": ", 1)[1]
        else:
            condition = defaults.get(board, "")
        db.execute(
            "UPDATE battles SET condition = ? WHERE run_id = ? AND idx = ?",
            (condition, run_id, idx),
        )


def _battle_row(r: BattleResult) -> tuple[Any, ...]:
    return (
        r.index,
        r.seed,
        r.winner,
        r.victory,
        *r.scores,
        r.rounds,
        r.reason,
        r.battleplan,
        *r.miniatures_lost,
        *r.points_lost,
        json.dumps(list(r.units_lost)),
        json.dumps(list(r.units_size)),
        r.error,
        r.condition,
        json.dumps(list(r.units_destroyed)),
    )


def _battle(row: tuple[Any, ...]) -> BattleResult:
    (index, seed, winner, victory, sa, sb, rounds, reason, plan, ma, mb, pa, pb, ul, us, err) = row[
        :16
    ]
    return BattleResult(
        index=index,
        seed=seed,
        winner=winner,
        victory=victory,
        scores=(sa, sb),
        rounds=rounds,
        reason=reason,
        battleplan=plan,
        miniatures_lost=(ma, mb),
        points_lost=(pa, pb),
        units_lost=tuple(json.loads(ul)),
        units_size=tuple(json.loads(us)),
        error=err,
        condition=row[16],
        units_destroyed=tuple(float(x) for x in json.loads(row[17])),
    )


def _stored(row: tuple[Any, ...]) -> StoredRun:
    (rid, created, finished, status, battles, seed, players, battleplan) = row[:8]
    (a_path, a_text, b_path, b_text, a_name, b_name, version, summary, done, sweep) = row[8:]
    names = json.loads(players)
    if not (isinstance(battles, int) and 1 <= battles <= MAX_BATTLES):  # a store edited by hand
        raise ValueError(f"run {rid} records {battles!r} battles, not 1 to {MAX_BATTLES:,}")
    about = None if sweep is None else json.loads(sweep)
    if about is not None and not isinstance(about, dict):
        raise ValueError(f"run {rid} records {sweep!r} as its sweep")
    plan = SimulationPlan(
        armies=(ArmyFile(a_path, a_text), ArmyFile(b_path, b_text)),
        battleplan=None if battleplan is None else json.loads(battleplan),
        players=(names[0], names[1]),
        seed=seed,
        battles=battles,
        board_points=None if about is None else about.get("board_points"),
    )
    return StoredRun(
        id=rid,
        created=created,
        finished=finished,
        status=status,
        plan=plan,
        army_names=(a_name, b_name),
        code_version=version,
        summary=None if summary is None else json.loads(summary),
        done=done,
        sweep=about,
    )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
