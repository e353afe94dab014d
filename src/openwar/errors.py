"""Errors meant for people: the CLI prints their message as one line and exits with the error's
``exit_code`` (2, a bad option or file, unless the error says otherwise)."""

from __future__ import annotations

import re


class OpenWarError(ValueError):
    """Base of every error caused by input (an option, a file, an action), not by a bug, or
    by the machine (workers lost: exit code 1)."""

    exit_code = 2


class ProfileError(OpenWarError):
    """An attack profile value is impossible; the message names the option."""


# pydantic checks option values (through Typer) and data files; its messages speak of "Input"
PLAIN = (
    (re.compile(r"Input should be greater than or equal to (\S+)"), r"must be at least \1"),
    (re.compile(r"Input should be less than or equal to (\S+)"), r"must be at most \1"),
    (re.compile(r"Input should be greater than (\S+)"), r"must be more than \1"),
    (re.compile(r"Input should be less than (\S+)"), r"must be less than \1"),
    (re.compile(r"Input should be a valid integer[^;]*"), "must be a whole number"),
    (re.compile(r"Input should be a valid number[^;]*"), "must be a number"),
    (re.compile(r"Extra inputs are not permitted"), "is not a known field"),
    (re.compile(r"^Field required$"), "is missing"),
    (re.compile(r"Input should be a valid (list|array)"), "must be a list"),
    (re.compile(r"Input should be a valid dictionary[^;]*"), "must be a mapping (key: value)"),
    (re.compile(r"Input should be an object"), "must be a mapping (key: value)"),  # JSON's words
    (re.compile(r"Input should be a valid string"), "must be text"),
    (re.compile(r"Input should be a valid boolean[^;]*"), "must be true or false"),
    (re.compile(r"String should have at least 1 character"), "must not be empty"),
    (re.compile(r"Value error, "), ""),
)


def plain_words(message: str) -> str:
    """A validator's message in the user's words.

    >>> plain_words("Invalid value for '--seed': Input should be greater than or equal to 0")
    "Invalid value for '--seed': must be at least 0"
    >>> plain_words("Input should be a valid integer, unable to parse string as an integer")
    'must be a whole number'
    >>> plain_words("Value error, 'sometimes' is not one of 'none', 'ones'")
    "'sometimes' is not one of 'none', 'ones'"
    """
    for pattern, words in PLAIN:
        message = pattern.sub(words, message)
    return message
