"""What is wrong with an army list: each problem names the unit, the option and the rule."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class ArmyProblem:
    """One broken rule. ``rule`` is the clause id of docs/rules/<ruleset>.md (e.g. ``U9``)."""

    rule: str
    title: str
    message: str
    unit: str | None = None
    option: str | None = None

    def __str__(self) -> str:
        where = " / ".join(part for part in (self.unit, self.option) if part)
        prefix = f"{where}: " if where else ""
        if not self.title:  # no clause of the rules to cite (an unknown ruleset)
            return f"{prefix}{self.message}"
        return f"{prefix}{self.message} [{self.rule} {self.title}]"

    def to_json(self) -> dict[str, str | None]:
        return asdict(self)
