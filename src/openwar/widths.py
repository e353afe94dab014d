"""Tables printed whole: a pipe or a file has no width to fit, so nothing is cut to 80 columns."""

from __future__ import annotations

from rich.console import Console, RenderableType
from rich.table import Table

MOST = 400  # columns: beyond this a table is unreadable anyway


def print_whole(console: Console, table: RenderableType) -> None:
    """Print ``table`` at the terminal's width, or, piped or written to a file (where Rich
    assumes 80 columns), at its own natural width: a number is never cut short to fit a
    width nobody is reading it at (``95% CI`` as ``53%-9…``)."""
    if isinstance(table, Table):
        fit_numbers(table, console if console.is_terminal else None)
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


def fit_numbers(table: Table, console: Console | None = None) -> Table:
    """Let a table too wide for the console shrink its words, never its numbers: each column
    is at least as wide as its longest number (a word with a digit, such as ``(0.16-0.46)``),
    and a word longer than its column folds onto the next line instead of being cut with
    an ellipsis (``Hearthgua…``). When even that is wider than ``console``, the cells lose
    their padding. Returns ``table``."""
    for column in table.columns:
        words = [word for cell in column.cells for word in str(cell).split()]
        longest = max((len(w) for w in words if any(ch.isdigit() for ch in w)), default=0)
        if longest:
            column.min_width = max(column.min_width or 0, longest)
        column.overflow = "fold"
    if console is not None and _laid_out_width(console, table) > console.width:
        table.padding = (0, 0)
    return table


def _laid_out_width(console: Console, table: Table) -> int:
    """The width Rich lays ``table`` out at on ``console``, borders included: more than the
    console's when the columns' least widths do not fit (Rich then cuts the table's right
    edge). Rich has no public call for it (this is what its Table.__rich_console__ does); 0
    (fits) should its private parts go."""
    try:
        extra = table._extra_width
        room = console.options.update_width(max(console.width - extra, 1))
        widths = table._calculate_column_widths(console, room)
    except AttributeError:  # pragma: no cover - another Rich
        return 0
    return sum(widths) + extra
