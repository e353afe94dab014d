"""The progress bar of every long command: what runs, a bar, done of total, time taken (and,
where the total is known to take a while, time left)."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def progress_bar(
    console: Console,
    *,
    label: str = "{task.description}",
    remaining: bool = True,
    transient: bool = True,
) -> Progress:
    """A Rich progress display on ``console``; ``label`` formats each task's description.
    Where the console is not a terminal (a log file, a pipe) the bar cannot redraw itself, so
    its last state is kept as a line instead of vanishing (it left a lone blank line)."""
    columns: list[ProgressColumn] = [
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    ]
    if remaining:
        columns.append(TimeRemainingColumn())
    return Progress(*columns, console=console, transient=transient and console.is_terminal)
