"""Simon Tatham's Solo game descriptions of Killer Sudoku: the one reader (tests, benches and
the pipeline import it from here).

``sgt-solo --generate N 3x3kdb`` prints lines ``<params>:<givens>,<cages>,<sums>``:

params  ``RxC`` (boxes R rows tall, C wide, as our box shapes), then ``j`` (Jigsaw: a
        region layout comes before the cages; ``9j`` names the size alone), ``x`` (X
        diagonals), ``k`` (Killer) and settings we ignore (``d<level>``, ``a``, ``m2`` ...)
givens  cell values in reading order: a letter is a run of blanks (``a`` one ... ``z``
        26), a number a given; ``_`` only separates two numbers
cages   the cells' division into cages (the same code for a Jigsaw's regions): the
        n*(n-1) inner vertical edges in reading order, then the n*(n-1) inner horizontal
        edges column by column, then one closing edge. A letter counts the edges between
        two cells of one cage before the next cage wall (``_`` none, ``a`` one ... ``y``
        25); ``z`` counts 25 with no wall after it
sums    as givens: each cage's total written in one of its cells, the others blank
"""

from __future__ import annotations

import re

import numpy as np

from engine.cages import Cage, InvalidCages, checked_cages
from engine.geometry import SYMBOLS, Geometry, InvalidLayout, geometry, variant_name

_PARAMS = re.compile(r"(?P<rows>\d+)(?:x(?P<cols>\d+))?(?P<flags>[a-z0-9]*)$")
_RUN = 26  # 'z': the longest run of blanks, or of edges without a wall


class SoloFormatError(ValueError):
    """A Solo description this reader cannot take; the message names the part at fault."""


def solo_killer(description: str) -> tuple[Geometry, str]:
    """The Killer geometry (its cages checked, variant ``killer``, ``killer+x`` or
    ``jigsaw+killer``) and the givens as a puzzle string (``.`` for blanks) of one Solo
    description. Raises :class:`SoloFormatError` (a ValueError) naming what is wrong: the
    parameters, a part of the description, or the cage at fault."""
    text = description.strip()
    params, colon, body = text.partition(":")
    if not colon:
        raise SoloFormatError(f"no ':' after the parameters in {_short(text)!r}")
    box_rows, box_cols, parts = _params(params)
    n = box_rows * box_cols
    if n > 9:
        raise SoloFormatError(f"{n}x{n} grids: this reader takes Killers up to 9x9")
    fields = body.split(",")
    wanted = 4 if "jigsaw" in parts else 3
    if len(fields) != wanted:
        names = "givens, " + ("regions, " if wanted == 4 else "") + "cages and sums"
        raise SoloFormatError(
            f"expected {wanted} comma-separated parts ({names}), got {len(fields)}"
        )
    givens = _numbers(fields[0], n, "givens", n)
    regions = None
    if "jigsaw" in parts:
        regions = "".join(SYMBOLS[r] for r in _division(fields[1], n, "regions"))
    cage_of = _division(fields[-2], n, "cages")
    sums = _numbers(fields[-1], n, "sums", n * n * n)
    cages = _cages(cage_of, sums, n)
    try:
        geo = geometry(box_rows, box_cols, variant_name("+".join(parts)), regions, cages)
    except (InvalidCages, InvalidLayout) as error:
        raise SoloFormatError(str(error)) from None
    return geo, "".join(SYMBOLS[v - 1] if v else "." for v in givens)


