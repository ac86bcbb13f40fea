"""What a variant adds to a printed grid, read from its geometry: where the rules are thick,
which cells are shaded, a tint per Jigsaw region, and a Killer's cage outlines.

Rules are thick where two cells of different regions meet: the boxes of a classic grid, the
irregular regions of a Jigsaw, so one rule-drawing path serves both. The extra units of a variant
(Sudoku-X's two main diagonals, Windoku's four windows) are shaded in light grey, as puzzle books
print them and as the engine's rule sentences (``VARIANT_RULES``) describe them: a shaded cell
reads as "one more unit" at a glance and keeps its symbol as legible as on white. A thin line
drawn corner to corner through the diagonal cells, the other common style, crosses every symbol
on it and cannot mark a window at all.

A Killer's cages are outlined by dashed lines inset within their cells, as puzzle books print
them: the inset keeps two neighbouring cages' outlines apart (and off the cell and box rules), so
each cage reads as one shape with its sum in its top-left corner.

Coordinates here are in cells, from the grid's top-left corner: line ``k`` is the k-th rule from
the left (or the top), ``0`` and ``n`` the frame. A cage outline's coordinates are pairs
``(cells, insets)``: ``cells`` rules along, then ``insets`` times the inset (negative: back).
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise

import numpy as np

from engine.geometry import CLASSIC, VARIANT_PARTS, VARIANT_RULES, Geometry, variant_parts

WHITE = 1.0
#: Grey of each part's shaded cells, and how many units the part adds after the regions (in the
#: geometry's order). Windows 10 % grey, diagonals 20 %: each a toner step (10 %) from white and
#: from the other, so a Windoku-X's diagonals run darker across its windows, in greyscale too;
#: black clues and grey answers stay clear on both.
PART_SHADES = {"windoku": 0.9, "x": 0.8}
EXTRA_UNITS = {"jigsaw": 0, "killer": 0, "windoku": 4, "x": 2}
#: Greys of Jigsaw region tints (1 = white). Regions that share a border never share a tint (four
#: always suffice for a map). Steps of 8 %, a little under the answer shades' 10 %: the thick
#: borders already part the regions and the tint only helps the eye follow them, so it stays
#: light; the darkest keeps grey answer symbols at 0.46 contrast.
REGION_TINTS = (1.0, 0.92, 0.84, 0.76)
#: How the rules text names each variant part.
PART_NAMES = {"jigsaw": "Jigsaw", "killer": "Killer", "windoku": "Windoku", "x": "Sudoku-X"}
COMBINED_RULE = "A puzzle that combines variants keeps the rules of each."

#: A rule segment in cells: (x0, y0, x1, y1), y down from the top edge.
Segment = tuple[int, int, int, int]
#: A coordinate of a cage outline: ``(cells, insets)``, i.e. ``cells * cell + insets * inset``.
Offset = tuple[int, int]
#: A straight piece of a cage outline: (x0, y0, x1, y1), y down, x0 <= x1 and y0 <= y1.
CageLine = tuple[Offset, Offset, Offset, Offset]


@cache
def rule_segments(geo: Geometry) -> tuple[tuple[Segment, ...], tuple[Segment, ...]]:
    """The inner rules as (thin, thick) segments: for each line ``k`` from 1 to n-1, its vertical
    then its horizontal rule, cut into runs of equal weight. A classic grid's rules are whole
    lines; a Jigsaw's change weight where a region border turns."""
    n = geo.n
    region = geo.box_of.reshape(n, n)
    # vertical[r, k - 1]: the edge between columns k-1 and k in row r is a region border;
    # horizontal[k - 1, c]: the edge between rows k-1 and k in column c
    vertical = region[:, 1:] != region[:, :-1]
    horizontal = region[1:, :] != region[:-1, :]
    thin: list[Segment] = []
    thick: list[Segment] = []
    for k in range(1, n):
        for start, end, heavy in _runs(vertical[:, k - 1]):
            (thick if heavy else thin).append((k, end, k, start))
        for start, end, heavy in _runs(horizontal[k - 1, :]):
            (thick if heavy else thin).append((start, k, end, k))
    return tuple(thin), tuple(thick)


def _runs(heavy: np.ndarray) -> list[tuple[int, int, bool]]:
    """Maximal runs ``(start, end, value)`` of equal values along one line."""
    cuts = [0, *(np.flatnonzero(heavy[1:] != heavy[:-1]) + 1).tolist(), len(heavy)]
    return [(a, b, bool(heavy[a])) for a, b in pairwise(cuts)]


@cache
def variant_greys(geo: Geometry) -> np.ndarray:
    """Grey of each cell from the units beyond the rows, columns and regions (Windoku's windows,
    X's diagonals; ``WHITE`` elsewhere); a later part's shade covers an earlier one's."""
    greys = np.full(geo.ncells, WHITE)
    start = 3 * geo.n
    for part in geo.parts:
        end = start + EXTRA_UNITS[part]
        if part in PART_SHADES:
            greys[geo.units[start:end].ravel()] = PART_SHADES[part]
        start = end
    assert start == len(geo.units), f"{geo.variant}: units beyond those its parts add"
    return _frozen(greys)


@cache
def region_tints(geo: Geometry) -> np.ndarray:
    """Grey of each cell when a Jigsaw's regions are tinted: neighbouring regions differ."""
    colours = _four_colouring(_neighbours(geo))
    return _frozen(np.asarray(REGION_TINTS)[np.asarray(colours)[geo.box_of]])


