"""Canonical arrangement of a grid through graph canonization (bliss, in igraph): the forms of
classic grids past the minlex search's sizes, and of every variant.

The graph. One vertex per cell, per unit (the rows, columns and regions of the unit table, then
the variant's extra units) and per symbol. A cell is joined to each unit that holds it and to
the symbol given there, if any. Colours keep the kinds apart: cells, lines (rows and columns
share one, so a transpose can be an isomorphism), regions, windows, diagonals, symbols. A Jigsaw
also joins each row to the next and each column to the next, so lines keep their order up to a
reversal: only the eight symmetries of the square remain (its irregular regions keep no bands).

Its isomorphisms are the group. Two rows share no cell and a row and a column share one, so an
isomorphism takes all rows to rows, or all rows to columns (a transpose); a cell goes where its
row and column go, the only cell they share. What is left to choose is a row order, a column
order, a transpose and the symbols: kept exactly when every region (and extra unit) lands on a
region (extra unit), with the givens on the same symbols. For boxes this means bands and stacks
move whole (rows sharing boxes stay together): the validity-preserving group, no more
(``tests/engine/test_canon.py`` counts both groups for every variant).

The drawing. bliss gives a canonical labelling ``λ`` of the puzzle's graph ``G``: ``H = λ(G)``
is one and the same graph for every puzzle of an orbit, but its vertex numbers are not grid
positions. The *frame* is the graph without symbols (and without a Jigsaw's regions, which its
key writes out instead): the same for every puzzle of a geometry. ``H``'s frame part is a
numbered copy of it, and the drawing ``ν⁻¹ ∘ μ``, with ``μ`` and ``ν`` the canonical labellings
of that copy and of the frame itself, puts each of its vertices on a grid position. It depends
on ``H`` alone, so the drawn puzzle is the same for every member of the orbit, and it is a
symmetry of the frame, so the drawn puzzle is a member of the orbit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import igraph
import numpy as np

from engine.geometry import Geometry, per_geometry

CELL, LINE, REGION, WINDOW, DIAGONAL, SYMBOL = range(6)  # vertex colours
WINDOWS = 4  # Windoku's extra units come first: four windows, then X's two diagonals
SPLITTING = "fl"  # bliss's splitting heuristic: part of the labelling, so of the forms too


@dataclass(frozen=True)
class _Tables:
    """The graph of a geometry without givens, and its frame's canonical labelling."""

    edges: np.ndarray  # (m, 2): cells to units, and a Jigsaw's neighbouring lines
    colours: np.ndarray  # per vertex: cells, units, then the n symbols
    frame: np.ndarray  # the frame's vertices, ascending (cells first, so cell c is frame vertex c)
    frame_edges: np.ndarray  # (m', 2) edges between frame vertices, as frame indices
    frame_labelling: np.ndarray  # frame index -> its place in the canonical frame


def _unit_colours(geo: Geometry) -> np.ndarray:
    """Colour of each unit vertex: rows and columns alike, then regions, windows, diagonals."""
    n = geo.n
    extra = len(geo.units) - 3 * n
    windows = WINDOWS if "windoku" in geo.parts else 0
    kinds = [LINE] * (2 * n) + [REGION] * n + [WINDOW] * windows + [DIAGONAL] * (extra - windows)
    return np.array(kinds, dtype=np.int64)


def _line_paths(geo: Geometry) -> np.ndarray:
    """A Jigsaw's edges from each row to the next and each column to the next (unit vertices)."""
    n, first = geo.n, geo.ncells
    steps = np.arange(n - 1)
    rows = np.stack([steps, steps + 1], axis=1)
    return first + np.concatenate([rows, rows + n])


@per_geometry
def _tables(geo: Geometry) -> _Tables:
    """Built once per geometry: every puzzle of it adds only its givens' edges."""
    n, ncells = geo.n, geo.ncells
    nunits = len(geo.units)
    units = np.repeat(np.arange(nunits), n)
    edges = np.stack([geo.units.reshape(-1).astype(np.int64), ncells + units], axis=1)
    if "jigsaw" in geo.parts:
        edges = np.concatenate([edges, _line_paths(geo)])
    cells = np.full(ncells, CELL, dtype=np.int64)
    symbols = np.full(n, SYMBOL, dtype=np.int64)
    colours = np.concatenate([cells, _unit_colours(geo), symbols])
    in_frame = colours != SYMBOL
    if "jigsaw" in geo.parts:
        in_frame &= colours != REGION
    frame = np.flatnonzero(in_frame)
    index = np.full(len(colours), -1, dtype=np.int64)
    index[frame] = np.arange(len(frame))
    framed = index[edges]
    frame_edges = framed[(framed >= 0).all(axis=1)]
    frame_labelling = _labelling(len(frame), frame_edges, colours[frame])
    return _Tables(edges, colours, frame, frame_edges, frame_labelling)


def _labelling(count: int, edges: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """bliss's canonical labelling (vertex -> its number in the canonical graph). The edges are
    sorted first, so the answer depends on the numbered graph only, not on its edges' order."""
    ends = np.sort(edges, axis=1)
    ends = ends[np.lexsort((ends[:, 1], ends[:, 0]))]
    graph = igraph.Graph(n=count, edges=ends)
    # igraph answers the other way round: the vertex that takes each number
    return np.argsort(graph.canonical_permutation(sh=SPLITTING, color=colours.tolist()))


def drawing(values: np.ndarray, geo: Geometry) -> np.ndarray:
    """The canonical arrangement of a grid (values 0..n, row-major): for each cell of the form,
    the puzzle's cell drawn there. The same for every puzzle of one orbit of ``geo``'s group."""
    tables = _tables(geo)
    n, ncells = geo.n, geo.ncells
    values = values.astype(np.int64)
    given = np.flatnonzero(values)
    symbol_edges = np.stack([given, len(tables.colours) - n - 1 + values[given]], axis=1)
    edges = np.concatenate([tables.edges, symbol_edges])
    labelling = _labelling(len(tables.colours), edges, tables.colours)
    # the frame's part of H, renumbered 0.. in the order of H's numbers
    placed = labelling[tables.frame]
    order = np.argsort(placed)  # copy index -> frame index of the puzzle's vertex there
    copy_of = np.argsort(order)  # (the inverse permutation)
    copy = _labelling(len(order), copy_of[tables.frame_edges], tables.colours[tables.frame][order])
    # grid position -> canonical frame vertex -> copy vertex -> the puzzle's frame vertex
    return order[np.argsort(copy)[tables.frame_labelling[:ncells]]]


def symmetry_count(geo: Geometry) -> int:
    """How many arrangements of the cells the graph allows for ``geo`` (symbols apart): the order
    of the group the forms are taken under, for checking the encoding against its definition."""
    tables = _tables(geo)
    graph = igraph.Graph(n=len(tables.colours), edges=tables.edges)
    count = graph.count_automorphisms(sh=SPLITTING, color=tables.colours.tolist())
    return count // math.factorial(geo.n)  # the n symbols, all blank, permute freely
