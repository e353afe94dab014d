"""Parsers for option values shared by several commands (rolls like "4+", dice like "D3").

Typer also passes an option's default through its parser, so each accepts the parsed type.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer

from openwar.battles import PLAYERS_OPTION_HELP, read_players
from openwar.dice.d6 import parse_roll
from openwar.dice.notation import DiceExpr, DiceNotationError, parse_dice
from openwar.errors import OpenWarError
from openwar.outputs import PICTURES, check_output
from openwar.words import counted

NO_ROLL = 7
# Dice in one attack that the exact odds work out: its tables grow with the square of the
# dice (1,000 take 1-3 s and under 250 MB; 10,000 took 9.5 GB). A whole unit's attacks rarely
# pass 200.
MAX_DICE = 1000


def roll(text: str | int) -> int:
    """A needed roll "2+".."6+"."""
    try:
        return parse_roll(str(text))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc


def save(text: str | int) -> int:
    """A save "2+".."6+" or "-" (none: it needs a 7)."""
    if text == NO_ROLL:
        return NO_ROLL
    try:
        return parse_roll(str(text), allow_dash=True)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc


def optional_roll(text: str | int | None) -> int | None:
    """A roll "2+".."6+", or "-"/"none"/"7+" for no roll at all."""
    if text is None or str(text).strip().lower() == "none":
        return None
    try:
        value = parse_roll(str(text), allow_dash=True)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    return None if value == NO_ROLL else value


def dice(text: str | DiceExpr) -> DiceExpr:
    """Dice notation: 3, D6, 2D6, D3+1."""
    if isinstance(text, DiceExpr):
        return text
    try:
        return parse_dice(text)
    except DiceNotationError as exc:
        raise typer.BadParameter(str(exc)) from exc


def players(text: str) -> str:
    """``--players``, checked as it is read (:func:`openwar.battles.read_players`), so every
    command words a bad player alike: "Invalid value for '--players': ...". The text is kept;
    each command reads it again into the two players."""
    try:
        read_players(text)
    except OpenWarError as exc:
        reason = str(exc).removeprefix("--players: ").removeprefix(f"--players {text!r}: ")
        raise typer.BadParameter(reason) from None
    return text


PlayersOption = Annotated[str, typer.Option(help=PLAYERS_OPTION_HELP, callback=players)]


def given(ctx: typer.Context, name: str) -> bool:
    """Whether option ``name`` (its parameter name) was written on the command line, not left
    at its default (which a value alone cannot tell)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


def _output(path: Path | None, suffixes: tuple[str, ...]) -> Path | None:
    if path is None:
        return None
    try:
        return check_output(path, suffixes=suffixes)
    except OpenWarError as exc:
        raise typer.BadParameter(str(exc)) from None


def output_file(path: Path | None) -> Path | None:
    """A file to write (checked before any work: its folder exists and may be written)."""
    return _output(path, ())


def picture_file(path: Path | None) -> Path | None:
    """A picture to write: :func:`output_file` ending in .png or .svg."""
    return _output(path, PICTURES)


def refuse_inputs(written: dict[str, Path | None], read: list[Path | None]) -> None:
    """An output that names one of the command's own inputs is refused before any work:
    ``battle A B --replay A`` replaced the army file with the replay."""
    for option, path in written.items():
        if path is None or str(path) == "-":
            continue
        for source in read:
            if source is not None and same_file(path, source):
                raise typer.BadParameter(
                    f"{path} is one of this command's inputs; writing it would replace it",
                    param_hint=f"'{option}'",
                )


def same_file(a: Path, b: Path) -> bool:
    """Whether two output paths name one file (written or not yet)."""
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return a.resolve() == b.resolve()


def svg_file(path: Path | None) -> Path | None:
    """``--svg``: :func:`output_file` ending in .svg (the name decides what is drawn, so a
    ``--svg x.png`` would write a PNG)."""
    return _output(path, (".svg",))


