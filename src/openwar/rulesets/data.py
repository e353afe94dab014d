"""Loading a ruleset's YAML data, validated by pydantic, with errors that name file and path."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from openwar.dice.d6 import D6Test, Reroll
from openwar.errors import OpenWarError
from openwar.rulesets.problems import UnreadableData, validate_strictly
from openwar.rulesets.sources import YamlReadError, read_yaml_text

Model = TypeVar("Model", bound=BaseModel)


class RuleData(BaseModel):
    """Base of every rule-data model: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ProfileBounds(RuleData):
    """What a unit's own numbers (an army file's ``profile``) may be: the lowest and highest
    whole number of each characteristic (the cost among them) and of each weapon field."""

    characteristics: dict[str, tuple[int, int]]
    weapons: dict[str, tuple[int, int]]


class DataFileError(OpenWarError):
    """A ruleset data file is missing, is not YAML or does not match its schema."""


def data_path(ruleset: str, filename: str) -> str:
    return f"openwar/rulesets/{ruleset}/data/{filename}"


@cache
def _read(ruleset: str, filename: str) -> object:
    where = data_path(ruleset, filename)
    try:
        text = (resources.files(f"openwar.rulesets.{ruleset}") / "data" / filename).read_text()
        return read_yaml_text(text, where).data  # as army files and catalogues are read
    except (OSError, ModuleNotFoundError) as exc:
        raise DataFileError(f"{where}: cannot be read ({exc})") from exc
    except YamlReadError as exc:
        raise DataFileError(str(exc)) from exc


def load_data(ruleset: str, filename: str, model: type[Model]) -> Model:
    """Load ``data/filename`` of a ruleset package and validate it as ``model``."""
    raw = _read(ruleset, filename)
    try:
        return validate_strictly(model, raw)
    except UnreadableData as exc:
        raise DataFileError(f"{data_path(ruleset, filename)}: {exc}") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        path = ".".join(str(part) for part in first["loc"]) or "(top)"
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise DataFileError(
            f"{data_path(ruleset, filename)}: {path}: {first['msg']}{more}"
        ) from exc


class RollRule(RuleData):
    """How a ruleset treats unmodified faces on one kind of D6 roll."""

    one_fails: bool
    six_succeeds: bool

    def test(
        self,
        target: int,
        modifier: int = 0,
        cap: int | None = None,
        reroll: Reroll | str = Reroll.NONE,
    ) -> D6Test:
        """A :class:`D6Test` for this kind of roll."""
        again = reroll if isinstance(reroll, Reroll) else Reroll(reroll)
        return D6Test(target, modifier, cap, self.one_fails, self.six_succeeds, again)
