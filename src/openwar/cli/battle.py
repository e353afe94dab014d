"""``openwar battle`` and ``openwar replay``: play a battle from files, read it round by round."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from openwar.battles import (
    BattleSetup,
    fight_battle,
    last_round,
    load_setup,
    read_players,
    replay,
    replay_json,
    save_replay,
    version_note,
)
from openwar.cli import options
from openwar.engine.actions import Action
from openwar.engine.runner import BattleRecord
from openwar.engine.state import GameState
from openwar.errors import OpenWarError
from openwar.progress import progress_bar
from openwar.sim.plan import DESTROYED_BY_UNIT, measure
from openwar.sim.report import variants_note
from openwar.sim.seeds import MAX_SEED
from openwar.summary import RoundSummary, summarise
from openwar.widths import print_whole
from openwar.words import counted

SIDE_NAMES = ("A", "B")


SvgOption = Annotated[
    Path | None, typer.Option(help="Picture of the table as SVG.", callback=options.svg_file)
]
PngOption = Annotated[
    Path | None, typer.Option(help="Picture of the table as PNG.", callback=options.png_file)
]
RoundOption = Annotated[
    int | None, typer.Option("--round", min=1, help="Picture at the end of round K.")
]


def battle_command(
    army_a: Annotated[Path, typer.Argument(help="Army file of side A (YAML).")],
    army_b: Annotated[Path, typer.Argument(help="Army file of side B (YAML).")],
    battleplan: Annotated[
        Path | None,
        typer.Option(
            help="Battleplan JSON made for the armies' ruleset (`openwar battleplan --ruleset "
            "openwar --points 1000 --json`, or --ruleset aos)."
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option(min=0, max=MAX_SEED, help="Seed of the dice (and of the plan).")
    ] = 1,
    players: options.PlayersOption = "simple,simple",
    log: Annotated[bool, typer.Option("--log", help="Print every action and event.")] = False,
    replay_file: Annotated[
        Path | None,
        typer.Option(
            "--replay", help="Write the replay to FILE (JSON).", callback=options.output_file
        ),
    ] = None,
    svg: SvgOption = None,
    png: PngOption = None,
    round_shown: RoundOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    triumph: Annotated[
        str | None,
        typer.Option(
            help="Age of Sigmar: side(s) that won a major victory in their previous battle "
            "and roll on the Triumphs table (A, B or A,B)."
        ),
    ] = None,
) -> None:
    """Play a battle between two army files (OpenWar or Age of Sigmar) and show what happened.

    Example: openwar battle examples/armies/openwar/iron_road_legion.yaml
    examples/armies/openwar/hearthhold_lodge.yaml --seed 7 --png battle.png
    """
    _one_picture(svg, png, round_shown)
    _log_or_json(log, as_json)
    options.refuse_inputs({"--replay": replay_file, "--svg": svg, "--png": png},
                          [army_a, army_b, battleplan])  # fmt: skip
    if replay_file is not None and any(
        options.same_file(replay_file, path) for path in (svg, png) if path is not None
    ):
        raise typer.BadParameter(  # the picture, written second, would replace the replay
            f"{replay_file} is also the picture's file; give the replay a name of its own",
            param_hint="'--replay'",
        )
    chosen = read_players(players)
    read = _read_plan(battleplan, army_a) if battleplan is not None else None
    setup = load_setup((army_a, army_b), None if read is None else read[1], seed)
    limits = [army.points_limit for army in setup.armies]
    if read is not None:
        options.note_plan_points(read[0], limits, "battle")
    else:
        options.note_generated_points(limits, "battle")
    if triumph is not None:
        _triumphs(setup, triumph)
    rounds = last_round(setup)
    if round_shown is not None and round_shown > rounds:
        raise typer.BadParameter(f"the battle lasts at most {rounds} rounds",
                                 param_hint="'--round'")  # fmt: skip
    record = _fought(setup, chosen, rounds, keep_rounds=round_shown is not None)
    round_shown = _round_reached(record, round_shown, "battle")
    saved = None
    try:
        if replay_file is not None:  # first: the battle is kept whatever its picture's fate
            save_replay(replay_file, replay_json(setup, chosen, record))
            saved = replay_file
        picture = _pictures(record, setup, (svg, png), round_shown)
    except OpenWarError:  # a write refused late (the early check cannot foresee all): the
        report(setup, record, chosen, as_json=as_json, log=log, picture=[], replay=saved)
        raise  # report of the battle played, then the one error line
    report(setup, record, chosen, as_json=as_json, log=log, picture=picture, replay=saved)


def _fought(
    setup: BattleSetup, chosen: tuple[str, str], rounds: int, keep_rounds: bool
) -> BattleRecord:
    """Play the battle; on a terminal, a bar of the rounds shows it going (a battle of search
    players takes a minute or more; a log or a pipe gets nothing more than the report)."""
    err = Console(stderr=True)
    if not err.is_terminal:
        return fight_battle(setup, chosen, keep_rounds)
    with progress_bar(err, remaining=False) as progress:
        task = progress.add_task("set-up", total=rounds)

        def shown(state: GameState) -> None:
            progress.update(task, completed=max(state.round - 1, 0),
                            description=f"round {max(state.round, 1)} of {rounds}")  # fmt: skip

        return fight_battle(setup, chosen, keep_rounds, on_action=shown)


def replay_command(
    file: Annotated[Path, typer.Argument(help="A replay written by `openwar battle --replay`.")],
    log: Annotated[bool, typer.Option("--log", help="Print every action and event.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    svg: SvgOption = None,
    png: PngOption = None,
    round_shown: RoundOption = None,
) -> None:
    """Replay a battle, check it reaches the recorded final state, and show its summary (and
    the table at its end, or at the end of a round, as `openwar battle` draws it).

    Example: openwar replay battle.json --round 2 --png round2.png
    """
    _one_picture(svg, png, round_shown)
    _log_or_json(log, as_json)
    options.refuse_inputs({"--svg": svg, "--png": png}, [file])
    setup, record, chosen = replay(file, keep_rounds=round_shown is not None)
    rounds = last_round(setup)
    if round_shown is not None and round_shown > rounds:  # as battle refuses it, before a word
        raise typer.BadParameter(f"the battle lasts at most {rounds} rounds",
                                 param_hint="'--round'")  # fmt: skip
    note = version_note(file)
    if note:
        typer.echo(f"openwar replay: note: {note}", err=True)
    round_shown = _round_reached(record, round_shown, "replay")
    try:
        picture = _pictures(record, setup, (svg, png), round_shown)
    except OpenWarError:  # a write refused late: the replay's report, then the error line
        report(setup, record, chosen, as_json=as_json, log=log, picture=[], replay=None,
               verified=True)  # fmt: skip
        raise
    report(setup, record, chosen, as_json=as_json, log=log, picture=picture, replay=None,
           verified=True)  # fmt: skip


def _one_picture(svg: Path | None, png: Path | None, round_shown: int | None) -> None:
    """--round only with a picture (--svg, --png or both, as ``battleplan`` writes them)."""
    if round_shown is not None and svg is None and png is None:
        raise typer.BadParameter("it picks the round of the picture; give --png or --svg too",
                                 param_hint="'--round'")  # fmt: skip


def _round_reached(record: BattleRecord, round_shown: int | None, command: str) -> int | None:
    """The round to draw: ``round_shown``, or None (the end) with a note when the battle
    ended before that round's end."""
    if round_shown is None or _reached(record, round_shown):
        return round_shown
    Console(stderr=True, soft_wrap=True).print(
        f"openwar {command}: note: the battle ended in round {record.final.round}, before "
        f"round {round_shown}: the picture shows its end",
        markup=False,
        highlight=False,
    )
    return None  # the end of the battle is what the table looked like then


