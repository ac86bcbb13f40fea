"""The dig stage: puzzles dug to a tier, in seeded chunks on the parallel backend.

A book's sections (:func:`make_chunks`) keep each finished chunk on disk as it arrives
(:class:`ChunkStore`), its provenance in the Parquet metadata, so a killed run resumes from what
it finished; ``pipeline dig`` (:func:`dig_solutions`) digs given solution grids into one file.
The digging itself runs in workers (:func:`pipeline.tasks.dig_chunk`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.formats.writers import write_tables
from pipeline.grid_files import SolutionGrids
from pipeline.parallel import (
    EachOf,
    UntrustedResult,
    check_each,
    in_batches,
    results_in_order,
    run_tasks,
)
from pipeline.recheck import check_dug
from pipeline.recipe import ParallelSpec, Recipe, SectionSpec
from pipeline.store import (
    CHUNKS,
    PUZZLE_SCHEMA,
    StoreError,
    generator_build,
    make_folder,
    read_metadata,
    read_rows,
    write_table,
)
from pipeline.tasks import (
    SEED_CHUNK,
    Chunk,
    DigJob,
    chunks_per_task,
    dig_chunk,
    plan_chunks,
    section_tiers,
)

#: What a chunk records of how it was made; it is reused only if all of them match.
PROVENANCE = ("section", "chunk", "seed", "recipe_hash", "generator")
CONTENT_REJECTED = "rows do not re-verify"


class ChunkStore:
    """A run's finished chunks on disk: written as each one arrives with its provenance in the
    Parquet metadata, reused on resume only if that provenance is this run's and every row
    re-verifies as a worker's would (:func:`pipeline.recheck.check_dug`): a chunk edited,
    truncated or written by another run is dug again, never printed."""

    def __init__(self, folder: Path, seed: int, recipe: str) -> None:
        self.folder = make_folder(folder / CHUNKS)
        self.seed, self.recipe = seed, recipe
        self.redone: Counter[str] = Counter()  # chunks on disk made again, by kind of reason
        self.rejected: dict[str, str] = {}  # chunk file -> why it was dug again (content)

    def path(self, chunk: Chunk) -> Path:
        return self.folder / f"{chunk.name}.parquet"

    def provenance(self, chunk: Chunk) -> dict[str, str]:
        """What this run records in the chunk's metadata (``sudoku.<key>``)."""
        values = (chunk.section, chunk.index, self.seed, self.recipe, generator_build())
        return dict(zip(PROVENANCE, map(str, values), strict=True))

    def mismatch(self, chunk: Chunk) -> str | None:
        """Why the stored chunk is not this run's (None when it is)."""
        try:
            recorded = read_metadata(self.path(chunk))
        except (OSError, ValueError) as exc:  # ArrowInvalid is a ValueError
            return f"unreadable ({type(exc).__name__})"
        for key, value in self.provenance(chunk).items():
            if recorded.get(key) != value:
                return f"{key} differs" if key in recorded else f"no {key} recorded"
        return None

    def verified_rows(self, job: DigJob) -> list[dict[str, Any]] | None:
        """The stored chunk's rows if each re-verifies for ``job``; else None, with the reason
        in :attr:`rejected`."""
        try:
            rows = read_rows(self.path(job.chunk))
            check_dug(job, rows)
        except (StoreError, UntrustedResult) as exc:
            self.rejected[self.path(job.chunk).name] = str(exc)
            return None
        except (KeyError, TypeError) as exc:  # a column missing, or of another type
            self.rejected[self.path(job.chunk).name] = f"not a chunk's columns ({exc!r})"
            return None
        return rows

    def load(self, jobs: Sequence[DigJob]) -> dict[Chunk, list[dict[str, Any]]]:
        """Rows of the jobs' chunks already stored by this run (a resumed run skips them); a
        stored chunk of another section, seed, recipe or generator, or one whose rows do not
        re-verify, is counted in :attr:`redone` and dug again."""
        done = {}
        for job in jobs:
            if not self.path(job.chunk).exists():
                continue
            reason = self.mismatch(job.chunk)
            if reason is not None:
                self.redone[reason] += 1
                continue
            rows = self.verified_rows(job)
            if rows is None:
                self.redone[CONTENT_REJECTED] += 1
            else:
                done[job.chunk] = rows
        return done

    def save(self, chunk: Chunk, rows: list[dict[str, Any]]) -> None:
        meta = {f"sudoku.{k}".encode(): v for k, v in self.provenance(chunk).items()}
        write_table(rows, self.path(chunk), PUZZLE_SCHEMA, meta)


def make_chunks(
    jobs: Sequence[DigJob],
    store: ChunkStore,
    recipe: Recipe,
    quiet: bool,
) -> tuple[dict[Chunk, list[dict[str, Any]]], int]:
    """Rows of every job's chunk, from disk or dug now; also how many were read back."""
    done = store.load(jobs)
    todo = [job for job in jobs if job.chunk not in done]

    def finished(job: DigJob, rows: list[dict[str, Any]]) -> None:
        store.save(job.chunk, rows)
        done[job.chunk] = rows

    run_tasks(dig_chunk, todo, recipe.parallel, finished, "digging chunks", quiet, check_dug)
    return done, len(jobs) - len(todo)


def dig_solutions(
    grids: SolutionGrids,
    section: SectionSpec,
    seed: int,
    spec: ParallelSpec,
    path: Path,
    quiet: bool = True,
) -> int:
    """Dig one puzzle of ``section.tier`` from each solution grid (of the section's variant; a
    Jigsaw's on its own layout), graded, to a Parquet file."""
    tiers = section_tiers(section)

    def part(values: Sequence[Any], chunk: Chunk) -> tuple[Any, ...]:
        start = chunk.index * SEED_CHUNK
        return tuple(values[start : start + chunk.count])

    jobs = (
        DigJob(
            chunk,
            section,
            seed,
            "",
            tiers,
            part(grids.solutions, chunk),
            part(grids.regions, chunk),
        )
        for chunk in plan_chunks(0, len(grids.solutions), SEED_CHUNK)
    )
    tasks = in_batches(jobs, chunks_per_task(spec.chunk_size))
    done = results_in_order(EachOf(dig_chunk), tasks, spec, check_each(check_dug), "digging", quiet)
    tables = (
        pa.Table.from_pylist(rows, schema=PUZZLE_SCHEMA) for _, batch in done for rows in batch
    )
    return write_tables(tables, path, PUZZLE_SCHEMA)
