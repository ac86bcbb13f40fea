"""A book, start to finish: the order of the stages, the run folder, its lock and the manifest.

Stages of :func:`run_book`, each in its own module:

0. a recipe without seed gets the day's (:mod:`pipeline.daily`);
1. *dig* (:mod:`pipeline.dig`): each section's puzzles in seeded chunks, made by workers
   (:func:`pipeline.tasks.dig_chunk`: random grid -> ``engine.dig`` to the tier -> grade ->
   canonical form and id), checked in this process (:mod:`pipeline.recheck`) and stored as
   ``chunks/<name>.parquet`` the moment they arrive; a killed run resumes from them;
2. *dedupe* (:mod:`pipeline.dedupe`): ``source`` sections first, from their files
   (:mod:`pipeline.source_sections`), then the dug ones, every puzzle new to the catalog
   (:mod:`pipeline.catalog`) and to the book, with replacement chunks until each section is
   full; the chosen ids are reserved in the catalog;
3. *store* ``puzzles.parquet`` (its metadata holds the bands used per box shape);
4. *render* the PDF (:mod:`pipeline.render`) and a syndication pack's files (dug as sections
   after the book's; :mod:`pipeline.syndication`), then *commit* the ids to the catalog: only a
   printed book's puzzles are in it, and a run that fails before gives its reservation back;
5. *report* (:mod:`pipeline.report`, :mod:`pipeline.report_html`) and ``manifest.json``.

The run folder is ``<output>/<book-slug>/<run-id>``, the run id a function of the recipe's content
and seed, so the same command finds the same folder again. Its ``.lock`` is held
(:mod:`pipeline.locks`) by the run writing there, and ``state.json`` names the stage it is in.
"""

from __future__ import annotations

import json
import os
import platform
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

from pipeline import report, report_html
from pipeline.about import about_text
from pipeline.catalog import Catalog
from pipeline.daily import with_run_seed
from pipeline.dedupe import choose_and_reserve
from pipeline.dig import ChunkStore
from pipeline.errors import PipelineError, UserError
from pipeline.formats.writers import remove_partial_files
from pipeline.locks import FileLock, Locked
from pipeline.recipe import (
    Recipe,
    bands_table,
    recipe_hash,
)
from pipeline.render.book import Book, Section, puzzle_from_row
from pipeline.render.booklet import render_book
from pipeline.render.cover import cover_path, render_cover
from pipeline.render.options import PrintOptions
from pipeline.store import (
    BOOK_SECTIONS_KEY,
    CHUNKS,
    MANIFEST_FILE,
    PUZZLE_SCHEMA,
    PUZZLES_FILE,
    generator_build,
    make_folder,
    write_json,
    write_table,
)
from pipeline.syndication import with_pack, write_pack
from pipeline.tasks import section_tiers

STATE_FILE = "state.json"  # the stage a run is in, for a person (or a test) watching it
REPORT_FILE = "report.md"
REPORT_HTML_FILE = "report.html"  # the same figures as charts, self-contained
LOCK_FILE = ".lock"
RUN_ID_HASH = 10  # hex digits of the recipe hash in a run id
VERSIONED = ("numpy", "numba", "pyarrow", "joblib", "reportlab")
BANDS_KEY = b"sudoku.bands"  # puzzles.parquet metadata: the bands used per box shape (JSON)


class RunLocked(PipelineError):
    """Another live process holds the run folder's lock."""


@dataclass
class RunResult:
    """Where a run wrote and what it did, for the CLI and the benchmark."""

    folder: Path
    rows: list[dict[str, Any]]
    manifest: dict[str, Any]
    timings: dict[str, float] = field(default_factory=dict)


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


@contextmanager
def run_lock(folder: Path) -> Iterator[Path]:
    """Hold ``folder/.lock`` (an OS lock, dropped by the kernel however the run ends; the file
    holds our pid for the message) for the block; refuse if a live process holds it."""
    lock = FileLock(folder / LOCK_FILE)
    try:
        lock.acquire(wait=False, note=str(os.getpid()))
    except Locked as exc:
        raise RunLocked(
            f"{folder} is locked by a running process (pid {exc.holder}); wait for it to finish"
        ) from None
    try:
        yield lock.path
    finally:
        lock.release()


