"""A nightly run: stage order, resume from finished chunks, the run lock and the manifest.

Stages of :func:`run_book`:

0. a recipe without seed gets the day's (:mod:`pipeline.daily`); a section with ``source``
   takes its puzzles from that file (:mod:`pipeline.source_sections`), new ones only, first;
1. plan every other section in chunks (``parallel.chunk_size`` puzzles each);
2. *dig*: each chunk makes its puzzles (random solution grid -> ``engine.dig`` to the section's
   tier -> grade -> canonical form and id) and is stored as ``chunks/<name>.parquet`` the moment
   it arrives; chunks already on disk are read back instead, which is how a killed run resumes;
3. *dedupe*: a puzzle whose id is in the catalog (an earlier book) or earlier in this run is
   dropped, and replacement chunks (further chunk numbers, so still deterministic) fill the gap;
4. *store* ``puzzles.parquet`` (its metadata holds the bands used per box shape) and add the run
   to the catalog; *render* the PDF; write the report and ``manifest.json``.

The run folder is ``<output>/<book-slug>/<run-id>``, the run id a function of the recipe's content
and seed, so the same command finds the same folder again. A lock file in it names the pid of the
run writing there; a lock left by a dead process is taken over.
"""

from __future__ import annotations

import json
import os
import platform
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

import engine
from engine.canon import canonical_many
from engine.dig import DigFailed, DigResult, ImpossibleBand, dig
from engine.tiers import Tier
from pipeline import report, report_html
from pipeline.about import about_text
from pipeline.daily import with_run_seed
from pipeline.grading import UnusableArguments
from pipeline.parallel import Chunk, plan_chunks, run_tasks
from pipeline.recipe import (
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
    PUZZLE_SCHEMA,
    Catalog,
    make_folder,
    puzzle_id,
    read_rows,
    write_json,
    write_table,
)

PUZZLES_FILE = "puzzles.parquet"
MANIFEST_FILE = "manifest.json"
REPORT_FILE = "report.md"
REPORT_HTML_FILE = "report.html"  # the same figures as charts, self-contained
LOCK_FILE = ".lock"
RUN_ID_HASH = 10  # hex digits of the recipe hash in a run id
MAX_DIG_ATTEMPTS = 25  # fresh grids tried for one puzzle before the section is declared stuck
MAX_DEDUPE_ROUNDS = 20  # rounds of replacement chunks before giving up on new puzzles
VERSIONED = ("numpy", "numba", "pyarrow", "joblib", "reportlab")
BANDS_KEY = b"sudoku.bands"  # puzzles.parquet metadata: the bands used per box shape (JSON)


class PipelineError(ValueError):
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
    """Hold ``folder/.lock`` (it holds our pid) for the block; refuse if a live process holds it."""
    path = folder / LOCK_FILE
    while True:
        try:
            handle = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            holder = _lock_holder(path)
            if holder is not None and _alive(holder):
                raise RunLocked(
                    f"{folder} is locked by a running process (pid {holder}); wait for it to "
                    f"finish, or delete {path} if that process is not a pipeline run"
                ) from None
            path.unlink(missing_ok=True)  # stale: its holder died
            continue
        except OSError as exc:
            raise PipelineError(f"{path}: cannot create lock: {exc.strerror or exc}") from None
        with os.fdopen(handle, "w") as out:
            out.write(f"{os.getpid()}\n")
        break
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)


def _lock_holder(path: Path) -> int | None:
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    return True


class ChunkStore:
    """A run's finished chunks on disk: read back on resume, written as each one arrives."""

    def __init__(self, folder: Path) -> None:
        self.folder = make_folder(folder / CHUNKS)

    def path(self, chunk: Chunk) -> Path:
        return self.folder / f"{chunk.name}.parquet"

    def load(self, chunks: Sequence[Chunk]) -> dict[Chunk, list[dict[str, Any]]]:
        """Rows of the chunks already stored (a resumed run skips them)."""
        return {chunk: read_rows(self.path(chunk)) for chunk in chunks if self.path(chunk).exists()}

    def save(self, chunk: Chunk, rows: list[dict[str, Any]]) -> None:
        write_table(rows, self.path(chunk), PUZZLE_SCHEMA)


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

    run_tasks(dig_chunk, todo, recipe.parallel, finished, "digging chunks", quiet)
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
        catalog = Catalog(recipe.output)
        known = catalog.known_ids(exclude_run=rid)
        sections, counts, sources = select_puzzles(recipe, ChunkStore(folder), known, rid, quiet)
        timings["dig"] = time.perf_counter() - start
        rows = [row for section in sections for row in section]
        mark = time.perf_counter()
        bands = run_bands(recipe)
        metadata = {BANDS_KEY: json.dumps(bands)}
        write_table(rows, folder / PUZZLES_FILE, PUZZLE_SCHEMA, metadata)
        catalog.add(rid, slug(recipe.title), rows)
        timings["store"] = time.perf_counter() - mark
        mark = time.perf_counter()
        pdf = render(recipe, sections, folder / f"{slug(recipe.title)}.pdf")
        timings["render"] = time.perf_counter() - mark
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
            "parallel": {"backend": recipe.parallel.backend, "n_jobs": recipe.parallel.n_jobs},
            "counts": {
                "puzzles": len(rows),
                "per_section": [len(section) for section in sections],
                **counts,
            },
            "pdf": pdf,
            "timings_seconds": {k: round(v, 3) for k, v in timings.items()},
            "finished": _now().isoformat(),
        }
        write_json(manifest, folder / MANIFEST_FILE)
    return RunResult(folder, rows, manifest, timings)


def generate_grids(
    count: int, size: int, box: str, seed: int, spec: ParallelSpec, path: Path, quiet: bool = True
) -> int:
    """``count`` random full grids to a Parquet file, in chunks on the spec's backend."""
    jobs = [GridJob(chunk, size, box, seed) for chunk in plan_chunks(0, count, spec.chunk_size)]
    done: dict[Chunk, list[dict[str, Any]]] = {}
    run_tasks(
        grid_chunk,
        jobs,
        spec,
        lambda job, rows: done.update({job.chunk: rows}),
        "generating grids",
        quiet,
    )
    return write_table((row for job in jobs for row in done[job.chunk]), path, GRID_SCHEMA)


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
    jobs = [
        DigJob(
            chunk,
            section,
            seed,
            "",
            tiers,
            tuple(solutions[chunk.index * spec.chunk_size : (chunk.index + 1) * spec.chunk_size]),
        )
        for chunk in plan_chunks(0, len(solutions), spec.chunk_size)
    ]
    done: dict[Chunk, list[dict[str, Any]]] = {}
    run_tasks(
        dig_chunk, jobs, spec, lambda job, rows: done.update({job.chunk: rows}), "digging", quiet
    )
    return write_table((row for job in jobs for row in done[job.chunk]), path, PUZZLE_SCHEMA)
