"""Illegal actions: a ``ValueError`` whose message names the rule that forbids the action."""

from __future__ import annotations

from openwar.errors import OpenWarError


class IllegalActionError(OpenWarError):
    """The action breaks a rule; ``clause`` is the rule's number in docs/rules/<ruleset>.md."""

    def __init__(self, clause: str, message: str) -> None:
        super().__init__(f"{clause}: {message}")
        self.clause = clause
        self.message = message

    def __reduce__(self) -> tuple[type[IllegalActionError], tuple[str, str]]:
        """Pickled with both arguments, so the error crosses from a worker process intact (a
        plain exception is rebuilt from its one formatted message and fails)."""
        return type(self), (self.clause, self.message)
