"""Puzzle text form: one string of n*n symbols, row by row, ``.`` or ``0`` for a blank.

Symbols are ``1-9`` then ``A-Z`` then ``a-z`` then ``@ $ %`` (see :data:`engine.geometry.SYMBOLS`).
For grids up to 35x35, where lower-case letters are not symbols, they are read as upper case.
Parsing is vectorised (a 256-entry lookup table) because the pipeline parses millions of strings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from engine.geometry import (
    MAX_SIZE,
    MIN_SIZE,
    SYMBOLS,
    Box,
    Geometry,
    accepted_lengths,
    default_box,
    geometry,
    geometry_for,
)

BLANKS = ".0"
BAD = 255  # lookup-table entry for a byte that is not a symbol of the grid


class InvalidPuzzle(ValueError):
    """The text is not a well-formed puzzle: wrong length, bad character or clashing givens."""


@dataclass(frozen=True)
class Grid:
    """A parsed puzzle or solution: its geometry and values (0 = blank), read-only."""

    geometry: Geometry
    values: np.ndarray

    def to_text(self) -> str:
        return to_text(self.geometry, self.values)

    @property
    def givens(self) -> int:
        return int(np.count_nonzero(self.values))


def lookup_table(n: int) -> np.ndarray:
    """Byte -> value (0 for blanks, BAD for anything else) for an n x n grid."""
    table = np.full(256, BAD, dtype=np.uint8)
    for blank in BLANKS:
        table[ord(blank)] = 0
    for value, symbol in enumerate(SYMBOLS[:n], start=1):
        table[ord(symbol)] = value
        if n <= 35 and symbol.isalpha():
            table[ord(symbol.lower())] = value
    return table


_table = cache(lookup_table)  # one table per symbol count, built on first use


def infer_geometry(length: int, box: Box = None) -> Geometry:
    """The geometry of a puzzle string of this length (or the given box, checked against it)."""
    if box is not None:
        geo = geometry_for(box=box)
        if length != geo.ncells:
            raise InvalidPuzzle(f"puzzle has {length} symbols; {geo} needs {geo.ncells}")
        return geo
    n = math.isqrt(length)
    if n * n != length or not MIN_SIZE <= n <= MAX_SIZE:
        raise InvalidPuzzle(f"puzzle has {length} symbols; expected {accepted_lengths()}")
    try:
        return geometry(*default_box(n))
    except ValueError as exc:
        raise InvalidPuzzle(f"puzzle has {length} symbols: {exc}") from None


def parse(text: str, box: Box = None) -> Grid:
    """Parse a puzzle string; raise :class:`InvalidPuzzle` naming the fault and where it is."""
    text = text.strip()
    geo = infer_geometry(len(text), box)
    raw = text.encode("utf-8", errors="replace")
    if len(raw) != len(text):  # a non-ASCII character: find it by position in the str
        index = next(i for i, ch in enumerate(text) if ord(ch) > 127)
        raise InvalidPuzzle(_bad_character(geo, text, index))
    values = _table(geo.n)[np.frombuffer(raw, dtype=np.uint8)]
    bad = np.flatnonzero(values == BAD)
    if bad.size:
        raise InvalidPuzzle(_bad_character(geo, text, int(bad[0])))
    values.setflags(write=False)
    clash = find_clash(geo, values)
    if clash:
        raise InvalidPuzzle(clash)
    return Grid(geo, values)


def parse_unchecked(text: str, box: Box = None) -> Grid:
    """:func:`parse` without the scan for clashing givens, for callers whose kernels find
    clashes anyway (far faster); any other fault still raises ``parse``'s precise error."""
    text = text.strip()
    geo = infer_geometry(len(text), box)
    if text.isascii():
        values = _table(geo.n)[np.frombuffer(text.encode(), dtype=np.uint8)]
        if not (values == BAD).any():
            return Grid(geo, values)
    return parse(text, box)


def _bad_character(geo: Geometry, text: str, index: int) -> str:
    return (
        f"bad character {text[index]!r} at index {index} ({geo.cell_name(index)}); "
        f"{geo} uses {geo.symbols} and '.' or '0' for blanks"
    )


def find_clash(geo: Geometry, values: np.ndarray) -> str | None:
    """Describe the first pair of equal givens in one unit, or None when there is none."""
    cells = geo.units  # (nunits, n)
    unit_values = values[cells]
    ordered = np.sort(unit_values, axis=1)
    if not ((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] > 0)).any():
        return None  # the usual case, found without a Python loop over every cell
    for unit in range(len(cells)):
        seen: dict[int, int] = {}
        for cell, value in zip(cells[unit], unit_values[unit], strict=True):
            if value == 0:
                continue
            if value in seen:
                return (
                    f"{geo.symbols[value - 1]!r} is given twice in {geo.unit_name(unit)}: "
                    f"{geo.cell_name(seen[value])} and {geo.cell_name(int(cell))}"
                )
            seen[int(value)] = int(cell)
    return None


def to_text(geo: Geometry, values: np.ndarray) -> str:
    """The text form of a grid's values (0 -> ``.``)."""
    alphabet = np.frombuffer(("." + geo.symbols).encode(), dtype=np.uint8)
    return alphabet[np.asarray(values, dtype=np.intp)].tobytes().decode()


def parse_many(puzzles: list[str], box: Box = None) -> np.ndarray:
    """Parse equal-length puzzle strings into a (count, ncells) uint8 array in one pass.

    Clashing givens are not checked here (the counting kernel reports them); wrong lengths and bad
    characters raise :class:`InvalidPuzzle` naming the puzzle's position in the batch.
    """
    if not puzzles:
        return np.zeros((0, 0), dtype=np.uint8)
    puzzles = [p.strip() for p in puzzles]
    length = len(puzzles[0])
    geo = infer_geometry(length, box)
    for index, puzzle in enumerate(puzzles):
        if len(puzzle) != length:
            raise InvalidPuzzle(
                f"puzzle #{index}: has {len(puzzle)} symbols, the first has {length}"
            )
    raw = "".join(puzzles).encode("utf-8", errors="replace")
    if len(raw) != length * len(puzzles):
        index = next(i for i, p in enumerate(puzzles) if not p.isascii())
        _raise_in_batch(index, puzzles[index], box)
    values = _table(geo.n)[np.frombuffer(raw, dtype=np.uint8)].reshape(len(puzzles), length)
    bad_rows = np.flatnonzero((values == BAD).any(axis=1))
    if bad_rows.size:
        index = int(bad_rows[0])
        _raise_in_batch(index, puzzles[index], box)
    return values


def _raise_in_batch(index: int, puzzle: str, box: Box) -> None:
    try:
        parse(puzzle, box)
    except InvalidPuzzle as exc:
        raise InvalidPuzzle(f"puzzle #{index}: {exc}") from None
