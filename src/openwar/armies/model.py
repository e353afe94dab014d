"""The army-list file: a ruleset, a name, a points limit and units with chosen options."""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, StringConstraints

# A name as people read it: spaces around it dropped, one Unicode form (NFC), so " " is no
# name and "De\u0301" is the same name as "D\u00e9" (two units named so were two names).
Name = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1),
    AfterValidator(lambda text: printable_name(unicodedata.normalize("NFC", text))),
]


# the characters that reorder what follows them on a terminal (bidirectional controls); the
# joiners that Persian and Indic names and emoji need (U+200C, U+200D) are letters' business
BIDI_CONTROLS = {*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A)),
                 "\u200e", "\u200f", "\u061c"}  # fmt: skip


def printable_name(text: str) -> str:
    """A name with no control characters: an escape in a unit's name coloured the terminal of
    whoever showed the army, a newline broke its tables, a right-to-left mark reordered it."""
    for ch in text:
        if unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS:
            code = ch.encode("unicode_escape").decode("ascii")
            raise ValueError(f"a name may not hold the control character {code}")
    return text


class ArmyData(BaseModel):
    """Base of army-file models: unknown keys are errors (a typo is never silently ignored)."""

    model_config = ConfigDict(extra="forbid")


class OptionChoice(ArmyData):
    """An option bought for ``models`` of the unit; left out, for the whole unit, or for the
    one model an option one model at most may take (a Champion: ``hooks.option_count``)."""

    name: Name
    models: int | None = Field(default=None, ge=1, strict=True)


class ArmyUnit(ArmyData):
    """One unit: its own name, its catalogue entry (``type``), its size and options, and any
    numbers of its type it changes for itself (``profile``: characteristics, ``"Weapon.field"``
    and its cost, a home-made variant; see :mod:`openwar.armies.profile`)."""

    name: Name
    type: Name
    size: int | None = Field(default=None, ge=1, strict=True)
    options: list[OptionChoice] = Field(default_factory=list)
    allied: bool = False
    profile: dict[str, StrictInt] = Field(default_factory=dict)  # this unit's own numbers


class BattalionChoice(ArmyData):
    """A battalion (Age of Sigmar) formed by some of the army's units, named by unit name."""

    name: Name
    units: list[Name] = Field(default_factory=list)


# units in one army: a real list has tens; 27,808 (a 1 MB file) took 25 s to show
MAX_UNITS = 1000


class ArmyList(ArmyData):
    """A whole army list as written in a YAML file."""

    ruleset: str
    name: Name
    points_limit: int | None = Field(default=None, ge=0, strict=True)
    general: Name | None = None
    allegiance: str | None = None
    units: list[ArmyUnit] = Field(default_factory=list, max_length=MAX_UNITS)
    battalions: list[BattalionChoice] = Field(default_factory=list)
