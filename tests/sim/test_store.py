"""The SQLite results store: inputs and battles round-trip, CSV export, resume after Ctrl-C."""

from __future__ import annotations

import csv
import hashlib
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from openwar.cli.app import main
from openwar.engine.game import rules_for
from openwar.errors import OpenWarError
from openwar.sim.executors import InProcess
from openwar.sim.plan import BattleResult, SimulationPlan
from openwar.sim.run import (
    OnResults,
    RunInterrupted,
    code_version,
    missing,
    new_run,
    play_run,
    same_code,
)
from openwar.sim.store import RunStore, default_store

from .conftest import ARMY_A, small_plan


def interrupt_after(count: int) -> OnResults:
    seen: list[BattleResult] = []

    def hook(results: list[BattleResult]) -> None:
        seen.extend(results)
        if len(seen) >= count:
            raise KeyboardInterrupt

    return hook


def test_store_round_trips_inputs_battles_and_summary(store_path: Path) -> None:
    plan = small_plan(battles=3, players=("simple", "random"))
    with RunStore(store_path) as store:
        run_id = new_run(store, plan)
        finished = play_run(store, run_id, InProcess())
    with RunStore(store_path) as store:
        run = store.run(run_id)
        assert run.plan == plan
        assert run.status == "complete" and run.done == 3
        assert run.army_names == ("Small Legion", "Small Lodge")
        assert run.code_version == code_version("openwar")
        for ruleset in ("openwar", "aos"):  # each run names its own ruleset's code
            version = rules_for(ruleset).version
            assert code_version(ruleset).endswith(f"; {ruleset} battle code {version}")
        older = code_version("openwar").replace("; openwar battle code", "; rules openwar")
        assert same_code(older, "openwar") and not same_code(older, "aos")  # runs of before
        assert not same_code(code_version("openwar") + " (another)", "openwar")
        assert run.plan.armies[0].sha256 == hashlib.sha256(ARMY_A.read_bytes()).hexdigest()
        assert run.summary == finished.summary
        assert store.results(run_id) == finished.results
        assert [r.id for r in store.runs()] == [run_id]
    assert finished.summary["played"] == 3


def test_export_csv_has_one_row_per_battle(store_path: Path, tmp_path: Path) -> None:
    with RunStore(store_path) as store:
        run_id = new_run(store, small_plan(battles=2))
        finished = play_run(store, run_id, InProcess())
        assert store.export_csv(run_id, tmp_path / "run.csv") == 2
    rows = list(csv.DictReader((tmp_path / "run.csv").open()))
    assert [int(r["battle"]) for r in rows] == [0, 1]
    for row, result in zip(rows, finished.results, strict=True):
        assert int(row["seed"]) == result.seed
        assert row["winner"] == ("" if result.winner is None else "AB"[result.winner])
        assert (int(row["score_a"]), int(row["score_b"])) == result.scores
        assert float(row["points_lost_b"]) == result.points_lost[1]
        assert row["condition"] == result.condition


