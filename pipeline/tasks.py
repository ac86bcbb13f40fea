"""The contract between the parent and its workers: what a task carries, what a worker does with
it, and what it sends back.

A worker is a local process or a Dask worker on another machine; everything here is picklable
and runs there. Chunk ``c`` of section ``s`` draws every random number from
``SeedSequence(run_seed, spawn_key=(s, c, ...))``, so where and in which order chunks run never
changes what they make. The parent re-verifies every result before using it
(:mod:`pipeline.recheck`).

- grids (``pipeline generate``): :class:`GridJob` -> :func:`grid_chunk` -> rows of
  :data:`pipeline.store.GRID_SCHEMA`;
- digging (a book's sections, ``pipeline dig``): :class:`DigJob` -> :func:`dig_chunk` -> rows of
  :data:`pipeline.store.PUZZLE_SCHEMA`;
- grading (``pipeline grade``, ``source`` sections): :data:`GradeTask` -> :func:`grade_chunk` ->
  :class:`Verdicts`, the :data:`VERDICT_COLUMNS` of :data:`GRADED_SCHEMA`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple, overload

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

import engine
from engine import Geometry, InvalidPuzzle, MultipleSolutions, NoSolution, Tier
from engine.cages import Cage
from engine.dig import DigFailed, DigResult, ImpossibleBand, dig
from engine.geometry import CLASSIC, geometry, without_cages
from engine.killer import dig_killer
from engine.layouts import NoLayout, random_layout
from pipeline.errors import PipelineError
from pipeline.recipe import SectionSpec, bands_for
from pipeline.recipe_schema import DEFAULT_CHUNK_SIZE
from pipeline.store import CAGES_TYPE, puzzle_id
from pipeline.variants import (
    canonical_keys,
    is_jigsaw,
    is_killer,
    variant_columns,
)

#: Items per seeded chunk of ``pipeline generate`` and ``pipeline dig``: fixed, so their
#: ``--chunk-size`` (items per task, in whole seeded chunks) never changes what they make.
SEED_CHUNK = DEFAULT_CHUNK_SIZE
MAX_DIG_ATTEMPTS = 25  # fresh grids tried for one puzzle before the section is declared stuck
#: The last spawn-key part of a Jigsaw layout's seed: each grid or dig attempt draws its layout
#: from a stream of its own, beside the one its grid and dig draw from.
LAYOUT_STREAM = 1
OK, INVALID, NO_SOLUTION, MULTIPLE = "ok", "invalid", "no_solution", "multiple_solutions"
STATUSES = (OK, INVALID, NO_SOLUTION, MULTIPLE)


# -- chunks: the unit of work and of seeding -------------------------------------------------------


@dataclass(frozen=True)
class Chunk:
    """``count`` items of one section; ``index`` numbers the section's chunks from 0."""

    section: int
    index: int
    count: int

    @property
    def name(self) -> str:
        """File stem of the chunk's stored rows."""
        return f"s{self.section:03d}-c{self.index:05d}"

    def seed(self, run_seed: int, *extra: int) -> np.random.SeedSequence:
        """The chunk's own seed (``extra`` spawn-key parts for items or attempts inside it)."""
        return np.random.SeedSequence(run_seed, spawn_key=(self.section, self.index, *extra))


