"""The dedupe stage: each section's puzzles chosen new to the catalog and to the book, then
reserved in the catalog.

``source`` sections take theirs from a file first (:mod:`pipeline.source_sections`); dug
sections take theirs from their chunks (:mod:`pipeline.dig`) in chunk order, not arrival order,
so the choice is deterministic; a puzzle already printed, reserved by a book running beside this
one, or earlier in this book is dropped and replacement chunks (further chunk numbers) fill the
gap. The chosen ids are reserved (:class:`pipeline.catalog.Catalog`); when another book took
some meanwhile, the sections are chosen again without them.
"""

from __future__ import annotations

from typing import Any

import engine
from pipeline.catalog import Catalog
from pipeline.dig import ChunkStore, make_chunks
from pipeline.errors import PipelineError
from pipeline.grade import UnusableArguments
from pipeline.recipe import Recipe, file_digest
from pipeline.source_sections import ranked_puzzles
from pipeline.store import puzzle_id
from pipeline.tasks import DigJob, plan_chunks, puzzle_row, section_tiers
from pipeline.variants import canonical_keys, row_geometry

MAX_RESERVE_ROUNDS = 20  # times a run chooses again because books running beside it took ids


MAX_DEDUPE_ROUNDS = 20  # rounds of replacement chunks before giving up on new puzzles


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
        geos = [
            row_geometry({"box_rows": spec.box_rows, "box_cols": spec.box_cols, **item})
            for item in batch
        ]
        keys = canonical_keys(
            [(item["puzzle"], geo) for item, geo in zip(batch, geos, strict=True)]
        )
        for item, geo, key in zip(batch, geos, keys, strict=True):
            if len(rows) == spec.count:
                break
            if puzzle_id(spec.box_rows, spec.box_cols, key) in seen:
                duplicates += 1
                continue
            provenance = {"symmetry": None, "attempts": 0, "seed": recipe.seed, "section": index}
            provenance |= {"chunk": None, "position": item["line"], "run_id": rid}
            grade = engine.grade(item["puzzle"], bands, geo)
            puzzle, solution = item["puzzle"], item["solution"]
            rows.append(puzzle_row(puzzle, solution, grade, spec, geo, key, provenance))
            seen.add(rows[-1]["id"])
    if len(rows) < spec.count:
        raise PipelineError(
            f"section {spec.title!r}: {spec.source} has {len(rows)} new {spec.tier!r} "
            f"{spec.variant} puzzles of {spec.size}x{spec.size}, {spec.count} wanted "
            f"(of {counts['rows']} rows, {counts['skipped']} invalid, of another shape or not "
            f"unique, {counts['other_variant']} of another variant, {counts['other_tier']} of "
            f"another tier, {duplicates} already in a book or this one)"
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
