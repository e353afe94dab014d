""" "Did you mean ..." for names that are not in a catalogue."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """A suffix suggesting the closest known names, or listing a few when none is close.

    >>> did_you_mean("Brakers", ["Breakers", "Scouts"])
    " (did you mean 'Breakers'?)"
    """
    names = sorted(set(known))
    close = close_names(name, names)
    if close:
        return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"
    shown = ", ".join(names[:16]) + (", ..." if len(names) > 16 else "")
    return f" (known: {shown})" if names else ""


def close_names(name: str, known: Iterable[str]) -> list[str]:
    """The (at most two) known names close to ``name``, case aside, closest first.

    >>> close_names("cohrt", ["Cohort", "Command", "Scouts"])
    ['Cohort']
    """
    by_fold = {n.casefold(): n for n in sorted(set(known))}
    return [by_fold[c] for c in difflib.get_close_matches(name.casefold(), list(by_fold), 2, 0.6)]


def find_name(name: str, known: Iterable[str]) -> str | None:
    """The known name equal to ``name`` ignoring case, or None."""
    folded = name.casefold()
    return next((k for k in known if k.casefold() == folded), None)
