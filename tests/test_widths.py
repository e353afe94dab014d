"""Tables piped or written to a file are printed whole, at their own width."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table

from openwar.widths import print_whole


def wide_table() -> Table:
    table = Table()
    for k in range(10):
        table.add_column(f"column {k}")
    table.add_row(*[f"{k}%-{90 + k}%" for k in range(10)])
    return table


def test_a_piped_table_is_printed_whole_not_cut_to_80_columns() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80)  # what Rich assumes for a pipe
    assert not console.is_terminal
    print_whole(console, wide_table())
    text = out.getvalue()
    assert all(f"{k}%-{90 + k}%" in text for k in range(10)), text
    assert "…" not in text
    assert console.width == 80  # the console's own width is left as it was
    cut = io.StringIO()
    Console(file=cut, width=80).print(wide_table())  # what a plain print does
    assert "…" in cut.getvalue()


def test_on_a_terminal_the_table_fits_the_terminal() -> None:
    out = io.StringIO()
    console = Console(file=out, width=60, force_terminal=True, color_system=None)
    print_whole(console, wide_table())
    assert max(len(line) for line in out.getvalue().splitlines()) <= 60
