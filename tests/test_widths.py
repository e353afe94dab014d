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


def units_summary() -> dict[str, object]:
    """A simulation's summary with the Units table of the sample armies' size."""
    names = ["Iron Road Dartmen", "First Ironclad Cohort", "Greataxe Hearthguard",
             "Dustrider Skirmishers", "Hearthhold Command"]  # fmt: skip
    units = [
        {"side": "AB"[k % 2], "unit": name, "points": 185, "miniatures": 20,
         "share_lost": 0.52, "destroyed": {"rate": 0.5},
         "points_destroyed": {"mean": 63.5}, "destroyed_per_point": {
             "mean": 9.58, "ci95": [6.76, 12.40]}}
        for k, name in enumerate(names)
    ]  # fmt: skip
    return {"units": units}


def test_a_units_table_on_an_80_column_terminal_keeps_every_number_and_word_whole() -> None:
    from openwar.sim.report import _units
    from openwar.widths import fit_numbers

    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, color_system=None)
    console.print(fit_numbers(_units(units_summary()), console))
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80, text
    assert "…" not in text and "9.58" in text and "(6.76-12.40)" in text, text
    for word in ("Hearthguard", "Skirmishers", "destroyed/pt"):
        assert word in text, text
    plain = io.StringIO()  # without it, Rich cuts the interval and the names short
    Console(file=plain, width=80, force_terminal=True).print(_units(units_summary()))
    assert "…" in plain.getvalue()


def test_a_table_that_fits_once_its_words_wrap_keeps_its_padding() -> None:
    """Only a table whose numbers cannot fit loses its padding: one that fits by wrapping a
    long word keeps it (the Outcomes table at 80 columns lost it once)."""
    from openwar.widths import fit_numbers

    table = Table()
    for column in ("result", "battles", "rate", "95% interval", "major", "minor"):
        table.add_column(column)
    table.add_row("A wins (Legion of the Iron Road)", "22", "55.0%", "39.8% - 69.3%", "6", "16")
    table.add_row("x" * 40, "1", "2.5%", "0.4% - 12.9%", "1", "0")
    console = Console(file=io.StringIO(), width=80, force_terminal=True)
    assert fit_numbers(table, console).padding == (0, 1, 0, 1)