def test_export_units_has_one_row_per_unit_of_each_battle(store_path: Path) -> None:
    """`runs export --units`: each battle's units in army order, A's then B's, with their
    miniatures lost and enemy points destroyed as the battle recorded them; a battle stored
    before kills were measured leaves points_destroyed empty."""
    import io

    with RunStore(store_path) as store:
        run_id = new_run(store, small_plan(battles=2))
        finished = play_run(store, run_id, InProcess())
        out = io.StringIO()
        assert store.export_csv(run_id, out, units=True) == 2
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    names = ["Legion Cohort", "Legion Skirmishers", "Legion Command"]  # small_legion.yaml's
    per_battle = len(finished.results[0].units_lost)
    assert len(rows) == 2 * per_battle and [r["unit"] for r in rows[:3]] == names
    assert [r["side"] for r in rows[:per_battle]] == sorted(r["side"] for r in rows[:per_battle])
    for k, row in enumerate(rows):
        result = finished.results[k // per_battle]
        assert int(row["battle"]) == result.index and int(row["seed"]) == result.seed
        assert int(row["lost"]) == result.units_lost[k % per_battle]
        assert float(row["points_destroyed"]) == result.units_destroyed[k % per_battle]
    db = sqlite3.connect(store_path)
    db.execute("UPDATE battles SET units_destroyed = '[]'")  # as a store from before
    db.commit()
    db.close()
    with RunStore(store_path) as store:
        out = io.StringIO()
        store.export_csv(run_id, out, units=True)
    assert {r["points_destroyed"] for r in csv.DictReader(io.StringIO(out.getvalue()))} == {""}


def test_interrupted_run_keeps_finished_battles_and_resumes_identically(
    store_path: Path,
) -> None:
    plan: SimulationPlan = small_plan(battles=4)
    with RunStore(store_path) as store:
        whole = play_run(store, new_run(store, plan), InProcess())
        run_id = new_run(store, plan)
        with pytest.raises(RunInterrupted) as stop:
            play_run(store, run_id, InProcess(), interrupt_after(2))
        assert (stop.value.done, stop.value.total) == (2, 4)
        assert store.run(run_id).status == "interrupted"
        assert [i for i, _ in missing(store, run_id)] == [2, 3]
        resumed = play_run(store, run_id, InProcess())
    assert resumed.results == whole.results
    assert resumed.summary == whole.summary


@pytest.mark.parametrize("step", ["army_lists", "summarise"])
def test_a_stop_before_or_after_the_battles_leaves_the_run_resumable(
    store_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    """Reading the stored armies or summarising the battles can take a while (a million
    battles): a Ctrl-C there marks the run interrupted, with its battles, as in the middle."""
    plan: SimulationPlan = small_plan(battles=2)

    def stop(*_: object) -> None:
        raise KeyboardInterrupt

    with RunStore(store_path) as store:
        run_id = new_run(store, plan)
        with monkeypatch.context() as patched:
            if step == "army_lists":
                patched.setattr(SimulationPlan, "army_lists", stop)
            else:
                patched.setattr("openwar.sim.run.summarise", stop)
            with pytest.raises(RunInterrupted) as stopped:
                play_run(store, run_id, InProcess())
        done = 0 if step == "army_lists" else 2
        assert (stopped.value.done, stopped.value.total) == (done, 2)
        assert store.run(run_id).status == "interrupted"
        assert play_run(store, run_id, InProcess()).summary["played"] == 2


def test_default_store_follows_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("OPENWAR_STORE", str(tmp_path / "x.sqlite3"))
    assert default_store() == tmp_path / "x.sqlite3"
    monkeypatch.delenv("OPENWAR_STORE")
    assert default_store().name == "runs.sqlite3"
    assert "openwar" in str(default_store())


def _old_store(path: Path, battles: int = 2) -> list[BattleResult]:
    """A store as OpenWar wrote it before battles recorded their victory condition and each
    unit's kills, and before sweeps were kept: a run of ``battles`` battles; the results as
    played (with both)."""
    import sqlite3

    with RunStore(path) as store:
        run_id = new_run(store, small_plan(battles=battles))
        played = play_run(store, run_id, InProcess()).results
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE battles DROP COLUMN condition")
    db.execute("ALTER TABLE battles DROP COLUMN units_destroyed")
    db.execute("ALTER TABLE runs DROP COLUMN sweep")
    db.commit()
    db.close()
    return played


def test_a_store_from_before_conditions_gets_the_column_filled(store_path: Path) -> None:
    """A store whose battles table has no condition column (an older OpenWar's) opens with
    the column added and each battle's condition filled in from its board, so a resumed or
    re-read run summarises as it was played. Kills were not measured: its battles have none
    (and its summary no points slain), but the column is there for the battles to come."""
    import sqlite3

    played = _old_store(store_path)
    assert all(r.condition for r in played) and all(r.units_destroyed for r in played)
    with RunStore(store_path) as store:
        assert store.results(1) == [replace(r, units_destroyed=()) for r in played]
    columns = [row[1] for row in sqlite3.connect(store_path).execute("PRAGMA table_info(battles)")]
    assert columns.count("condition") == 1 and columns.count("units_destroyed") == 1
    runs = [row[1] for row in sqlite3.connect(store_path).execute("PRAGMA table_info(runs)")]
    assert runs.count("sweep") == 1
    with RunStore(store_path) as store:
        assert store.run(1).sweep is None and store.run(1).to_json()["sweep"] is None


def test_an_old_store_that_cannot_be_written_is_still_read(
    store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An older store opened read-only (an archive, another user's file) lists and reads its
    runs without the condition column instead of failing."""
    import sqlite3

    played = _old_store(store_path)
    real = sqlite3.connect

    def read_only(path: Path, timeout: float = 5.0) -> sqlite3.Connection:
        return real(f"file:{path}?mode=ro", timeout=timeout, uri=True)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with RunStore(store_path) as store:
        assert [r.id for r in store.runs()] == [1]
        read = store.results(1)
    assert [r.condition for r in read] == ["", ""] and [r.units_destroyed for r in read] == [(), ()]
    assert [r.scores for r in read] == [r.scores for r in played]
    with (
        RunStore(store_path) as store,
        pytest.raises(OpenWarError, match="run 1 is a simulation, not a sweep"),
    ):
        store.sweep_runs(1)


def test_another_programs_sqlite_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE runs (id INTEGER, foo TEXT)")
    before = path.read_bytes()
    with pytest.raises(OpenWarError, match=r"not an OpenWar results store \(its tables: runs\)"):
        RunStore(path)
    assert path.read_bytes() == before


def test_reading_an_empty_file_gives_it_no_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.sqlite3"
    path.touch()
    assert main(["runs", "list", "--store", str(path)]) == 2
    assert "no runs stored yet" in capsys.readouterr().err and path.stat().st_size == 0


def test_a_damaged_value_and_a_missing_folder_are_one_line(store_path: Path) -> None:
    with RunStore(store_path) as runs:
        run_id = runs.create(small_plan(), ("A", "B"), "test")
        runs._db.execute("UPDATE runs SET players = 'oops'")
        runs._db.commit()
        with pytest.raises(OpenWarError, match=rf"results store {store_path}: cannot be read"):
            runs.run(run_id)
    missing = store_path.parent / "nowhere" / "runs.sqlite3"
    with pytest.raises(OpenWarError, match=r"the folder .*nowhere does not exist"):
        RunStore(missing)
    assert not missing.parent.exists()
    # a folder given as the store was "cannot be opened (unable to open database file)"
    with pytest.raises(OpenWarError, match=rf"results store {store_path.parent}: is a folder"):
        RunStore(store_path.parent)


@pytest.mark.parametrize("summary", ["[1, 2, 3]", '{"a": 1}', "5"])
def test_a_summary_of_another_shape_is_one_line(
    store_path: Path, capsys: pytest.CaptureFixture[str], summary: str
) -> None:
    """A store edited by hand: `runs list` and `runs show` ended in a KeyError or TypeError."""
    with RunStore(store_path) as store:
        play_run(store, new_run(store, small_plan(battles=1)), InProcess())
        store._db.execute("UPDATE runs SET summary = ?", (summary,))
        store._db.commit()
    for argv in (["runs", "list"], ["runs", "show", "1"]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert err.count("\n") == 1 and "run 1's summary is not one openwar wrote" in err
        assert out == ""  # nothing of the run shown before the error (runs show did)


@pytest.mark.parametrize("battles", [-5, 10**12])
def test_a_stored_battle_count_out_of_bounds_is_one_line(
    store_path: Path, capsys: pytest.CaptureFixture[str], battles: int
) -> None:
    """--resume of such a run spawned -5 seeds (a traceback) or played on for ever."""
    with RunStore(store_path) as store:
        store.create(small_plan(), ("A", "B"), code_version("openwar"))
        store._db.execute("UPDATE runs SET battles = ?", (battles,))
        store._db.commit()
    assert main(["simulate", "--resume", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"records {battles} battles" in err


def test_export_to_standard_output(store_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = small_plan(battles=2)
    with RunStore(store_path) as store:
        play_run(store, new_run(store, plan), InProcess())
    assert main(["runs", "export", "1", "--csv", "-"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0].startswith("battle,seed,winner")
    assert len(captured.out.splitlines()) == 3 and "written to standard output" in captured.err
    assert not Path("-").exists()


def test_resuming_a_run_whose_stored_army_is_damaged_names_the_store(
    store_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It blamed the army file on disk, which is fine: the damaged text is the store's copy."""
    with RunStore(store_path) as runs:
        runs.create(small_plan(), ("A", "B"), code_version("openwar"))
        runs._db.execute("UPDATE runs SET army_a_text = 'ruleset: ['")
        runs._db.commit()
    assert main(["simulate", "--resume", "1"]) == 2
    err = capsys.readouterr().err
    assert f"run 1 in {store_path}: its stored armies: " in err and "not valid YAML" in err


def test_a_store_named_by_the_environment_in_a_missing_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only the user data folder's default store gets its folder made."""
    path = tmp_path / "nowhere" / "runs.sqlite3"
    monkeypatch.setenv("OPENWAR_STORE", str(path))
    assert main(["simulate", str(ARMY_A), str(ARMY_A), "-n", "1", "--workers", "1"]) == 2
    assert "the folder" in capsys.readouterr().err and not path.parent.exists()


def test_a_store_that_cannot_be_read_says_read(store_path: Path) -> None:
    with RunStore(store_path) as runs:
        runs.create(small_plan(), ("A", "B"), "test")
        runs._db.execute("ALTER TABLE runs DROP COLUMN summary")
        runs._db.commit()
        with pytest.raises(OpenWarError, match=r"cannot be read \(no such column: summary\)"):
            runs.runs()


def test_a_chart_that_cannot_be_written_loses_neither_run_nor_summary(
    store_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """A chart path the early check passes but the write refuses (as under /proc): the summary
    was never printed, though the run was stored."""
    import openwar.sim.plot

    def refuse(*_: object) -> None:
        raise OpenWarError("--plot x.png: cannot be written")

    monkeypatch.setattr(openwar.sim.plot, "plot_run", refuse)
    argv = ["simulate", str(ARMY_A), str(ARMY_A), "-n", "2", "--workers", "1"]
    assert main([*argv, "--plot", str(tmp_path / "x.png")]) == 2
    captured = capsys.readouterr()
    assert "Win rates" in captured.out or "A wins" in captured.out
    assert "Run 1 stored in" in captured.err and "cannot be written" in captured.err


def test_a_ctrl_c_while_the_seeds_are_spawned_leaves_the_run_resumable(
    store_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A million battles' seeds take seconds: a Ctrl-C then exited silently, the run left
    'running' for good."""
    import openwar.sim.run

    def stopped(*_: object) -> list[int]:
        raise KeyboardInterrupt

    monkeypatch.setattr(openwar.sim.run, "battle_seeds", stopped)
    assert main(["simulate", str(ARMY_A), str(ARMY_A), "-n", "3", "--workers", "1"]) == 130
    assert "Interrupted: 0 of 3 battles of run 1" in capsys.readouterr().err
    with RunStore(store_path) as runs:
        assert runs.run(1).status == "interrupted"


def test_a_store_that_cannot_be_made_leaves_no_empty_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a full disk: sqlite makes the file, then cannot write its tables (a 0-byte file was
    # left); here the tables' script fails before anything is written
    monkeypatch.setattr("openwar.sim.store.SCHEMA", "NOT SQL;")
    path = tmp_path / "runs.sqlite3"
    with pytest.raises(OpenWarError, match="cannot be opened"):
        RunStore(path)
    assert not path.exists()
    path.write_bytes(b"")  # a store that was there before is the user's: it stays
    with pytest.raises(OpenWarError):
        RunStore(path)
    assert path.exists()


def test_workers_lost_mid_run_keep_the_finished_battles_and_say_how_to_resume(
    store_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A lost cluster or a killed worker ended in a traceback, the resume line unsaid."""
    from collections.abc import Iterator

    import openwar.cli.simulate
    from openwar.sim.executors import WorkLost

    class Losing(InProcess):
        def results(self, plan: SimulationPlan, chunks: list) -> Iterator[list[BattleResult]]:  # type: ignore[type-arg]
            yield from list(super().results(plan, chunks))[:2]
            raise WorkLost("the Dask cluster at tcp://10.0.0.9:8786 (2 workers) was lost (x)")

    monkeypatch.setattr(openwar.cli.simulate, "make_executor", lambda *_: Losing())
    assert main(["simulate", str(ARMY_A), str(ARMY_A), "-n", "3", "--workers", "1"]) == 1
    err = capsys.readouterr().err
    assert (
        "openwar simulate: error: the Dask cluster at tcp://10.0.0.9:8786 (2 workers) was lost "
        "(x): 2 of 3 battles of run 1 are kept in "
    ) in err
    # the store came from $OPENWAR_STORE, which another shell may not set: the line names it
    assert err.rstrip().endswith(f"Resume with: openwar simulate --resume 1 --store {store_path}")
    with RunStore(store_path) as runs:
        assert runs.run(1).status == "interrupted" and runs.run(1).done == 2
