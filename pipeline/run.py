"""A nightly run: stage order, resume from finished chunks, the run lock and the manifest.

Stages of :func:`run_book`:

0. a recipe without seed gets the day's (:mod:`pipeline.daily`); a section with ``source``
   takes its puzzles from that file (:mod:`pipeline.source_sections`), new ones only, first;
1. plan every other section in chunks (``parallel.chunk_size`` puzzles each);
2. *dig*: each chunk makes its puzzles (random solution grid -> ``engine.dig`` to the section's
   tier -> grade -> canonical form and id) and is stored as ``chunks/<name>.parquet`` the moment
   it arrives, its provenance (section, chunk, seed, recipe hash, generator build) in its
   metadata; a chunk on disk whose provenance matches is read back instead, which is how a
   killed run resumes (one that does not match is dug again, and the manifest says why);
3. *dedupe*: a puzzle whose id is in the catalog (an earlier book, or one being made now) or
   earlier in this run is dropped, and replacement chunks (further chunk numbers, so still
   deterministic) fill the gap; the chosen ids are then reserved in the catalog
   (:mod:`pipeline.catalog`), and if another book took some meanwhile, chosen again without them;
4. *store* ``puzzles.parquet`` (its metadata holds the bands used per box shape); *render* the PDF;
   *commit* the ids to the catalog; write the report and ``manifest.json``. A run that fails
   before the commit gives its reserved ids back.

The run folder is ``<output>/<book-slug>/<run-id>``, the run id a function of the recipe's content
and seed, so the same command finds the same folder again. Its ``.lock`` is held (``flock``) by
the run writing there, and ``state.json`` names the stage it is in.
"""

from __future__ import annotations

import json
import os
import platform
import re
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pyarrow as pa

import engine
from engine.canon import canonical_many
from engine.dig import DigFailed, DigResult, ImpossibleBand, dig
from engine.tiers import Tier
from pipeline import report, report_html
from pipeline.about import about_text
from pipeline.catalog import Catalog
from pipeline.daily import with_run_seed
from pipeline.errors import UserError
from pipeline.formats.writers import write_tables
from pipeline.grading import UnusableArguments
from pipeline.locks import Locked, file_lock
from pipeline.parallel import (
    Chunk,
    EachOf,
    check_each,
    in_batches,
    plan_chunks,
    results_in_order,
    run_tasks,
)
from pipeline.recheck import check_dug, check_grids
from pipeline.recipe import (
    DEFAULT_CHUNK_SIZE,
    ParallelSpec,
    Recipe,
    SectionSpec,
    bands_for,
    bands_table,
    file_digest,
    recipe_hash,
)
from pipeline.render import Book, PrintOptions, Section, puzzle_from_row, render_book
from pipeline.source_sections import ranked_puzzles
from pipeline.store import (
    CHUNKS,
    GRID_SCHEMA,
    MANIFEST_FILE,
    PUZZLE_SCHEMA,
    PUZZLES_FILE,
    generator_build,
    make_folder,
    puzzle_id,
    read_metadata,
    read_rows,
    write_json,
    write_table,
)

STATE_FILE = "state.json"  # the stage a run is in, for a person (or a test) watching it
REPORT_FILE = "report.md"
REPORT_HTML_FILE = "report.html"  # the same figures as charts, self-contained
LOCK_FILE = ".lock"
RUN_ID_HASH = 10  # hex digits of the recipe hash in a run id
MAX_RESERVE_ROUNDS = 20  # times a run chooses again because books running beside it took ids
MAX_DIG_ATTEMPTS = 25  # fresh grids tried for one puzzle before the section is declared stuck
MAX_DEDUPE_ROUNDS = 20  # rounds of replacement chunks before giving up on new puzzles
VERSIONED = ("numpy", "numba", "pyarrow", "joblib", "reportlab")
BANDS_KEY = b"sudoku.bands"  # puzzles.parquet metadata: the bands used per box shape (JSON)
#: Items per seeded chunk of ``pipeline generate`` and ``pipeline dig``: fixed, so their
#: ``--chunk-size`` (items per task, in whole seeded chunks) never changes what they make.
SEED_CHUNK = DEFAULT_CHUNK_SIZE