def _log_or_json(log: bool, as_json: bool) -> None:
    """The log is text for a reader; with --json it was dropped without a word."""
    if log and as_json:
        raise typer.BadParameter("give --log or --json, not both", param_hint="'--log'")


def _triumphs(setup: BattleSetup, sides: str) -> None:
    """AOS-B10: the triumphs are part of the board, so replays keep them."""
    if setup.ruleset != "aos":
        raise typer.BadParameter("triumphs are an Age of Sigmar rule", param_hint="'--triumph'")
    from openwar.rulesets.aos.board import triumph_sides

    try:
        setup.board["triumphs"] = triumph_sides(sides)
    except OpenWarError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--triumph'") from None


def _read_plan(path: Path, army: Path) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The plan and board of a battleplan JSON file, checked against army A's ruleset (as
    ``simulate`` and ``sweep`` check it)."""
    from openwar.armies.files import load_army
    from openwar.battleplans.files import read_plan_and_board
    from openwar.rulesets import load_ruleset

    ruleset = load_army(army).ruleset
    if "battles" not in load_ruleset(ruleset).supports:
        return None  # load_setup says that these armies cannot fight a battle
    return read_plan_and_board(path, ruleset)


def _reached(record: BattleRecord, round_shown: int) -> bool:
    """Whether the battle saw the end of round ``round_shown`` (or ended during it)."""
    return round_shown in record.snapshots or round_shown == record.final.round


def _pictures(
    record: BattleRecord,
    setup: BattleSetup,
    paths: tuple[Path | None, Path | None],
    round_shown: int | None,
) -> list[Path]:
    """The table drawn to each of the paths given (SVG, PNG), in that order."""
    return [_picture(record, setup, path, round_shown) for path in paths if path is not None]


def _picture(record: BattleRecord, setup: BattleSetup, path: Path, round_shown: int | None) -> Path:
    from openwar.render.battle import draw_battle

    state = record.final
    title = f"{setup.board.get('name', 'OpenWar')} — end of the battle"
    if round_shown is not None:
        state = record.snapshots.get(round_shown, record.final)
        title = f"{setup.board.get('name', 'OpenWar')} — end of round {round_shown}"
    sides = (f"A: {setup.armies[0].name}", f"B: {setup.armies[1].name}")
    return draw_battle(state, path, title, sides)


def report(
    setup: BattleSetup,
    record: BattleRecord,
    chosen: tuple[str, str],
    *,
    as_json: bool,
    log: bool,
    picture: list[Path],
    replay: Path | None,
    verified: bool = False,
) -> None:
    result = record.outcome
    if setup.ruleset == "aos":
        from openwar.rulesets.aos.report import moments, rounds_table
        from openwar.rulesets.aos.report import report as aos_report

        aos_rounds = aos_report(record)
        summary_json = [r.to_json() for r in aos_rounds]
        table: Table = rounds_table(aos_rounds)
        highlights = moments(aos_rounds)
    else:
        rounds = summarise(record)
        summary_json = [r.to_json() for r in rounds]
        table = _rounds_table(rounds, setup)
        highlights = _highlights(rounds)
    unplaced = no_room(record)
    highlights = _no_room_lines(unplaced) + highlights
    units = unit_rows(setup, record)
    if as_json:
        winner = None if result.winner is None else SIDE_NAMES[result.winner]
        typer.echo(
            json.dumps(
                {
                    "winner": winner,
                    "victory": result.victory,
                    "scores": list(result.scores),
                    "rounds": result.rounds,
                    "reason": result.reason,
                    "state_hash": record.final.state_hash(),
                    "seed": setup.seed,
                    "armies": [a.name for a in setup.armies],
                    "players": list(chosen),
                    "battleplan": setup.board.get("name"),
                    "twist": setup.board.get("twist"),
                    "ruses": setup.board.get("ruses") or [None, None],
                    "actions": len(record.actions),
                    "no_room": [list(names) for names in unplaced],
                    "summary": summary_json,
                    "units": units,
                    "picture": str(picture[0]) if picture else None,  # the first, as before
                    "pictures": [str(path) for path in picture],
                    "replay": None if replay is None else str(replay),
                    "verified": verified or None,  # None: a battle played, not a replay
                },
                indent=2,
            )
        )
        return
    console = Console(highlight=False)
    names = [f"{SIDE_NAMES[i]}: {army.name} ({chosen[i]})" for i, army in enumerate(setup.armies)]
    plan_name = escape(str(setup.board.get("name", "OpenWar")))
    twist = setup.board.get("twist")
    told = f" — twist: {escape(str(twist))}" if twist and twist != "No Twist" else ""
    secret = setup.board.get("ruses") or [None, None]
    if any(secret):
        shown = ", ".join(f"{SIDE_NAMES[i]} {name or 'none'}" for i, name in enumerate(secret))
        told += f" — ruses: {escape(shown)}"
    console.print(f"[bold]{plan_name}[/bold] — seed {setup.seed}{told}")
    console.print("   vs   ".join(names), markup=False)
    if log:
        _print_log(console, record)
    print_whole(console, table)
    for line in highlights:
        console.print(f"  {line}", markup=False)
    print_whole(console, _units_table(units))
    winner = (
        "no winner"
        if result.winner is None
        else "winner " + escape(f"{SIDE_NAMES[result.winner]} ({setup.armies[result.winner].name})")
    )
    console.print(
        f"Result: [bold]{escape(result.victory)}[/bold] — {winner}; scores A "
        f"{result.scores[0]} - B {result.scores[1]} after {counted(result.rounds, 'round')} "
        f"({escape(result.reason)})"
    )
    console.print(f"{len(record.actions)} actions; final state {record.final.state_hash()[:16]}")
    if verified:
        console.print("Replay verified: the final state matches the recorded hash.")
    for path in picture:
        console.print(f"Picture of the table: {path}", markup=False)
    if replay is not None:
        console.print(f"Replay written to {replay}", markup=False)


def unit_rows(setup: BattleSetup, record: BattleRecord) -> list[dict[str, Any]]:
    """Each unit's part in the battle: its miniatures lost (slain or fled) and the enemy
    points it destroyed (``DESTROYED_BY_UNIT``), as a simulation counts them."""
    measured = measure(0, setup.seed, setup, record)
    own = [dict(u.profile) for army in setup.armies for u in army.units]  # as battles number them
    rows = []
    for k, (unit, size, lost, destroyed) in enumerate(
        zip(
            record.final.units,
            measured.units_size,
            measured.units_lost,
            measured.units_destroyed,
            strict=True,
        )
    ):
        row = {
            "side": SIDE_NAMES[unit.side],
            "unit": unit.name,
            "points": unit.points,
            "miniatures": size,
            "lost": lost,
            "points_destroyed": destroyed,
        }
        if k < len(own) and own[k]:  # a home-made variant's own numbers, as simulate's rows
            row["profile"] = own[k]
        rows.append(row)
    return rows


def _units_table(units: list[dict[str, Any]]) -> Table:
    caption = f"lost: miniatures slain or fled; pts destroyed: {DESTROYED_BY_UNIT}"
    caption += variants_note(units)
    table = Table(
        title="Units", title_justify="left", caption=escape(caption), caption_justify="left"
    )
    for column in ("side", "unit", "pts", "lost", "pts destroyed"):
        table.add_column(column, justify="left" if column == "unit" else "right")
    for unit in units:
        table.add_row(
            unit["side"],
            escape(unit["unit"] + ("*" if unit.get("profile") else "")),
            str(unit["points"]),
            f"{unit['lost']}/{unit['miniatures']}",
            f"{unit['points_destroyed']:.0f}",
        )
    return table


ORDER_LETTERS = {"advance": "A", "hold": "H", "run": "R", "skill": "S", "regroup": "G"}


def _rounds_table(rounds: list[RoundSummary], setup: BattleSetup) -> Table:
    table = Table(title="Round by round", title_justify="left")
    for column in ("round", "side", "orders", "charges", "slain", "Presence", "fled", "held"):
        table.add_column(column, justify="left" if column == "orders" else "right")
    for summary in rounds:
        for side in (0, 1):
            part = summary.sides[side]
            held = sum(1 for owner in summary.objectives if owner == side)
            orders = " ".join(
                f"{ORDER_LETTERS.get(k, k)}{v}" for k, v in sorted(part.orders.items())
            )
            first = "*" if summary.first == side else ""
            table.add_row(
                str(summary.number) if side == 0 else "",
                f"{SIDE_NAMES[side]}{first}",
                orders,
                str(len(part.charges)),
                str(part.slain),
                str(part.presence_won),
                str(len(part.routed)),
                str(held) if summary.objectives else "-",
            )
    table.caption = (
        "orders: A advance, H hold, R run, S skill, G regroup; * acted first; slain = enemy "
        "miniatures slain; Presence = Presence rolls won; fled = enemy units routed; "
        "held = objectives held at the end of the round"
    )
    return table


def _highlights(rounds: list[RoundSummary]) -> list[str]:
    """What each round saw, in the order it happened (until 2026-12-07 grouped by kind: a
    unit fled before the charge that broke it)."""
    return [f"round {summary.number}: {told}" for summary in rounds for told in summary.moments]


def no_room(record: BattleRecord) -> tuple[list[str], list[str]]:
    """The names of each side's units that found no room to set up: they take no part and
    count as destroyed (OW-B12, AOS-B2), which the rounds' table does not show."""
    names = {u.id: u.name for u in record.initial.units}
    sides = {u.id: u.side for u in record.initial.units}
    found: tuple[list[str], list[str]] = ([], [])
    for events in [record.setup_events, *record.events]:
        for event in events:
            if event.kind == "no_room":
                unit = str(event.data["unit"])
                found[sides[unit]].append(names.get(unit, unit))
    return found


