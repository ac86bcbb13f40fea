"""Grid geometry for any box shape: cells, units, peers, symbols.

Glossary used across the engine:
    n       symbols per unit (box_rows * box_cols); the grid is n x n
    cell    index 0 .. n*n-1, row-major (row = cell // n, col = cell % n)
    unit    a row (0 .. n-1), a column (n .. 2n-1), a region (2n .. 3n-1: the boxes, or a Jigsaw's
            irregular regions), then a variant's extra units (3n ..: X's two diagonals, Windoku's
            four windows)
    peers   the other cells sharing a unit with a cell
    value   1 .. n for a symbol, 0 for a blank
    variant ``classic`` or a ``+``-joined set of ``jigsaw``, ``killer``, ``windoku``, ``x`` in
            that order
    cage    Killer only: cells whose digits differ and add up to a total (``engine.cages``); not a
            unit, but its cells are peers

Every kernel reads the unit table, not the shape, so a variant is only a different table. A cell
lies in 3 to 5 units; ``cell_units`` and ``peers`` rows are padded to the longest by repeating
their first entry (removing a bit or marking a unit twice changes nothing), so kernels loop over
a fixed width. Tables are built once per geometry and frozen, so kernels take them as plain arrays.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar

import numpy as np

from engine.cage_arrays import cage_arrays
from engine.cages import Cage, checked_cages

#: Symbols for values 1..n, in order. ``1-9`` then ``A-Z`` then ``a-z`` then ``@ $ %`` (64 in all),
#: so 16x16 grids use ``1-9A-G`` and 25x25 grids ``1-9A-P``.
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$%"
MIN_SIZE = 4
MAX_SIZE = len(SYMBOLS)  # 64: also the width of the uint64 candidate masks

# Box shapes that people publish; listed first in error messages.
COMMON_SIZES = (4, 6, 8, 9, 10, 12, 15, 16, 20, 25, 36, 49, 64)

CLASSIC = "classic"
#: The parts a variant name joins, in its name's order (``jigsaw+x``, not ``x+jigsaw``).
VARIANT_PARTS = ("jigsaw", "killer", "windoku", "x")
VARIANT_RULES = {
    CLASSIC: "each row, column and box holds every symbol once",
    "jigsaw": "the bold irregular regions replace the boxes: each holds every symbol once",
    "killer": "the digits in each dashed cage add up to its small number and never repeat",
    "windoku": "the four shaded windows also hold every symbol once",
    "x": "the two shaded main diagonals also hold every symbol once",
}


def variant_name(name: str) -> str:
    """The variant's name in its one spelling (parts sorted, lower case); ValueError names the
    unknown part. ``X``, ``x+jigsaw`` and ``jigsaw + x`` read as ``x`` and ``jigsaw+x``."""
    parts = {part.strip().lower() for part in str(name).split("+")}
    unknown = sorted(parts - set(VARIANT_PARTS) - {CLASSIC})
    if unknown or not parts:
        allowed = ", ".join((CLASSIC, *VARIANT_PARTS))
        raise ValueError(
            f"unknown variant {name!r}: choose {allowed}, or parts joined by '+' such as jigsaw+x"
        )
    if CLASSIC in parts:
        if len(parts) > 1:
            raise ValueError(f"variant {name!r}: classic does not combine with other parts")
        return CLASSIC
    return "+".join(part for part in VARIANT_PARTS if part in parts)


def variant_parts(variant: str) -> tuple[str, ...]:
    """The parts of a variant name (``()`` for classic)."""
    return () if variant == CLASSIC else tuple(variant.split("+"))


def with_cages(variant: str) -> str:
    """The variant of a Killer on a grid of ``variant`` (``x`` -> ``killer+x``, ``classic`` ->
    ``killer``)."""
    return variant_name("killer" if variant == CLASSIC else f"{variant}+killer")


def without_cages(variant: str) -> str:
    """The variant of the grid under a Killer's cages (``killer+x`` -> ``x``, ``killer`` ->
    ``classic``): the grid a Killer's solution fills before its dig draws the cages."""
    return "+".join(part for part in variant_parts(variant) if part != "killer") or CLASSIC


#: Geometries (and what the engine keeps for each: tables, workspaces, orbits) held at once. A
#: Jigsaw book makes a geometry per puzzle, so every per-geometry cache drops the least recently
#: used past this many (about 160 KB each at 9x9); a classic book uses one or two.
GEOMETRY_CACHE = 64
per_geometry = lru_cache(maxsize=GEOMETRY_CACHE)
Kept = TypeVar("Kept")


