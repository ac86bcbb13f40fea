"""``pipeline dig``: puzzles of one tier dug from a file of solution grids."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.app import app
from pipeline.commands.choices import DEFAULT_CHUNK_SIZE, Symmetry, Tier
from pipeline.commands.common import (
    ChunkSize,
    Jobs,
    Quiet,
    Seed,
    jobs_or_all,
    output_option,
    refuse_overwrite,
    user_errors,
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
    quiet: Quiet = False,
) -> None:
    """Dig one graded puzzle of a tier out of each grid of a file (same shape for all grids).

    The output has the same columns as a run's puzzles.parquet.
    """
    from pipeline.grid_files import read_solution_grids
    from pipeline.prepare import DIG, prepare_engine
    from pipeline.recipe import ParallelSpec, SectionSpec
    from pipeline.run import dig_solutions

    refuse_overwrite(output, grids)
    with user_errors():
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
        )
        spec = ParallelSpec(n_jobs=jobs_or_all(jobs), chunk_size=chunk_size)
        prepare_engine(DIG)
        written = dig_solutions(found.solutions, section, seed, spec, output, quiet)
    typer.echo(f"{written} {tier} puzzles written to {output}")
