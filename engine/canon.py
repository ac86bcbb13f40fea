"""Canonical form of a puzzle under the validity-preserving group, to detect disguised copies.

The group. For an n x n grid with boxes ``R`` rows tall and ``C`` columns wide (n = R*C) there are
``C`` *bands* of ``R`` rows and ``R`` *stacks* of ``C`` columns. These changes keep every valid
puzzle valid (and keep its number of solutions):

* relabelling the symbols (any permutation of 1..n; blanks stay blank);
* permuting the rows inside a band, and permuting the bands;
* permuting the columns inside a stack, and permuting the stacks;
* transposing. With square boxes (R == C) the transpose is a grid of the same shape. Otherwise it
  swaps the box shape: a 6x6 grid of 3x2 boxes transposes to a valid grid of 2x3 boxes. So that a
  puzzle and its transpose share one form, tall boxes (R > C) are read through the transpose, as
  the wide shape C x R: their form is a wide-box grid (square and wide boxes keep their shape).

Variants. X and Windoku keep the boxes: their group is the part of that one that takes their
extra units onto extra units. For 9x9 X, one row map that keeps bands and commutes with the
reversal i -> 8-i, on the columns the same map or its reversal, and the transpose (96
arrangements); for Windoku, rows 1 and 2, rows 6 and 7 (counted from 0) swapped or not and the
reversal or not, the same for the columns, and the transpose (128). Only the unit table counts:
the "hidden" windows that Windoku's four imply are not units. A Jigsaw's irregular regions keep
no bands: its group is the eight symmetries of the square, and they move its layout too: two
Jigsaw puzzles are equivalent when one symmetry takes the one's layout and givens to the other's
(region and symbol names apart). Combinations take the moves both allow (jigsaw+x: all eight,
which keep the diagonals). Relabelling the symbols is part of every group.

The order. A grid is read row by row as a sequence of n*n values, a blank reading as 0 and symbol
labels as 1..n, and sequences are compared lexicographically: so a blank sorts below every symbol.
For one arrangement of rows and columns the smallest relabelling numbers the symbols in order of
first appearance (the first symbol met reading row by row becomes 1, the next new one 2, ...).

The form. For classic grids up to :data:`MINLEX_MAX_SIZE` ``canonical(p)`` is the smallest
sequence over the whole group (the *minlex* form), written as text: ``.`` for blanks and
:data:`engine.geometry.SYMBOLS` for labels 1..n. Larger classic grids and every variant take the
arrangement that their canonical graph draws (:mod:`engine.canon_graph`: bliss's canonical
labelling of a vertex-coloured graph whose isomorphisms are the group), with the symbols, and a
Jigsaw's regions, named in order of first appearance: a member of the orbit, the same for all of
it, though not the smallest. Either way two puzzles of one geometry, or of transposed shapes, are
equivalent if and only if their forms are equal. A full grid has a form too (every cell given),
so a puzzle's solution can be compared the same way. The catalog key (:attr:`Canonical.key`) is
the form for classic grids and names the variant (and a Jigsaw's layout) before it otherwise.

The search (exact, not a heuristic). The form opens with as many blank rows as any arrangement
allows: every blank band, then the band with the most blank rows, its blank rows first. Its first
nonblank row has all-new symbols, so its text is its *pattern*: givens pushed right (stacks in
ascending order of their given counts, blanks first inside each stack), labelled 1, 2, ... The
kernel keeps the (transpose, band, row) choices whose pattern is the least and, for each, builds
only the column orders that realise it, stack position by stack position; a partial order is
dropped as soon as no candidate for the next row can tie the best one on the columns fixed so far
(labels there are exact or bounded below). For each complete column order a depth-first search
picks the remaining rows one at a time (rows of the current band, or the first row of a new
band), keeping only rows whose relabelled text ties the best known row at that depth: a larger
row prunes the branch, a smaller one becomes the new best and marks every row below it unknown.
Blank rows of one band are interchangeable, so only one of them is tried.

Cost (``bench/canon_bench.py``, one core of a busy machine: figures vary twofold with its load).
The minlex search: 10,000 to 20,000 9x9 17-clue puzzles and 600 to 1,200 full 9x9 grids a
second; 16x16 puzzles about half a millisecond and full grids 30 to 70 ms; 25x25 puzzles half a
second and full grids about 5 seconds (10 to 30 s on other grids and machines: the column orders
of a full grid's first band grow as (C!)^R, and a full 36x36 grid took over 400 s unfinished,
hence the graph past 25x25). The graph: 36x36 puzzles (45% of the cells given) 12 to 25 ms and
full grids 40 to 75 ms; 49x49 30 to 45 ms and 0.1 to 0.15 s; 64x64 0.1 and 0.25 to 0.5 s; 9x9 X,
Windoku and Jigsaw 1,500 to 4,500 puzzles or grids a second. The first grid of a size also
builds its :class:`~engine.geometry.Geometry` (7 to 10 s at 64x64, for its peer table).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from engine.canon_graph import drawing
from engine.geometry import MAX_SIZE, Box, Geometry, geometry
from engine.jit import kernel
from engine.text import infer_geometry, parse, parse_many, to_text

MINLEX_MAX_SIZE = 25  # the largest classic grid whose form is the minlex one (see the cost above)
MAX_CANON_SIZE = MAX_SIZE  # every grid with a text form has a canonical form


class CanonTooLarge(ValueError):
    """The grid is past :data:`MAX_CANON_SIZE`: it has no text form, so no form or id."""


def check_canon_size(n: int) -> None:
    """Refuse grids past :data:`MAX_CANON_SIZE` with one line naming the size and the limit."""
    if n > MAX_CANON_SIZE:
        raise CanonTooLarge(
            f"{n}x{n} grids have no canonical form here (ids and dedupe need one): forms are "
            f"puzzle texts, at most {MAX_CANON_SIZE}x{MAX_CANON_SIZE}; use a size up to "
            f"{MAX_CANON_SIZE}"
        )


@kernel
def _compare(a, b):
    """-1, 0 or 1 as sequence ``a`` sorts below, equal to or above ``b``."""
    for i in range(a.shape[0]):
        if a[i] < b[i]:
            return -1
        if a[i] > b[i]:
            return 1
    return 0


@kernel
def _pattern(line, cols, out):
    """The least text of one line of values: stacks by ascending given count, givens pushed right
    inside each stack and labelled 1, 2, ... left to right. ``cols`` is the stack width."""
    stacks = line.shape[0] // cols
    counts = np.zeros(stacks, dtype=np.int64)
    for c in range(line.shape[0]):
        if line[c] != 0:
            counts[c // cols] += 1
    counts.sort()
    label = 0
    for s in range(stacks):
        for j in range(cols):
            if j < cols - counts[s]:
                out[s * cols + j] = 0
            else:
                label += 1
                out[s * cols + j] = label


@kernel
def _inner_orders(line, cols, perms_c, counts, inner_orders, inner_count):
    """Per stack: its given count in ``line`` and the orders inside it (indices into ``perms_c``)
    that put its blanks first, as the least pattern of ``line`` needs."""
    counts[:] = 0
    for c in range(line.shape[0]):
        if line[c] != 0:
            counts[c // cols] += 1
    for s in range(counts.shape[0]):
        inner_count[s] = 0
        blanks = cols - counts[s]
        for p in range(perms_c.shape[0]):
            fits = True
            for j in range(cols):
                if (line[s * cols + perms_c[p, j]] == 0) != (j < blanks):
                    fits = False
                    break
            if fits:
                inner_orders[s, inner_count[s]] = p
                inner_count[s] += 1


@kernel
def _hopeless(grid, colperm, width, prefix, per_band, best):
    """True when no row can tie ``best`` at the depth after ``prefix`` whatever order the columns
    from ``width`` on take: a bound that prunes column orders before their rows are searched.

    Labels then come from the prefix's last row (the earlier ones are blank): exact for its symbols
    in the fixed columns and for symbols new to it, at least the next label for the others.
    """
    n = grid.shape[0]
    depth = prefix.shape[0]
    if depth == n:
        return False
    first = prefix[depth - 1]
    label = np.zeros(n + 1, dtype=np.int64)  # exact labels; -1: in the first row, not yet fixed
    fixed = 0
    for c in range(width):
        v = grid[first, colperm[c]]
        if v != 0:
            fixed += 1
            label[v] = fixed
    given = 0
    for v in grid[first]:
        if v != 0:
            given += 1
            if label[v] == 0:
                label[v] = -1
    taken = np.zeros(n, dtype=np.bool_)  # rows of the prefix
    band_taken = np.zeros(n, dtype=np.bool_)  # bands of the prefix
    for r in prefix:
        taken[r] = True
        band_taken[r // per_band] = True
    lo, hi = 0, n
    if depth % per_band != 0:
        lo = (first // per_band) * per_band
        hi = lo + per_band
    for row in range(lo, hi):
        if taken[row] or (depth % per_band == 0 and band_taken[row // per_band]):
            continue
        new = given
        for c in range(width):
            v = grid[row, colperm[c]]
            x = 0
            exact = True
            if v != 0:
                if label[v] > 0:
                    x = label[v]
                elif label[v] == -1:
                    x, exact = fixed + 1, False
                else:
                    new += 1
                    x = new
            if x > best[depth, c]:
                break  # this row is above the best: try the next one
            if x < best[depth, c] or not exact:
                return False  # this row may still tie or beat the best
        else:
            return False  # equal on every fixed column
    return True


# Rows of the search workspace ``ws`` (int64, shape (WS_ROWS + n, n + 1)); rows WS_ROWS.. hold
# the candidate rows tied at each depth.
LAB, SYM_OF, PATH, BAND_AT, NL_BEFORE, COUNT, INDEX, USED, BAND_USED, APPLIED = range(10)
WS_ROWS = 10


@kernel
def _apply_row(d, row, grid, colperm, per_band, ws, nl):
    """Place ``row`` at depth ``d``; its new symbols take the next labels. Returns the count."""
    for c in range(colperm.shape[0]):
        v = grid[row, colperm[c]]
        if v != 0 and ws[LAB, v] == 0:
            nl += 1
            ws[LAB, v] = nl
            ws[SYM_OF, nl] = v
    ws[USED, row] = 1
    ws[PATH, d] = row
    if d % per_band == 0:
        ws[BAND_AT, d // per_band] = row // per_band
        ws[BAND_USED, row // per_band] = 1
    return nl


@kernel
def _undo_row(d, per_band, ws, nl):
    """Take back the row placed at depth ``d`` and the labels it introduced."""
    row = ws[PATH, d]
    for label in range(ws[NL_BEFORE, d] + 1, nl + 1):
        ws[LAB, ws[SYM_OF, label]] = 0
    ws[USED, row] = 0
    if d % per_band == 0:
        ws[BAND_USED, row // per_band] = 0
    return ws[NL_BEFORE, d]


@kernel
def _expand(d, grid, colperm, per_band, blank, ws, nl, best):
    """Rows that may come at depth ``d``, compared with the best text known there.

    A row above ``best[d]`` is dropped; one below it becomes ``best[d]`` and marks every deeper
    best row unknown (above any text). Returns how many rows tie ``best[d]`` (listed in ``ws``).
    """
    n = grid.shape[0]
    cands = ws[WS_ROWS + d]
    band_start = d % per_band == 0
    lo, hi = 0, n
    if not band_start:
        lo = ws[BAND_AT, d // per_band] * per_band
        hi = lo + per_band
    m = 0
    for row in range(lo, hi):
        band = row // per_band
        if ws[USED, row] or (band_start and ws[BAND_USED, band]):
            continue
        if blank[row]:
            twin = False
            for k in range(m):
                twin = twin or (blank[cands[k]] and cands[k] // per_band == band)
            if twin:
                continue
        order = 0
        new = nl
        for c in range(n):
            v = grid[row, colperm[c]]
            x = 0
            if v != 0:
                x = ws[LAB, v]
                if x == 0:
                    new += 1
                    x = new
            if order == 0:
                if x > best[d, c]:
                    order = 1
                    break
                if x < best[d, c]:
                    order = -1
            if order == -1:
                best[d, c] = x
        if order == 1:
            continue
        if order == -1:
            best[d + 1 :, :] = n + 1
            m = 0
        cands[m] = row
        m += 1
    return m


@kernel
def _search_rows(t, grid, colperm, prefix, per_band, blank, best, ws, found):
    """Depth-first search for the rows after ``prefix`` (rows 0.. of the form) for one column
    order; ``found`` gets the transform whenever a complete arrangement equals ``best``."""
    n = grid.shape[0]
    ws[:WS_ROWS] = 0
    nl = 0
    for d in range(prefix.shape[0]):
        nl = _apply_row(d, prefix[d], grid, colperm, per_band, ws, nl)
    top = d = prefix.shape[0]
    if d < n:
        ws[COUNT, d] = _expand(d, grid, colperm, per_band, blank, ws, nl, best)
    while top <= d < n:
        if ws[APPLIED, d]:
            nl = _undo_row(d, per_band, ws, nl)
            ws[APPLIED, d] = 0
        if ws[INDEX, d] == ws[COUNT, d]:
            d -= 1
            continue
        ws[NL_BEFORE, d] = nl
        nl = _apply_row(d, ws[WS_ROWS + d, ws[INDEX, d]], grid, colperm, per_band, ws, nl)
        ws[INDEX, d] += 1
        ws[APPLIED, d] = 1
        if d < n - 1:
            d += 1
            ws[INDEX, d] = 0
            ws[COUNT, d] = _expand(d, grid, colperm, per_band, blank, ws, nl, best)
        else:
            _record(t, ws[PATH, :n], colperm, found)
    if top == n:
        _record(t, prefix, colperm, found)


@kernel
def _record(t, rows, cols, found):
    """Remember the transform of a complete arrangement equal to the best one."""
    n = cols.shape[0]
    found[0] = t
    found[1 : n + 1] = rows
    found[n + 1 :] = cols


@kernel
def _blank_prefixes(grids, per_band, best, starts):
    """The longest run of blank rows any arrangement can open with, and how to reach it.

    Blank bands come first, then a band with the most blank rows, its blank rows, then its least
    nonblank row by pattern. Fills ``best`` above that row with blanks and the row with its
    pattern; ``starts`` gets (transpose, band, row) for each way to reach them. Returns
    (count of ways, index of the pattern row); the index is n for an empty grid.
    """
    n = grids.shape[1]
    cols = n // per_band
    pattern = np.empty(n, dtype=np.int64)
    least = np.full(n, n + 1, dtype=np.int64)
    top, count = -1, 0
    blanks = np.empty(cols, dtype=np.int64)
    for t in range(grids.shape[0]):
        grid = grids[t]
        blanks[:] = 0
        for r in range(n):
            if not grid[r].any():
                blanks[r // per_band] += 1
        full = 0
        most = -1
        for b in range(cols):
            if blanks[b] == per_band:
                full += 1
            else:
                most = max(most, blanks[b])
        depth = n if most < 0 else full * per_band + most
        if depth > top:
            top, count = depth, 0
            least[:] = n + 1
        if depth < top or depth == n:
            continue
        for r in range(n):
            if blanks[r // per_band] != most or not grid[r].any():
                continue
            _pattern(grid[r], cols, pattern)
            order = _compare(pattern, least)
            if order < 0:
                least[:] = pattern
                count = 0
            if order <= 0:
                starts[count, 0] = t
                starts[count, 1] = r // per_band
                starts[count, 2] = r
                count += 1
    best[:, :] = n + 1
    best[:top, :] = 0
    if top < n:
        best[top] = least
    return count, top


@kernel
def _prefix(grid, per_band, band, row):
    """Rows of the form up to ``row``: every blank band, then the blank rows of ``band``."""
    n = grid.shape[0]
    prefix = np.empty(n, dtype=np.int64)
    k = 0
    for b in range(n // per_band):
        lo = b * per_band
        if b != band and not grid[lo : lo + per_band].any():
            for r in range(lo, lo + per_band):
                prefix[k] = r
                k += 1
    for r in range(band * per_band, (band + 1) * per_band):
        if not grid[r].any():
            prefix[k] = r
            k += 1
    if row >= 0:
        prefix[k] = row
        k += 1
    return prefix[:k]


@kernel
def _canon_one(grids, rows, cols, perms_c, best, found):
    """Minlex form of one grid (``grids`` holds it and, when transposable, its transpose) into
    ``best`` (n x n labels); ``found`` gets the transform: transpose flag, row order, col order."""
    n = grids.shape[1]
    starts = np.empty((grids.shape[0] * n, 3), dtype=np.int64)
    count, top = _blank_prefixes(grids, rows, best, starts)
    if top == n:  # an empty grid is its own form
        _record(0, np.arange(n), np.arange(n), found)
        return
    counts = np.empty(rows, dtype=np.int64)
    inner_orders = np.empty((rows, perms_c.shape[0]), dtype=np.int64)
    inner_count = np.empty(rows, dtype=np.int64)
    stack_at = np.empty(rows, dtype=np.int64)  # stack placed at each stack position
    order_at = np.empty(rows, dtype=np.int64)  # its order inside (index into inner_orders)
    stack_used = np.zeros(rows, dtype=np.bool_)
    colperm = np.empty(n, dtype=np.int64)
    blank = np.empty(n, dtype=np.bool_)
    ws = np.zeros((WS_ROWS + n, n + 1), dtype=np.int64)
    for f in range(count):
        t, band, first = starts[f, 0], starts[f, 1], starts[f, 2]
        grid = grids[t]
        for r in range(n):
            blank[r] = not grid[r].any()
        prefix = _prefix(grid, rows, band, first)
        _inner_orders(grid[first], cols, perms_c, counts, inner_orders, inner_count)
        ascending = np.sort(counts)
        # depth-first over stack positions: which stack goes there and in which inner order
        pos = 0
        stack_at[0], order_at[0] = -1, -1
        while pos >= 0:
            s, k = stack_at[pos], order_at[pos] + 1
            if s >= 0:
                stack_used[s] = False
            if s < 0 or k == inner_count[s]:
                s, k = s + 1, 0
                while s < rows and (stack_used[s] or counts[s] != ascending[pos]):
                    s += 1
            if s == rows:
                pos -= 1
                continue
            stack_at[pos], order_at[pos] = s, k
            stack_used[s] = True
            for j in range(cols):
                colperm[pos * cols + j] = s * cols + perms_c[inner_orders[s, k], j]
            if pos == rows - 1:
                _search_rows(t, grid, colperm, prefix, rows, blank, best, ws, found)
            elif not _hopeless(grid, colperm, (pos + 1) * cols, prefix, rows, best):
                pos += 1
                stack_at[pos], order_at[pos] = -1, -1


@kernel
def _canon_batch(values, rows, cols, transposable, perms_c, out, found):
    """Minlex forms of a batch of grids (one per row of ``values``)."""
    n = rows * cols
    ntrans = 2 if transposable else 1
    grids = np.empty((ntrans, n, n), dtype=np.int64)
    best = np.empty((n, n), dtype=np.int64)
    for i in range(values.shape[0]):
        square = values[i].reshape(n, n)
        for r in range(n):
            for c in range(n):
                grids[0, r, c] = square[r, c]
                if transposable:
                    grids[1, c, r] = square[r, c]
        _canon_one(grids, rows, cols, perms_c, best, found[i])
        out[i] = best.reshape(-1)


@cache
def _permutations(k: int) -> np.ndarray:
    """All k! orders of range(k), one per row (read-only, shared)."""
    table = np.array(list(itertools.permutations(range(k))), dtype=np.int64)
    table.setflags(write=False)
    return table


@dataclass(frozen=True)
class Canonical:
    """A canonical form and one member of the group that takes the puzzle to it.

    Row ``i`` of the form is row ``rows[i]`` of the puzzle (of its transpose when ``transposed``),
    read in the column order ``cols``, each value ``v`` written as label ``labels[v - 1]``.
    ``geometry`` is the puzzle's; a Jigsaw's ``layout`` is its regions moved the same way and
    named in order of first appearance (None for other variants).
    """

    text: str
    geometry: Geometry
    transposed: bool
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    labels: tuple[int, ...]
    layout: str | None = None

    @property
    def variant(self) -> str:
        """The puzzle's variant: its key names it."""
        return self.geometry.variant

    @property
    def key(self) -> str:
        """The catalog key: the form itself for classic grids (the ids catalogs hold), else the
        variant's name, then a Jigsaw's layout, then the form (``x:...``, ``jigsaw:...:...``), so
        puzzles of two variants never share one."""
        if self.geometry.classic:
            return self.text
        if self.layout is not None:
            return f"{self.variant}:{self.layout}:{self.text}"
        return f"{self.variant}:{self.text}"

    @property
    def form_geometry(self) -> Geometry:
        """The geometry the form is read in (a Jigsaw's with the form's layout)."""
        return form_geometry(self.geometry, self.layout)

    def apply(self, grid: str) -> str:
        """The same transform on another grid of this shape, e.g. the puzzle's solution, which
        becomes the solution of the canonical form."""
        values = parse(grid, self.geometry).values
        moved = _moved(values, self.geometry.n, self.transposed, self.rows, self.cols)
        return to_text(self.form_geometry, np.array((0, *self.labels))[moved])


