"""``pipeline dig``: puzzles of one tier dug from a file of solution grids."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.app import app
from pipeline.commands.choices import DEFAULT_CHUNK_SIZE, Symmetry, Tier
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
    output_option,
    parallel_spec,
    refuse_overwrite,
)


@app.command()
def dig(
    grids: Annotated[
        Path,
        typer.Argument(exists=True, dir_okay=False, help="Parquet of grids (`pipeline generate`)."),
    ],
    output: Annotated[Path, output_option("Parquet file of puzzles.")],
    tier: Annotated[Tier, typer.Option(help="Target tier.")] = "easy",
    symmetry: Annotated[Symmetry, typer.Option(help="Clue symmetry.")] = "none",
    minimal: Annotated[bool, typer.Option(help="Every clue needed for a unique solution.")] = True,
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
    """Dig one graded puzzle of a tier out of each grid of a file (same shape and variant for
    all grids: the file's variant column, a Jigsaw's each on its layout).

    The output has the same columns as a run's puzzles.parquet.
    """
    from pipeline.dig import dig_solutions
    from pipeline.grid_files import read_solution_grids
    from pipeline.prepare import DIG, prepare_engine
    from pipeline.recipe import SectionSpec

    refuse_overwrite(output, grids)
    found = read_solution_grids(grids)
    section = SectionSpec(
        tier,
        found.size,
        found.box_rows,
        found.box_cols,
        tier,
        len(found.solutions),
        symmetry,
        minimal,
        variant=found.variant,
    )
    spec = parallel_spec(
        jobs, chunk_size, backend, scheduler, insecure, (tls_ca, tls_cert, tls_key)
    )
    prepare_engine(DIG)
    written = dig_solutions(found, section, seed, spec, output, quiet)
    typer.echo(f"{written} {tier} puzzles written to {output}")
