"""``pipeline grade``: grade puzzle files that others made, every row reported."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.app import app, fail
from pipeline.commands.common import BAD_ARGUMENTS, Jobs, Quiet, user_errors
from pipeline.formats import FORMATS
from pipeline.grading import (
    ALL_CORES,
    DEFAULT_CHUNK,
    StrictStop,
    UnusableArguments,
    format_summary,
    grade_files,
)
from pipeline.parallel import progress_bar
from pipeline.recipe import RecipeError, load_recipe
from pipeline.report_html import grade_blocks, write_html

SOME_ROWS_BAD = 1  # exit code when some rows are not ok


@app.command()
def grade(
    sources: Annotated[
        list[str],
        typer.Argument(
            help="Puzzle files (lines, sdk, ss, grids, CSV/TSV, Parquet, gzip); - is stdin."
        ),
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            dir_okay=False,
            help="Result file, one row per input row: .parquet (default), .csv or .jsonl; "
            "without it, only the summary is printed.",
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option("--format", help=f"Force the input format: {', '.join(FORMATS)}."),
    ] = None,
    column: Annotated[
        str | None, typer.Option(help="Puzzle column of CSV/TSV/Parquet inputs.")
    ] = None,
    box: Annotated[
        str | None, typer.Option(help="Box shape ROWSxCOLS, e.g. 3x4, instead of inferring it.")
    ] = None,
    recipe: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="Recipe whose tier bands to use, its own first (as its run labels them).",
        ),
    ] = None,
    strict: Annotated[
        bool,
        typer.Option(help="Stop at the first row that is not ok, writing no output file."),
    ] = False,
    jobs: Jobs = None,
    chunk_size: Annotated[int, typer.Option(min=1, help="Rows per task sent to a worker.")] = (
        DEFAULT_CHUNK
    ),
    quiet: Quiet = False,
    html: Annotated[
        Path | None,
        typer.Option(
            "--report",
            dir_okay=False,
            help="Also write the summary as a self-contained HTML page with charts.",
        ),
    ] = None,
) -> None:
    """Grade every puzzle of SOURCES and print a summary.

    Each row's status is ok, invalid, no_solution or multiple_solutions (with the reason and line
    number). Exit code 0 when every row is ok, 1 when some are not (the output still has every
    row; with --strict the run stops at the first), 2 for unusable arguments.
    """
    try:
        tiers = load_recipe(recipe).tier_bands() if recipe else None
    except RecipeError as exc:
        fail(str(exc), BAD_ARGUMENTS)
    with progress_bar(quiet) as bar:
        task = bar.add_task("rows graded", total=None)
        try:
            summary = grade_files(
                sources,
                output,
                fmt=fmt,
                column=column,
                box=box,
                tiers=tiers,
                n_jobs=ALL_CORES if jobs is None else jobs,
                chunk_size=chunk_size,
                strict=strict,
                on_rows=lambda count: bar.advance(task, count),
            )
        except UnusableArguments as exc:
            fail(str(exc), BAD_ARGUMENTS)
        except StrictStop as exc:
            fail(str(exc), SOME_ROWS_BAD)
    typer.echo(format_summary(summary), nl=False)
    if html is not None:
        with user_errors():
            write_html(f"Grading report: {', '.join(sources)}", grade_blocks(summary), html)
    if summary.not_ok:
        fail(f"{summary.not_ok} of {summary.rows} rows are not ok", SOME_ROWS_BAD)