class PipelineError(UserError):
    """A run cannot go on; the message says which section, file or setting is at fault."""


class RunLocked(PipelineError):
    """Another live process holds the run folder's lock."""


@dataclass(frozen=True)
class DigJob:
    """Everything a worker needs to make one chunk of a section's puzzles (picklable)."""

    chunk: Chunk
    section: SectionSpec
    run_seed: int
    run_id: str
    tiers: Mapping[str, Tier]
    solutions: tuple[str, ...] = ()  # dig these grids (``pipeline dig``) instead of fresh ones


@dataclass(frozen=True)
class GridJob:
    """One chunk of full solution grids for ``pipeline generate``."""

    chunk: Chunk
    size: int
    box: str
    run_seed: int


@dataclass
class RunResult:
    """Where a run wrote and what it did, for the CLI and the benchmark."""

    folder: Path
    rows: list[dict[str, Any]]
    manifest: dict[str, Any]
    timings: dict[str, float] = field(default_factory=dict)


def section_tiers(section: SectionSpec, defined: Sequence[Tier] = ()) -> dict[str, Tier]:
    """The bands a section digs and grades against (:func:`pipeline.recipe.bands_for` its shape,
    ``defined`` the recipe's own tiers)."""
    return bands_for(defined, section.box_rows, section.box_cols)


def slug(title: str) -> str:
    """Folder name for a book title: lower case, words joined by '-'."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "book"


def run_id(recipe: Recipe) -> str:
    """Run id from the content hash and seed: the same recipe and seed find the same folder.
    A daily recipe has its seed only once :func:`pipeline.daily.with_run_seed` gave it one."""
    assert recipe.seed is not None, "a daily recipe needs pipeline.daily.with_run_seed first"
    return f"{recipe.seed}-{recipe_hash(recipe)[:RUN_ID_HASH]}"


def run_folder(recipe: Recipe) -> Path:
    """``<output>/<book-slug>/<run-id>``."""
    return Path(recipe.output) / slug(recipe.title) / run_id(recipe)


def _now() -> datetime:
    return datetime.now(UTC)


def grid_chunk(job: GridJob) -> list[dict[str, Any]]:
    """A chunk of random full grids (runs in a worker)."""
    rows_, cols_ = engine.geometry_for(job.size, job.box).shape_tuple
    grids = engine.random_grids(
        job.chunk.count, job.size, seed=job.chunk.seed(job.run_seed), box=job.box
    )
    created = _now()
    forms = canonical_many(grids, job.box)
    return [
        {
            "id": puzzle_id(rows_, cols_, form),
            "size": job.size,
            "box_rows": rows_,
            "box_cols": cols_,
            "solution": grid,
            "seed": job.run_seed,
            "section": job.chunk.section,
            "chunk": job.chunk.index,
            "created": created,
        }
        for grid, form in zip(grids, forms, strict=True)
    ]


def dig_one(solution: str, section: SectionSpec, tiers: Mapping[str, Tier], seed: Any) -> DigResult:
    """Dig one puzzle of the section's tier out of ``solution`` (DigFailed if out of reach)."""
    return dig(
        solution,
        tiers[section.tier],
        symmetry=section.symmetry,
        seed=seed,
        minimal=section.minimal,
        tiers=tiers,
    )