def _frozen(array: np.ndarray) -> np.ndarray:
    """Cached arrays are shared: read-only."""
    array.setflags(write=False)
    return array


def _neighbours(geo: Geometry) -> list[set[int]]:
    """The regions each region shares a cell edge with."""
    n = geo.n
    region = geo.box_of.reshape(n, n)
    pairs = np.concatenate(
        [
            np.stack([region[:, 1:].ravel(), region[:, :-1].ravel()], axis=1),
            np.stack([region[1:, :].ravel(), region[:-1, :].ravel()], axis=1),
        ]
    )
    neighbours: list[set[int]] = [set() for _ in range(n)]
    for a, b in pairs[pairs[:, 0] != pairs[:, 1]].tolist():
        neighbours[a].add(b)
        neighbours[b].add(a)
    return neighbours


def _four_colouring(neighbours: list[set[int]]) -> list[int]:
    """A colour per region, no two neighbours alike, in as few colours as the map allows (so the
    darkest tint is printed only where it must be); a map never needs more than four.

    Backtracking that colours next the region with the most distinctly coloured neighbours
    (DSatur): a map of at most 64 regions is settled at once."""
    for count in range(1, len(REGION_TINTS) + 1):
        colouring = _colouring(neighbours, count)
        if colouring is not None:
            return colouring
    raise AssertionError("every map has a four-colouring")


def _colouring(neighbours: list[set[int]], count: int) -> list[int] | None:
    """A colouring in ``count`` colours, or None when there is none."""
    colour = [-1] * len(neighbours)

    def used(region: int) -> set[int]:
        return {colour[other] for other in neighbours[region]} - {-1}

    def extend() -> bool:
        open_regions = [r for r, c in enumerate(colour) if c < 0]
        if not open_regions:
            return True
        region = max(open_regions, key=lambda r: (len(used(r)), len(neighbours[r])))
        for choice in sorted(set(range(count)) - used(region)):
            colour[region] = choice
            if extend():
                return True
        colour[region] = -1
        return False

    return colour if extend() else None


def rule_sentences(variants: set[str], symbol: str) -> list[str]:
    """The rules of the variants in a book (``classic`` has none beyond the book's first rule):
    one sentence per part, each part once however many variants use it, in the engine's order,
    and a line for puzzles that combine parts. The engine's "symbol" becomes ``symbol``."""
    parts = {part for variant in variants - {CLASSIC} for part in variant_parts(variant)}
    sentences = [
        f"In {PART_NAMES[part]} puzzles, {VARIANT_RULES[part].replace('symbol', symbol)}."
        for part in VARIANT_PARTS
        if part in parts
    ]
    if any(len(variant_parts(variant)) > 1 for variant in variants):
        sentences.append(COMBINED_RULE)
    return sentences


@cache
def cage_outlines(geo: Geometry) -> tuple[CageLine, ...]:
    """The outline of every cage, inset within its cells, as maximal straight lines: a side of a
    cell on the cage's border is drawn one inset inside it; at each end it stops an inset short
    of a convex corner, runs on into a cage mate whose side is on the border too, and reaches an
    inset past the cell into a concave corner, so the outline is closed with its corners met."""
    n = geo.n
    cage = geo.cage_of.reshape(n, n)

    def inside(r: int, c: int, rr: int, cc: int) -> bool:
        return 0 <= rr < n and 0 <= cc < n and cage[rr, cc] == cage[r, c]

    def end(r: int, c: int, along: tuple[int, int], across: tuple[int, int]) -> int:
        """Insets the side's end reaches past the cell edge towards ``along`` (-1: short)."""
        (ar, ac), (xr, xc) = along, across
        if not inside(r, c, r + ar, c + ac):
            return -1
        return 1 if inside(r, c, r + ar + xr, c + ac + xc) else 0

    rows: dict[Offset, list[tuple[Offset, Offset]]] = {}  # y -> runs along x
    cols: dict[Offset, list[tuple[Offset, Offset]]] = {}  # x -> runs along y
    for r in range(n):
        for c in range(n):
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                if inside(r, c, r + dr, c + dc):
                    continue
                inward = 1 if dr + dc < 0 else -1  # the inset points back into the cell
                if dr:
                    at = (r + (dr > 0), inward)
                    first = (c, -end(r, c, (0, -1), (dr, 0)))
                    last = (c + 1, end(r, c, (0, 1), (dr, 0)))
                    rows.setdefault(at, []).append((first, last))
                else:
                    at = (c + (dc > 0), inward)
                    first = (r, -end(r, c, (-1, 0), (0, dc)))
                    last = (r + 1, end(r, c, (1, 0), (0, dc)))
                    cols.setdefault(at, []).append((first, last))
    lines: list[CageLine] = []
    for y, runs in sorted(rows.items()):
        lines += [(a, y, b, y) for a, b in _joined(runs)]
    for x, runs in sorted(cols.items()):
        lines += [(x, a, x, b) for a, b in _joined(runs)]
    return tuple(lines)


def _joined(runs: list[tuple[Offset, Offset]]) -> list[tuple[Offset, Offset]]:
    """Runs on one line, those that meet end to start joined (a dash pattern then runs on)."""
    joined: list[tuple[Offset, Offset]] = []
    for start, stop in sorted(runs):
        if joined and joined[-1][1] == start:
            joined[-1] = (joined[-1][0], stop)
        else:
            joined.append((start, stop))
    return joined
