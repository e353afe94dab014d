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
    by_fold = {n.casefold(): n for n in names}
    close = difflib.get_close_matches(name.casefold(), list(by_fold), n=2, cutoff=0.6)
    if close:
        return " (did you mean " + " or ".join(repr(by_fold[c]) for c in close) + "?)"
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    return f" (known: {shown})" if names else ""


def find_name(name: str, known: Iterable[str]) -> str | None:
    """The known name equal to ``name`` ignoring case, or None."""
    folded = name.casefold()
    return next((k for k in known if k.casefold() == folded), None)
