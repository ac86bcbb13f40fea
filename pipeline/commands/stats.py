"""``pipeline stats`` and ``pipeline verify``: look into a puzzle file, a run folder or grade
output."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.app import SOME_ROWS_BAD, app, fail

Source = Annotated[
    Path,
    typer.Argument(
        exists=True,
        help="Parquet puzzle file, a run folder (its puzzles.parquet) or `pipeline grade` output.",
    ),
]
SHOWN_PROBLEMS = 20  # problems listed before "... and N more"


def note_skipped(path: Path, skipped: int) -> None:
    """Say on stderr how many rows of grade output were left out, not being ok puzzles."""
    if skipped:
        typer.echo(f"{path}: skipped {skipped} rows whose status is not ok", err=True)


@app.command()
def stats(source: Source) -> None:
    """Count puzzles per size and tier, with score quartiles, clues and iteration spreads."""
    from pipeline.puzzle_files import read_puzzle_rows
    from pipeline.report import format_summary, summarize

    found = read_puzzle_rows(source)
    note_skipped(found.path, found.skipped)
    typer.echo(format_summary(summarize(found.rows)), nl=False)


@app.command()
def verify(source: Source) -> None:
    """Re-check every puzzle with the solution counter: one solution, equal to the stored one.

    Exits with code 1 when any puzzle fails, listing the first few.
    """
    from pipeline.prepare import VERIFY, prepare_engine
    from pipeline.puzzle_files import read_puzzle_rows
    from pipeline.report import verify_rows

    found = read_puzzle_rows(source)
    note_skipped(found.path, found.skipped)
    rows = found.rows
    missing = {"givens", "box_rows", "box_cols"} - set(rows[0] if rows else ())
    if rows and missing:
        fail(f"{found.path}: no column {', '.join(sorted(missing))}; is this a puzzle file?")
    prepare_engine(VERIFY)
    checked, problems = verify_rows(rows)
    for problem in problems[:SHOWN_PROBLEMS]:
        typer.echo(f"row {problem.row} (id {problem.id}): {problem.problem}")
    if len(problems) > SHOWN_PROBLEMS:
        typer.echo(f"... and {len(problems) - SHOWN_PROBLEMS} more")
    if problems:
        fail(f"{len(problems)} of {checked} puzzles failed verification", SOME_ROWS_BAD)
    typer.echo(f"{checked} puzzles verified: each has one solution, the stored one")
