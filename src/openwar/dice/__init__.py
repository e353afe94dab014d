"""Dice: notation, seeded rolling and exact distributions."""

from openwar.dice.d6 import D6Test, Reroll, parse_roll
from openwar.dice.notation import DiceExpr, DiceNotationError, parse_dice
from openwar.dice.rolling import Roller, ScriptedRoller, SeededRoller, roll

__all__ = [
    "D6Test",
    "DiceExpr",
    "DiceNotationError",
    "Reroll",
    "Roller",
    "ScriptedRoller",
    "SeededRoller",
    "parse_dice",
    "parse_roll",
    "roll",
]
