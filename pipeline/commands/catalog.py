"""``pipeline catalog check``, ``rebuild``, ``import`` and ``export``: look after the catalog."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.app import SOME_ROWS_BAD, app, error_line

catalog_app = typer.Typer(context_settings={"help_option_names": ["-h", "--help"]})
app.add_typer(catalog_app, name="catalog")


@catalog_app.callback(invoke_without_command=True)
def catalog(context: typer.Context) -> None:
    """Check, repair, import or export the catalog: every puzzle already printed in a book
    (OUTPUT/catalog.sqlite, a SQLite database).

    Every run reads it so that no puzzle is printed twice, reserves the puzzles it chose while it
    runs, and records them once its PDF exists; a run stops if the catalog is damaged.
    """
    if context.invoked_subcommand is None:  # a bare ``pipeline catalog``: the help
        typer.echo(context.get_help())


Output = Annotated[
    Path,
    typer.Option(
        "--output",
        "-o",
        exists=True,
        file_okay=False,
        help="The folder runs write into (the recipe's 'output'); its catalog.sqlite is used.",
    ),
]


@catalog_app.command()
def check(output: Output = Path("output")) -> None:
    """Check the catalog database and compare it with the printed books in OUTPUT.

    Prints one line per problem, naming the file: SQLite's integrity check, a database of
    another schema version, a printed book whose puzzles are not in the catalog. Exits 1 if there
    is any; a run refuses a damaged catalog, so that no puzzle is printed twice.
    `pipeline catalog rebuild` repairs it.
    """
    from pipeline.catalog import Catalog

    found = Catalog(output)
    problems = found.check()
    for problem in problems:
        typer.echo(problem)
    if problems:
        typer.echo(
            error_line(
                f"{len(problems)} problems in {found.database}; "
                f"`pipeline catalog rebuild -o {output}` rebuilds it"
            ),
            err=True,
        )
        raise typer.Exit(SOME_ROWS_BAD)
    typer.echo(f"{found.database}: no damage found")


@catalog_app.command()
def rebuild(output: Output = Path("output")) -> None:
    """Rebuild the catalog from the printed books in OUTPUT.

    Records again every run folder whose book was printed (its puzzles.parquet), keeps what the
    database holds of books whose run folder is gone, and imports an old catalog/ folder not
    imported yet. All in one transaction: a rebuild stopped half-way changes nothing. Names every
    printed book it could not record whole.
    """
    from pipeline.catalog import Catalog

    found = Catalog(output)
    done = found.rebuild()
    if done.imported and not done.imported.already:
        for line in done.imported.dropped:
            typer.echo(f"dropped {line}")
        typer.echo(f"imported {done.imported.puzzles} puzzles of the old catalog")
    for line in done.unaccounted:
        typer.echo(line)
    typer.echo(
        f"{found.database}: rebuilt with {done.ids} puzzles: {done.books} printed books read, "
        f"{done.kept} puzzles of other books kept"
    )


@catalog_app.command("import")
def import_old(
    output: Output = Path("output"),
    source: Annotated[
        Path | None,
        typer.Argument(
            exists=True,
            file_okay=False,
            help="The folder holding the old catalog/ and .catalog/ (default: OUTPUT).",
        ),
    ] = None,
) -> None:
    """Import an old catalog (a catalog/ folder of Parquet files with .catalog/manifest.json,
    written by earlier versions) into OUTPUT's catalog.

    A run does this by itself for OUTPUT's own old catalog; use it for one kept elsewhere. The
    old files are left in place, and importing the same one again changes nothing.
    """
    from pipeline.catalog import Catalog

    found = Catalog(output)
    done = found.import_old(source)
    if done.already:
        typer.echo(f"{done.source}: imported before; nothing to do")
        return
    typer.echo(
        f"{found.database}: imported {done.puzzles} puzzles of {done.books} books "
        f"from {done.source}"
    )


@catalog_app.command()
def export(
    file: Annotated[Path, typer.Argument(dir_okay=False, help="The Parquet file to write.")],
    output: Output = Path("output"),
) -> None:
    """Write every printed puzzle to a Parquet file, for analytics (pandas, polars, DuckDB).

    One row per puzzle: id, box_rows, box_cols, canonical, tier, book, run_id, size, printed.
    The file appears complete or not at all.
    """
    from pipeline.catalog import Catalog

    count = Catalog(output).export(file)
    typer.echo(f"{file}: {count} printed puzzles")
