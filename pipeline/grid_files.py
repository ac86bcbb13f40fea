"""Solution grids from a file ``pipeline generate`` wrote, checked row by row before any digging.

``pipeline dig`` hands each grid to a worker; a null box column, a grid with a blank or a clash
(in its variant's units: a Jigsaw's from the row's layout) or a bad layout would fail there, deep
in the engine. Checked here first, one bad row is one error naming the file, the row and the
fault. A file without ``variant`` and ``regions`` columns (written before variants) is classic.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from engine.cages import InvalidCages
from engine.geometry import CLASSIC, InvalidLayout, geometry
from pipeline.puzzle_files import reading_parquet, scan_table
from pipeline.store import StoreError
from pipeline.variants import VARIANT_COLUMNS, row_cages, row_variant

GRID_COLUMNS = ("solution", "box_rows", "box_cols")


@dataclass(frozen=True)
class SolutionGrids:
    """The grids of a file, all of one box shape and variant; a Jigsaw's each with its layout."""

    solutions: list[str]
    box_rows: int
    box_cols: int
    variant: str = CLASSIC
    regions: tuple[str | None, ...] = ()

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
    columns = [*GRID_COLUMNS, *(name for name in VARIANT_COLUMNS if name in schema)]
    with reading_parquet(path):
        rows = frame.select(columns).collect().to_dicts()
    if not rows:
        raise StoreError(f"{path}: no grids")
    first = _box(path, 1, rows[0])
    variant = row_variant(rows[0])
    solutions = []
    for number, row in enumerate(rows, 1):
        box = _box(path, number, row)
        if box != first:
            raise StoreError(
                f"{path}: row {number} has {box[0]}x{box[1]} boxes, row 1 {first[0]}x{first[1]}; "
                "dig one shape per file"
            )
        if row_variant(row) != variant:
            raise StoreError(
                f"{path}: row {number} is {row_variant(row)}, row 1 {variant}; "
                "dig one variant per file"
            )
        solutions.append(_solution(path, number, row, box, variant))
    return SolutionGrids(solutions, *first, variant, tuple(row.get("regions") for row in rows))


def _box(path: Path, number: int, row: dict[str, Any]) -> tuple[int, int]:
    values = (row["box_rows"], row["box_cols"])
    if not all(isinstance(value, int) and value >= 1 for value in values):
        raise StoreError(
            f"{path}: row {number}: box_rows, box_cols are {values[0]!r}, {values[1]!r}; "
            "expected positive integers"
        )
    return values


def _solution(
    path: Path, number: int, row: dict[str, Any], box: tuple[int, int], variant: str
) -> str:
    """The row's grid text, when it is a full grid of ``box`` and ``variant`` (a Jigsaw's on
    the row's layout) with no clash."""
    text = row["solution"]
    if not isinstance(text, str):
        raise StoreError(f"{path}: row {number}: solution is {text!r}, not a grid")
    try:
        cages = row_cages(row.get("cages"), box[0] * box[1])
        geo = geometry(*box, variant, row.get("regions"), cages)
    except ValueError as exc:  # a bad layout (InvalidLayout names the region, InvalidCages the
        # cage), or variant
        column = {InvalidLayout: "regions", InvalidCages: "cages"}.get(type(exc), "variant")
        raise StoreError(f"{path}: row {number}: {column}: {exc}") from None
    try:
        grid = engine.parse(text, geo)
    except (engine.InvalidPuzzle, ValueError) as exc:
        raise StoreError(f"{path}: row {number}: solution: {exc}") from None
    if not grid.values.all():
        blanks = int((grid.values == 0).sum())
        raise StoreError(
            f"{path}: row {number}: solution has {blanks} blank cells; not a full grid"
        )
    return text
