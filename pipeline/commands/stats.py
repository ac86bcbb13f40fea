"""``pipeline stats`` and ``pipeline verify``: look into a puzzle file or a run folder."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from pipeline.app import app, fail
from pipeline.commands.common import user_errors
from pipeline.report import format_summary, summarize, verify_rows
from pipeline.run import PUZZLES_FILE
from pipeline.store import read_rows

Source = Annotated[
    Path,
    typer.Argument(exists=True, help="Parquet puzzle file, or a run folder (its puzzles.parquet)."),
]
SHOWN_PROBLEMS = 20  # problems listed before "... and N more"


def _rows(source: Path) -> list[dict[str, Any]]:
    return read_rows(source / PUZZLES_FILE if source.is_dir() else source)


@app.command()
def stats(source: Source) -> None:
    """Count puzzles per size and tier, with score quartiles, clues and iteration spreads."""
    with user_errors():
        typer.echo(format_summary(summarize(_rows(source))), nl=False)


@app.command()
def verify(source: Source) -> None:
    """Re-check every puzzle with the solution counter: one solution, equal to the stored one.

    Exits with code 1 when any puzzle fails, listing the first few.
    """
    with user_errors():
        rows = _rows(source)
        missing = {"givens", "box_rows", "box_cols"} - set(rows[0] if rows else ())
        if rows and missing:
            fail(f"{source}: no column {', '.join(sorted(missing))}; is this a puzzle file?")
        checked, problems = verify_rows(rows)
    for problem in problems[:SHOWN_PROBLEMS]:
        typer.echo(f"row {problem.row} (id {problem.id}): {problem.problem}")
    if len(problems) > SHOWN_PROBLEMS:
        typer.echo(f"... and {len(problems) - SHOWN_PROBLEMS} more")
    if problems:
        fail(f"{len(problems)} of {checked} puzzles failed verification")
    typer.echo(f"{checked} puzzles verified: each has one solution, the stored one")
