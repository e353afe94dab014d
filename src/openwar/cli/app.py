"""The root ``openwar`` command: registers sub-commands and turns input errors into one line."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import unicodedata
from typing import Annotated

import typer
import typer.main
from rich.console import Console

from openwar import __version__
from openwar.cli import options
from openwar.cli.army import army_app
from openwar.cli.battle import battle_command, replay_command
from openwar.cli.battleplan import battleplan_command
from openwar.cli.bench import bench_app
from openwar.cli.catalog import catalog_command, rulesets_command
from openwar.cli.charge import charge_command
from openwar.cli.clickcompat import (
    Abort,
    Exit,
    NoArgsIsHelpError,
    StoppableGroup,
    UsageError,
    command_path,
    refuse_empty_paths,
    refuse_repeats,
    tidy_help,
    usage_message,
)
from openwar.cli.odds import odds_app
from openwar.cli.runs import runs_app
from openwar.cli.simulate import simulate_command
from openwar.cli.sweep import sweep_command
from openwar.errors import OpenWarError, plain_words
from openwar.stopping import Stopped, Terminated, stops

# what an option read by these parsers shows in --help instead of its Python type
ROLL_TYPES = {options.roll: "<N+>", options.save: "<N+|->", options.optional_roll: "<N+|->"}

app = typer.Typer(
    name="openwar",
    help="Play, analyse and balance tabletop fantasy battle games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    cls=StoppableGroup,
)
app.add_typer(odds_app, name="odds")
app.add_typer(bench_app, name="bench")
app.command("battleplan")(battleplan_command)
app.add_typer(army_app, name="army")
app.command("catalog")(catalog_command)
app.command("rulesets")(rulesets_command)
app.command("battle")(battle_command)
app.command("replay")(replay_command)
app.command("simulate")(simulate_command)
app.add_typer(runs_app, name="runs")
app.command("sweep")(sweep_command)
app.command("charge")(charge_command)


@app.command()
def version() -> None:
    """Print the OpenWar version."""
    print(__version__)


def _print_version(asked: bool) -> None:
    if asked:
        version()
        raise Exit(0)


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version",
            is_eager=True,
            expose_value=False,
            callback=_print_version,
            help="Print the OpenWar version and exit.",
        ),
    ] = False,
) -> None:
    pass


def main(argv: list[str] | None = None, *, ending: bool = False) -> int:
    """Run the CLI; a bad option or file prints one line naming it and exits with code 2 (lost
    workers: code 1; Ctrl-C: 130; SIGTERM: 143, stopping as Ctrl-C does). ``ending``: the
    process ends next (the console script), so after a signal both stay ignored."""
    with stops(ending=ending):  # Ctrl-C or SIGTERM: once, whenever it comes (openwar.stopping)
        err = Console(stderr=True, highlight=False, soft_wrap=True)
        try:
            code = _main(argv, err)
            sys.stdout.flush()  # a full disk is found here, not at exit after a traceback
            return code
        except KeyboardInterrupt as exc:  # before or after a command runs (Stopped: during)
            return _stopped(Stopped(isinstance(exc, Terminated)), err)
        except OSError as exc:
            if exc.errno not in OUTPUT_FULL or exc.filename is not None:  # not a named file
                raise
            return _output_unwritable(exc, err)


# the standard output cannot take what a command prints (a full disk, /dev/full, a quota)
OUTPUT_FULL = {errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT}


def _output_unwritable(exc: OSError, err: Console) -> int:
    """One line for output that cannot be written, and nothing more to write at exit."""
    err.print(f"openwar: error: cannot write the output ({exc.strerror or exc})", markup=False)
    with contextlib.suppress(OSError):  # what is left in stdout's buffer goes nowhere
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1


def _main(argv: list[str] | None, err: Console) -> int:
    command = typer.main.get_command(app)
    tidy_help(command, ROLL_TYPES)
    refuse_repeats(command)
    refuse_empty_paths(command)
    try:
        result = command.main(args=argv, standalone_mode=False, prog_name="openwar")
    except NoArgsIsHelpError as exc:
        typer.echo(exc.ctx.get_help() if exc.ctx else "", err=True)
        return 2
    except UsageError as exc:
        given = sys.argv[1:] if argv is None else argv
        # a missing option value is refused while parsing, before the command has a context
        where = exc.ctx.command_path if exc.ctx else command_path(command, given)
        words = usage_message(exc, given)
        err.print(f"{where}: error: {shown(plain_words(words))}", markup=False)
        return 2
    except OpenWarError as exc:
        where = command_path(command, sys.argv[1:] if argv is None else argv)
        err.print(f"{where}: error: {shown(str(exc))}", markup=False)
        return exc.exit_code
    except Stopped as exc:
        return _stopped(exc, err)
    except Exit as exc:
        return exc.exit_code
    except Abort:  # end of input at a prompt
        return _stopped(Stopped(terminated=False), err)
    return int(result) if isinstance(result, int) else 0


def shown(text: str) -> str:
    """An error line as one line of plain text: control and format characters (a newline or
    an escape in a file name, a right-to-left mark) written as escapes, not sent to the
    terminal.

    >>> shown("/tmp/a\\nb.yaml: cannot be read \\x1b[31m")
    '/tmp/a\\\\nb.yaml: cannot be read \\\\x1b[31m'
    """
    return "".join(
        ch.encode("unicode_escape").decode("ascii")
        if unicodedata.category(ch) in ("Cc", "Cf")
        else ch
        for ch in text
    )


def _stopped(stop: Stopped, err: Console) -> int:
    err.print(f"openwar: {stop}", markup=False)
    return stop.exit_code