def kept_for(spaces: OrderedDict, geo: Geometry, make: Callable[[Geometry], Kept]) -> Kept:
    """``spaces[geo]`` (made by ``make`` when missing) in a dict of at most GEOMETRY_CACHE
    entries, least recently used out first: a thread's workspaces."""
    if geo in spaces:
        spaces.move_to_end(geo)
        return spaces[geo]
    spaces[geo] = kept = make(geo)
    if len(spaces) > GEOMETRY_CACHE:
        spaces.popitem(last=False)
    return kept


class InvalidLayout(ValueError):
    """A Jigsaw layout that is not n connected regions of n cells."""


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


@dataclass(frozen=True)
class Geometry:
    """An n x n grid whose boxes are ``box_rows`` tall and ``box_cols`` wide, with a variant's
    units: a Jigsaw's ``regions`` (one symbol per cell naming its region, row-major) replace the
    boxes, and X's diagonals and Windoku's windows add units. A Killer's ``cages`` (as
    :func:`engine.cages.checked_cages` returns them) make their cells peers; ``cage_of``,
    ``cage_cells`` and ``cage_total`` hold them for kernels.

    Build it with :func:`geometry` (cached) rather than directly, so tables are shared.
    """

    box_rows: int
    box_cols: int
    variant: str = CLASSIC
    regions: str | None = None
    cages: tuple[Cage, ...] | None = None
    n: int = field(init=False, compare=False)
    ncells: int = field(init=False, compare=False)
    # derived tables, frozen numpy arrays
    row_of: np.ndarray = field(init=False, repr=False, compare=False)  # cell -> row
    col_of: np.ndarray = field(init=False, repr=False, compare=False)  # cell -> column
    box_of: np.ndarray = field(init=False, repr=False, compare=False)  # cell -> box or region
    units: np.ndarray = field(init=False, repr=False, compare=False)  # (nunits, n) cells by unit
    cell_units: np.ndarray = field(init=False, repr=False, compare=False)  # (ncells, 3..5) padded
    peers: np.ndarray = field(init=False, repr=False, compare=False)  # (ncells, npeers) padded
    # Killer only (empty otherwise): cell -> cage; (ncages, largest) cells padded with -1; totals
    cage_of: np.ndarray = field(init=False, repr=False, compare=False)
    cage_cells: np.ndarray = field(init=False, repr=False, compare=False)
    cage_total: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.box_rows < 2 or self.box_cols < 2:
            raise ValueError(f"boxes must be at least 2x2, got {self.box_rows}x{self.box_cols}")
        n = self.box_rows * self.box_cols
        parts = variant_parts(self.variant)
        if variant_name(self.variant) != self.variant:
            spelled = variant_name(self.variant)
            raise ValueError(f"variant {self.variant!r} is written {spelled!r}")
        cells = np.arange(n * n, dtype=np.int32)
        row, col = cells // n, cells % n
        if "jigsaw" in parts:
            if self.regions is None:
                raise InvalidLayout("a jigsaw grid needs its regions")
            box = region_ids(self.regions, n)
        elif self.regions is not None:
            raise ValueError(f"only jigsaw grids have regions, not {self.variant}")
        else:
            box = (row // self.box_rows) * self.box_rows + col // self.box_cols
        cages = self._checked_cages(parts, n)
        if cages:  # the grid under the cages is shared: its units, and its peers to add to
            under = self.uncaged
            units, cell_units = under.units, under.cell_units
            labels = np.empty(n * n, dtype=np.int64)
            for index, cage in enumerate(cages):
                labels[list(cage.cells)] = index
            totals = np.array([cage.total for cage in cages], dtype=np.int64)
            cage_of, cage_cells, cage_total, peers = cage_arrays(under.peers, labels, totals)
        else:
            units, cell_units, same = self._units(parts, n, cells, row, col, box)
            peers = _padded(same)
            cage_of = np.full(n * n, -1, dtype=np.int32)
            cage_cells = np.full((0, 0), -1, dtype=np.int32)
            cage_total = np.zeros(0, dtype=np.int32)
        values = {
            "n": n,
            "ncells": n * n,
            "row_of": row,
            "col_of": col,
            "box_of": box.astype(np.int32),
            "units": units,
            "cell_units": cell_units,
            "peers": peers,
            "cage_of": cage_of,
            "cage_cells": cage_cells,
            "cage_total": cage_total,
        }
        for name, value in values.items():
            if isinstance(value, np.ndarray):
                value = _frozen(value)
            object.__setattr__(self, name, value)

    @staticmethod
    def _units(
        parts: tuple[str, ...],
        n: int,
        cells: np.ndarray,
        row: np.ndarray,
        col: np.ndarray,
        box: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The units (rows, columns, boxes or regions, then the variant's extra units), each
        cell's units, and which cells share a unit."""
        extra = []
        if "windoku" in parts:
            if n != 9:
                raise ValueError(f"windoku is a 9x9 variant, not {n}x{n}")
            extra += [
                cells[(row >= top) & (row < top + 3) & (col >= left) & (col < left + 3)]
                for top in (1, 5)
                for left in (1, 5)
            ]
        if "x" in parts:
            extra += [cells[row == col], cells[row + col == n - 1]]
        units = np.concatenate(
            [
                cells.reshape(n, n),
                cells.reshape(n, n).T,
                np.argsort(box, kind="stable").reshape(n, n),  # each box's cells in order
                *([np.stack(extra)] if extra else []),
            ]
        ).astype(np.int32)
        member = np.zeros((len(units), n * n), dtype=bool)
        member[np.arange(len(units))[:, None], units] = True
        same = np.zeros((n * n, n * n), dtype=bool)
        _join(same, units)
        return units, _padded(member.T), same

    def _checked_cages(self, parts: tuple[str, ...], n: int) -> tuple[Cage, ...]:
        if "killer" not in parts:
            if self.cages is not None:
                raise ValueError(f"only killer grids have cages, not {self.variant}")
            return ()
        if self.cages is None:
            raise ValueError("a killer grid needs its cages")
        cages = checked_cages(self.cages, n)
        if cages != self.cages:
            raise ValueError("build a killer geometry from checked_cages(...), the one spelling")
        return cages

    @property
    def classic(self) -> bool:
        """Rows, columns and rectangular boxes only: the shape-specific kernels apply."""
        return self.variant == CLASSIC

    @property
    def uncaged(self) -> Geometry:
        """The grid under a Killer's cages (itself when it has none): the same units."""
        if not self.cages:
            return self
        return geometry(self.box_rows, self.box_cols, without_cages(self.variant), self.regions)

    @property
    def parts(self) -> tuple[str, ...]:
        """The variant's parts (``()`` for classic)."""
        return variant_parts(self.variant)

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
        """``row 3`` / ``column 5`` / ``box 2`` / ``region 2`` / ``the main diagonal`` /
        ``window 1`` (1-based)."""
        n = self.n
        if unit < 3 * n:
            kind = ("row", "column", "region" if "jigsaw" in self.parts else "box")[unit // n]
            return f"{kind} {unit % n + 1}"
        extra = unit - 3 * n
        if "windoku" in self.parts:
            if extra < 4:
                return f"window {extra + 1}"
            extra -= 4
        return ("the main diagonal", "the anti-diagonal")[extra]

    def with_variant(
        self, variant: str, regions: str | None = None, cages: tuple[Cage, ...] | None = None
    ) -> Geometry:
        """The same size and box shape with another variant (and Jigsaw layout, Killer cages)."""
        return geometry(self.box_rows, self.box_cols, variant_name(variant), regions, cages)

    def __str__(self) -> str:
        shape = f"{self.n}x{self.n} ({self.shape} boxes)"
        return shape if self.classic else f"{self.n}x{self.n} {self.variant}"


#: How callers name a grid's shape: ``"3x4"``, ``(3, 4)``, a :class:`Geometry` (which carries a
#: variant), or None for the usual box of the size.
Box = str | tuple[int, int] | Geometry | None


def _join(same: np.ndarray, groups: np.ndarray) -> None:
    """Mark every two different cells of a group (a row of ``groups``, padded with -1) as
    sharing one."""
    width = groups.shape[1]
    first, second = np.repeat(groups, width, axis=1), np.tile(groups, (1, width))
    both = (first >= 0) & (second >= 0) & (first != second)
    same[first[both], second[both]] = True


def _padded(rows: np.ndarray) -> np.ndarray:
    """The True columns of each row of a boolean matrix, in order, as one int32 array: each row
    padded to the longest by repeating its first entry."""
    counts = rows.sum(axis=1)
    row, col = np.nonzero(rows)  # row-major: each row's columns in order
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    table = np.empty((len(rows), int(counts.max())), dtype=np.int32)
    table[:] = col[starts][:, None]
    table[row, np.arange(len(row)) - starts[row]] = col
    return table


def region_ids(layout: str, n: int) -> np.ndarray:
    """Region index (0 .. n-1, by symbol) of each cell of a Jigsaw layout string; InvalidLayout
    names the region at fault (wrong size, in pieces) or the bad character."""
    layout = layout.strip()
    if len(layout) != n * n:
        raise InvalidLayout(
            f"the layout has {len(layout)} characters; a {n}x{n} grid needs {n * n}"
        )
    symbols = SYMBOLS[:n]
    lookup = {s: i for i, s in enumerate(symbols)}
    if n <= 35:
        lookup.update({s.lower(): i for i, s in enumerate(symbols)})
    for index, char in enumerate(layout):
        if char not in lookup:
            raise InvalidLayout(
                f"layout: bad region symbol {char!r} at r{index // n + 1}c{index % n + 1}; "
                f"regions are named {symbols}"
            )
    region = np.array([lookup[c] for c in layout], dtype=np.int32)
    for r in range(n):
        cells = np.flatnonzero(region == r)
        name = f"region {symbols[r]!r}"
        if len(cells) != n:
            where = f" ({_cell_list(cells, n)})" if len(cells) else ""
            raise InvalidLayout(f"{name} has {len(cells)} cells{where}; each region needs {n}")
        piece = _connected_piece(region, int(cells[0]), n)
        if len(piece) != n:
            apart = sorted(set(cells.tolist()) - piece)
            raise InvalidLayout(
                f"{name} is not connected: {_cell_list(apart, n)} cannot be reached from "
                f"r{cells[0] // n + 1}c{cells[0] % n + 1}"
            )
    return region


def _cell_list(cells, n: int) -> str:
    names = [f"r{c // n + 1}c{c % n + 1}" for c in cells]
    return ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")


def _connected_piece(region: np.ndarray, start: int, n: int) -> set[int]:
    """The cells of ``start``'s region reachable from it through orthogonal neighbours."""
    seen, todo = {start}, [start]
    while todo:
        cell = todo.pop()
        r, c = divmod(cell, n)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            other = rr * n + cc
            if 0 <= rr < n and 0 <= cc < n and other not in seen and region[other] == region[start]:
                seen.add(other)
                todo.append(other)
    return seen


@per_geometry
def geometry(
    box_rows: int,
    box_cols: int,
    variant: str = CLASSIC,
    regions: str | None = None,
    cages: tuple[Cage, ...] | None = None,
) -> Geometry:
    """The shared :class:`Geometry` for a box shape (and variant). Killer ``cages`` must be
    given as :func:`engine.cages.checked_cages` returns them."""
    return Geometry(box_rows, box_cols, variant, regions, cages)


def default_box(n: int) -> tuple[int, int]:
    """The usual box for an n x n grid: as square as possible, wider than tall (6 -> 2x3)."""
    for rows in range(math.isqrt(n), 1, -1):
        if n % rows == 0:
            return rows, n // rows
    raise ValueError(f"{n}x{n} grids have no boxes: {n} is prime (choose a size such as 6, 9, 12)")


def parse_box(box: Box) -> tuple[int, int]:
    """Read a box shape given as ``"3x4"``, ``(3, 4)`` or a :class:`Geometry`."""
    if isinstance(box, Geometry):
        return box.shape_tuple
    if isinstance(box, str):
        parts = box.lower().split("x")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"box shape {box!r} is not of the form ROWSxCOLS, e.g. 3x3 or 2x3")
        return int(parts[0]), int(parts[1])
    rows, cols = box
    return int(rows), int(cols)


def box_shape(
    size: int | None = None,
    box: Box = None,
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


def geometry_for(size: int | None = None, box: Box = None) -> Geometry:
    """The geometry for a grid size (9, 16 ...) and/or an explicit box shape (:func:`box_shape`;
    any size, as grids past the text form's 64 exist as arrays). A :class:`Geometry` given as
    ``box`` is itself the answer (checked against the size): that is how variants travel
    through every function that takes a box."""
    shape = box_shape(size, box, largest=None)
    return box if isinstance(box, Geometry) else geometry(*shape)


def accepted_lengths() -> str:
    """Human list of the puzzle lengths the text form accepts, for error messages."""
    common = ", ".join(f"{n * n} ({n}x{n})" for n in COMMON_SIZES)
    return f"{common}; in general n*n for any n from {MIN_SIZE} to {MAX_SIZE} that is not prime"