def _moved(
    values: np.ndarray, n: int, transposed: bool, rows: Sequence[int], cols: Sequence[int]
) -> np.ndarray:
    """A grid's values (row-major) read through the transpose or not, in the order rows, cols."""
    square = values.reshape(n, n)
    if transposed:
        square = square.T
    return square[np.ix_(rows, cols)].reshape(-1)


def _read_turned(geo: Geometry) -> bool:
    """Tall boxes are read through the transpose, as wide ones (a Jigsaw's regions have no box
    shape: its group holds the transpose)."""
    return geo.box_rows > geo.box_cols and "jigsaw" not in geo.parts


def form_geometry(geo: Geometry, layout: str | None = None) -> Geometry:
    """The geometry canonical forms of ``geo`` take: wide boxes (C x R) for tall ones (R x C);
    a Jigsaw's takes the form's ``layout``."""
    if "jigsaw" in geo.parts:
        return geometry(*sorted(geo.shape_tuple), geo.variant, layout)
    return geometry(geo.box_cols, geo.box_rows, geo.variant) if _read_turned(geo) else geo


def _uses_minlex(geo: Geometry) -> bool:
    """Classic grids up to :data:`MINLEX_MAX_SIZE` take the minlex form, whose ids catalogs
    hold; larger grids and every variant take the drawing of their canonical graph."""
    return geo.classic and geo.n <= MINLEX_MAX_SIZE


