"""`openwar simulate` and `openwar runs`: JSON identical for any workers, resume, plots, CSV,
and one-line errors with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openwar.cli.app import main
from openwar.sim.store import RunStore
from openwar.stopping import Terminated

from .conftest import ARMY_A, ARMY_B

ARMIES = (str(ARMY_A), str(ARMY_B))
AOS_ARMY = Path(__file__).parents[2] / "examples" / "armies" / "aos" / "ember_court.yaml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def simulate_json(capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    code, out, err = run(capsys, "simulate", *ARMIES, "-n", "3", "--players", "random", *extra)
    assert code == 0, err
    return out


def test_json_summary_is_byte_identical_for_one_and_two_workers(
    capsys: pytest.CaptureFixture[str], store_path: Path
) -> None:
    alone = simulate_json(capsys, "--workers", "1", "--json")
    pooled = simulate_json(capsys, "--workers", "2", "--json")
    assert alone == pooled
    data: dict[str, Any] = json.loads(alone)
    assert data["played"] == 3 and data["failed"] == 0
    outcomes = data["outcomes"]
    assert sum(o["count"] for o in outcomes.values()) == 3
    for entry in outcomes.values():
        low, high = entry["ci95"]
        assert 0 <= low <= entry["rate"] <= high <= 1
    assert set(data["casualties"]["A"]) == {"miniatures_lost", "points_lost"}
    assert data["battleplan"] == "a battleplan generated for each battle from its seed"


def test_report_plot_and_runs_list_show_export(
    capsys: pytest.CaptureFixture[str],
    store_path: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    code, out, err = run(
        capsys, "simulate", *ARMIES, "-n", "2", "--workers", "1", "--plot", str(tmp_path / "o.svg")
    )
    assert code == 0, err
    assert "Wilson" in out and "A wins (Small Legion)" in out
    assert "Run 1 stored in" in err and "openwar runs show 1" in err
    svg = (tmp_path / "o.svg").read_text()
    assert svg.startswith("<?xml") and "Outcomes" in svg
    code, out, _ = run(capsys, "runs", "list")
    assert code == 0 and "Small Legion" in out and "complete" in out
    code, out, _ = run(capsys, "runs", "show", "1", "--json")
    assert json.loads(out)["summary"]["played"] == 2
    code, _, err = run(capsys, "runs", "export", "1", "--csv", str(tmp_path / "r.csv"))
    assert code == 0 and "2 battles written" in err
    assert len((tmp_path / "r.csv").read_text().splitlines()) == 3


def test_a_dollar_sign_in_an_army_name_does_not_stop_the_plot(
    capsys: pytest.CaptureFixture[str], store_path: Path, tmp_path: Path
) -> None:
    """Matplotlib read "$...$" as a formula: the run was stored, then the plot's traceback
    left the report unprinted."""
    army = tmp_path / "dollar.yaml"
    army.write_text(ARMY_A.read_text().replace("name: Small Legion", r"name: Bolt $\foo$ Legion"))
    plot = tmp_path / "o.png"
    code, out, err = run(
        capsys, "simulate", str(army), ARMIES[1], "-n", "2", "--workers", "1", "--players",
        "random", "--plot", str(plot),
    )  # fmt: skip
    assert code == 0 and "Traceback" not in err, err
    assert plot.stat().st_size > 0 and "Wilson" in out


def test_resume_completes_an_interrupted_run_with_identical_summary(
    capsys: pytest.CaptureFixture[str], store_path: Path
) -> None:
    whole = simulate_json(capsys, "--workers", "1", "--json")
    with RunStore(store_path) as store:  # an interrupted copy: the same inputs, one battle kept
        plan = store.run(1).plan
        run_id = store.create(plan, ("Small Legion", "Small Lodge"), store.run(1).code_version)
        store.add(run_id, store.results(1)[1:2])
        store.set_status(run_id, "interrupted")
    code, out, err = run(capsys, "simulate", "--resume", str(run_id), "--json", "--workers", "1")
    assert code == 0, err
    assert out == whole
    code, _, err = run(capsys, "simulate", "--resume", str(run_id))
    assert code == 2 and "already complete" in err


def test_runs_list_at_80_columns_wraps_the_armies_not_the_status_or_players(
    capsys: pytest.CaptureFixture[str], store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 80 columns the list read "interrup…" and "simple,si…"."""
    simulate_json(capsys, "--workers", "1")
    with RunStore(store_path) as store:
        plan = store.run(1).plan
        names = ("A Very Long Army Name Indeed", "Another Long Army Name")
        store.set_status(store.create(plan, names, store.run(1).code_version), "interrupted")
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "runs", "list")
    assert code == 0 and max(len(line) for line in out.splitlines()) <= 80
    assert "│ random  │" in out and "interrupted" in out and "complete" in out


