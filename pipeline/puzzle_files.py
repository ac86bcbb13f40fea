"""Puzzle rows from any file the pipeline writes, so ``render``, ``verify`` and ``stats`` take each.

A run folder (its ``puzzles.parquet``), a puzzle file (a run's, ``pipeline dig``'s) and
``pipeline grade``'s output all come back as rows with the store's columns. Grade output is
recognised by its ``status`` column; only its ok rows are puzzles (the others were reported by
``grade`` itself and are counted as skipped), and their ids are computed as the store computes
them (``engine.canonical``), so a puzzle printed from a bought collection has the id it would have
in a run's book.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

import engine
from pipeline.store import PUZZLES_FILE, StoreError, puzzle_id
from pipeline.tasks import OK

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


@dataclass(frozen=True)
class PuzzleRows:
    """The puzzles of a file, in file order, and how many grade rows were not ok (left out)."""

    path: Path
    rows: list[dict[str, Any]]
    skipped: int = 0


def read_puzzle_rows(
    source: Path, tiers: Collection[str] = (), count: int | None = None
) -> PuzzleRows:
    """The puzzle rows of a run folder, a puzzle file or grade output; only those of ``tiers``
    (when given) and the first ``count`` of them (when given). Raises :class:`StoreError` naming
    the file when it is none of these, or when a tier asked for has no puzzle in it."""
    path = source / PUZZLES_FILE if source.is_dir() else source
    if source.is_dir() and not path.exists():
        raise StoreError(f"{source}: a folder without {PUZZLES_FILE}; is it a run folder?")
    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        raise StoreError(f"{path}: cannot read Parquet: {exc}") from None
    skipped = 0
    graded = "status" in table.column_names
    if graded:
        missing = sorted(set(FROM_GRADE) - set(table.column_names))
        if missing:
            raise StoreError(
                f"{path}: grade output without {', '.join(missing)} "
                "(an older pipeline grade wrote it); grade the puzzles again"
            )
        ok = pc.equal(table.column("status"), OK)
        skipped = table.num_rows - pc.sum(ok).as_py() if table.num_rows else 0
        table = table.filter(ok).select(list(FROM_GRADE)).rename_columns(list(FROM_GRADE.values()))
    else:
        _check_puzzle_columns(path, table.column_names)
    if tiers:
        table = _of_tiers(path, table, tiers)
    if count is not None:
        table = table.slice(0, count)
    rows = table.to_pylist()
    if graded:
        _add_ids(rows)
    return PuzzleRows(path, rows, skipped)


def _check_puzzle_columns(path: Path, columns: list[str]) -> None:
    """Raise :class:`StoreError` unless the file has the store's puzzle columns (a file of
    solution grids, ``pipeline generate``'s, has no puzzles and no tiers)."""
    missing = sorted(set(FROM_GRADE.values()) - set(columns))
    if not missing:
        return
    if "givens" in missing and "solution" in columns:
        raise StoreError(
            f"{path}: holds solution grids (`pipeline generate` output), no puzzles or tiers; "
            "dig puzzles from it first: pipeline dig"
        )
    raise StoreError(
        f"{path}: no column {', '.join(missing)}; expected a run's puzzles, "
        "`pipeline dig` or `pipeline grade` output"
    )


def _of_tiers(path: Path, table: pa.Table, tiers: Collection[str]) -> pa.Table:
    if "tier" not in table.column_names:
        raise StoreError(f"{path}: no tier column to select tiers from")
    present = set(table.column("tier").drop_null().to_pylist())
    absent = [tier for tier in tiers if tier not in present]
    if absent:
        there = ", ".join(sorted(present)) or "none"
        raise StoreError(f"{path}: no puzzle of tier {', '.join(absent)} (tiers there: {there})")
    return table.filter(pc.is_in(table.column("tier"), pa.array(list(tiers), pa.string())))


def _add_ids(rows: list[dict[str, Any]]) -> None:
    """The store's id of each row: a hash of its box shape and canonical form."""
    by_box: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for row in rows:
        by_box.setdefault((row["box_rows"], row["box_cols"]), []).append(row)
    for (box_rows, box_cols), group in by_box.items():
        forms = engine.canonical_many([row["givens"] for row in group], (box_rows, box_cols))
        for row, form in zip(group, forms, strict=True):
            row["id"] = puzzle_id(box_rows, box_cols, form)
