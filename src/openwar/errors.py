"""Errors meant for people: the CLI prints their message as one line and exits with code 2."""

from __future__ import annotations


class OpenWarError(ValueError):
    """Base of every error caused by input (an option, a file, an action), not by a bug."""


class ProfileError(OpenWarError):
    """An attack profile value is impossible; the message names the option."""
