"""``pipeline dig``: puzzles of one tier dug from a file of solution grids."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from engine.tiers import TIERS
from pipeline.app import app, fail
from pipeline.commands.common import ChunkSize, Jobs, Quiet, Seed, user_errors
from pipeline.recipe import ALL_CORES, DEFAULT_CHUNK_SIZE, SYMMETRIES, ParallelSpec, SectionSpec
from pipeline.run import dig_solutions
from pipeline.store import read_rows


@app.command()
def dig(
    grids: Annotated[
        Path,
        typer.Argument(exists=True, dir_okay=False, help="Parquet of grids (`pipeline generate`)."),
    ],
    output: Annotated[Path, typer.Argument(dir_okay=False, help="Parquet file of puzzles.")],
    tier: Annotated[str, typer.Option(help=f"Target tier: {', '.join(TIERS)}.")] = "easy",
    symmetry: Annotated[str, typer.Option(help=f"Clue symmetry: {', '.join(SYMMETRIES)}.")] = (
        "none"
    ),
    minimal: Annotated[bool, typer.Option(help="Every clue needed for a unique solution.")] = True,
    seed: Seed = 0,
    jobs: Jobs = None,
    chunk_size: ChunkSize = DEFAULT_CHUNK_SIZE,
    quiet: Quiet = False,
) -> None:
    """Dig one graded puzzle of a tier out of each grid of a file (same shape for all grids).

    The output has the same columns as a run's puzzles.parquet.
    """
    if tier not in TIERS:
        fail(f"--tier {tier!r}: allowed: {', '.join(TIERS)}")
    if symmetry not in SYMMETRIES:
        fail(f"--symmetry {symmetry!r}: allowed: {', '.join(SYMMETRIES)}")
    with user_errors():
        rows = read_rows(grids)
        shapes = {(int(r["box_rows"]), int(r["box_cols"])) for r in rows}
        if len(shapes) > 1:
            fail(f"{grids}: grids of several box shapes {sorted(shapes)}; dig one shape per file")
        if not rows:
            fail(f"{grids}: no grids")
        (box_rows, box_cols), size = shapes.pop(), int(rows[0]["size"])
        section = SectionSpec(tier, size, box_rows, box_cols, tier, len(rows), symmetry, minimal)
        spec = ParallelSpec(n_jobs=ALL_CORES if jobs is None else jobs, chunk_size=chunk_size)
        solutions = [str(r["solution"]) for r in rows]
        written = dig_solutions(solutions, section, seed, spec, output, quiet)
    typer.echo(f"{written} {tier} puzzles written to {output}")