def test_runs_list_tells_runs_of_variant_files_apart_by_their_files_and_seed(
    capsys: pytest.CaptureFixture[str], store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Runs of two variants of one army (the same army name) read the same in the list."""
    simulate_json(capsys, "--workers", "1")
    monkeypatch.setenv("COLUMNS", "160")
    code, out, _ = run(capsys, "runs", "list")
    said = " ".join(out.split())
    assert code == 0 and f"{ARMY_A.name} vs {ARMY_B.name}, seed " in said, out


def test_runs_show_keeps_each_armys_path_whole_on_a_line_of_its_own(
    capsys: pytest.CaptureFixture[str], store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 80 columns a long path was broken between lines, with trailing spaces."""
    simulate_json(capsys, "--workers", "1")
    monkeypatch.setenv("COLUMNS", "40")
    code, out, _ = run(capsys, "runs", "show", "1")
    lines = out.splitlines()
    assert code == 0 and all(f"    {path.resolve()}" in lines for path in (ARMY_A, ARMY_B)), out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-n", "2", "--players", "chess"], "'--players': unknown player 'chess'"),
        (["-n", "2", "--players", "search:0,random"], "budget is a whole number of rollouts"),
        (["-n", "0"], "'-n'"),
        (["--workers", "0", "-n", "2"], "--workers"),
        (["-n", "2", "--scheduler", "http://x"], "expected tcp://host:port or local-dask"),
        (["-n", "2", "--plot", "x.pdf"], "x.pdf"),
        (["-n", "2", "--battleplan", "missing.json"], "missing.json"),
        ([], "how many battles"),
    ],
)
def test_bad_options_give_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], store_path: Path, argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, "simulate", *ARMIES, *argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "missing.yaml", str(ARMY_B), "-n", "2"],
        ["simulate", str(AOS_ARMY), str(ARMY_B), "-n", "2"],
        ["simulate", "--resume", "9"],
        ["simulate", *ARMIES, "--resume", "1"],
        ["simulate", "-n", "2"],
        ["runs", "show", "9"],
        ["runs", "export", "9", "--csv", "out.csv"],
        # past SQLite's integers: once an overflow traceback
        ["runs", "show", str(2**63)],
        ["runs", "export", "9" * 23, "--csv", "out.csv"],
        ["simulate", *ARMIES, "--resume", "9" * 23],
    ],
)
def test_bad_inputs_give_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], store_path: Path, argv: list[str]
) -> None:
    RunStore(store_path).close()
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


