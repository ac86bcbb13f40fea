"""``pipeline render``: a PDF book from a puzzle file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.app import app, fail
from pipeline.commands.common import user_errors
from pipeline.recipe import load_recipe
from pipeline.render import PrintOptions, book_from_rows, render_book
from pipeline.render.book import LAYOUTS
from pipeline.render.options import IMPOSITIONS, NO_IMPOSITION
from pipeline.render.page import SADDLE_STITCH, TRIMS
from pipeline.store import read_rows


@app.command()
def render(
    puzzles: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, help="Parquet puzzle file.")
    ],
    output: Annotated[Path, typer.Argument(dir_okay=False, help="PDF file to write.")],
    title: Annotated[str, typer.Option(help="Book title.")] = "Sudoku",
    author: Annotated[str, typer.Option(help="Author line.")] = "",
    layout: Annotated[int, typer.Option(help=f"Puzzles per page: {LAYOUTS}.")] = 4,
    trim: Annotated[str, typer.Option(help=f"Page size: {', '.join(TRIMS)}.")] = "letter",
    bleed: Annotated[
        bool, typer.Option(help="Add 0.125 in bleed on the outside edge and 0.25 in in height.")
    ] = False,
    imposition: Annotated[
        str,
        typer.Option(
            help=f"{' or '.join(IMPOSITIONS)}: saddle-stitch also writes OUTPUT-imposed.pdf, 2-up "
            "sheets in folded-booklet order with crop and fold marks (and pads the book to a "
            "multiple of 4 pages)."
        ),
    ] = NO_IMPOSITION,
    shade_answers: Annotated[
        bool, typer.Option(help="Shade answer-key cells by the logic pass that solved them.")
    ] = False,
    recipe: Annotated[
        Path | None,
        typer.Option(
            exists=True, dir_okay=False, help="Take print options from this recipe instead."
        ),
    ] = None,
) -> None:
    """Print a puzzle file as a PDF book: one section per tier, answers at the back."""
    if layout not in LAYOUTS:
        fail(f"--layout {layout}: allowed: {', '.join(map(str, LAYOUTS))}")
    with user_errors():
        options = (
            load_recipe(recipe).print.options
            if recipe
            else PrintOptions(
                trim=trim,
                bleed=bleed,
                imposition=imposition,
                binding=SADDLE_STITCH if imposition == SADDLE_STITCH else "perfect",
                shade_answers=shade_answers,
            )
        )
        rows = read_rows(puzzles)
        tiers = dict.fromkeys(str(row["tier"]) for row in rows)
        try:
            book = book_from_rows(rows, title, author, dict.fromkeys(tiers, layout))
            result = render_book(book, output, options)
        except (ValueError, OSError) as exc:
            fail(f"{output}: {exc}")
    typer.echo(f"{result.pages} pages, {result.puzzles} puzzles written to {output}")
    if result.imposed_path:
        typer.echo(
            f"{result.sheets} sheets imposed, with crop and fold marks, in {result.imposed_path}"
        )
