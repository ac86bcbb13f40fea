"""``pipeline generate``: random full solution grids to a Parquet file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.app import app, fail
from pipeline.commands.choices import CLASSIC, DEFAULT_CHUNK_SIZE, MAX_SIZE, MIN_SIZE
from pipeline.commands.common import (
    BackendOption,
    ChunkSize,
    Insecure,
    Jobs,
    Quiet,
    Scheduler,
    Seed,
    TlsCa,
    TlsCert,
    TlsKey,
    Variant,
    output_option,
    parallel_spec,
)


@app.command()
def generate(
    output: Annotated[Path, output_option("Parquet file to write.")],
    count: Annotated[int, typer.Option("--count", "-n", min=1, help="Grids to make.")] = 100,
    size: Annotated[int, typer.Option(min=MIN_SIZE, max=MAX_SIZE, help="Grid size n.")] = 9,
    box: Annotated[
        str | None, typer.Option(help="Box shape ROWSxCOLS (default: as square as possible).")
    ] = None,
    variant: Variant = CLASSIC,
    seed: Seed = 0,
    jobs: Jobs = None,
    chunk_size: ChunkSize = DEFAULT_CHUNK_SIZE,
    backend: BackendOption = None,
    scheduler: Scheduler = None,
    insecure: Insecure = False,
    tls_ca: TlsCa = None,
    tls_cert: TlsCert = None,
    tls_key: TlsKey = None,
    quiet: Quiet = False,
) -> None:
    """Generate random full solution grids (one row each) into a Parquet file.

    Rows carry id (from the canonical form), size, box shape, variant (a Jigsaw's regions: each
    grid has a layout of its own), solution and seed provenance.
    """
    from engine.canon import check_canon_size
    from engine.geometry import box_shape, without_cages
    from pipeline.generate import generate_grids
    from pipeline.prepare import GENERATE, prepare_engine
    from pipeline.variants import checked_variant, is_jigsaw, is_killer

    try:
        rows, cols = box_shape(size, box)
        check_canon_size(size)  # each grid's id needs its canonical form
    except ValueError as exc:
        fail(f"--box/--size: {exc}")
    try:
        variant = checked_variant(variant, rows, cols)
    except ValueError as exc:
        fail(f"--variant: {exc}")
    if is_jigsaw(variant) and box is not None:
        fail(f"--box: a {variant} grid's regions replace the boxes; leave --box out")
    if is_killer(variant):
        fail(
            f"--variant: a {variant} grid is the grid under its cages, which each puzzle draws "
            f"when it is dug: generate {without_cages(variant)} grids (a recipe's Killer section "
            "digs them)"
        )
    spec = parallel_spec(
        jobs, chunk_size, backend, scheduler, insecure, (tls_ca, tls_cert, tls_key)
    )
    prepare_engine(GENERATE)
    written = generate_grids(count, size, f"{rows}x{cols}", seed, spec, output, quiet, variant)
    typer.echo(f"{written} grids written to {output}")
