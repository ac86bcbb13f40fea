"""The generate stage: random full solution grids (``pipeline generate``), made in seeded chunks
by workers (:func:`pipeline.tasks.grid_chunk`) and streamed to one Parquet file."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from engine.geometry import CLASSIC
from pipeline.formats.writers import write_tables
from pipeline.parallel import EachOf, check_each, in_batches, results_in_order
from pipeline.recheck import check_grids
from pipeline.recipe import ParallelSpec
from pipeline.store import GRID_SCHEMA
from pipeline.tasks import SEED_CHUNK, GridJob, chunks_per_task, grid_chunk, plan_chunks


def generate_grids(
    count: int,
    size: int,
    box: str,
    seed: int,
    spec: ParallelSpec,
    path: Path,
    quiet: bool = True,
    variant: str = CLASSIC,
) -> int:
    """``count`` random full grids of ``variant`` (a Jigsaw's each on a layout of its own) to a
    Parquet file, in chunks on the spec's backend, streamed to the file as they arrive (memory
    does not grow with ``count``)."""
    jobs = (GridJob(chunk, size, box, seed, variant) for chunk in plan_chunks(0, count, SEED_CHUNK))
    tasks = in_batches(jobs, chunks_per_task(spec.chunk_size))
    done = results_in_order(
        EachOf(grid_chunk), tasks, spec, check_each(check_grids), "generating grids", quiet
    )
    tables = (pa.Table.from_pylist(rows, schema=GRID_SCHEMA) for _, batch in done for rows in batch)
    return write_tables(tables, path, GRID_SCHEMA)
