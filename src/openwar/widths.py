"""Tables printed whole: a pipe or a file has no width to fit, so nothing is cut to 80 columns."""

from __future__ import annotations

from rich.console import Console, RenderableType

MOST = 400  # columns: beyond this a table is unreadable anyway


def print_whole(console: Console, table: RenderableType) -> None:
    """Print ``table`` at the terminal's width, or, piped or written to a file (where Rich
    assumes 80 columns), at its own natural width: a number is never cut short to fit a
    width nobody is reading it at (``95% CI`` as ``53%-9…``)."""
    if console.is_terminal:
        console.print(table)
        return
    unbounded = console.options.update_width(MOST)
    natural = console.measure(table, options=unbounded).maximum
    width = console.width
    console.width = max(width, min(natural, MOST))  # print(width=) cannot pass the console's
    try:
        console.print(table)
    finally:
        console.width = width
