"""``openwar sweep``: one number of a unit against the win rate, and where it is even."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
from dataclasses import replace
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from openwar.armies.validate import assess
from openwar.battleplans.files import read_battleplan
from openwar.battles import make_players, read_players
from openwar.cli import options
from openwar.cli.options import worker_count
from openwar.cli.runs import MAX_RUN_ID
from openwar.cli.simulate import note_plan_points, stop_words
from openwar.progress import progress_bar
from openwar.rulesets import load_ruleset
from openwar.sim.executors import make_executor
from openwar.sim.locks import RunBusy, being_played
from openwar.sim.plan import DESTROYED_BY_UNIT, SIDES, ArmyFile, SimulationPlan
from openwar.sim.report import with_interval
from openwar.sim.run import RunInterrupted, code_version, same_code
from openwar.sim.seeds import MAX_BATTLES, MAX_SEED
from openwar.sim.store import ENV_STORE, RunStore, default_store
from openwar.sim.sweep import (
    SIZE,
    StoredSweep,
    SweepPoint,
    changes_points,
    even_points,
    parse_values,
    play_sweep,
    record_sweep,
    stored_sweep,
    sweep_plans,
)
from openwar.stopping import held
from openwar.widths import print_whole
from openwar.words import counted


def sweep_command(
    ctx: typer.Context,
    army_a: Annotated[Path | None, typer.Argument(help="Army file of side A (YAML).")] = None,
    army_b: Annotated[Path | None, typer.Argument(help="Army file of side B (YAML).")] = None,
    unit: Annotated[
        str | None, typer.Option(help="Name of the unit to vary, as in its army file.")
    ] = None,
    size: Annotated[
        str | None, typer.Option(help="Sizes: START:STOP:STEP or A,B,C (--vary size).")
    ] = None,
    vary: Annotated[
        str | None,
        typer.Option(
            help="The number to vary instead of the size: a characteristic (armor, move ...), "
            "a weapon's number as 'WEAPON.FIELD' ('Heavy Javelin.attacks') or the cost "
            "(points_per_miniature; aos: points, for each block of the warscroll's size); "
            "see 'profile' in docs/simulate.md."
        ),
    ] = None,
    values: Annotated[
        str | None, typer.Option(help="Values of --vary: START:STOP:STEP or A,B,C.")
    ] = None,
    side: Annotated[
        str | None,
        typer.Option(
            help="Army holding the unit: A or B (default: the army that has it, A if both)."
        ),
    ] = None,
    battles: Annotated[
        int, typer.Option("-n", "--battles", min=1, max=MAX_BATTLES, help="Battles per value.")
    ] = 100,
    players: options.PlayersOption = "simple,simple",
    battleplan: Annotated[Path | None, typer.Option(help="One battleplan JSON for all.")] = None,
    seed: Annotated[
        int, typer.Option(min=0, max=MAX_SEED, help="Root seed (the same battles per value).")
    ] = 1,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            callback=worker_count,
            help="Local processes (default: one per core; with local-dask: its workers, 2).",
        ),
    ] = None,
    scheduler: Annotated[str | None, typer.Option(help="tcp://host:port or local-dask.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the sweep as JSON.")] = False,
    store: Annotated[
        Path | None, typer.Option(help="Results store (default: $OPENWAR_STORE or user data).")
    ] = None,
    resume: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_RUN_ID,
            help="Finish the interrupted sweep with this id (a complete one is shown again).",
        ),
    ] = None,
    no_store: Annotated[
        bool,
        typer.Option(
            "--no-store", help="Record nothing (a store that cannot be written; a stop loses all)."
        ),
    ] = False,
) -> None:
    """Vary one number of a unit: its side's win share at each value, and where it is even.

    The number is its size, a characteristic, a weapon's number or its cost; the same seeded
    battles are played at each value, and the share (draws count half) has a 95% interval.

    Examples: openwar sweep examples/armies/openwar/iron_road_legion.yaml
    examples/armies/openwar/hearthhold_lodge.yaml --unit "First Ironclad Cohort"
    --size 10:30:5 -n 50; the same with --vary armor --values 3:6:1 instead of --size.

    Every value is kept in the results store as a run (openwar runs list); an interrupted
    sweep is finished with --resume ID.
    """
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    # given, or $OPENWAR_STORE (repeated in a resume line: another shell may not have it)
    chosen = store is not None or bool(os.environ.get(ENV_STORE))
    path = store or default_store()
    asked: StoredSweep | None = None
    with contextlib.ExitStack() as opened:
        if resume is None:  # a bad army, unit or value is said before the store is touched
            if army_a is None or army_b is None:
                missing = "ARMY_A" if army_a is None else "ARMY_B"
                raise typer.BadParameter("give two army files (or --resume ID)",
                                         param_hint=missing)  # fmt: skip
            if unit is None:
                raise typer.BadParameter("which unit to vary? e.g. --unit \"First Ironclad "
                                         "Cohort\"", param_hint="'--unit'")  # fmt: skip
            if side is not None and side.upper() not in SIDES:
                raise typer.BadParameter(f"{side!r}: expected A or B", param_hint="'--side'")
            key, numbers = _what_to_vary(size, vary, values)
            files = (ArmyFile.read(army_a), ArmyFile.read(army_b))
            plan = SimulationPlan(files, None, read_players(players), seed, battles)
            index = SIDES.index(side.upper()) if side is not None else _side_of(plan, unit)
            if battleplan is not None:
                plan = replace(plan, battleplan=read_battleplan(battleplan, plan.ruleset))
                note_plan_points(plan, "sweep")
            plans = sweep_plans(plan, index, unit, numbers, key)
        else:  # a resume reads a store that must exist: never one made empty for it
            _refuse_with_resume(ctx, army_a, [unit, size, vary, values, side], no_store)
            runs = opened.enter_context(RunStore(path, create=False))
            asked = stored_sweep(runs, resume)
            _check_resumable(runs, asked, err)
            plan, index, unit, key = asked.plan, asked.side, asked.unit, asked.key
            plans = asked.plans
        battles = plan.battles
        complete = asked is not None and all(
            runs.run(run_id).status == "complete" for run_id in asked.run_ids
        )
        local = 1 if complete else min(workers or os.cpu_count() or 1, battles)  # none idle
        try:
            with (  # a complete sweep is read back: no workers, no cluster
                make_executor(
                    local, None if complete else scheduler, workers and local
                ) as executor,
                progress_bar(err) as progress,
            ):  # started before the store is made: a bad --scheduler leaves none
                if asked is None and not no_store:
                    runs = opened.enter_context(RunStore(path, make_folder=not chosen))
                    with held():  # a stop waits until the sweep's id is kept
                        asked = record_sweep(runs, plan, index, unit, key, plans)
                done = 0 if asked is None else sum(runs.run(i).done for i in asked.run_ids)
                if resume is not None:
                    said = "is complete: shown" if complete else "resumed"
                    err.print(f"Sweep {resume} {said} from {runs.path}", markup=False)
                what = f"{unit}: {len(plans)} values of {key}"
                task = progress.add_task(escape(what), total=battles * len(plans), completed=done)
                recorded = None if asked is None else (runs, asked.run_ids)
                points = play_sweep(
                    plans, index, executor, lambda n: progress.advance(task, n), unit, recorded
                )
        except (RunInterrupted, KeyboardInterrupt) as stop:
            if asked is None:  # stopped before it was recorded: nothing to keep
                raise
            _say_stopped(err, stop, runs, asked, (store or runs.path) if chosen else None, as_json)
    even = even_points(points, key)
    note = _note(plan, index, unit, key)
    limit = assess(plan.army_lists()[index]).limit
    over = [p.value for p in points if limit is not None and p.points > limit]
    # a cost read by no player: the same battles at every value (docs/simulate.md)
    blind = (
        key != SIZE
        and changes_points(key)
        and not any(p.reads_points for p in make_players(plan.players, plan.seed, plan.ruleset))
    )
    if as_json:
        data = {
            "unit": unit,
            "side": SIDES[index],
            "vary": key,
            "vary_note": note,
            "battles": battles,
            "seed": plan.seed,
            "players": list(plan.players),
            "sweep": [p.to_json() for p in points],
            "even": even,
            "points_limit": limit,
            "over_limit": over,
            "players_ignore_points": blind,
            "sweep_id": None if asked is None else asked.run_ids[0],
            "runs": None if asked is None else asked.run_ids,
        }
        typer.echo(json.dumps(data, indent=2))
    else:
        if over:
            note = (f"{note}\n" if note else "") + (
                f"* over the army's {limit}-point limit: not a legal army, played all the same"
            )
        blind_to = " and ".join(sorted(set(plan.players))) if blind else None
        console = Console(highlight=False)
        console.print(_fixed(plan, index, battles), markup=False)
        _print(console, unit, SIDES[index], key, points, even, note, limit, blind_to)
    named = f" --store {shlex.quote(str(store or path))}" if chosen else ""
    if asked is not None:
        ids = asked.run_ids
        err.print(
            f"Sweep {ids[0]} stored in {runs.path} as runs {ids[0]}-{ids[-1]}, one a value: "
            f"openwar runs show ID{named}",
            markup=False,
        )
    failed = sum(p.failed for p in points)
    if failed:  # a value whose battles all failed reads as an even 50%
        shown = "openwar simulate on one value shows"
        if asked is not None:
            first = next(i for i, p in zip(asked.run_ids, points, strict=True) if p.failed)
            shown = f"openwar runs show {first}{named} shows"
        err.print(
            f"openwar sweep: error: {failed} of {counted(battles * len(points), 'battle')} "
            f"failed and are left out of the figures ({shown} the first one's seed and error)",
            markup=False,
        )
        raise typer.Exit(1)


def _refuse_with_resume(
    ctx: typer.Context, army_a: Path | None, given: list[object], no_store: bool
) -> None:
    """What a resumed sweep takes from the store may not be given with --resume."""
    if no_store:
        raise typer.BadParameter("a resumed sweep is in the store: --no-store cannot go with it",
                                 param_hint="'--resume'")  # fmt: skip
    stored = ("battles", "players", "battleplan", "seed")
    if (
        army_a is not None
        or any(v is not None for v in given)
        or any(options.given(ctx, name) for name in stored)
    ):
        raise typer.BadParameter(
            "a resumed sweep takes its armies, unit, values, -n, --players, --seed and "
            "--battleplan from the store (give only --resume ID)",
            param_hint="'--resume'",
        )


def _check_resumable(runs: RunStore, sweep: StoredSweep, err: Console) -> None:
    """A sweep another process is playing is refused before any worker starts; one recorded
    by other code is resumed with a warning (its battles may differ)."""
    sweep_id = sweep.run_ids[0]
    for run_id in sweep.run_ids:
        if runs.run(run_id).status != "complete" and being_played(runs.path, run_id):
            raise RunBusy(run_id, f"sweep {sweep_id}")
    recorded = runs.run(sweep_id).code_version
    if not same_code(recorded, sweep.plan.ruleset):
        err.print(
            f"warning: sweep {sweep_id} was started with {recorded}; this is "
            f"{code_version(sweep.plan.ruleset)}, so its results may differ",
            markup=False,
        )


def _say_stopped(
    err: Console,
    stop: RunInterrupted | KeyboardInterrupt,
    runs: RunStore,
    sweep: StoredSweep,
    store: Path | None,
    as_json: bool,
) -> NoReturn:
    """How far a stopped sweep got, where it is kept and how to finish it; exits."""
    sweep_id = sweep.run_ids[0]
    what, code = stop_words(stop, "sweep")  # a bare signal: between two values' runs
    done = sum(runs.run(run_id).done for run_id in sweep.run_ids)
    total = sum(plan.battles for _, _, plan in sweep.plans)
    named = f" --store {shlex.quote(str(store))}" if store is not None else ""
    err.print(
        f"{what}: {done} of {total} battles of sweep {sweep_id} are kept in {runs.path}. "
        f"Resume with: openwar sweep --resume {sweep_id}{named}" + (" --json" if as_json else ""),
        markup=False,
    )
    raise typer.Exit(code)


def _side_of(plan: SimulationPlan, unit: str) -> int:
    """The army that has ``unit`` when --side is not given: B if only B has it, else A (a
    unit in neither is then refused with A's units named)."""
    a, b = ([u.name for u in army.units] for army in plan.army_lists())
    return 1 if unit in b and unit not in a else 0


def _fixed(plan: SimulationPlan, index: int, battles: int) -> str:
    """What every value shares: the armies (the other at its file's points), the battles a
    value with their seed, the players and the battleplans."""
    armies = plan.army_lists()
    other = armies[1 - index]
    against = f"{SIDES[1 - index]}: {other.name} ({assess(other).cost.total} pts)"
    return (f"{SIDES[index]}: {armies[index].name} (varied) vs {against}; "
            f"{counted(battles, 'battle')} a value, seed {plan.seed} (the same battles at "
            f"every value), players {','.join(plan.players)}, {plan.describe_board()}")  # fmt: skip


def _what_to_vary(size: str | None, vary: str | None, values: str | None) -> tuple[str, list[int]]:
    """``--size SPEC``, or ``--vary KEY --values SPEC``: the key and its values."""
    if size is not None:
        if vary is not None or values is not None:
            raise typer.BadParameter("give --size, or --vary with --values, not both",
                                     param_hint="'--size'")  # fmt: skip
        return SIZE, parse_values(size, lowest=None)  # the unit names its own least size
    if vary is None or values is None:
        missing = "--vary" if values is not None else "--values"
        if vary is None and values is None:
            raise typer.BadParameter("what to vary: --size SPEC, or --vary KEY --values SPEC",
                                     param_hint="'--size'")  # fmt: skip
        other = "--values SPEC" if missing == "--vary" else "--vary KEY"
        raise typer.BadParameter(f"not given; it goes with {other}", param_hint=f"'{missing}'")
    if vary == SIZE:
        return SIZE, parse_values(values, "--values", lowest=None)
    return vary, parse_values(values, "--values", lowest=None)


def _print(
    console: Console,
    unit: str,
    side: str,
    key: str,
    points: list[SweepPoint],
    even: dict[str, float | None],
    note: str | None = None,
    limit: int | None = None,
    blind_to: str | None = None,
) -> None:
    title = escape(f"{unit} ({side}): win share of {side}, draws half")
    destroyed = any(p.destroyed is not None for p in points)  # "-" where a value's all failed
    if destroyed:
        told = (
            f"its pts destroyed: what {unit} destroyed a battle, mean: {DESTROYED_BY_UNIT}; "
            "destroyed/pt: that over its own points at the value, with its 95% interval"
        )
        note = told + (f"\n{note}" if note else "")
    caption = note and escape(note)
    table = Table(title=title, title_justify="left", caption=caption, caption_justify="left")
    columns = [key, "army pts", "wins", "draws", "losses", "share", "95% interval"]
    for column in columns + (["its pts destroyed", "destroyed/pt"] if destroyed else []):
        table.add_column(escape(column), justify="right")
    for p in points:
        low, high = p.interval()
        cells = [
            str(p.value),
            f"{p.points}*" if limit is not None and p.points > limit else str(p.points),
            str(p.wins),
            str(p.draws),
            str(p.losses),
            f"{p.share:.1%}",
            f"{low:.1%} - {high:.1%}",
        ]
        if destroyed:
            shown = with_interval(p.destroyed_per_point, p.per_point_interval())
            cells += ["-" if p.destroyed is None else f"{p.destroyed:.1f}", shown]
        table.add_row(*cells)
    print_whole(console, table)
    if blind_to is not None:  # said before the verdict, which reads as if the players cared
        console.print(escape(
            f"The {blind_to} players do not read points: a cost changes their battles only "
            "where a rule reads it (War of Attrition's scores; Lightning Strikes, "
            "Reinforcements and healing picking the costliest unit). To ask what the unit is "
            "worth, sweep with heuristic or search players (--players), or sweep its size."
        ))  # fmt: skip
    if even["value"] is None:
        console.print(escape(_never_even(side, points, key)))
        return
    at = f"{key} {even['value']:g}"
    if even["points"] is not None:
        at += f", {even['points']:.0f} army points"
    spread = _spread(key, even["value_low"], even["value_high"], even["low"], even["high"])
    crossings = int(even.get("crossings") or 0)
    again = (
        f" The share crosses 50% {crossings} times: the first is shown; more battles a value "
        "would tell which is real."
        if crossings > 1
        else ""
    )
    console.print(escape(f"Even matchup at about {at}{spread}.{again}"))


def _spread(
    key: str,
    low: float | None,
    high: float | None,
    points_low: float | None = None,
    points_high: float | None = None,
) -> str:
    """The even point's 95% range, in the varied number and, where the points change with
    it and both ends are inside the sweep, in army points; an end past the sweep said as
    such, the other kept.

    >>> _spread("size", 15.6, 25.5, 905.0, 960.0)
    ' (95%: size 15.6 - 25.5, 905 - 960 army points)'
    >>> _spread("morale", 3.1, None)
    ' (95%: morale 3.1 or more, past the largest value swept)'
    >>> _spread("size", None, None)
    ' (95% range reaches past the sweep)'
    """
    pts = points_low is not None and points_high is not None
    if low is not None and high is not None:
        also = f", {points_low:.0f} - {points_high:.0f} army points" if pts else ""
        return f" (95%: {key} {low:g} - {high:g}{also})"
    if low is not None:
        return f" (95%: {key} {low:g} or more, past the largest value swept)"
    if high is not None:
        return f" (95%: {key} {high:g} or less, past the smallest value swept)"
    return " (95% range reaches past the sweep)"


def _note(plan: SimulationPlan, side: int, unit: str, key: str) -> str | None:
    """What a value of ``key`` counts, where the ruleset says more than its name does."""
    army = plan.army_lists()[side]
    listed = next(u for u in army.units if u.name == unit)
    return load_ruleset(army.ruleset).hooks.profile_note(listed, key)


def _never_even(side: str, points: list[SweepPoint], key: str = "size") -> str:
    """What a sweep that names no even point shows: an uneven matchup only where every
    interval leaves 50% out, and the values where one does not (it said "its intervals reach
    50%" when only one did); else too few battles to tell (also when the share reaches 50%
    but every interval holds it: one value's share at 50% is no more even than the rest)."""
    if all(p.share < 0.5 for p in points) or all(p.share > 0.5 for p in points):
        where = "below" if points[0].share < 0.5 else "above"
        open_ = [p.value for p in points if p.interval()[0] <= 0.5 <= p.interval()[1]]
        if not open_:
            return f"The matchup is uneven across this range: {side}'s share stays {where} 50%."
        if len(open_) == len(points):
            return (
                f"{side}'s share stays {where} 50% across this range, but every interval holds "
                "50%: more battles (-n) would tell whether the matchup is even here."
            )
        *most, last = (str(v) for v in open_)
        shown = f"{', '.join(most)} and {last}" if most else last
        whose = "whose intervals hold" if most else "whose interval holds"
        return (
            f"{side}'s share stays {where} 50% across this range, clearly so except at {key} "
            f"{shown}, {whose} 50%: more battles (-n) would tell whether the matchup is even "
            "there."
        )
    return (
        f"{side}'s share reaches 50% in this range, but every interval holds 50%: more "
        "battles (-n) would tell where, or whether, the matchup is even."
    )
