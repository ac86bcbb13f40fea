"""The typer app every command registers on, and the one way commands report failure."""

from __future__ import annotations

from importlib.metadata import version
from typing import Annotated, NoReturn

import typer

app = typer.Typer(
    help="Make Sudoku books: generate, dig, grade, store and print puzzles.",
    no_args_is_help=True,
    add_completion=False,
)


def _version(show: bool) -> None:
    if show:
        typer.echo(f"pipeline {version('sudoku-pipeline')}")
        raise typer.Exit()


@app.callback()
def main(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Make Sudoku books: generate, dig, grade, store and print puzzles."""


def fail(message: str, code: int = 1) -> NoReturn:
    """One ``Error: ...`` line on stderr and a non-zero exit: users never see a traceback."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code)
