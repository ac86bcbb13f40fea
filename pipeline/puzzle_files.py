"""Puzzles from any file the pipeline writes, so ``render``, ``verify`` and ``stats`` take each.

A run folder (its ``puzzles.parquet``), a puzzle file (a run's, ``pipeline dig``'s) and
``pipeline grade``'s output all come back as one lazy polars scan with the store's column names.
Grade output is recognised by its ``status`` column; only its ok rows are puzzles (the others
were reported by ``grade`` itself and are counted as skipped), and the ids of the rows taken are
computed as the store computes them (:func:`pipeline.variants.canonical_keys`), so a puzzle
printed from a bought collection has the id it would have in a run's book. Every scan has the
``variant``, ``regions`` and ``cages`` columns: a file written before they existed reads as
classic (before Killer: no cages).

A file can hold a million puzzles: each command reads only the columns it needs, and only the
rows it keeps are turned into Python objects. Column names and types are checked against the
file's schema before any row is read, so a wrong file is one error naming the file and column.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from engine.geometry import CLASSIC
from pipeline.errors import UserError
from pipeline.store import BOOK_SECTIONS_KEY, PUZZLES_FILE, StoreError, puzzle_id
from pipeline.variants import canonical_keys, row_geometry

#: ``pipeline grade``'s status of a row that is a puzzle (:data:`pipeline.tasks.OK`; not
#: imported: the workers' module and all it loads would double the start-up of ``stats``).
OK = "ok"
#: Grade output columns that become the store's columns of the same meaning.
FROM_GRADE = {
    "puzzle": "givens",
    "solution": "solution",
    "size": "size",
    "box_rows": "box_rows",
    "box_cols": "box_cols",
    "clues": "clues",
    "tier": "tier",
    "score": "score",
    "iterations": "iterations",
    "hardest": "hardest",
}
#: What each store column must hold (a column of nulls only passes as any).
TEXT, WHOLE_NUMBERS, NUMBERS = "text", "whole numbers", "numbers"
CAGES = "cages (a list of {sum, cells})"
#: A Killer's ``cages`` column as polars reads it (:data:`pipeline.store.CAGES_TYPE`).
CAGES_DTYPE = pl.List(pl.Struct({"sum": pl.Int32, "cells": pl.List(pl.Int32)}))
FITS: dict[str, Callable[[pl.DataType], bool]] = {
    TEXT: lambda dtype: dtype in (pl.String, pl.Categorical, pl.Enum),
    WHOLE_NUMBERS: lambda dtype: dtype.is_integer(),
    NUMBERS: lambda dtype: dtype.is_numeric(),
    CAGES: lambda dtype: dtype == CAGES_DTYPE,
}
KINDS = {
    "id": TEXT,
    "status": TEXT,
    "givens": TEXT,
    "solution": TEXT,
    "tier": TEXT,
    "hardest": TEXT,
    "size": WHOLE_NUMBERS,
    "box_rows": WHOLE_NUMBERS,
    "box_cols": WHOLE_NUMBERS,
    "clues": WHOLE_NUMBERS,
    "iterations": WHOLE_NUMBERS,
    "score": NUMBERS,
    "variant": TEXT,
    "regions": TEXT,
    "cages": CAGES,
}
#: A puzzle's rules, in every scan: classic (no regions, no cages) where the file has no such
#: column.
VARIANT_DEFAULTS = {
    "variant": pl.lit(CLASSIC),
    "regions": pl.lit(None, pl.String),
    "cages": pl.lit(None, CAGES_DTYPE),
}
#: What a book puzzle is made of (:func:`pipeline.render.book_from_rows`); ``passes`` shades the
#: answer key and only a run's files have it; a file older than variants has no ``variant``,
#: ``regions`` and ``cages`` columns, which its scan fills as classic (:data:`VARIANT_DEFAULTS`).
BOOK_COLUMNS = (
    "id",
    "givens",
    "solution",
    "box_rows",
    "box_cols",
    "tier",
    "score",
    "passes",
    "variant",
    "regions",
    "cages",
)


@contextmanager
def reading_parquet(path: Path) -> Iterator[None]:
    """Make a file polars cannot read or decode in the block one :class:`StoreError` naming it."""
    try:
        yield
    except (OSError, pl.exceptions.PolarsError, pa.ArrowException) as exc:
        raise StoreError(f"{path}: cannot read Parquet: {exc}") from None


def scan_table(path: Path) -> tuple[pl.LazyFrame, pl.Schema]:
    """A lazy scan of the Parquet file ``path`` and its schema, nothing else read."""
    with reading_parquet(path):
        frame = pl.scan_parquet(path)
        return frame, frame.collect_schema()


@dataclass(frozen=True)
class PuzzleScan:
    """The puzzles of a file as a lazy scan, store column names, in file order; ``graded`` when
    it is grade output (no ``id`` column: compute it with :func:`add_ids`)."""

    path: Path
    frame: pl.LazyFrame
    graded: bool
    columns: tuple[str, ...]

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Make what goes wrong in the block, a user's error or data that cannot be read, one
        :class:`StoreError` naming the file."""
        try:
            with reading_parquet(self.path):
                yield
        except StoreError:
            raise
        except UserError as exc:
            raise StoreError(f"{self.path}: {exc}") from None

    def collect(self, frame: pl.LazyFrame) -> pl.DataFrame:
        """``frame``, a query on this scan, computed (errors as in :meth:`reading`)."""
        with self.reading():
            return frame.collect()

    def skipped(self) -> int:
        """Rows of grade output that are not ok puzzles (none in other files)."""
        if not self.graded:
            return 0
        not_ok = (pl.col("status") != OK).fill_null(True).sum()
        return int(self.collect(pl.scan_parquet(self.path).select(not_ok)).item())

    def batches(self, columns: Sequence[str], size: int) -> Iterator[pl.DataFrame]:
        """The file's puzzles, ``columns`` of them that the file has, ``size`` rows at a time."""
        frame = self.frame.select([name for name in columns if name in self.columns])
        with self.reading():
            yield from frame.collect_batches(chunk_size=size)