def _params(params: str) -> tuple[int, int, list[str]]:
    """Box rows and columns and the variant's parts from ``3x3k``, ``2x3xkdb``, ``9jk``."""
    found = _PARAMS.match(params)
    if not found:
        raise SoloFormatError(f"parameters {params!r}: expected e.g. 3x3k or 9jk")
    flags = found["flags"].split("d")[0]  # the difficulty and later settings are not ours
    parts = ["killer"]
    if "j" in flags:
        parts.append("jigsaw")
    if "x" in flags:
        parts.append("x")
    if "k" not in flags:
        raise SoloFormatError(f"parameters {params!r} are not a Killer's (no 'k')")
    rows, cols = int(found["rows"]), found["cols"]
    if "jigsaw" in parts:
        size = rows * int(cols) if cols else rows
        if size != 9 and size != 6:
            raise SoloFormatError(f"parameters {params!r}: Jigsaw Killers of 6 or 9 cells a side")
        box_rows, box_cols = (3, 3) if size == 9 else (2, 3)
        return box_rows, box_cols, parts
    if cols is None:
        raise SoloFormatError(f"parameters {params!r}: expected ROWSxCOLS before the flags")
    if int(rows) < 2 or int(cols) < 2:
        raise SoloFormatError(f"parameters {params!r}: boxes must be at least 2x2")
    return int(rows), int(cols), parts


def _numbers(text: str, n: int, part: str, largest: int) -> list[int]:
    """A run-length list of n*n numbers (0 for a blank), each 1..``largest``."""
    values: list[int] = []
    for token in re.finditer(r"[a-z]|_|\d+|.", text):
        piece = token.group()
        if piece.isdigit():
            value = int(piece)
            if not 1 <= value <= largest:
                raise SoloFormatError(f"{part}: {value} at cell {len(values) + 1} is out of range")
            values.append(value)
        elif "a" <= piece <= "z":
            values.extend([0] * (ord(piece) - ord("a") + 1))
        elif piece != "_":
            raise SoloFormatError(f"{part}: bad character {piece!r}")
    if len(values) != n * n:
        raise SoloFormatError(f"{part}: {len(values)} cells; a {n}x{n} grid has {n * n}")
    return values


def _division(text: str, n: int, part: str) -> list[int]:
    """Each cell's block (numbered by its first cell, in reading order) from Solo's edge code."""
    edges = 2 * n * (n - 1)
    parent = list(range(n * n))

    def root(cell: int) -> int:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    position = 0
    for char in text:
        if char == "_":
            joined = 0
        elif "a" <= char <= "z":
            joined = ord(char) - ord("a") + 1
        else:
            raise SoloFormatError(f"{part}: bad character {char!r}")
        for _ in range(joined):
            if position >= edges:
                raise SoloFormatError(f"{part}: more edges than a {n}x{n} grid has")
            a, b = _edge(position, n)
            parent[root(a)] = root(b)
            position += 1
        position += joined != _RUN
    if position != edges + 1:
        raise SoloFormatError(f"{part}: {position} edges read; a {n}x{n} grid has {edges + 1}")
    first: dict[int, int] = {}
    return [first.setdefault(root(cell), len(first)) for cell in range(n * n)]


def _edge(position: int, n: int) -> tuple[int, int]:
    """The two cells on either side of inner edge ``position`` (see the module docstring)."""
    if position < n * (n - 1):
        row, col = divmod(position, n - 1)
        return row * n + col, row * n + col + 1
    col, row = divmod(position - n * (n - 1), n - 1)
    return row * n + col, (row + 1) * n + col


def _cages(cage_of: list[int], sums: list[int], n: int) -> tuple[Cage, ...]:
    """Checked cages from each cell's cage and the sums grid (one total per cage)."""
    blocks = np.asarray(cage_of)
    made = []
    for index in range(blocks.max() + 1):
        cells = np.flatnonzero(blocks == index).tolist()
        totals = [sums[c] for c in cells if sums[c]]
        where = f"the cage at r{cells[0] // n + 1}c{cells[0] % n + 1}"
        if len(totals) != 1:
            found = (
                "no sum" if not totals else f"{len(totals)} sums ({', '.join(map(str, totals))})"
            )
            raise SoloFormatError(f"sums: {where} ({len(cells)} cells) has {found}; it needs one")
        made.append((totals[0], cells))
    try:
        return checked_cages(made, n)
    except InvalidCages as error:
        raise SoloFormatError(str(error)) from None


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."