def test_bad_army_file_is_named(
    capsys: pytest.CaptureFixture[str], store_path: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: openwar\nname: Bad\nunits:\n  - {name: X, type: Dragons}\n")
    code, _, err = run(capsys, "simulate", str(bad), str(ARMY_B), "-n", "2")
    assert code == 2 and str(bad) in err
    assert len(err.strip().splitlines()) == 1, err


def test_an_invalid_army_names_the_unit_its_first_problem_is_about(
    capsys: pytest.CaptureFixture[str], store_path: Path, tmp_path: Path
) -> None:
    """The line said "unknown unit type 'Defendrs' (and 2 more ...)", not of which unit."""
    bad = tmp_path / "typo.yaml"
    typo = ARMY_B.read_text().replace("type: Defenders", "type: Defendrs")
    bad.write_text(typo.replace("type: Command", "type: Comand"))
    code, _, err = run(capsys, "simulate", str(bad), str(ARMY_B), "-n", "2")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert (
        f"{bad}: Lodge Shieldwall: unknown unit type 'Defendrs' (did you mean 'Defenders'?) "
        "[U1 unit types] (and "
    ) in err
    assert err.rstrip().endswith(f"more: `openwar army validate {bad}` lists them)")


def test_a_run_with_failed_battles_keeps_them_and_exits_1(
    capsys: pytest.CaptureFixture[str], store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # once exit 0 with "0 battles" played
    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("engine bug")

    monkeypatch.setattr("openwar.sim.plan.fight_battle", broken)
    code, out, err = run(capsys, "simulate", *ARMIES, "-n", "2", "--workers", "1")
    assert code == 1
    assert "2 battles failed" in out and "RuntimeError: engine bug" in out
    assert (
        err.strip()
        .splitlines()[-1]
        .startswith("openwar simulate: error: 2 of 2 battles failed and are left out")
    )
    code, out, _ = run(capsys, "runs", "show", "1", "--json")
    assert code == 0 and json.loads(out)["summary"]["failed"] == 2


@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_more_workers_than_eight_a_core_are_refused(
    capsys: pytest.CaptureFixture[str], store_path: Path, monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:  # fmt: skip
    # --workers 99999 -n 500 would have started 500 processes of some 170 MB each
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    extra = ["--unit", "Lodge Shieldwall", "--size", "10,20"] if command == "sweep" else []
    code, _, err = run(capsys, command, *ARMIES, "-n", "500", "--workers", "17", *extra)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "'--workers': 17 worker processes on a machine with 2 cores; at most 16" in err
    assert not store_path.exists()  # refused before any store or process


def test_a_stop_before_the_first_battle_still_leaves_a_resume_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The run is recorded, then a SIGTERM comes before its battles start (while the progress
    bar is made): it says how to resume, as a stop in the middle does."""

    def stopped(*_: object, **__: object) -> None:
        raise Terminated

    monkeypatch.setattr("openwar.cli.simulate.progress_bar", stopped)
    store = tmp_path / "runs.sqlite"
    argv = ["simulate", *ARMIES, "-n", "3", "--workers", "1", "--store", str(store)]
    returned, out, err = run(capsys, *argv)
    resume = f"Resume with: openwar simulate --resume 1 --store {store}"
    kept = f"Terminated: 0 of 3 battles of run 1 are kept in {store}. {resume}"
    assert (returned, out, err.strip()) == (143, "", kept)


def test_a_stop_after_the_last_battle_leaves_the_run_complete(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A Ctrl-C once the run is finished (while its progress bar closes) does not mark it
    interrupted nor ask for a resume that would refuse: it says where the complete run is."""
    from openwar.sim.run import play_run

    def then_stopped(*args: Any, **kwargs: Any) -> None:
        play_run(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr("openwar.cli.simulate.play_run", then_stopped)
    store = tmp_path / "runs.sqlite"
    argv = ["simulate", *ARMIES, "-n", "2", "--workers", "1", "--store", str(store)]
    returned, out, err = run(capsys, *argv)
    said = (
        f"Interrupted: run 1 is complete, its 2 battles kept in {store}. "
        f"See it with: openwar runs show 1 --store {store}"
    )
    assert (returned, out, err.strip().splitlines()[-1]) == (130, "", said)  # after the bar
    with RunStore(store) as runs:
        assert (runs.run(1).status, runs.run(1).done) == ("complete", 2)


@pytest.mark.parametrize(
    ("stop", "code", "said"),
    [
        (KeyboardInterrupt(), 130, "Interrupted"),
        (Terminated(), 143, "Terminated"),
    ],
)
def test_a_stopped_sweep_says_so_with_the_signals_exit_code(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    stop: KeyboardInterrupt, code: int, said: str,
) -> None:  # fmt: skip
    # Typer turns a KeyboardInterrupt into a silent exit 130; a stopped command says it stopped
    def stopped(*_: object) -> None:
        raise stop

    monkeypatch.setattr("openwar.cli.sweep.play_sweep", stopped)
    argv = [
        "sweep",
        *ARMIES,
        "--unit",
        "Lodge Shieldwall",
        "--size",
        "10,20",
        "--side",
        "B",
        "--workers",
        "1",
    ]
    returned, out, err = run(capsys, *argv)
    line = err.splitlines()[-1]  # after the progress bar
    assert (returned, out) == (code, "")
    assert line.startswith(f"{said}: 0 of 200 battles of sweep 1 are kept in "), line
    assert "Resume with: openwar sweep --resume 1 --store " in line


def test_resuming_from_a_store_that_does_not_exist_leaves_no_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "new.sqlite3"
    code, _, err = run(capsys, "simulate", "--resume", "1", "--store", str(path))
    assert code != 0 and "no results store yet" in err and len(err.splitlines()) == 1
    assert not path.exists()
    folder = tmp_path / "no-such-folder" / "runs.sqlite3"  # as `runs list` says it
    code, _, err = run(capsys, "simulate", "--resume", "1", "--store", str(folder))
    assert code != 0 and f"{folder}: no results store yet" in err


def test_a_refused_simulate_leaves_no_new_store_behind(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A bad --scheduler is found after the store is opened: it left an empty store, so a
    later `runs list` showed an empty table where it says there is no store yet."""
    path = tmp_path / "fresh.sqlite3"
    code, _, err = run(capsys, "simulate", *ARMIES, "-n", "2", "--scheduler", "foo",
                       "--store", str(path))  # fmt: skip
    assert code == 2 and len(err.splitlines()) == 1 and "--scheduler" in err
    assert not path.exists() and list(tmp_path.iterdir()) == []
    code, _, err = run(capsys, "runs", "list", "--store", str(path))
    assert code == 2 and "no results store yet" in err


def test_a_cost_sweep_with_players_that_ignore_points_says_so_instead_of_a_verdict(
    capsys: pytest.CaptureFixture[str], store_path: Path
) -> None:
    """Every row was the same and the verdict asked for more battles (-n), with no word that
    random and simple players never read points (only rules that read a cost change)."""
    argv = ["sweep", *ARMIES, "--unit", "Lodge Shieldwall", "--side", "B", "--vary",
            "points_per_miniature", "--values", "5,15", "-n", "2", "--workers", "1",
            "--players", "random,simple"]  # fmt: skip
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    said = " ".join(out.split())
    assert "The random and simple players do not read points: a cost changes" in said
    code, out, err = run(capsys, *argv, "--json")
    assert json.loads(out)["players_ignore_points"] is True
    code, out, err = run(capsys, *argv[:-2], "--players", "heuristic,simple", "--json")
    assert json.loads(out)["players_ignore_points"] is False


def test_a_local_dask_run_says_nothing_of_a_port_another_cluster_holds(
    capsys: pytest.CaptureFixture[str], store_path: Path
) -> None:
    """Its scheduler serves HTTP on 8787 if free: with the port held (another cluster, or two
    runs at once) distributed's "Port 8787 is already in use" warning reached stderr."""
    import socket
    import warnings

    holder = socket.socket()
    try:
        holder.bind(("", 8787))
        holder.listen()
    except OSError:
        pass  # held already: the case itself
    try:
        with warnings.catch_warnings(record=True) as seen:  # as the command line shows them
            warnings.simplefilter("always")
            code, _, err = run(capsys, "simulate", *ARMIES, "-n", "2", "--players", "random",
                               "--scheduler", "local-dask", "--workers", "1")  # fmt: skip
    finally:
        holder.close()
    assert code == 0 and "Port" not in err, err
    assert not [w for w in seen if "already in use" in str(w.message)]
