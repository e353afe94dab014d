"""``openwar simulate``: many seeded battles between two armies, summarised with intervals."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from openwar.battleplans.files import read_battleplan
from openwar.battles import read_players
from openwar.cli import options
from openwar.cli.options import picture_file, refuse_inputs
from openwar.cli.runs import MAX_RUN_ID
from openwar.errors import OpenWarError
from openwar.progress import progress_bar
from openwar.sim.executors import Executor, make_executor
from openwar.sim.locks import RunBusy, being_played, playing
from openwar.sim.plan import ArmyFile, BattleResult, SimulationPlan
from openwar.sim.report import print_summary
from openwar.sim.run import (
    FinishedRun,
    RunInterrupted,
    code_version,
    new_run,
    play_run,
    same_code,
    stopped,
)
from openwar.sim.seeds import MAX_BATTLES, MAX_SEED
from openwar.sim.store import ENV_STORE, RunStore, default_store
from openwar.stopping import INTERRUPTED_EXIT, TERMINATED_EXIT, Terminated
from openwar.words import counted

ArmyArgument = Annotated[Path | None, typer.Argument(help="Army file of side A (YAML).")]


def simulate_command(
    ctx: typer.Context,
    army_a: ArmyArgument = None,
    army_b: Annotated[Path | None, typer.Argument(help="Army file of side B (YAML).")] = None,
    battles: Annotated[
        int | None,
        typer.Option(
            "-n",
            "--battles",
            min=1,
            max=MAX_BATTLES,
            help="Number of battles (needed unless --resume).",
        ),
    ] = None,
    players: options.PlayersOption = "simple,simple",
    battleplan: Annotated[
        Path | None,
        typer.Option(help="One battleplan JSON for every battle (default: one per battle)."),
    ] = None,
    seed: Annotated[
        int,
        typer.Option(min=0, max=MAX_SEED, help="Root seed: battle i uses child i of its spawn(n)."),
    ] = 1,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            callback=options.worker_count,
            help="Local processes (default: one per core; with local-dask: its workers, 2).",
        ),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(help="Run on Dask: tcp://host:port of a scheduler, or local-dask."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    plot: Annotated[
        Path | None,
        typer.Option(help="Chart of the outcomes (.svg or .png).", callback=picture_file),
    ] = None,
    store: Annotated[
        Path | None, typer.Option(help="Results store (default: $OPENWAR_STORE or user data).")
    ] = None,
    resume: Annotated[
        int | None,
        typer.Option(min=1, max=MAX_RUN_ID, help="Finish the interrupted run with this id."),
    ] = None,
) -> None:
    """Play N seeded battles between two armies and report who wins, how often and at what cost.

    Battle i is exactly `openwar battle ARMY_A ARMY_B --seed SEED_i` (SEED_i from child i of
    SeedSequence(seed).spawn(N); `openwar runs export ID --csv -` lists them); without
    --battleplan each battle generates its own battleplan from its seed. Results are the same
    for any --workers or --scheduler.

    Example: openwar simulate examples/armies/openwar/iron_road_legion.yaml
    examples/armies/openwar/hearthhold_lodge.yaml -n 100 --plot outcomes.svg
    """
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    # given, or $OPENWAR_STORE (repeated in a resume line: another shell may not have it);
    # else the user data folder
    chosen = store is not None or bool(os.environ.get(ENV_STORE))
    refuse_inputs({"--plot": plot}, [army_a, army_b, battleplan, store or default_store()])
    if resume is not None:
        stored_options = ("players", "seed", "battleplan")
        given = [f"--{name}" for name in stored_options if options.given(ctx, name)]
        _refuse_with_resume(army_a, battles, given)
    path = store or default_store()
    with contextlib.ExitStack() as opened:
        if resume is None:  # a bad army or battleplan is said before the store is touched
            plan = _plan(army_a, army_b, battles, players, battleplan, seed)
        else:  # a resume reads a store that must exist: never one made empty for it
            runs = opened.enter_context(RunStore(path, create=False))
            plan = _resumable(runs, resume)
        local = min(workers or os.cpu_count() or 1, plan.battles)  # no idle processes
        executor = make_executor(local, scheduler, workers and local)
        try:
            with executor:  # started before the store is made: a bad --scheduler leaves none
                if resume is None:
                    runs = opened.enter_context(RunStore(path, make_folder=not chosen))
                run_id = resume if resume is not None else new_run(runs, plan)
                try:  # play_run answers a stop in its own steps; this one, before them
                    with playing(runs.path, run_id):  # held from its first moment (play_run too)
                        if resume is not None:
                            err.print(f"Resuming run {run_id} from {runs.path}", markup=False)
                        finished = _play(runs, run_id, executor, err)
                except KeyboardInterrupt as exc:
                    raise stopped(runs, run_id, exc) from None
        except RunInterrupted as stop:
            what, code = stop_words(stop)
            named = f" --store {shlex.quote(str(store or runs.path))}" if chosen else ""
            if stop.complete:  # stopped while its report was made: nothing left to resume
                line = (
                    f"{what}: run {stop.run_id} is complete, its {stop.total} battles kept in "
                    f"{runs.path}. See it with: openwar runs show {stop.run_id}{named}"
                )
            else:
                line = (
                    f"{what}: {stop.done} of {stop.total} battles of run {stop.run_id} are kept "
                    f"in {runs.path}. Resume with: openwar simulate --resume {stop.run_id}"
                    + named
                    + (f" --plot {shlex.quote(str(plot))}" if plot is not None else "")
                    + (" --json" if as_json else "")
                )
            err.print(line, markup=False)
            raise typer.Exit(code) from None
        _report(finished, runs.path, plot, as_json, err)
    failed = finished.summary["failed"]
    if failed:  # the figures are of the battles played; the run is not what was asked
        total = failed + finished.summary["played"]
        err.print(
            f"openwar simulate: error: {failed} of {counted(total, 'battle')} failed and are "
            "left out of the figures ("
            + (
                'their seeds and errors are under "failures" in the JSON)'
                if as_json
                else "the first one's seed and error are above)"
            ),
            markup=False,
        )
        raise typer.Exit(1)


def stop_words(
    stop: RunInterrupted | KeyboardInterrupt, command: str = "simulate"
) -> tuple[str, int]:
    """What stopped a run (or a command between two runs: a bare Ctrl-C or SIGTERM), as a
    message begins, and the exit code: lost workers are an error (1), Ctrl-C and SIGTERM the
    signals' codes."""
    if isinstance(stop, RunInterrupted) and stop.reason:
        return f"openwar {command}: error: {stop.reason}", 1
    terminated = (
        stop.terminated if isinstance(stop, RunInterrupted) else isinstance(stop, Terminated)
    )
    if terminated:
        return "Terminated", TERMINATED_EXIT
    return "Interrupted", INTERRUPTED_EXIT


