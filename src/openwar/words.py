"""Small words for people: counts with their noun."""

from __future__ import annotations


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless one (nouns that take an "s").

    >>> counted(1, "battle"), counted(3, "problem"), counted(0, "battle")
    ('1 battle', '3 problems', '0 battles')
    """
    return f"{count:,} {noun}{'s' * (count != 1)}"
