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
VERIFY_BATCH = 50_000  # rows read and counted at a time: memory stays flat on any file


def note_skipped(path: Path, skipped: int) -> None:
    """Say on stderr how many rows of grade output were left out, not being ok puzzles."""
    if skipped:
        typer.echo(f"{path}: skipped {skipped} rows whose status is not ok", err=True)


@app.command()
def stats(source: Source) -> None:
    """Count puzzles per size and tier, with score quartiles, clues and iteration spreads."""
    from pipeline.puzzle_files import scan_puzzles
    from pipeline.report import format_summary, summarize_frame

    scan = scan_puzzles(source)
    note_skipped(scan.path, scan.skipped())
    with scan.reading():
        summary = summarize_frame(scan.frame)
    typer.echo(format_summary(summary), nl=False)


@app.command()
def verify(source: Source) -> None:
    """Re-check every puzzle with the solution counter: one solution, equal to the stored one.

    Exits with code 1 when any puzzle fails, listing the first few.
    """
    from pipeline.prepare import VERIFY, prepare_engine
    from pipeline.puzzle_files import scan_puzzles
    from pipeline.report import VERIFY_COLUMNS, verify_batch

    scan = scan_puzzles(source)
    note_skipped(scan.path, scan.skipped())
    prepare_engine(VERIFY)
    checked, problems = 0, []
    for batch in scan.batches(VERIFY_COLUMNS, VERIFY_BATCH):
        problems += verify_batch(batch, first_row=checked)
        checked += batch.height
    for problem in problems[:SHOWN_PROBLEMS]:
        typer.echo(f"row {problem.row} (id {problem.id}): {problem.problem}")
    if len(problems) > SHOWN_PROBLEMS:
        typer.echo(f"... and {len(problems) - SHOWN_PROBLEMS} more")
    if problems:
        fail(f"{len(problems)} of {checked} puzzles failed verification", SOME_ROWS_BAD)
    typer.echo(f"{checked} puzzles verified: each has one solution, the stored one")
