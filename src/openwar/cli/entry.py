"""The ``openwar`` console script. It imports the command line only once it can answer a
Ctrl-C or a SIGTERM: loading Typer, Rich, numpy and the rules takes about half a second, and a
Ctrl-C in that time printed a traceback of the import instead of one line (a SIGTERM ended the
process without a word). Its SIGTERM handler stays until the command line's own
(:func:`openwar.stopping.stops`) takes over, so no moment is left uncovered."""

from __future__ import annotations

import signal
import sys
from types import FrameType

from openwar.stopping import INTERRUPTED_EXIT, TERMINATED_EXIT, Terminated, ignored


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise Terminated("terminated (SIGTERM)")


def run() -> None:
    deaf = ignored(signal.SIGTERM)  # inherited so (nohup, a parent's choice): it stays so
    previous = (
        signal.getsignal(signal.SIGTERM) if deaf else signal.signal(signal.SIGTERM, _terminate)
    )
    try:
        from openwar.cli.app import main

        code = main(ending=True)
        if signal.getsignal(signal.SIGTERM) is _terminate:  # no signal came: as it was
            signal.signal(signal.SIGTERM, previous)
    except KeyboardInterrupt as exc:  # Terminated is one: while loading, or just after
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the process ends: say so, once
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        terminated = isinstance(exc, Terminated)
        print(f"openwar: {'terminated' if terminated else 'interrupted'}", file=sys.stderr)
        sys.exit(TERMINATED_EXIT if terminated else INTERRUPTED_EXIT)
    sys.exit(code)
