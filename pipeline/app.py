"""The typer app every command registers on, and the CLI contract every command keeps.

Exit codes: 0 when all went well; 1 when some data rows are bad (the output is still complete);
2 for any argument or file a command cannot use, typer's own usage errors included; 3 for an
internal error (a bug: an exception no command expected), whose traceback is saved to a file
that the error line names; 130 when interrupted; 143 on SIGTERM. Every failure is one
``Error: ...`` line on stderr: :class:`OneLineErrors` runs the command line in click's
non-standalone mode and prints usage errors itself, so neither the installed ``pipeline`` script
nor ``CliRunner().invoke(app, ...)`` shows a panel, a usage block or a traceback. SIGTERM ends a
command as Ctrl-C does, through every ``finally`` on the way (partial files removed, local
worker processes stopped). This module imports nothing heavy: ``pipeline --help`` must stay
fast.
"""

from __future__ import annotations

import sys
import tempfile
import traceback
from collections.abc import Sequence
from importlib.metadata import version
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from pipeline.errors import UserError
from pipeline.stopping import TERMINATED, Terminated, terminate_cleanly

OK = 0
SOME_ROWS_BAD = 1  # the output is complete, but some input rows were not ok
BAD_ARGUMENTS = 2  # an argument or file the command cannot work with (as click's usage errors)
INTERNAL_ERROR = 3  # a bug: an exception no command expected (its traceback is saved)
INTERRUPTED = 130  # Ctrl-C, as a shell reports a SIGINT
TRACEBACK_PREFIX = "pipeline-traceback-"  # files under the system temp folder
SHOWN_CHARS = 200  # of an internal error's message, on its error line


def error_line(message: str) -> str:
    """``Error: message`` on one line, whatever line breaks the message holds."""
    return "Error: " + " ".join(line.strip() for line in message.splitlines() if line.strip())


class OneLineErrors(TyperGroup):
    """The app's command group: usage errors and every :class:`pipeline.errors.UserError`
    become one ``Error:`` line and exit code 2, any other exception one ``Error:`` line naming
    its saved traceback and exit code 3."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> NoReturn:
        try:
            with terminate_cleanly():
                code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except Terminated:
            typer.echo(error_line("terminated (SIGTERM); unfinished files removed"), err=True)
            code = TERMINATED
        except typer.TyperException as exc:  # click's UsageError, BadParameter, FileError ...
            typer.echo(error_line(exc.format_message()), err=True)
            code = BAD_ARGUMENTS
        except UserError as exc:  # a recipe key, file, cell or option the user can fix
            typer.echo(error_line(str(exc)), err=True)
            code = BAD_ARGUMENTS
        except typer.Abort:
            typer.echo(error_line("interrupted"), err=True)
            code = INTERRUPTED
        except Exception as exc:  # a bug: one line saying where its traceback went, exit 3
            typer.echo(error_line(internal_error(exc, args)), err=True)
            code = INTERNAL_ERROR
        # non-standalone click returns the exit code of typer.Exit, else the command's None
        sys.exit(code if isinstance(code, int) else OK)


def internal_error(exc: BaseException, args: Sequence[str] | None = None) -> str:
    """The message for an unexpected exception, after saving its traceback to a file under the
    system temp folder, under the command line (``args``, default ``sys.argv``) that raised it."""
    summary = f"internal error ({type(exc).__name__}: {str(exc)[:SHOWN_CHARS]})"
    text = "".join(traceback.format_exception(exc))
    try:
        with tempfile.NamedTemporaryFile(
            "w", prefix=TRACEBACK_PREFIX, suffix=".txt", delete=False, encoding="utf-8"
        ) as handle:
            command = " ".join(sys.argv[1:] if args is None else args)
            handle.write(f"pipeline {command}\n{text}")
    except OSError as saving:
        return f"{summary}; its traceback could not be saved: {saving}"
    return f"{summary}; the full traceback is in {handle.name}; please report it"


app = typer.Typer(
    cls=OneLineErrors,
    help="Make Sudoku books: generate, dig, grade, store and print puzzles.",
    add_completion=False,
    rich_markup_mode=None,  # click's plain help: flags shown without a value placeholder
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(show: bool) -> None:
    if show:
        typer.echo(f"pipeline {version('sudoku-pipeline')}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def main(
    context: typer.Context,
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Make Sudoku books: generate, dig, grade, store and print puzzles."""
    if context.invoked_subcommand is None:  # a bare ``pipeline``: the help, not an error
        typer.echo(context.get_help())


def fail(message: str, code: int = BAD_ARGUMENTS) -> NoReturn:
    """One ``Error: ...`` line on stderr and a non-zero exit: users never see a traceback."""
    typer.echo(error_line(message), err=True)
    raise typer.Exit(code)
