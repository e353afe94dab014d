"""The ``openwar`` console script. It imports the command line only once it can answer a
Ctrl-C: loading Typer, Rich, numpy and the rules takes about half a second, and a Ctrl-C in
that time printed a traceback of the import instead of one line."""

from __future__ import annotations

import sys

from openwar.stopping import INTERRUPTED_EXIT


def run() -> None:
    try:
        from openwar.cli.app import run as run_cli
    except KeyboardInterrupt:
        print("openwar: interrupted", file=sys.stderr)
        sys.exit(INTERRUPTED_EXIT)
    run_cli()
