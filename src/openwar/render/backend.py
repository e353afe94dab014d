"""Matplotlib as every OpenWar picture uses it: the Agg backend (files, no window), and text
drawn as written (:func:`plain_text`: matplotlib reads text between two "$" signs as a
formula, so a unit named "Bolt $\\foo$" stopped a picture with a traceback). Imported by each
module that draws."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import matplotlib

matplotlib.use("Agg")

P = ParamSpec("P")
R = TypeVar("R")


def plain_text(draw: Callable[P, R]) -> Callable[P, R]:
    """Run a drawing function with formulas off for every text it makes (names as written),
    leaving matplotlib's settings as they were for whoever else uses it."""

    @functools.wraps(draw)
    def drawn(*args: P.args, **kwargs: P.kwargs) -> R:
        with matplotlib.rc_context({"text.parse_math": False}):
            return draw(*args, **kwargs)

    return drawn
