"""Grid geometry for any box shape: cells, units, peers, symbols.

Glossary used across the engine:
    n       symbols per unit (box_rows * box_cols); the grid is n x n
    cell    index 0 .. n*n-1, row-major (row = cell // n, col = cell % n)
    unit    a row (0 .. n-1), a column (n .. 2n-1) or a box (2n .. 3n-1)
    peers   the other cells sharing a unit with a cell
    value   1 .. n for a symbol, 0 for a blank

Tables are built once per shape and frozen, so kernels can take them as plain arrays.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache

import numpy as np

#: Symbols for values 1..n, in order. ``1-9`` then ``A-Z`` then ``a-z`` then ``@ $ %`` (64 in all),
#: so 16x16 grids use ``1-9A-G`` and 25x25 grids ``1-9A-P``.
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$%"
MIN_SIZE = 4
MAX_SIZE = len(SYMBOLS)  # 64: also the width of the uint64 candidate masks

# Box shapes that people publish; listed first in error messages.
COMMON_SIZES = (4, 6, 8, 9, 10, 12, 15, 16, 20, 25, 36, 49, 64)


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


@dataclass(frozen=True)
class Geometry:
    """An n x n grid whose boxes are ``box_rows`` tall and ``box_cols`` wide.

    Build it with :func:`geometry` (cached) rather than directly, so tables are shared.
    """

    box_rows: int
    box_cols: int
    n: int = field(init=False, compare=False)
    ncells: int = field(init=False, compare=False)
    # derived tables, frozen numpy arrays
    row_of: np.ndarray = field(init=False, repr=False, compare=False)  # cell -> row
    col_of: np.ndarray = field(init=False, repr=False, compare=False)  # cell -> column
    box_of: np.ndarray = field(init=False, repr=False, compare=False)  # cell -> box
    units: np.ndarray = field(init=False, repr=False, compare=False)  # (3n, n) cells by unit
    cell_units: np.ndarray = field(init=False, repr=False, compare=False)  # (ncells, 3) unit ids
    peers: np.ndarray = field(init=False, repr=False, compare=False)  # (ncells, npeers) sorted

    def __post_init__(self) -> None:
        if self.box_rows < 2 or self.box_cols < 2:
            raise ValueError(f"boxes must be at least 2x2, got {self.box_rows}x{self.box_cols}")
        n = self.box_rows * self.box_cols
        cells = np.arange(n * n, dtype=np.int32)
        row, col = cells // n, cells % n
        box = (row // self.box_rows) * self.box_rows + col // self.box_cols
        units = np.concatenate(
            [
                cells.reshape(n, n),
                cells.reshape(n, n).T,
                np.stack([cells[box == b] for b in range(n)]),
            ]
        ).astype(np.int32)
        cell_units = np.stack([row, n + col, 2 * n + box], axis=1).astype(np.int32)
        same = (row[:, None] == row) | (col[:, None] == col) | (box[:, None] == box)
        np.fill_diagonal(same, False)
        peers = np.nonzero(same)[1].reshape(n * n, -1).astype(np.int32)
        assert peers.shape[1] == 3 * n - self.box_rows - self.box_cols - 1
        values = {
            "n": n,
            "ncells": n * n,
            "row_of": row,
            "col_of": col,
            "box_of": box.astype(np.int32),
            "units": units,
            "cell_units": cell_units,
            "peers": peers,
        }
        for name, value in values.items():
            if isinstance(value, np.ndarray):
                value = _frozen(value)
            object.__setattr__(self, name, value)

    @property
    def shape(self) -> str:
        """Box shape as written in recipes and on the command line, e.g. ``3x4``."""
        return f"{self.box_rows}x{self.box_cols}"

    @property
    def shape_tuple(self) -> tuple[int, int]:
        return self.box_rows, self.box_cols

    @property
    def symbols(self) -> str:
        """The n symbols of this grid, for values 1..n."""
        if self.n > MAX_SIZE:
            raise ValueError(f"a {self.n}x{self.n} grid has no text form (at most {MAX_SIZE})")
        return SYMBOLS[: self.n]

    def cell_name(self, cell: int) -> str:
        """``r3c5`` style name of a cell (1-based), as solvers write it."""
        return f"r{cell // self.n + 1}c{cell % self.n + 1}"

    def unit_name(self, unit: int) -> str:
        """``row 3`` / ``column 5`` / ``box 2`` (1-based)."""
        kind = ("row", "column", "box")[unit // self.n]
        return f"{kind} {unit % self.n + 1}"

    def __str__(self) -> str:
        return f"{self.n}x{self.n} ({self.shape} boxes)"


@cache
def geometry(box_rows: int, box_cols: int) -> Geometry:
    """The shared :class:`Geometry` for a box shape."""
    return Geometry(box_rows, box_cols)


def default_box(n: int) -> tuple[int, int]:
    """The usual box for an n x n grid: as square as possible, wider than tall (6 -> 2x3)."""
    for rows in range(math.isqrt(n), 1, -1):
        if n % rows == 0:
            return rows, n // rows
    raise ValueError(f"{n}x{n} grids have no boxes: {n} is prime (choose a size such as 6, 9, 12)")


def parse_box(box: str | tuple[int, int]) -> tuple[int, int]:
    """Read a box shape given as ``"3x4"`` or ``(3, 4)``."""
    if isinstance(box, str):
        parts = box.lower().split("x")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"box shape {box!r} is not of the form ROWSxCOLS, e.g. 3x3 or 2x3")
        return int(parts[0]), int(parts[1])
    rows, cols = box
    return int(rows), int(cols)


def box_shape(
    size: int | None = None,
    box: str | tuple[int, int] | None = None,
    largest: int | None = MAX_SIZE,
) -> tuple[int, int]:
    """(box rows, box cols) for a grid size and/or a box shape: the one check that they fit
    (boxes at least 2x2, rows x cols equal to the size, sizes MIN_SIZE to ``largest``, not prime).
    ``largest`` is the text form's limit; None for grids kept as arrays only. Raises ValueError
    saying what is wrong; recipes and the CLI name their key or option."""
    if box is not None:
        rows, cols = parse_box(box)
        fits = f"multiplying to {size}" if size is not None else "multiplying to the grid size"
        if rows < 2 or cols < 2 or (size is not None and rows * cols != size):
            grid = f"a {size}x{size} grid" if size is not None else "a grid"
            raise ValueError(
                f"box {rows}x{cols} does not fit {grid} (box rows and cols >= 2, {fits})"
            )
        size = rows * cols
    elif size is None:
        raise ValueError("give a grid size or a box shape")
    if size < MIN_SIZE or (largest is not None and size > largest):
        raise ValueError(f"{size}x{size} is out of range: sizes from {MIN_SIZE} to {largest}")
    return (rows, cols) if box is not None else default_box(size)


def geometry_for(size: int | None = None, box: str | tuple[int, int] | None = None) -> Geometry:
    """The geometry for a grid size (9, 16 ...) and/or an explicit box shape (:func:`box_shape`;
    any size, as grids past the text form's 64 exist as arrays)."""
    return geometry(*box_shape(size, box, largest=None))


def accepted_lengths() -> str:
    """Human list of the puzzle lengths the text form accepts, for error messages."""
    common = ", ".join(f"{n * n} ({n}x{n})" for n in COMMON_SIZES)
    return f"{common}; in general n*n for any n from {MIN_SIZE} to {MAX_SIZE} that is not prime"