def png_file(path: Path | None) -> Path | None:
    """``--png``: :func:`output_file` ending in .png."""
    return _output(path, (".png",))


MAX_DAMAGE = 100


def check_damage(most: int, hint: str) -> None:
    """Refuse a damage per wound above :data:`MAX_DAMAGE`, naming the option."""
    if most > MAX_DAMAGE:
        raise typer.BadParameter(
            f"up to {most:,} damage from one wound; the exact odds are worked out for up to "
            f"{MAX_DAMAGE}",
            param_hint=hint,
        )


def worker_count(value: int | None) -> int | None:
    """``--workers``: at most eight processes per core (each holds the engine, 150-200 MB;
    more than the cores only share them, and 500 would need some 85 GB)."""
    cores = os.cpu_count() or 1
    if value is not None and value > 8 * cores:
        raise typer.BadParameter(
            f"{value:,} worker processes on a machine with {counted(cores, 'core')}; at most "
            f"{8 * cores} (eight a core: each takes 150-200 MB of memory)"
        )
    return value


# Damage one attack can add up to: the exact distribution is a table that long, and adding
# attacks up takes time with its square (1,000 dice of Damage 100, 100,000, took about a
# minute; 20,000 about 2 s, pooled: damage kept on one model has its own limit,
# allocation.MAX_PACKET_WORK).
MAX_TOTAL = 20_000


def check_total(most: int, hint: str) -> None:
    """Refuse an attack that could add up to more than :data:`MAX_TOTAL` damage, naming the
    options that set it."""
    if most > MAX_TOTAL:
        raise typer.BadParameter(
            f"up to {most:,} damage in one attack; the exact odds are worked out for up to "
            f"{MAX_TOTAL:,}",
            param_hint=hint,
        )


# Attack dice a Monte Carlo run rolls in all (attacks x their dice): 100,000,000 took 6 s and
# 190 MB; 1,000,000,000 passed a minute and 1 GB.
MAX_ROLLED = 100_000_000


def check_rolled(dice: int, trials: int, hint: str, ward_per: int = 0) -> None:
    """Refuse a ``--simulate`` of ``trials`` attacks of ``dice`` dice past :data:`MAX_ROLLED`;
    with a ward, each die may bring ``ward_per`` ward rolls (one a point of damage)."""
    if ward_per:
        dice *= ward_per
        hint += " x '--damage' (a --ward roll a wound)"
    if dice * trials > MAX_ROLLED:
        raise typer.BadParameter(
            f"{trials:,} attacks of {dice:,} dice are {dice * trials:,} dice to roll; the Monte "
            f"Carlo rolls up to {MAX_ROLLED:,}",
            param_hint=f"'--simulate' x {hint}",
        )


def check_dice(count: int, hint: str) -> None:
    """Refuse an attack of more than :data:`MAX_DICE` dice, naming the option(s) that set it."""
    if count > MAX_DICE:
        raise typer.BadParameter(
            f"{count:,} dice in one attack; the exact odds are worked out for up to {MAX_DICE:,}",
            param_hint=hint,
        )


def note_plan_points(plan: dict[str, Any], limits: list[int | None], command: str) -> None:
    """Say on stderr when a battleplan file was made for other points than an army's limit."""
    from openwar.battleplans.files import points_note

    note = points_note(plan, limits)
    if note:
        typer.echo(f"openwar {command}: note: {note}", err=True)


def note_generated_points(limits: list[int | None], command: str) -> None:
    """Say on stderr when the armies' points limits differ: a generated battleplan (its table
    and terrain) is made for the larger (BP.1), which the smaller army may not expect."""
    given = [limit for limit in limits if limit is not None]
    if len(given) == 2 and given[0] != given[1]:
        typer.echo(
            f"openwar {command}: note: the armies' points limits differ ({given[0]} and "
            f"{given[1]}); {'the' if command == 'battle' else 'each'} battleplan is generated"
            f" for the larger, {max(given)}",
            err=True,
        )
