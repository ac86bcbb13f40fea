"""``pipeline render``: a PDF book from puzzles (a puzzle file, a run folder, grade output)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.app import app, fail
from pipeline.commands.choices import Imposition, Layout, Trim
from pipeline.commands.common import output_option, refuse_overwrite
from pipeline.commands.stats import Source, note_skipped


@app.command()
def render(
    puzzles: Source,
    output: Annotated[Path, output_option("PDF file to write.")],
    tier: Annotated[
        list[str] | None,
        typer.Option(
            metavar="TIER",
            help="Print only puzzles of this tier (repeat for several).",
            show_default=False,
        ),
    ] = None,
    count: Annotated[
        int | None,
        typer.Option("--count", "-n", min=1, help="Print at most this many puzzles (the first)."),
    ] = None,
    title: Annotated[str, typer.Option(help="Book title.")] = "Sudoku",
    author: Annotated[str, typer.Option(help="Author line.")] = "",
    layout: Annotated[Layout, typer.Option(help="Puzzles per page.")] = 4,
    trim: Annotated[Trim, typer.Option(help="Page size.")] = "letter",
    bleed: Annotated[
        bool, typer.Option(help="Add 0.125 in bleed on the outside edge and 0.25 in in height.")
    ] = False,
    imposition: Annotated[
        Imposition,
        typer.Option(
            help="saddle-stitch also writes OUTPUT-imposed.pdf, 2-up sheets in folded-booklet "
            "order with crop and fold marks (and pads the book to a multiple of 4 pages)."
        ),
    ] = "none",
    shade_answers: Annotated[
        bool, typer.Option(help="Shade answer-key cells by the logic pass that solved them.")
    ] = False,
    recipe: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="Take print options (and the [cover] table) from this recipe instead.",
        ),
    ] = None,
    cover: Annotated[
        bool,
        typer.Option(
            "--cover",
            help="Also write OUTPUT-cover.pdf: the paperback cover for the book's page count "
            "(perfect binding; paper and colours from the recipe's [cover], else the defaults).",
        ),
    ] = False,
) -> None:
    """Print puzzles as a PDF book: one section per tier, answers at the back.

    PUZZLES is a puzzle file, a run folder or `pipeline grade` output (its ok rows).
    """
    from pipeline.prepare import EXPLAIN, prepare_engine
    from pipeline.puzzle_files import read_puzzle_rows
    from pipeline.recipe import load_recipe
    from pipeline.render.book import BookError, book_from_rows
    from pipeline.render.booklet import render_book
    from pipeline.render.cover import (
        CoverError,
        CoverOptions,
        check_binding,
        cover_path,
        render_cover,
    )
    from pipeline.render.options import PrintOptions
    from pipeline.render.page import PERFECT, SADDLE_STITCH

    refuse_overwrite(output, puzzles)
    read = load_recipe(recipe) if recipe else None
    options = (
        read.print.options
        if read
        else PrintOptions(
            trim=trim,
            bleed=bleed,
            imposition=imposition,
            binding=SADDLE_STITCH if imposition == SADDLE_STITCH else PERFECT,
            shade_answers=shade_answers,
        )
    )
    if cover:
        check_binding(options)
    selected = read_puzzle_rows(puzzles, tier or (), count)
    note_skipped(selected.path, selected.skipped)
    tiers = dict.fromkeys(str(row["tier"]) for row in selected.rows)
    try:
        book = book_from_rows(selected.rows, title, author, dict.fromkeys(tiers, layout))
    except BookError as exc:
        fail(f"{selected.path}: {exc}")
    if options.hints or options.worked_solutions:
        prepare_engine(EXPLAIN)  # their words come from the person's path
    try:
        result = render_book(book, output, options)
    except OSError as exc:
        fail(f"{output}: cannot write: {exc.strerror or exc}")
    typer.echo(f"{result.pages} pages, {result.puzzles} puzzles written to {output}")
    if cover:
        cover_options = (read.cover if read else None) or CoverOptions()
        path = cover_path(output)
        try:
            written = render_cover(book, path, result.pages, options, cover_options)
        except CoverError as exc:
            fail(f"{path}: cannot render the cover: {exc}")
        size = written.manifest()
        typer.echo(
            f"cover {size['width_in']} x {size['height_in']} in (spine {size['spine_in']} in) "
            f"written to {written.path}"
        )
    if result.imposed_path:
        typer.echo(
            f"{result.sheets} sheets imposed, with crop and fold marks, in {result.imposed_path}"
        )