def _run(values: np.ndarray, geo: Geometry) -> tuple[np.ndarray, np.ndarray]:
    """Minlex forms (count, ncells) and transforms (count, 1 + 2n) of a parsed batch; the
    transforms' transpose flag is set for tall boxes, whose forms read the transposed grids."""
    form_geo = form_geometry(geo)
    turned = _read_turned(geo)
    if turned:
        n = geo.n
        values = np.ascontiguousarray(values.reshape(-1, n, n).transpose(0, 2, 1))
        values = values.reshape(-1, geo.ncells)
    out = np.empty(values.shape, dtype=np.int64)
    found = np.empty((values.shape[0], 1 + 2 * geo.n), dtype=np.int64)
    square = geo.box_rows == geo.box_cols  # square boxes keep their shape under a transpose
    perms = _permutations(form_geo.box_cols)
    _canon_batch(values, form_geo.box_rows, form_geo.box_cols, square, perms, out, found)
    if turned:
        found[:, 0] = 1
    return out, found


def _drawn(values: np.ndarray, geo: Geometry) -> Canonical:
    """The form of one grid by the drawing of its canonical graph (:mod:`engine.canon_graph`)."""
    n = geo.n
    turned = _read_turned(geo)
    square = values.reshape(n, n)
    if turned:
        square = square.T
    drawn_geo = form_geometry(geo) if turned else geo
    source = drawing(np.ascontiguousarray(square).reshape(-1), drawn_geo)
    if turned:  # a cell of the transpose -> the puzzle's cell
        source = (source % n) * n + source // n
    transposed = bool(source[0] // n != source[1] // n)  # the form's first row is a column
    down, across = source[::n], source[:n]
    if transposed:
        return _labelled(values, geo, True, down % n, across // n)
    return _labelled(values, geo, False, down // n, across % n)


def _first_appearance(moved: np.ndarray, n: int) -> np.ndarray:
    """Labels (indexed by value - 1) in order of first appearance in ``moved``; values that never
    appear take the labels left over, in order."""
    seen = list(dict.fromkeys(int(v) for v in moved if v))
    unused = [v for v in range(1, n + 1) if v not in seen]
    labels = np.empty(n, dtype=np.int64)
    labels[np.array(seen + unused, dtype=np.int64) - 1] = np.arange(1, n + 1)
    return labels


def _labelled(
    values: np.ndarray, geo: Geometry, transposed: bool, rows: np.ndarray, cols: np.ndarray
) -> Canonical:
    """The form of a grid moved by (transposed, rows, cols): symbols, and a Jigsaw's regions,
    named in order of first appearance."""
    n = geo.n
    rows, cols = tuple(map(int, rows)), tuple(map(int, cols))
    moved = _moved(values, n, transposed, rows, cols)
    labels = _first_appearance(moved, n)
    layout = None
    if "jigsaw" in geo.parts:
        regions = _moved(geo.box_of + 1, n, transposed, rows, cols)
        layout = to_text(geo, _first_appearance(regions, n)[regions - 1])
    text = to_text(geo, np.concatenate([[0], labels])[moved])
    return Canonical(text, geo, transposed, rows, cols, tuple(map(int, labels)), layout)


def canonical_transform(puzzle: str, box: Box = None) -> Canonical:
    """The canonical form together with a transform that produces it from ``puzzle``."""
    grid = parse(puzzle, box)
    geo = grid.geometry
    if not _uses_minlex(geo):
        return _drawn(grid.values, geo)
    n = geo.n
    _, found = _run(grid.values[None, :].copy(), geo)  # writable, as every batch: one signature
    return _labelled(grid.values, geo, bool(found[0, 0]), found[0, 1 : n + 1], found[0, n + 1 :])


def canonical_many(puzzles: Sequence[str], box: Box = None) -> list[str]:
    """Catalog keys (:attr:`Canonical.key`) of a batch of same-geometry puzzles or full grids:
    for classic grids their canonical forms, up to 25x25 in one kernel call."""
    if not puzzles:
        return []
    values = parse_many(list(puzzles), box)
    geo = infer_geometry(values.shape[1], box)
    if not _uses_minlex(geo):
        return [_drawn(grid, geo).key for grid in values]
    forms, _ = _run(values, geo)
    return [to_text(form_geometry(geo), form) for form in forms]


def canonical(puzzle: str, box: Box = None) -> str:
    """The catalog key of a puzzle or full grid, equal for equivalent puzzles only: for a classic
    grid its canonical form (a puzzle with tall boxes and its wide-box transpose are
    equivalent); a variant's key names the variant (a :class:`~engine.geometry.Geometry` passed
    as ``box`` carries it)."""
    return canonical_many([puzzle], box)[0]
