"""The army-list file: a ruleset, a name, a points limit and units with chosen options."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictInt


class ArmyData(BaseModel):
    """Base of army-file models: unknown keys are errors (a typo is never silently ignored)."""

    model_config = ConfigDict(extra="forbid")


class OptionChoice(ArmyData):
    """An option bought for the whole unit (``models`` left out) or for ``models`` of it."""

    name: str = Field(min_length=1)
    models: int | None = Field(default=None, ge=1, strict=True)


class ArmyUnit(ArmyData):
    """One unit: its own name, its catalogue entry (``type``), its size and options, and any
    numbers of its type it changes for itself (``profile``: characteristics, ``"Weapon.field"``
    and its cost, a home-made variant; see :mod:`openwar.armies.profile`)."""

    name: str = Field(min_length=1)
    type: str = Field(min_length=1)
    size: int | None = Field(default=None, ge=1, strict=True)
    options: list[OptionChoice] = Field(default_factory=list)
    allied: bool = False
    profile: dict[str, StrictInt] = Field(default_factory=dict)  # this unit's own numbers


class BattalionChoice(ArmyData):
    """A battalion (Age of Sigmar) formed by some of the army's units, named by unit name."""

    name: str = Field(min_length=1)
    units: list[str] = Field(default_factory=list)


# units in one army: a real list has tens; 27,808 (a 1 MB file) took 25 s to show
MAX_UNITS = 1000


class ArmyList(ArmyData):
    """A whole army list as written in a YAML file."""

    ruleset: str
    name: str = Field(min_length=1)
    points_limit: int | None = Field(default=None, ge=0, strict=True)
    general: str | None = None
    allegiance: str | None = None
    units: list[ArmyUnit] = Field(default_factory=list, max_length=MAX_UNITS)
    battalions: list[BattalionChoice] = Field(default_factory=list)
