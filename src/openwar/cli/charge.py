"""``openwar charge RULESET --distance D``: the exact odds that a charge reaches."""

from __future__ import annotations

import json
import math
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from openwar.charges import MAX_BONUS, MAX_GAP, ChargeOdds, charge_odds
from openwar.rulesets import RULESETS, check_ruleset


def _gap(value: float) -> float:
    if not (math.isfinite(value) and 0 <= value <= MAX_GAP):  # NaN passes a range check
        raise typer.BadParameter(f"{value:g}: expected a distance of 0 to {MAX_GAP:g}")
    return value


def charge_command(
    ruleset: Annotated[str, typer.Argument(help=f"One of: {', '.join(RULESETS)}.")],
    distance: Annotated[
        float,
        typer.Option(
            callback=_gap,
            help="Gap between the nearest models: inches (aos, opr, oldworld) or cm (openwar).",
        ),
    ],
    move: Annotated[
        int | None,
        typer.Option(help="The charging unit's Move: OpenWar (cm) and The Old World only."),
    ] = None,
    bonus: Annotated[
        int,
        typer.Option(
            min=-MAX_BONUS,
            max=MAX_BONUS,
            help="Added to the roll or the move: aos Eager for Battle 1; oldworld added to the "
            "charge range; opr Fast 6, Nimble 3; "
            "openwar (cm added to the Run) Eager for Battle 3, With all Haste! 12 (its 6 cm "
            "doubled by the Run).",
        ),
    ] = 0,
    reroll: Annotated[
        bool, typer.Option(help="aos: re-roll a failed charge roll (Forward to Victory).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """The exact odds that a charge reaches an enemy DISTANCE away, as fractions.

    The gap is between the nearest models, the way taken as clear (terrain and units in the
    way are the table's: openwar battle). Examples:

    openwar charge aos --distance 7.5 --reroll

    openwar charge oldworld --distance 9 --move 4

    openwar charge openwar --distance 28 --move 12
    """
    odds = charge_odds(check_ruleset(ruleset), distance, move=move, bonus=bonus, reroll=reroll)
    if as_json:
        typer.echo(json.dumps(odds.to_json(), indent=2))
        return
    _print(Console(highlight=False), odds)


def _print(console: Console, odds: ChargeOdds) -> None:
    rules = ", ".join(odds.clauses)
    console.print(f"Charge over {odds.gap:g}{odds.unit} ({odds.ruleset}, {rules})", markup=False)
    console.print(f"  {odds.why}", markup=False, soft_wrap=True)
    if odds.roll and odds.allowed:
        table = Table(title=f"the roll: {odds.dice}", title_justify="left")
        for column in ("roll", "P(exactly)", "P(at least)", ""):
            table.add_column(column, justify="left" if column == "" else "right")
        for k, p in odds.roll.items():
            mark = "reaches" if odds.least is not None and k >= odds.least else ""
            table.add_row(str(k), f"{float(p):.2%}", f"{float(odds.at_least(k)):.2%}", mark)
        console.print(table)
    if not odds.allowed:
        console.print("reaches: [bold]never[/bold] (no charge can be tried from here)")
        return
    console.print(f"reaches: [bold]{float(odds.success):.2%}[/bold] ({odds.success})")
    if odds.rerolled is not None:
        console.print(
            f"reaches with the re-roll of a failed roll: [bold]{float(odds.rerolled):.2%}[/bold] "
            f"({odds.rerolled})"
        )