def _no_room_lines(unplaced: tuple[list[str], list[str]]) -> list[str]:
    lines = []
    for side, names in enumerate(unplaced):
        if names:
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            told = "units found no room in their territory and count"
            if len(names) == 1:
                told = "unit found no room in its territory and counts"
            lines.append(f"set-up: {len(names)} {SIDE_NAMES[side]} {told} as destroyed: {shown}")
    return lines


def _print_log(console: Console, record: BattleRecord) -> None:
    """Every action, then its events, with units by name (and id) and numbers rounded; each
    on one line, never wrapped, so that a log piped to grep finds whole lines."""
    names = {u.id: f"{u.name} [{u.id}]" for u in record.initial.units}
    for action, events in zip(record.actions, record.events, strict=True):
        console.print(f"[dim]{escape(_action_text(action, names))}[/dim]", soft_wrap=True)
        for event in events:
            shown = ", ".join(
                f"{key} {_value(key, value, names)}" for key, value in event.data.items()
            )
            console.print(f"    {event.kind}: {shown}", markup=False, soft_wrap=True)


SIDE_KEYS = ("side", "first", "winner", "holder", "by_side")  # event keys that name a side


def _value(key: str, value: Any, names: dict[str, str]) -> str:
    return "AB"[value] if key in SIDE_KEYS and value in (0, 1) else _shown(value, names)


def _action_text(action: Action, names: dict[str, str]) -> str:
    parts = ["AB"[action.side] if action.side in (0, 1) else str(action.side), action.kind]
    if action.choice:
        parts.append(f"({action.choice})")
    if action.unit:
        parts.append(names.get(action.unit, action.unit))
    if action.target:
        parts.append(f"-> {names.get(action.target, action.target)}")
    if action.point:
        parts.append(f"at ({action.point[0]:.1f}, {action.point[1]:.1f})")
    return " ".join(parts)


def _shown(value: Any, names: dict[str, str]) -> str:
    """An event's value for people: a unit id as its name, a float to 2 places, a point or a
    tuple in parentheses, a longer list in brackets."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    if isinstance(value, list | tuple):
        inner = ", ".join(_shown(v, names) for v in value)
        return f"({inner})" if isinstance(value, tuple) or len(value) == 2 else f"[{inner}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_shown(v, names)}" for k, v in value.items()) + "}"
    return str(value)
