"""``pipeline grade``: grade puzzle files that others made, every row reported."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pipeline.app import SOME_ROWS_BAD, app, fail
from pipeline.commands.choices import DEFAULT_GRADE_CHUNK, Format
from pipeline.commands.common import (
    BackendOption,
    Insecure,
    Jobs,
    Quiet,
    Scheduler,
    TlsCa,
    TlsCert,
    TlsKey,
    output_option,
    parallel_spec,
    refuse_overwrite,
)

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from pipeline.grade import Done


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
        output_option(
            "Result file, one row per input row: .parquet (default), .csv or .jsonl; "
            "without it, only the summary is printed."
        ),
    ] = None,
    fmt: Annotated[Format | None, typer.Option("--format", help="Force the input format.")] = None,
    column: Annotated[
        str | None, typer.Option(help="Puzzle column of CSV/TSV/Parquet inputs.")
    ] = None,
    box: Annotated[
        str | None, typer.Option(help="Box shape ROWSxCOLS, e.g. 3x4, instead of inferring it.")
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option(
            help="Variant of the puzzles that do not name theirs (x, windoku, x+windoku; a line "
            "may begin 'x:', a table have a variant column); default classic. Jigsaw puzzles "
            "give their layouts in the file: 'jigsaw: <layout> <puzzle>', Killer puzzles their "
            "cages: 'killer: <cage map> <totals> [<givens>]' or a cages column "
            "(docs/puzzle-files.md).",
            show_default=False,
        ),
    ] = None,
    recipe: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="Recipe whose tier bands to use for each grid size, as its run labels them.",
        ),
    ] = None,
    strict: Annotated[
        bool,
        typer.Option(help="Stop at the first row that is not ok, writing no output file."),
    ] = False,
    jobs: Jobs = None,
    chunk_size: Annotated[int, typer.Option(min=1, help="Rows per task sent to a worker.")] = (
        DEFAULT_GRADE_CHUNK
    ),
    backend: BackendOption = None,
    scheduler: Scheduler = None,
    insecure: Insecure = False,
    tls_ca: TlsCa = None,
    tls_cert: TlsCert = None,
    tls_key: TlsKey = None,
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
    row; with --strict the run stops at the first), 2 for unusable arguments or an output that
    cannot be written, 3 for an internal error.
    """
    from pipeline.grade import StrictStop, format_summary, grade_files
    from pipeline.parallel import progress_bar
    from pipeline.recipe import load_recipe
    from pipeline.report_html import grade_blocks, write_html

    refuse_overwrite(output, *sources)
    tiers = load_recipe(recipe).tiers if recipe else ()
    spec = parallel_spec(jobs, None, backend, scheduler, insecure, (tls_ca, tls_cert, tls_key))
    with progress_bar(quiet) as bar:
        task = bar.add_task("rows graded", total=None, visible=False)  # shown with its total
        try:
            summary = grade_files(
                sources,
                output,
                fmt=fmt,
                column=column,
                box=box,
                variant=variant,
                tiers=tiers,
                chunk_size=chunk_size,
                strict=strict,
                parallel=spec,
                on_progress=lambda done: _show(bar, task, done),
            )
        except StrictStop as exc:  # not a user error: the rows so far are written, exit 1
            fail(str(exc), SOME_ROWS_BAD)
    typer.echo(format_summary(summary), nl=False)
    if html is not None:
        write_html(f"Grading report: {', '.join(sources)}", grade_blocks(summary), html)
    if summary.not_ok:
        fail(f"{summary.not_ok} of {summary.rows} rows are not ok", SOME_ROWS_BAD)


def _show(bar: Progress, task: TaskID, done: Done) -> None:
    """Rows graded of the total when the input's row count is known, else bytes read of its size
    (rows alone when neither is known: stdin)."""
    if done.size.rows is None and done.size.bytes is not None:
        bar.update(task, description="bytes read", completed=done.bytes_read, total=done.size.bytes)
    else:
        bar.update(task, completed=done.rows, total=done.size.rows)
    bar.update(task, visible=True)