@dataclass(frozen=True)
class ChunkPlan(Sequence[Chunk]):
    """``count`` items of a section in chunks of at most ``chunk_size``, each computed when asked
    for: a plan of 10**15 items takes no more memory than a plan of ten."""

    section: int
    items: int  # (not ``count``: Sequence has a method of that name)
    chunk_size: int
    first_index: int = 0

    def __len__(self) -> int:
        return -(-self.items // self.chunk_size)

    @overload
    def __getitem__(self, k: int) -> Chunk: ...
    @overload
    def __getitem__(self, k: slice) -> Sequence[Chunk]: ...
    def __getitem__(self, k: int | slice) -> Chunk | Sequence[Chunk]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(k)
        start = k * self.chunk_size
        return Chunk(self.section, self.first_index + k, min(self.chunk_size, self.items - start))

    def __iter__(self) -> Iterator[Chunk]:
        return (self[k] for k in range(len(self)))


def chunks_per_task(chunk_size: int) -> int:
    """Seeded chunks per task for ``chunk_size`` items per task (at least one)."""
    return max(1, round(chunk_size / SEED_CHUNK))


def plan_chunks(section: int, count: int, chunk_size: int, first_index: int = 0) -> ChunkPlan:
    """``count`` items of a section split into chunks of at most ``chunk_size``."""
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, got {chunk_size}")
    return ChunkPlan(section, count, chunk_size, first_index)


# -- grids and digging -----------------------------------------------------------------------------


def section_tiers(section: SectionSpec, defined: Sequence[Tier] = ()) -> dict[str, Tier]:
    """The bands a section digs and grades against (:func:`pipeline.recipe.bands_for` its shape,
    ``defined`` the recipe's own tiers)."""
    return bands_for(defined, section.box_rows, section.box_cols)


@dataclass(frozen=True)
class DigJob:
    """Everything a worker needs to make one chunk of a section's puzzles (picklable)."""

    chunk: Chunk
    section: SectionSpec
    run_seed: int
    run_id: str
    tiers: Mapping[str, Tier]
    solutions: tuple[str, ...] = ()  # dig these grids (``pipeline dig``) instead of fresh ones
    regions: tuple[str | None, ...] = ()  # and for a Jigsaw section each one's layout


@dataclass(frozen=True)
class GridJob:
    """One chunk of full solution grids for ``pipeline generate``."""

    chunk: Chunk
    size: int
    box: str
    run_seed: int
    variant: str = CLASSIC


def _now() -> datetime:
    return datetime.now(UTC)


def layout(size: int, variant: str, seed: np.random.SeedSequence, where: str) -> Geometry:
    """A random Jigsaw layout of ``variant`` (:func:`engine.layouts.random_layout`), drawn from
    ``seed``; a size that has none is a :class:`PipelineError` naming ``where``."""
    try:
        return random_layout(size, seed=seed, variant=variant)
    except NoLayout as exc:
        raise PipelineError(f"{where}: {exc}") from None


def grid_chunk(job: GridJob) -> list[dict[str, Any]]:
    """A chunk of random full grids of the job's variant (runs in a worker): a Jigsaw grid each
    on a layout of its own, drawn from the grid's own seed."""
    chunk = job.chunk
    if is_jigsaw(job.variant):
        where = f"chunk {chunk.name}"
        geos = [
            layout(job.size, job.variant, chunk.seed(job.run_seed, i, LAYOUT_STREAM), where)
            for i in range(chunk.count)
        ]
        grids = [
            engine.random_grid(seed=chunk.seed(job.run_seed, i), box=geo)
            for i, geo in enumerate(geos)
        ]
    else:
        geo = engine.geometry_for(job.size, job.box).with_variant(job.variant)
        geos = [geo] * chunk.count
        grids = engine.random_grids(chunk.count, seed=chunk.seed(job.run_seed), box=geo)
    created = _now()
    keys = canonical_keys(list(zip(grids, geos, strict=True)))
    return [
        {
            "id": puzzle_id(geo.box_rows, geo.box_cols, key),
            "size": job.size,
            "box_rows": geo.box_rows,
            "box_cols": geo.box_cols,
            **variant_columns(geo),
            "solution": grid,
            "seed": job.run_seed,
            "section": chunk.section,
            "chunk": chunk.index,
            "created": created,
        }
        for grid, geo, key in zip(grids, geos, keys, strict=True)
    ]


def dig_one(
    solution: str, section: SectionSpec, tiers: Mapping[str, Tier], seed: Any, geo: Geometry
) -> tuple[DigResult, Geometry]:
    """Dig one puzzle of the section's tier out of ``solution``, a full grid of ``geo`` (DigFailed
    if out of reach), and the geometry it is on: a Killer's cages are drawn by its dig."""
    if is_killer(section.variant):
        made = dig_killer(solution, tiers[section.tier], seed=seed, box=geo, tiers=tiers)
        found = DigResult(made.puzzle, made.solution, made.grade, made.attempts, section.symmetry)
        return found, made.geometry
    found = dig(
        solution,
        tiers[section.tier],
        symmetry=section.symmetry,
        seed=seed,
        box=geo,
        minimal=section.minimal,
        tiers=tiers,
    )
    return found, geo


def puzzle_row(
    givens: str,
    solution: str,
    grade: engine.Grade,
    section: SectionSpec,
    geo: Geometry,
    key: str,
    provenance: Mapping[str, Any],
) -> dict[str, Any]:
    """A store row (:data:`pipeline.store.PUZZLE_SCHEMA`) for a graded puzzle of the section, on
    ``geo`` (its variant and layout) with the canonical ``key``; ``provenance`` gives symmetry,
    attempts, seed, section, chunk, position and run id."""
    return {
        "id": puzzle_id(section.box_rows, section.box_cols, key),
        "size": section.size,
        "box_rows": section.box_rows,
        "box_cols": section.box_cols,
        **variant_columns(geo),
        "givens": givens,
        "solution": solution,
        "canonical": key,
        "clues": grade.clues,
        "tier": section.tier,
        "score": float(grade.score),
        "iterations": grade.iterations,
        "hardest": grade.hardest,
        "techniques": [
            {"technique": name, "steps": steps} for name, steps in grade.steps_per_technique.items()
        ],
        "passes": [int(p) for p in grade.cell_passes],
        **provenance,
        "created": _now(),
    }


def dig_geometry(job: DigJob, position: int, attempt: int) -> Geometry:
    """The grid the job's item ``position`` is dug on at ``attempt``: the section's shape and
    variant, and for a Jigsaw the layout of the grid the task sent, or a fresh one drawn from
    the attempt's own stream. A Killer's is the grid under its cages (the dig draws them)."""
    section, chunk = job.section, job.chunk
    variant = without_cages(section.variant)
    if not is_jigsaw(variant):
        return geometry(section.box_rows, section.box_cols, variant)
    if job.solutions:
        return geometry(section.box_rows, section.box_cols, variant, job.regions[position])
    seed = chunk.seed(job.run_seed, position, attempt, LAYOUT_STREAM)
    return layout(section.size, variant, seed, f"section {section.title!r}")


def dig_chunk(job: DigJob) -> list[dict[str, Any]]:
    """A chunk of puzzles (runs in a worker): each from a fresh grid (a Jigsaw's on a fresh
    layout), retried on a new one while the digger misses the band; every random number comes
    from the chunk's spawn key, so neither the worker count nor the backend changes a byte."""
    section, chunk = job.section, job.chunk
    results = []
    geos = []
    for position in range(chunk.count):
        for attempt in range(MAX_DIG_ATTEMPTS):
            seed = chunk.seed(job.run_seed, position, attempt)
            geo = dig_geometry(job, position, attempt)
            grid = (
                job.solutions[position] if job.solutions else engine.random_grid(seed=seed, box=geo)
            )
            try:
                found, dug_on = dig_one(grid, section, job.tiers, seed, geo)
                results.append(found)
                geos.append(dug_on)
                break
            except ImpossibleBand as exc:
                raise PipelineError(f"section {section.title!r}: {exc}") from None
            except DigFailed as exc:
                last = exc
        else:
            raise PipelineError(
                f"section {section.title!r}: no {section.tier!r} puzzle after "
                f"{MAX_DIG_ATTEMPTS} grids (chunk {chunk.name}, item {position}): {last}"
            )
    keys = canonical_keys([(result.puzzle, geo) for result, geo in zip(results, geos, strict=True)])
    return [
        puzzle_row(
            result.puzzle,
            result.solution,
            result.grade,
            section,
            geo,
            key,
            {
                "symmetry": result.symmetry,
                "attempts": result.attempts,
                "seed": job.run_seed,
                "section": chunk.section,
                "chunk": chunk.index,
                "position": position,
                "run_id": job.run_id,
            },
        )
        for position, (result, geo, key) in enumerate(zip(results, geos, keys, strict=True))
    ]


# -- grading ---------------------------------------------------------------------------------------


#: The rows of ``pipeline grade``'s output. ``raw`` (the text as read) is kept only for invalid
#: rows, whose puzzle could not be normalised; the grade columns are null except for ok rows;
#: ``variant``, ``regions`` and ``cages`` are the store's (:data:`pipeline.store.VARIANT_FIELDS`).
GRADED_SCHEMA = pa.schema(
    [
        ("source", pa.string()),
        ("line", pa.int64()),
        ("puzzle", pa.string()),
        ("raw", pa.string()),
        ("status", pa.string()),
        ("reason", pa.string()),
        ("size", pa.int64()),
        ("box_rows", pa.int64()),
        ("box_cols", pa.int64()),
        ("variant", pa.string()),  # null only on an invalid row whose variant is unknown
        ("regions", pa.string()),  # a Jigsaw's layout, else null
        ("cages", CAGES_TYPE),  # a Killer's cages, else null
        ("score", pa.float64()),
        ("tier", pa.string()),
        ("iterations", pa.int64()),
        ("hardest", pa.string()),
        ("techniques", pa.map_(pa.string(), pa.int64())),
        ("clues", pa.int64()),
        ("solution", pa.string()),
    ]
)


#: Reasons of the rows the engine finds no single solution for.
NO_SOLUTION_REASON = "the puzzle has no solution"
MULTIPLE_REASON = "the puzzle has more than one solution"


#: The grade columns a worker fills for the well-formed puzzles of a chunk, in the order of
#: GRADED_SCHEMA.
VERDICT_COLUMNS = (
    "status",
    "reason",
    "score",
    "tier",
    "iterations",
    "hardest",
    "techniques",
    "clues",
    "solution",
)
VERDICT_SCHEMA = pa.schema([GRADED_SCHEMA.field(name) for name in VERDICT_COLUMNS])


#: A puzzle's grid as a task carries it (a :class:`engine.Geometry` is rebuilt, cached, from it
#: in the worker): box rows, box cols, variant, a Jigsaw's regions and a Killer's checked cages
#: (else None; a Shape without cages is a grid without them).
Shape = tuple[int, int, str, str | None, tuple[Cage, ...] | None] | tuple[int, int, str, str | None]
#: What a worker receives: a chunk's well-formed ``(puzzle, shape)`` pairs, a recipe's own tier
#: bands (each grid size adds its defaults, :func:`pipeline.recipe.bands_for`), and on a machine
#: still compiling the engine what to call before a row needs more than the core rungs
#: (:func:`pipeline.prepare.prepare_grading`).
GradeTask = tuple[list[tuple[str, Shape]], tuple[Tier, ...], Callable[[], None] | None]


class Verdicts(NamedTuple):
    """What a worker found for a chunk's well-formed puzzles, in their order: the grade columns
    (VERDICT_COLUMNS) and each puzzle's grading time in seconds."""

    columns: pa.Table
    seconds: np.ndarray


def grade_chunk(task: GradeTask) -> Verdicts:
    """Verdicts for a chunk of well-formed ``(puzzle, shape)`` pairs, in their order.

    One ``engine.grade_many`` call per grid (box shape and variant; a Jigsaw's per layout, a
    Killer's per cages), with
    its size's bands as a run uses them: logic proves most puzzles unique under the variant's
    rules on its own, and the engine counts solutions only where it must.
    """
    puzzles, own, before_full_ladder = task
    by_box: dict[Shape, list[int]] = {}
    for index, (_, shape) in enumerate(puzzles):
        by_box.setdefault(shape, []).append(index)
    parts = [
        _verdicts(
            engine.grade_many(
                [puzzles[i][0] for i in indices],
                bands_for(own, shape[0], shape[1]),
                geometry(*shape),
                before_full_ladder,
            )
        )
        for shape, indices in by_box.items()
    ]
    if len(parts) == 1:
        return parts[0]
    if not parts:
        return Verdicts(VERDICT_SCHEMA.empty_table(), np.zeros(0))
    columns = pa.concat_tables([part.columns for part in parts])
    seconds = np.concatenate([part.seconds for part in parts])
    where = np.argsort(np.concatenate([np.array(i, dtype=np.int64) for i in by_box.values()]))
    return Verdicts(columns.take(where), seconds[where])  # back to input order


def _verdicts(table: engine.GradeTable) -> Verdicts:
    """The grade columns of one batch, built column by column (no per-row Python objects)."""
    ok = np.array([error is None for error in table.errors], dtype=bool)
    bad = pa.array(~ok)
    hardest = table.hardest
    symbols = np.frombuffer(("." + engine.SYMBOLS).encode(), dtype=np.uint8)
    ncells = table.geometry.ncells
    text = symbols[table.solutions].tobytes()
    offsets = np.arange(len(table) + 1, dtype=np.int32) * ncells
    solution = pa.Array.from_buffers(
        pa.string(), len(table), [None, pa.py_buffer(offsets), pa.py_buffer(text)]
    )
    rows, techniques = np.nonzero(table.steps)
    map_offsets = np.zeros(len(table) + 1, dtype=np.int32)
    np.cumsum(np.count_nonzero(table.steps, axis=1), out=map_offsets[1:])
    columns = {
        "status": pa.array([OK if e is None else _STATUS_OF[type(e)] for e in table.errors]),
        "reason": pa.array([_reason(e) for e in table.errors], pa.string()),
        "score": pa.array(table.score, mask=~ok),
        "tier": pa.array(table.tiers, pa.string()),
        "iterations": pa.array(table.iterations, mask=~ok),
        "hardest": pa.DictionaryArray.from_arrays(
            pa.array(hardest, mask=(hardest < 0) | ~ok), _TECHNIQUE_NAMES
        ).cast(pa.string()),
        "techniques": pa.MapArray.from_arrays(
            pa.array(map_offsets),
            _TECHNIQUE_NAMES.take(pa.array(techniques)),
            pa.array(table.steps[rows, techniques]),
            mask=bad,
        ),
        "clues": pa.array(table.clues, mask=~ok),
        "solution": pc.if_else(bad, pa.scalar(None, pa.string()), solution),
    }
    return Verdicts(pa.table(columns, VERDICT_SCHEMA), table.seconds)


_STATUS_OF = {NoSolution: NO_SOLUTION, MultipleSolutions: MULTIPLE, InvalidPuzzle: INVALID}


_TECHNIQUE_NAMES = pa.array(engine.TECHNIQUES)


def _reason(error: ValueError | None) -> str | None:
    if error is None:
        return None
    if isinstance(error, NoSolution):
        return NO_SOLUTION_REASON
    if isinstance(error, MultipleSolutions):
        return MULTIPLE_REASON
    return str(error)
