"""The click classes Typer runs on. Typer 0.29 (pinned in pyproject.toml) vendors click as
``typer._click``; this is the only module that reaches into it."""

from __future__ import annotations

from typer import Abort, Exit
from typer._click import Command, Context
from typer._click.exceptions import NoArgsIsHelpError, UsageError

__all__ = ["Abort", "Command", "Context", "Exit", "NoArgsIsHelpError", "UsageError"]
