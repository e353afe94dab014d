"""Parsers for option values shared by several commands (rolls like "4+", dice like "D3").

Typer also passes an option's default through its parser, so each accepts the parsed type.
"""

from __future__ import annotations

import typer

from openwar.dice.d6 import parse_roll
from openwar.dice.notation import DiceExpr, DiceNotationError, parse_dice

NO_ROLL = 7


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
    """A roll "2+".."6+", or "-"/"none" for no roll at all."""
    if text is None or str(text).strip().lower() in {"-", "none"}:
        return None
    return roll(text)


def dice(text: str | DiceExpr) -> DiceExpr:
    """Dice notation: 3, D6, 2D6, D3+1."""
    if isinstance(text, DiceExpr):
        return text
    try:
        return parse_dice(text)
    except DiceNotationError as exc:
        raise typer.BadParameter(str(exc)) from exc