@dataclass(frozen=True)
class PuzzleRows:
    """The puzzles taken from a file, in file order, and how many grade rows were not ok."""

    path: Path
    rows: list[dict[str, Any]]
    skipped: int = 0


def scan_puzzles(source: Path) -> PuzzleScan:
    """The puzzles of a run folder, a puzzle file or grade output, nothing read but the schema.
    Raises :class:`StoreError` naming the file when it is none of these, and the column when one
    is missing or holds the wrong kind of values."""
    path = source / PUZZLES_FILE if source.is_dir() else source
    if source.is_dir() and not path.exists():
        raise StoreError(f"{source}: a folder without {PUZZLES_FILE}; is it a run folder?")
    frame, schema = scan_table(path)
    graded = "status" in schema
    if graded:
        missing = sorted(set(FROM_GRADE) - set(schema))
        if missing:
            raise StoreError(
                f"{path}: grade output without {', '.join(missing)} "
                "(an older pipeline grade wrote it); grade the puzzles again"
            )
        _check_kinds(path, schema, {**FROM_GRADE, "status": "status"})
        _check_kinds(path, schema, {name: name for name in VARIANT_DEFAULTS if name in schema})
        frame = frame.filter(pl.col("status") == OK).select(
            *(pl.col(grade).alias(store) for grade, store in FROM_GRADE.items()),
            *(name for name in VARIANT_DEFAULTS if name in schema),
        )
    else:
        _check_puzzle_columns(path, schema)
        _check_kinds(path, schema, {name: name for name in schema})
        frame = _book_only(path, frame, schema)
    missing = {name: value for name, value in VARIANT_DEFAULTS.items() if name not in schema}
    frame = frame.with_columns(value.alias(name) for name, value in missing.items())
    return PuzzleScan(path, frame, graded, tuple(frame.collect_schema().names()))


