"""The ``pipeline`` command: thin typer commands over library functions."""

from __future__ import annotations

import sys
import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import Annotated

import typer

import engine

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


def fail(message: str) -> None:
    """One ``Error: ...`` line on stderr and exit code 1: users never see a traceback."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(1)


@app.command()
def run(
    recipe: Annotated[
        Path,
        typer.Argument(exists=True, dir_okay=False, help="Run recipe, e.g. configs/nightly.toml."),
    ],
    count: Annotated[int, typer.Option(min=1, help="Grids to generate per section.")] = 3,
) -> None:
    """Run a book recipe. For now: generate and print a few solution grids per section."""
    try:
        with recipe.open("rb") as handle:
            config = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        fail(f"{recipe}: {exc}")
    seed = config.get("seed", 0)
    for index, section in enumerate(config.get("sections", [])):
        size = section.get("size", 9)
        typer.echo(f"# section {index + 1}: {size}x{size}")
        for k in range(count):
            grid = engine.random_grid(size, seed=[seed, index, k], box=section.get("box"))
            typer.echo(grid)
    sys.stdout.flush()
