"""``pipeline run``: a whole book from a recipe."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from pipeline.app import app
from pipeline.commands.choices import MAX_SEED
from pipeline.commands.common import (
    BackendOption,
    Insecure,
    Jobs,
    Quiet,
    Scheduler,
    TlsCa,
    TlsCert,
    TlsKey,
)


@app.command()
def run(
    recipe: Annotated[
        Path,
        typer.Argument(exists=True, dir_okay=False, help="Book recipe, e.g. configs/nightly.toml."),
    ],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Folder for run folders and the catalog.")
    ] = None,
    jobs: Jobs = None,
    backend: BackendOption = None,
    scheduler: Scheduler = None,
    insecure: Insecure = False,
    tls_ca: TlsCa = None,
    tls_cert: TlsCert = None,
    tls_key: TlsKey = None,
    seed: Annotated[
        int | None, typer.Option(min=0, max=MAX_SEED, help="Run seed, instead of the recipe's.")
    ] = None,
    date: Annotated[
        datetime | None,
        typer.Option(
            formats=["%Y-%m-%d"],
            help="Day whose seed a recipe without seed runs on (default: today in its timezone).",
        ),
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Run a book recipe: dig, grade, store, dedupe against the catalog and print the PDF.

    The run folder is OUTPUT/<book>/<run-id>; the same command after a crash resumes from the
    chunks already finished (a stored chunk made by another recipe, seed or engine is made
    again). Books running at once into one OUTPUT never share a puzzle, and a book's puzzles
    count as used only once its PDF is printed. A recipe without seed makes a new book each day
    (run again the same day, it resumes). Options override the recipe's values (the backend's
    default is the recipe's).
    """
    from pipeline.prepare import KILLER, RUN, WORDED, prepare_engine
    from pipeline.recipe import load_recipe, with_overrides
    from pipeline.variants import is_killer

    book = with_overrides(
        load_recipe(recipe),
        output=output,
        seed=seed,
        n_jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        insecure=insecure or None,
        tls_ca=tls_ca,
        tls_cert=tls_cert,
        tls_key=tls_key,
    )
    from pipeline.run import run_book  # only now: a refused recipe costs no more than its reading

    printed = book.print.options
    worded = WORDED if printed.hints or printed.worked_solutions else ()
    killer = KILLER if any(is_killer(section.variant) for section in book.sections) else ()
    prepare_engine((*RUN, *worded, *killer))
    result = run_book(book, quiet=quiet, day=date.date() if date else None)
    for name, reason in result.manifest["chunks_rejected"].items():
        typer.echo(f"note: chunks/{name} was dug again: {reason}", err=True)
    counts = result.manifest["counts"]
    redone = result.manifest["chunks_redone"]
    why = ", ".join(f"{number} {reason}" for reason, number in redone.items())
    typer.echo(
        f"{counts['puzzles']} puzzles in {result.folder} "
        f"({counts['chunks_resumed']} of {counts['chunks_total']} chunks resumed, "
        + (f"{counts['chunks_redone']} stored chunks made again ({why}), " if redone else "")
        + f"{counts['duplicates']} duplicates replaced, {result.timings['total']:.1f} s)"
    )
    cover, pack = result.manifest["cover"], result.manifest["syndication"]
    if cover:
        typer.echo(
            f"cover: {cover['file']} ({cover['width_in']} x {cover['height_in']} in, "
            f"spine {cover['spine_in']} in)"
        )
    if pack:
        typer.echo(f"syndication: {pack['files']} files in {result.folder / pack['folder']}")