def _book_only(path: Path, frame: pl.LazyFrame, schema: pl.Schema) -> pl.LazyFrame:
    """A run's puzzles without its syndication pack's (sections past the book's, as the run's
    metadata says), which were sold by the day and must not be printed again."""
    with reading_parquet(path):
        metadata = pq.read_schema(path).metadata or {}
    sections = metadata.get(BOOK_SECTIONS_KEY, b"")
    if not sections.isdigit() or "section" not in schema:
        return frame
    return frame.filter(pl.col("section") < int(sections))


def read_puzzle_rows(
    source: Path, tiers: Collection[str] = (), count: int | None = None
) -> PuzzleRows:
    """The book columns of the puzzles of a run folder, a puzzle file or grade output; only those
    of ``tiers`` (when given) and the first ``count`` of them (when given). Raises
    :class:`StoreError` naming the file when it is none of these, or when a tier asked for has
    no puzzle in it."""
    scan = scan_puzzles(source)
    frame = scan.frame.select([name for name in BOOK_COLUMNS if name in scan.columns])
    if tiers:
        _check_tiers(scan, tiers)
        frame = frame.filter(pl.col("tier").is_in(list(tiers)))
    if count is not None:
        frame = frame.head(count)
    rows = scan.collect(frame).to_dicts()
    if scan.graded:
        add_ids(rows)
    return PuzzleRows(scan.path, rows, scan.skipped())


def _check_puzzle_columns(path: Path, schema: pl.Schema) -> None:
    """Raise :class:`StoreError` unless the file has the store's puzzle columns (a file of
    solution grids, ``pipeline generate``'s, has no puzzles and no tiers)."""
    missing = sorted(set(FROM_GRADE.values()) - set(schema))
    if not missing:
        return
    if "givens" in missing and "solution" in schema and "puzzle" not in schema:
        raise StoreError(
            f"{path}: holds solution grids (`pipeline generate` output), no puzzles or tiers; "
            "dig puzzles from it first: pipeline dig"
        )
    hint = ""
    if "givens" in missing and "puzzle" in schema:
        hint = " (a puzzle column is there, as in grade output, but no status column)"
    raise StoreError(
        f"{path}: no column {', '.join(missing)}{hint}; expected a run's puzzles, "
        "`pipeline dig` or `pipeline grade` output"
    )


def _check_kinds(path: Path, schema: pl.Schema, names: dict[str, str]) -> None:
    """Raise :class:`StoreError` naming the first of the file's columns (``names``: file column
    -> store column) whose values are not of the store column's kind."""
    for name, store in names.items():
        kind, dtype = KINDS.get(store), schema[name]
        if kind and dtype != pl.Null and not FITS[kind](dtype):
            raise StoreError(f"{path}: column {name} holds {dtype}, not {kind}")


def _check_tiers(scan: PuzzleScan, tiers: Collection[str]) -> None:
    present = set(scan.collect(scan.frame.select(pl.col("tier").drop_nulls().unique()))["tier"])
    absent = [tier for tier in tiers if tier not in present]
    if absent:
        there = ", ".join(sorted(present)) or "none"
        raise StoreError(
            f"{scan.path}: no puzzle of tier {', '.join(absent)} (tiers there: {there})"
        )


def add_ids(rows: list[dict[str, Any]]) -> None:
    """The store's id of each row (with ``givens``, ``box_rows``, ``box_cols``, ``variant``,
    ``regions``, ``cages``): a hash of its box shape and canonical key."""
    keys = canonical_keys([(row["givens"], row_geometry(row)) for row in rows])
    for row, key in zip(rows, keys, strict=True):
        row["id"] = puzzle_id(row["box_rows"], row["box_cols"], key)