def write_state(folder: Path, stage: str, **details: str) -> None:
    """Say which stage the run is in, or how it ended (``state.json``)."""
    state = {"stage": stage, "pid": os.getpid(), "since": datetime.now(UTC).isoformat()}
    write_json(state | details, folder / STATE_FILE)


def ending(exc: BaseException) -> dict[str, str]:
    """How a run that raised ``exc`` ended, for ``state.json``: ``interrupted`` (Ctrl-C),
    ``terminated`` (SIGTERM, which the CLI turns into a ``SystemExit``) or ``failed``."""
    if isinstance(exc, KeyboardInterrupt):
        return {"stage": "interrupted"}
    if isinstance(exc, SystemExit):
        return {"stage": "terminated"}
    return {"stage": "failed", "error": f"{type(exc).__name__}: {exc}"}


@contextmanager
def recording_the_end(folder: Path) -> Iterator[None]:
    """Record in ``state.json`` how the block ended when it raised (best effort: a full disk may
    be why it raised), then let the exception go on."""
    try:
        yield
    except BaseException as exc:
        with suppress(UserError, OSError):
            write_state(folder, **ending(exc))
        raise


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
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Render the PDF and, when the recipe asks, its cover from the PDF's real page count;
    return what the manifest records of each (None: no cover)."""
    options: PrintOptions = recipe.print.options
    with failing_as_pipeline_error(path, "the PDF", "the book"):
        book = build_book(recipe, sections)
        result = render_book(book, path, options)
    imposed = result.imposed_path.name if result.imposed_path else None
    pdf = {"file": path.name, "imposed": imposed, "pages": result.pages, "sheets": result.sheets}
    if recipe.cover is None:
        return pdf, None
    cover = cover_path(path)
    with failing_as_pipeline_error(cover, "the cover", "the cover"):
        written = render_cover(book, cover, result.pages, options, recipe.cover)
    return pdf, written.manifest()


@contextmanager
def failing_as_pipeline_error(path: Path, file: str, content: str) -> Iterator[None]:
    """A file the block cannot write, or content it cannot render (BookError, PageCountError,
    UnsupportedText, CoverError ...), as a PipelineError naming ``path``."""
    try:
        yield
    except OSError as exc:
        raise PipelineError(f"{path}: cannot write {file}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise PipelineError(f"{path}: cannot render {content}: {exc}") from None


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
    with run_lock(folder), recording_the_end(folder):
        start = time.perf_counter()
        remove_partial_files(folder, folder / CHUNKS)  # left by a killed run: ours now
        write_state(folder, "dig")
        catalog = Catalog(recipe.output)
        store = ChunkStore(folder, recipe.seed, recipe_hash(recipe))
        try:
            dug = with_pack(recipe)  # the book's sections, then a syndication pack's
            sections, counts, sources = choose_and_reserve(dug, store, catalog, rid, quiet)
            book, pack = sections[: len(recipe.sections)], sections[len(recipe.sections) :]
            counts["chunks_redone"] = store.redone.total()
            timings["dig"] = time.perf_counter() - start
            rows = [row for section in sections for row in section]
            mark = time.perf_counter()
            write_state(folder, "store")
            bands = run_bands(dug)
            metadata = {BANDS_KEY: json.dumps(bands), BOOK_SECTIONS_KEY: str(len(book))}
            write_table(rows, folder / PUZZLES_FILE, PUZZLE_SCHEMA, metadata)
            timings["store"] = time.perf_counter() - mark
            mark = time.perf_counter()
            write_state(folder, "render")
            pdf, cover = render(recipe, book, folder / f"{slug(recipe.title)}.pdf")
            syndication = write_pack(recipe, pack, folder, day)
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
            "chunks_rejected": dict(sorted(store.rejected.items())),  # and why (their rows)
            "pdf": pdf,
            "cover": cover,
            "syndication": syndication,
            "timings_seconds": {k: round(v, 3) for k, v in timings.items()},
            "finished": datetime.now(UTC).isoformat(),
        }
        write_json(manifest, folder / MANIFEST_FILE)
        write_state(folder, "finished")
    return RunResult(folder, rows, manifest, timings)
