"""`openwar sweep` keeps every value in the results store: stopped part-way, it is finished
with `--resume` and gives the sweep played whole; what a resume takes from the store cannot
be given again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import openwar.sim.sweep as sweep_module
from openwar.cli.app import main
from openwar.sim.plan import BattleResult
from openwar.sim.run import play_run
from openwar.sim.store import RunStore
from openwar.sim.sweep import record_sweep, stored_sweep

from .conftest import ARMY_A, ARMY_B

SWEEP = ["sweep", str(ARMY_A), str(ARMY_B), "--unit", "Legion Cohort", "--size", "10,30"]
SMALL = ["-n", "3", "--players", "random", "--workers", "1", "--json"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_sweep_is_kept_as_one_run_a_value(
    capsys: pytest.CaptureFixture[str], store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, *SWEEP, *SMALL)
    assert code == 0, err
    assert (json.loads(out)["sweep_id"], json.loads(out)["runs"]) == (1, [1, 2])
    assert f"Sweep 1 stored in {store_path} as runs 1-2" in err
    with RunStore(store_path) as store:
        runs = store.runs()
        assert [r.status for r in runs] == ["complete", "complete"]
        assert [r.sweep and (r.sweep["id"], r.sweep["value"]) for r in runs] == [(1, 10), (1, 30)]
        assert all(r.plan.board_points is not None for r in runs)  # the files' own table
        assert runs[0].to_json()["sweep"] == {
            "id": 1, "value": 10, "unit": "Legion Cohort", "side": "A", "vary": "size"
        }  # fmt: skip
    monkeypatch.setenv("COLUMNS", "200")  # each run's files on one line
    code, out, _ = run(capsys, "runs", "show", "2")
    assert f"The whole sweep: openwar sweep --resume 1 --store {store_path}" in out
    code, out, _ = run(capsys, "runs", "list")
    assert (
        code == 0
        and "small_legion.yaml [Legion Cohort x30] vs small_lodge.yaml, seed 1, sweep 1" in out
    )


def test_a_sweep_stopped_part_way_is_resumed_to_the_sweep_played_whole(
    capsys: pytest.CaptureFixture[str], store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, whole, err = run(capsys, *SWEEP, *SMALL)
    assert code == 0, err
    real = play_run

    def stopping(store: RunStore, run_id: int, executor: object, told: object) -> object:
        def stop(results: list[BattleResult]) -> None:  # Ctrl-C once a battle is kept
            raise KeyboardInterrupt

        return real(store, run_id, executor, stop)  # type: ignore[arg-type]

    monkeypatch.setattr(sweep_module, "play_run", stopping)
    code, out, err = run(capsys, *SWEEP, *SMALL)
    line = err.strip().splitlines()[-1]
    assert (code, out) == (130, "")
    assert line == (
        f"Interrupted: 1 of 6 battles of sweep 3 are kept in {store_path}. Resume with: "
        f"openwar sweep --resume 3 --store {store_path} --json"
    )  # $OPENWAR_STORE is repeated: another shell may not have it
    monkeypatch.setattr(sweep_module, "play_run", real)
    code, out, err = run(capsys, "sweep", "--resume", "3", "--workers", "1", "--json")
    assert code == 0, err
    assert "Sweep 3 resumed" in err
    assert json.loads(out) == {**json.loads(whole), "sweep_id": 3, "runs": [3, 4]}
    code, again, err = run(capsys, "sweep", "--resume", "3", "--json")  # complete: shown
    assert (code, again) == (0, out) and "Sweep 3 is complete" in err


def test_record_and_read_back_give_the_same_plans(store_path: Path) -> None:
    from openwar.sim.sweep import sweep_plans

    from .conftest import small_plan

    plan = small_plan()
    plans = sweep_plans(plan, 1, "Lodge Shieldwall", [10, 20], "size")
    with RunStore(store_path) as store:
        recorded = record_sweep(store, plan, 1, "Lodge Shieldwall", "size", plans)
        read = stored_sweep(store, recorded.run_ids[0])
    assert read == recorded


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--unit", "Legion Cohort"], "give only --resume ID"),
        (["-n", "5"], "give only --resume ID"),
        (["--seed", "2"], "give only --resume ID"),
        ([str(ARMY_A)], "give only --resume ID"),
    ],
)
def test_a_resume_refuses_what_it_takes_from_the_store(
    capsys: pytest.CaptureFixture[str], store_path: Path, extra: list[str], said: str
) -> None:
    code, _, err = run(capsys, "sweep", "--resume", "1", *extra)
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err
    assert not store_path.exists()  # refused before any store is opened


def test_a_resume_of_no_sweep_says_what_the_id_is(
    capsys: pytest.CaptureFixture[str], store_path: Path
) -> None:
    code, _, err = run(capsys, *SWEEP, *SMALL)
    assert code == 0, err
    code, _, err = run(capsys, "simulate", str(ARMY_A), str(ARMY_B), "-n", "1")
    assert code == 0, err
    for sweep_id, said in [
        ("2", "run 2 is a value of sweep 1, not a sweep's first run (openwar sweep --resume 1)"),
        ("3", "run 3 is a simulation, not a sweep (openwar runs show 3)"),
        ("9", f"sweep 9: no such sweep in {store_path}"),
    ]:
        code, _, err = run(capsys, "sweep", "--resume", sweep_id)
        assert (code, err.strip()) == (2, f"openwar sweep: error: {said}")


def test_values_not_played_yet_are_pending_and_runs_show_names_their_sweep(
    capsys: pytest.CaptureFixture[str], store_path: Path
) -> None:
    from openwar.sim.sweep import sweep_plans

    from .conftest import small_plan

    plan = small_plan()
    plans = sweep_plans(plan, 0, "Legion Cohort", [10, 30])
    with RunStore(store_path) as store:
        recorded = record_sweep(store, plan, 0, "Legion Cohort", "size", plans)
        assert [store.run(i).status for i in recorded.run_ids] == ["pending", "pending"]
    code, out, _ = run(capsys, "runs", "show", "2")
    assert code == 0
    assert "Value 30 of sweep 1: Legion Cohort (army A), size varied" in out
    assert f"Not complete: openwar sweep --resume 1 --store {store_path}" in out  # not simulate


def test_a_sweep_another_process_plays_is_refused_before_any_battle(
    capsys: pytest.CaptureFixture[str], store_path: Path
) -> None:
    from openwar.sim.locks import playing
    from openwar.sim.sweep import sweep_plans

    from .conftest import small_plan

    plan = small_plan()
    with RunStore(store_path) as store:
        record_sweep(
            store, plan, 0, "Legion Cohort", "size", sweep_plans(plan, 0, "Legion Cohort", [10, 30])
        )
    with playing(store_path, 2):  # as another process playing value 30 would
        code, _, err = run(capsys, "sweep", "--resume", "1", "--workers", "1")
    assert code == 1 and "run 2 (sweep 1's) is being played now" in err, err
    assert "resume sweep 1" in err
    with RunStore(store_path) as store:
        assert store.run(1).done == 0  # value 10 was not played meanwhile


def test_a_sweep_resumed_under_other_code_says_its_results_may_differ(
    capsys: pytest.CaptureFixture[str], store_path: Path
) -> None:
    import sqlite3

    code, _, err = run(capsys, *SWEEP, *SMALL)
    assert code == 0, err
    with sqlite3.connect(store_path) as db:
        db.execute("UPDATE runs SET code_version = 'openwar 0.0.1; openwar battle code 1'")
    code, _, err = run(capsys, "sweep", "--resume", "1", "--json")
    assert code == 0 and "warning: sweep 1 was started with openwar 0.0.1" in err, err


def test_no_store_plays_the_same_sweep_and_records_nothing(
    capsys: pytest.CaptureFixture[str], store_path: Path
) -> None:
    code, bare, err = run(capsys, *SWEEP, *SMALL, "--no-store")
    assert code == 0 and not store_path.exists() and "stored" not in err, err
    code, kept, err = run(capsys, *SWEEP, *SMALL)
    assert code == 0, err
    assert json.loads(bare) == {**json.loads(kept), "sweep_id": None, "runs": None}
    code, _, err = run(capsys, "sweep", "--resume", "1", "--no-store")
    assert code == 2 and "--no-store cannot go with it" in err


def test_a_sweep_record_edited_by_hand_is_one_line(
    capsys: pytest.CaptureFixture[str], store_path: Path
) -> None:
    import sqlite3

    code, _, err = run(capsys, *SWEEP, *SMALL)
    assert code == 0, err
    with sqlite3.connect(store_path) as db:
        db.execute('UPDATE runs SET sweep = \'{"id": 1, "value": 10}\' WHERE id = 1')
    code, _, err = run(capsys, "sweep", "--resume", "1")
    assert code == 2 and "sweep 1 in" in err and "its record is damaged" in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