def _plan(
    army_a: Path | None,
    army_b: Path | None,
    battles: int | None,
    players: str,
    battleplan: Path | None,
    seed: int,
) -> SimulationPlan:
    if army_a is None or army_b is None:
        missing_side = "ARMY_A" if army_a is None else "ARMY_B"
        raise typer.BadParameter("give two army files (or --resume ID)", param_hint=missing_side)
    if battles is None:
        raise typer.BadParameter("how many battles? e.g. -n 100", param_hint="'-n'")
    plan = SimulationPlan(
        armies=(ArmyFile.read(army_a), ArmyFile.read(army_b)),
        battleplan=None,
        players=read_players(players),
        seed=seed,
        battles=battles,
    )
    ruleset = plan.ruleset  # a bad army file is reported before any worker starts
    if battleplan is None:
        note_plan_points(plan, "simulate")
        return plan
    plan = replace(plan, battleplan=read_battleplan(battleplan, ruleset))
    note_plan_points(plan, "simulate")
    return plan


def note_plan_points(plan: SimulationPlan, command: str) -> None:
    """Say so when the run's battleplan file was made for other points than an army's, or
    when the armies' limits differ and each battleplan is generated for the larger."""
    limits = [army.points_limit for army in plan.army_lists()]
    if plan.battleplan is not None:
        options.note_plan_points(plan.battleplan, limits, command)
    else:
        options.note_generated_points(limits, command)


def _refuse_with_resume(army_a: Path | None, battles: int | None, given: list[str]) -> None:
    """What a resume takes from the store may not be given (said before the store is read)."""
    written = [
        *(["the army files"] if army_a is not None else []),
        *(["-n"] if battles is not None else []),
        *given,
    ]
    if written:  # name what was given, not every option a resume refuses
        what = written[0] if len(written) == 1 else f"{', '.join(written[:-1])} and {written[-1]}"
        raise typer.BadParameter(
            f"{what} cannot be given with it: a resumed run takes its armies, -n, --players, "
            "--seed and --battleplan from the store (give only --resume ID)",
            param_hint="'--resume'",
        )


def _resumable(runs: RunStore, run_id: int) -> SimulationPlan:
    stored = runs.run(run_id)
    if stored.status == "complete":
        raise OpenWarError(f"run {run_id} is already complete (openwar runs show {run_id})")
    if being_played(runs.path, run_id):  # said before any worker starts (play_run holds it)
        raise RunBusy(run_id)
    try:
        stored.plan.army_lists()
    except OpenWarError as exc:  # the store's copy of an army, not the file it was read from
        raise OpenWarError(f"run {run_id} in {runs.path}: its stored armies: {exc}") from exc
    if not same_code(stored.code_version, stored.plan.ruleset):
        Console(stderr=True).print(
            f"warning: run {run_id} was started with {stored.code_version}; "
            f"this is {code_version(stored.plan.ruleset)}, so its results may differ",
            markup=False,
        )
    return stored.plan


def _play(runs: RunStore, run_id: int, executor: Executor, err: Console) -> FinishedRun:
    stored = runs.run(run_id)
    total = stored.plan.battles
    already = stored.done  # counted in the store: no seeds spawned outside play_run's Ctrl-C
    name = escape(f"{stored.army_names[0]} vs {stored.army_names[1]}")
    with progress_bar(err, label="[bold]{task.description}", transient=False) as progress:
        task = progress.add_task(name, total=total, completed=already)

        def advance(results: list[BattleResult]) -> None:
            progress.advance(task, len(results))

        return play_run(runs, run_id, executor, advance)


def _report(
    finished: FinishedRun, path: Path, plot: Path | None, as_json: bool, err: Console
) -> None:
    refused: OpenWarError | None = None
    if plot is not None:  # first: a reader that stops reading (| head) still gets the chart
        from openwar.sim.plot import plot_run

        try:
            plot_run(finished.summary, finished.results, plot)
        except OpenWarError as exc:  # said last: a chart refused loses neither run nor summary
            refused = exc
    if as_json:
        typer.echo(json.dumps(finished.summary, indent=2))
    else:
        print_summary(Console(highlight=False), finished.summary)
    where = f"Run {finished.run_id} stored in {path}: openwar runs show {finished.run_id}"
    err.print(where, markup=False)
    if refused is not None:
        raise refused
    if plot is not None:
        err.print(f"Chart: {plot}", markup=False)
