"""Solution grids from a file ``pipeline generate`` wrote, checked row by row before any digging.

``pipeline dig`` hands each grid to a worker; a null box column or a grid with a blank or a clash
would fail there, deep in the engine. Checked here first, one bad row is one error naming the
file, the row and the fault.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from pipeline.puzzle_files import reading_parquet, scan_table
from pipeline.store import StoreError

GRID_COLUMNS = ("solution", "box_rows", "box_cols")


@dataclass(frozen=True)
class SolutionGrids:
    """The grids of a file, all of one box shape."""

    solutions: list[str]
    box_rows: int
    box_cols: int

    @property
    def size(self) -> int:
        return self.box_rows * self.box_cols


def read_solution_grids(path: Path) -> SolutionGrids:
    """The solution grids of ``path``; :class:`StoreError` naming the file (and the row, counted
    from 1) when it holds none, lacks a column, or a row is not a full grid of the file's shape.
    Only the grid columns are read."""
    frame, schema = scan_table(path)
    missing = [column for column in GRID_COLUMNS if column not in schema]
    if missing:
        raise StoreError(
            f"{path}: no column {', '.join(missing)}; is it a file of grids (`pipeline generate`)?"
        )
    with reading_parquet(path):
        rows = frame.select(GRID_COLUMNS).collect().to_dicts()
    if not rows:
        raise StoreError(f"{path}: no grids")
    first = _box(path, 1, rows[0])
    solutions = []
    for number, row in enumerate(rows, 1):
        box = _box(path, number, row)
        if box != first:
            raise StoreError(
                f"{path}: row {number} has {box[0]}x{box[1]} boxes, row 1 {first[0]}x{first[1]}; "
                "dig one shape per file"
            )
        solutions.append(_solution(path, number, row["solution"], box))
    return SolutionGrids(solutions, *first)


def _box(path: Path, number: int, row: dict[str, Any]) -> tuple[int, int]:
    values = (row["box_rows"], row["box_cols"])
    if not all(isinstance(value, int) and value >= 1 for value in values):
        raise StoreError(
            f"{path}: row {number}: box_rows, box_cols are {values[0]!r}, {values[1]!r}; "
            "expected positive integers"
        )
    return values


def _solution(path: Path, number: int, text: object, box: tuple[int, int]) -> str:
    """The row's grid text, when it is a full grid of ``box`` with no clash."""
    if not isinstance(text, str):
        raise StoreError(f"{path}: row {number}: solution is {text!r}, not a grid")
    try:
        grid = engine.parse(text, box)
    except (engine.InvalidPuzzle, ValueError) as exc:
        raise StoreError(f"{path}: row {number}: solution: {exc}") from None
    if not grid.values.all():
        blanks = int((grid.values == 0).sum())
        raise StoreError(
            f"{path}: row {number}: solution has {blanks} blank cells; not a full grid"
        )
    return text