def puzzle_row(
    givens: str,
    solution: str,
    grade: engine.Grade,
    section: SectionSpec,
    canonical: str,
    provenance: Mapping[str, Any],
) -> dict[str, Any]:
    """A store row (:data:`pipeline.store.PUZZLE_SCHEMA`) for a graded puzzle of the section;
    ``provenance`` gives symmetry, attempts, seed, section, chunk, position and run id."""
    return {
        "id": puzzle_id(section.box_rows, section.box_cols, canonical),
        "size": section.size,
        "box_rows": section.box_rows,
        "box_cols": section.box_cols,
        "givens": givens,
        "solution": solution,
        "canonical": canonical,
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


def fresh_grid(section: SectionSpec, seed: Any) -> str:
    """A random full grid of the section's shape."""
    return engine.random_grid(section.size, seed=seed, box=section.box)


def dig_chunk(job: DigJob) -> list[dict[str, Any]]:
    """A chunk of puzzles (runs in a worker): each from a fresh grid, retried on a new grid while
    the digger misses the band; every random number comes from the chunk's spawn key."""
    section, chunk = job.section, job.chunk
    results = []
    for position in range(chunk.count):
        for attempt in range(MAX_DIG_ATTEMPTS):
            seed = chunk.seed(job.run_seed, position, attempt)
            grid = job.solutions[position] if job.solutions else fresh_grid(section, seed)
            try:
                results.append(dig_one(grid, section, job.tiers, seed))
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
    forms = canonical_many([result.puzzle for result in results], section.box)
    return [
        puzzle_row(
            result.puzzle,
            result.solution,
            result.grade,
            section,
            form,
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
        for position, (result, form) in enumerate(zip(results, forms, strict=True))
    ]


@contextmanager
def run_lock(folder: Path) -> Iterator[Path]:
    """Hold ``folder/.lock`` (an OS lock, dropped by the kernel however the run ends; the file
    holds our pid for the message) for the block; refuse if a live process holds it."""
    path = folder / LOCK_FILE
    with ExitStack() as held:
        try:
            held.enter_context(file_lock(path, wait=False, note=str(os.getpid())))
        except Locked as exc:
            raise RunLocked(
                f"{folder} is locked by a running process (pid {exc.holder}); wait for it to finish"
            ) from None
        yield path


def write_state(folder: Path, stage: str) -> None:
    """Say which stage the run is in (``state.json``)."""
    state = {"stage": stage, "pid": os.getpid(), "since": _now().isoformat()}
    write_json(state, folder / STATE_FILE)


#: What a chunk records of how it was made; it is reused only if all of them match.
PROVENANCE = ("section", "chunk", "seed", "recipe_hash", "generator")


class ChunkStore:
    """A run's finished chunks on disk: written as each one arrives with its provenance in the
    Parquet metadata, read back on resume only if that provenance is this run's."""

    def __init__(self, folder: Path, seed: int, recipe: str) -> None:
        self.folder = make_folder(folder / CHUNKS)
        self.seed, self.recipe = seed, recipe
        self.redone: Counter[str] = Counter()  # chunks on disk made again, by reason

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

    def load(self, chunks: Sequence[Chunk]) -> dict[Chunk, list[dict[str, Any]]]:
        """Rows of the chunks already stored by this run (a resumed run skips them); a stored
        chunk of another section, seed, recipe or generator is counted in :attr:`redone`."""
        done = {}
        for chunk in chunks:
            if not self.path(chunk).exists():
                continue
            reason = self.mismatch(chunk)
            if reason is None:
                done[chunk] = read_rows(self.path(chunk))
            else:
                self.redone[reason] += 1
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
    done = store.load([job.chunk for job in jobs])
    todo = [job for job in jobs if job.chunk not in done]

    def finished(job: DigJob, rows: list[dict[str, Any]]) -> None:
        store.save(job.chunk, rows)
        done[job.chunk] = rows

    run_tasks(dig_chunk, todo, recipe.parallel, finished, "digging chunks", quiet, check_dug)
    return done, len(jobs) - len(todo)


def source_rows(
    recipe: Recipe, index: int, seen: set[str], rid: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A ``source`` section's puzzles: the first ``count`` of the file's ranked puzzles
    (:func:`pipeline.source_sections.ranked_puzzles`) that are new to ``seen`` (the catalog and
    this run; added to it), graded once more for the answer key's passes; and what the manifest
    records of the file."""
    spec = recipe.sections[index]
    try:
        ranked, counts = ranked_puzzles(spec, index, recipe)
    except UnusableArguments as exc:
        raise PipelineError(f"section {spec.title!r}: {exc}") from None
    bands = section_tiers(spec, recipe.tiers)
    rows: list[dict[str, Any]] = []
    duplicates = 0
    for start in range(0, len(ranked), spec.count):  # canonical forms a batch at a time
        if len(rows) == spec.count:
            break
        batch = ranked[start : start + spec.count]
        forms = canonical_many([item["puzzle"] for item in batch], spec.box)
        for item, form in zip(batch, forms, strict=True):
            if len(rows) == spec.count:
                break
            if puzzle_id(spec.box_rows, spec.box_cols, form) in seen:
                duplicates += 1
                continue
            provenance = {"symmetry": None, "attempts": 0, "seed": recipe.seed, "section": index}
            provenance |= {"chunk": None, "position": item["line"], "run_id": rid}
            grade = engine.grade(item["puzzle"], bands, spec.box)
            rows.append(puzzle_row(item["puzzle"], item["solution"], grade, spec, form, provenance))
            seen.add(rows[-1]["id"])
    if len(rows) < spec.count:
        raise PipelineError(
            f"section {spec.title!r}: {spec.source} has {len(rows)} new {spec.tier!r} puzzles of "
            f"{spec.size}x{spec.size}, {spec.count} wanted (of {counts['rows']} rows, "
            f"{counts['skipped']} invalid, of another shape or not unique, {counts['other_tier']} "
            f"of another tier, {duplicates} already in a book or this one)"
        )
    record = {"section": index, "file": str(spec.source), "sha256": file_digest(spec.source)}
    return rows, record | counts | {"duplicates": duplicates, "chosen": len(rows)}


def select_puzzles(
    recipe: Recipe, store: ChunkStore, known: set[str], rid: str, quiet: bool
) -> tuple[list[list[dict[str, Any]]], dict[str, int], list[dict[str, Any]]]:
    """Each section's puzzles, new to the catalog and to this run: ``source`` sections first,
    from their files, then dug ones, with replacement chunks dug until every section is full;
    also counts (chunks resumed, dug, duplicates dropped) and a record of each source file."""
    tiers = [section_tiers(spec, recipe.tiers) for spec in recipe.sections]
    size = recipe.parallel.chunk_size
    chosen: list[list[dict[str, Any]]] = [[] for _ in recipe.sections]
    seen = set(known)
    counts = {"chunks_resumed": 0, "chunks_total": 0, "duplicates": 0}
    sources = []
    for s, spec in enumerate(recipe.sections):
        if spec.source is not None:
            chosen[s], record = source_rows(recipe, s, seen, rid)
            counts["duplicates"] += record["duplicates"]
            sources.append(record)
    planned = [
        plan_chunks(s, spec.count, size) if spec.source is None else []
        for s, spec in enumerate(recipe.sections)
    ]
    next_index = [len(chunks) for chunks in planned]
    pending = [chunk for chunks in planned for chunk in chunks]
    for _ in range(MAX_DEDUPE_ROUNDS):
        jobs = [
            DigJob(c, recipe.sections[c.section], recipe.seed, rid, tiers[c.section])
            for c in pending
        ]
        rows, resumed = make_chunks(jobs, store, recipe, quiet)
        counts["chunks_resumed"] += resumed
        counts["chunks_total"] += len(jobs)
        for chunk in pending:  # chunk order, not arrival order: deterministic
            for row in rows[chunk]:
                if row["id"] in seen:
                    counts["duplicates"] += 1
                    continue
                if len(chosen[chunk.section]) < recipe.sections[chunk.section].count:
                    seen.add(row["id"])
                    chosen[chunk.section].append(row)
        pending = []
        for s, spec in enumerate(recipe.sections):
            missing = spec.count - len(chosen[s])
            if missing:
                pending += plan_chunks(s, missing, size, next_index[s])
                next_index[s] = pending[-1].index + 1
        if not pending:
            return chosen, counts, sources
    short = [spec.title for s, spec in enumerate(recipe.sections) if len(chosen[s]) < spec.count]
    raise PipelineError(
        f"sections {', '.join(map(repr, short))}: not enough new puzzles after "
        f"{MAX_DEDUPE_ROUNDS} rounds of replacements (the catalog may hold most of this tier)"
    )


def build_book(recipe: Recipe, sections: Sequence[Sequence[Mapping[str, Any]]]) -> Book:
    """The printed book: one section per recipe section, in recipe order, and an about page
    written from its puzzles (:func:`pipeline.about.about_text`)."""
    titles = [spec.title for spec in recipe.sections]
    return Book(
        recipe.title,
        recipe.author,
        [
            Section(
                spec.title,
                spec.tier,
                spec.layout,
                [puzzle_from_row(row, index) for index, row in enumerate(rows)],
            )
            for spec, rows in zip(recipe.sections, sections, strict=True)
        ],
        about_text(list(zip(titles, sections, strict=True))) if recipe.print.about else None,
    )


def render(
    recipe: Recipe, sections: Sequence[Sequence[Mapping[str, Any]]], path: Path
) -> dict[str, Any]:
    """Render the PDF; return what the manifest records of it."""
    options: PrintOptions = recipe.print.options
    try:
        result = render_book(build_book(recipe, sections), path, options)
    except OSError as exc:
        raise PipelineError(f"{path}: cannot write the PDF: {exc.strerror or exc}") from None
    except ValueError as exc:  # BookError, PageCountError, UnsupportedText, ImpositionError ...
        raise PipelineError(f"{path}: cannot render the book: {exc}") from None
    imposed = result.imposed_path.name if result.imposed_path else None
    return {"file": path.name, "imposed": imposed, "pages": result.pages, "sheets": result.sheets}


def versions() -> dict[str, str]:
    """Versions that decide the output, for the manifest."""
    found = {"pipeline": version("sudoku-pipeline"), "python": platform.python_version()}
    return found | {name: version(name) for name in VERSIONED}


def run_bands(recipe: Recipe) -> dict[str, list[dict[str, Any]]]:
    """The bands the run digs and grades each box shape by (:func:`section_tiers`), as recorded
    in the manifest and in ``puzzles.parquet``'s metadata: ``{"4x4": [{"name": "easy", ...}]}``."""
    return {
        spec.box: bands_table(section_tiers(spec, recipe.tiers))
        for spec in sorted(recipe.sections, key=lambda spec: spec.size)
    }


def choose_and_reserve(
    recipe: Recipe, store: ChunkStore, catalog: Catalog, rid: str, quiet: bool
) -> tuple[list[list[dict[str, Any]]], dict[str, int], list[dict[str, Any]]]:
    """:func:`select_puzzles` against the catalog, then reserve the chosen ids; when a book
    running beside this one took some of them meanwhile, choose again without those."""
    known = catalog.known_ids(exclude_run=rid)
    made_before = 0  # chunks dug in an earlier round: not "resumed" in a later one
    for retries in range(MAX_RESERVE_ROUNDS):
        sections, counts, sources = select_puzzles(recipe, store, known, rid, quiet)
        taken = catalog.reserve(rid, [row["id"] for section in sections for row in section])
        counts["chunks_resumed"] -= made_before
        counts["reservation_retries"] = retries
        if not taken:
            return sections, counts, sources
        made_before += counts["chunks_total"] - counts["chunks_resumed"]
        known |= taken
    raise PipelineError(
        f"other books running into {recipe.output} kept taking this book's puzzles "
        f"({MAX_RESERVE_ROUNDS} tries); run it again once they have finished"
    )


def run_book(recipe: Recipe, quiet: bool = True, day: date | None = None) -> RunResult:
    """Make, store, dedupe and print the recipe's book; resume whatever a killed run finished.

    A recipe without a seed runs on ``day``'s seed (default today; :mod:`pipeline.daily`).
    """
    recipe, day = with_run_seed(recipe, day)
    rid = run_id(recipe)
    folder = make_folder(run_folder(recipe))
    timings: dict[str, float] = {}
    with run_lock(folder):
        start = time.perf_counter()
        write_state(folder, "dig")
        catalog = Catalog(recipe.output)
        store = ChunkStore(folder, recipe.seed, recipe_hash(recipe))
        try:
            sections, counts, sources = choose_and_reserve(recipe, store, catalog, rid, quiet)
            counts["chunks_redone"] = store.redone.total()
            timings["dig"] = time.perf_counter() - start
            rows = [row for section in sections for row in section]
            mark = time.perf_counter()
            write_state(folder, "store")
            bands = run_bands(recipe)
            metadata = {BANDS_KEY: json.dumps(bands)}
            write_table(rows, folder / PUZZLES_FILE, PUZZLE_SCHEMA, metadata)
            timings["store"] = time.perf_counter() - mark
            mark = time.perf_counter()
            write_state(folder, "render")
            pdf = render(recipe, sections, folder / f"{slug(recipe.title)}.pdf")
            timings["render"] = time.perf_counter() - mark
            write_state(folder, "commit")
            catalog.commit(rid, slug(recipe.title), rows)  # only now: the book exists
        finally:
            catalog.release(rid)  # nothing left to release once committed
        summary = report.summarize(rows)
        report.write_report(summary, folder / REPORT_FILE, title=recipe.title, run=rid)
        timings["total"] = time.perf_counter() - start
        charts = report_html.run_blocks(rows, timings, counts)
        report_html.write_html(f"{recipe.title}: run {rid}", charts, folder / REPORT_HTML_FILE)
        manifest = {
            "run_id": rid,
            "title": recipe.title,
            "recipe": recipe.source,
            "recipe_hash": recipe_hash(recipe),
            "seed": recipe.seed,
            "date": day.isoformat() if day else None,  # the day a daily seed comes from
            "timezone": recipe.timezone if day else None,
            "bands": bands,
            "sources": sources,
            "versions": versions(),
            "generator": generator_build(),
            "parallel": {"backend": recipe.parallel.backend, "n_jobs": recipe.parallel.n_jobs},
            "counts": {
                "puzzles": len(rows),
                "per_section": [len(section) for section in sections],
                **counts,
            },
            "chunks_redone": dict(sorted(store.redone.items())),  # stored chunks not this run's
            "pdf": pdf,
            "timings_seconds": {k: round(v, 3) for k, v in timings.items()},
            "finished": _now().isoformat(),
        }
        write_json(manifest, folder / MANIFEST_FILE)
        write_state(folder, "finished")
    return RunResult(folder, rows, manifest, timings)


def _per_task(chunk_size: int) -> int:
    """Seeded chunks per task for ``chunk_size`` items per task (at least one)."""
    return max(1, round(chunk_size / SEED_CHUNK))


def generate_grids(
    count: int, size: int, box: str, seed: int, spec: ParallelSpec, path: Path, quiet: bool = True
) -> int:
    """``count`` random full grids to a Parquet file, in chunks on the spec's backend, streamed
    to the file as they arrive (memory does not grow with ``count``)."""
    jobs = (GridJob(chunk, size, box, seed) for chunk in plan_chunks(0, count, SEED_CHUNK))
    tasks = in_batches(jobs, _per_task(spec.chunk_size))
    done = results_in_order(
        EachOf(grid_chunk), tasks, spec, check_each(check_grids), "generating grids", quiet
    )
    tables = (pa.Table.from_pylist(rows, schema=GRID_SCHEMA) for _, batch in done for rows in batch)
    return write_tables(tables, path, GRID_SCHEMA)


def dig_solutions(
    solutions: Sequence[str],
    section: SectionSpec,
    seed: int,
    spec: ParallelSpec,
    path: Path,
    quiet: bool = True,
) -> int:
    """Dig one puzzle of ``section.tier`` from each solution grid, graded, to a Parquet file."""
    tiers = section_tiers(section)
    jobs = (
        DigJob(
            chunk,
            section,
            seed,
            "",
            tiers,
            tuple(solutions[chunk.index * SEED_CHUNK : chunk.index * SEED_CHUNK + chunk.count]),
        )
        for chunk in plan_chunks(0, len(solutions), SEED_CHUNK)
    )
    tasks = in_batches(jobs, _per_task(spec.chunk_size))
    done = results_in_order(EachOf(dig_chunk), tasks, spec, check_each(check_dug), "digging", quiet)
    tables = (
        pa.Table.from_pylist(rows, schema=PUZZLE_SCHEMA) for _, batch in done for rows in batch
    )
    return write_tables(tables, path, PUZZLE_SCHEMA)
