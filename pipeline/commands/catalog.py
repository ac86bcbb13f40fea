"""``pipeline catalog check`` and ``rebuild``: find and repair damage to the catalog."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.app import SOME_ROWS_BAD, app, error_line

catalog_app = typer.Typer(context_settings={"help_option_names": ["-h", "--help"]})
app.add_typer(catalog_app, name="catalog")


@catalog_app.callback(invoke_without_command=True)
def catalog(context: typer.Context) -> None:
    """Check or rebuild the catalog: the puzzles already printed in a book (OUTPUT/catalog).

    Every run reads it so that no puzzle is printed twice, and adds its puzzles once its PDF
    exists; a run stops if the catalog is damaged.
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
        help="The folder runs write into (the recipe's 'output'); its catalog/ is used.",
    ),
]


@catalog_app.command()
def check(output: Output = Path("output")) -> None:
    """Compare the catalog with its manifest and with the printed books in OUTPUT.

    Prints one line per problem, naming the file (a file deleted, renamed, moved to another
    size=N folder or rewritten, a column of the wrong type, a printed book missing from the
    catalog), and exits 1 if there is any; a run refuses a damaged catalog, so that no puzzle is
    printed twice. `pipeline catalog rebuild` repairs it.
    """
    from pipeline.catalog import Catalog

    problems = Catalog(output).check()
    for problem in problems:
        typer.echo(problem)
    if problems:
        typer.echo(
            error_line(
                f"{len(problems)} problems in {output / 'catalog'}; "
                f"`pipeline catalog rebuild -o {output}` rebuilds it"
            ),
            err=True,
        )
        raise typer.Exit(SOME_ROWS_BAD)
    typer.echo(f"{output / 'catalog'}: no damage found")


@catalog_app.command()
def rebuild(output: Output = Path("output")) -> None:
    """Rebuild the catalog from the printed books in OUTPUT.

    Reads every run folder whose book was printed (its puzzles.parquet), keeps every catalog
    file that still reads with the right columns (books whose run folder is gone), and writes
    the catalog and its manifest anew. Says which damaged files it had to drop.
    """
    from pipeline.catalog import Catalog

    done = Catalog(output).rebuild()
    for line in done.dropped:
        typer.echo(f"dropped {line}")
    typer.echo(
        f"{output / 'catalog'}: rebuilt with {done.ids} ids from {done.books} printed books "
        f"and {done.salvaged} catalog files that were still sound"
    )
