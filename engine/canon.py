"""Canonical form of a puzzle under the validity-preserving group, to detect disguised copies.

The group. For an n x n grid with boxes ``R`` rows tall and ``C`` columns wide (n = R*C) there are
``C`` *bands* of ``R`` rows and ``R`` *stacks* of ``C`` columns. These changes keep every valid
puzzle valid (and keep its number of solutions):

* relabelling the symbols (any permutation of 1..n; blanks stay blank);
* permuting the rows inside a band, and permuting the bands;
* permuting the columns inside a stack, and permuting the stacks;
* transposing, when the boxes are square (R == C); a 6x6 grid of 2x3 boxes has no transpose, since
  its transpose has 3x2 boxes.

The order. A grid is read row by row as a sequence of n*n values, a blank reading as 0 and symbol
labels as 1..n, and sequences are compared lexicographically: so a blank sorts below every symbol.
For one arrangement of rows and columns the smallest relabelling numbers the symbols in order of
first appearance (the first symbol met reading row by row becomes 1, the next new one 2, ...).

The form. ``canonical(p)`` is the smallest sequence over the whole group (the *minlex* form),
written as text: ``.`` for blanks and :data:`engine.geometry.SYMBOLS` for labels 1..n. Two puzzles
of one shape are equivalent if and only if their canonical forms are equal. A full grid has a form
too (every cell given), so a puzzle's solution can be compared the same way.

The search (exact, not a heuristic). The first row of the form must have the smallest *pattern*
of any row or, with a transpose, column: its givens pushed right (stacks in ascending order of
their given counts, blanks first inside each stack), then labelled 1, 2, ... So the kernel keeps
only the (transpose, first row) pairs whose pattern is the least, and for each enumerates exactly
the column orders that realise that pattern. For each column order a depth-first search picks the
remaining rows one at a time (rows of the current band, or the first row of a new band), keeping
only the rows whose relabelled text ties the best known row at that depth: a row that is larger
prunes the branch, a smaller one becomes the new best and resets everything below it. Entirely
blank rows of one band are interchangeable, so only one of them is tried.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from numba import njit

from engine.geometry import Geometry
from engine.text import infer_geometry, parse, parse_many, to_text

Box = str | tuple[int, int] | None


@njit(cache=True)
def _compare(a, b):
    """-1, 0 or 1 as sequence ``a`` sorts below, equal to or above ``b``."""
    for i in range(a.shape[0]):
        if a[i] < b[i]:
            return -1
        if a[i] > b[i]:
            return 1
    return 0


@njit(cache=True)
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


@njit(cache=True)
def _allowed_orders(line, rows, cols, perms_c, perms_r, stack_orders, inner_orders, inner_count):
    """The column orders that give ``line`` its least pattern, as allowed stack orders (indices
    into ``perms_r``) and, per stack, allowed orders inside it (indices into ``perms_c``).
    Returns the number of allowed stack orders."""
    counts = np.zeros(rows, dtype=np.int64)
    for c in range(line.shape[0]):
        if line[c] != 0:
            counts[c // cols] += 1
    nstack = 0
    for q in range(perms_r.shape[0]):
        ascending = True
        for s in range(rows - 1):
            if counts[perms_r[q, s]] > counts[perms_r[q, s + 1]]:
                ascending = False
                break
        if ascending:
            stack_orders[nstack] = q
            nstack += 1
    for s in range(rows):
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
    return nstack


@njit(cache=True)
def _apply_row(d, row, grid, colperm, rows_per_band, lab, sym_of, nl, used, band_used, band_at):
    """Place ``row`` at depth ``d``: new symbols get the next labels. Returns the label count."""
    for c in range(colperm.shape[0]):
        v = grid[row, colperm[c]]
        if v != 0 and lab[v] == 0:
            nl += 1
            lab[v] = nl
            sym_of[nl] = v
    used[row] = True
    if d % rows_per_band == 0:
        band_at[d // rows_per_band] = row // rows_per_band
        band_used[row // rows_per_band] = True
    return nl


@njit(cache=True)
def _undo_row(d, row, rows_per_band, lab, sym_of, nl, nl_before, used, band_used):
    """Take ``row`` back from depth ``d``, forgetting the labels it introduced."""
    for label in range(nl_before + 1, nl + 1):
        lab[sym_of[label]] = 0
    used[row] = False
    if d % rows_per_band == 0:
        band_used[row // rows_per_band] = False


@njit(cache=True)
def _expand(d, grid, colperm, rows_per_band, blank, lab, nl, used, band_used, band_at, best, cands):
    """Rows that may come at depth ``d``, compared with the best text known there.

    A row above ``best[d]`` is dropped; one below it becomes ``best[d]`` and marks every deeper
    best row unknown (above any text). Returns how many rows tie ``best[d]`` (kept in ``cands``).
    """
    n = grid.shape[0]
    unknown = n + 1
    if d % rows_per_band == 0:
        lo, hi = 0, n
    else:
        lo = band_at[d // rows_per_band] * rows_per_band
        hi = lo + rows_per_band
    m = 0
    for row in range(lo, hi):
        band = row // rows_per_band
        if used[row] or (d % rows_per_band == 0 and band_used[band]):
            continue
        if blank[row]:
            twin = False
            for k in range(m):
                if blank[cands[d, k]] and cands[d, k] // rows_per_band == band:
                    twin = True
            if twin:
                continue
        order = 0
        new = nl
        for c in range(n):
            v = grid[row, colperm[c]]
            x = 0
            if v != 0:
                x = lab[v]
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
            best[d + 1 :, :] = unknown
            m = 0
        cands[d, m] = row
        m += 1
    return m


@njit(cache=True)
def _search_rows(t, grid, colperm, first, rows_per_band, blank, best, ws, found):
    """Depth-first search over the rows below ``first`` (already row 0) for one column order."""
    n = grid.shape[0]
    lab, sym_of, path, band_at = ws[0], ws[1], ws[2], ws[3]
    nl_before, count, index = ws[4], ws[5], ws[6]
    cands = ws[7:]
    used = np.zeros(n, dtype=np.bool_)
    band_used = np.zeros(n, dtype=np.bool_)
    lab[:] = 0
    nl = _apply_row(
        0, first, grid, colperm, rows_per_band, lab, sym_of, 0, used, band_used, band_at
    )
    path[0] = first
    d = 1
    count[1] = _expand(1, grid, colperm, rows_per_band, blank, lab, nl, used, band_used, band_at,
                       best, cands)  # fmt: skip
    index[1] = 0
    applied = np.zeros(n, dtype=np.bool_)
    while d >= 1:
        if applied[d]:
            _undo_row(d, path[d], rows_per_band, lab, sym_of, nl, nl_before[d], used, band_used)
            nl = nl_before[d]
            applied[d] = False
        if index[d] == count[d]:
            d -= 1
            continue
        row = cands[d, index[d]]
        index[d] += 1
        nl_before[d] = nl
        nl = _apply_row(d, row, grid, colperm, rows_per_band, lab, sym_of, nl, used, band_used,
                        band_at)  # fmt: skip
        path[d] = row
        applied[d] = True
        if d == n - 1:  # a complete arrangement equal to the best: remember how it was made
            found[0] = t
            found[1 : n + 1] = path[:n]
            found[n + 1 :] = colperm
            continue
        d += 1
        count[d] = _expand(d, grid, colperm, rows_per_band, blank, lab, nl, used, band_used,
                           band_at, best, cands)  # fmt: skip
        index[d] = 0
    _undo_row(0, first, rows_per_band, lab, sym_of, nl, 0, used, band_used)


@njit(cache=True)
def _canon_one(grids, rows, cols, perms_c, perms_r, best, found):
    """Minlex form of one grid (``grids`` holds it and, when transposable, its transpose) into
    ``best`` (n x n labels); ``found`` gets the transform: transpose flag, row order, col order."""
    n = grids.shape[1]
    ntrans = grids.shape[0]
    best[:, :] = n + 1
    pattern = np.empty(n, dtype=np.int64)
    firsts = np.empty((ntrans * n, 2), dtype=np.int64)
    nfirst = 0
    for t in range(ntrans):
        for r in range(n):
            _pattern(grids[t, r], cols, pattern)
            order = _compare(pattern, best[0])
            if order < 0:
                best[0, :] = pattern
                nfirst = 0
            if order <= 0:
                firsts[nfirst, 0] = t
                firsts[nfirst, 1] = r
                nfirst += 1
    stack_orders = np.empty(perms_r.shape[0], dtype=np.int64)
    inner_orders = np.empty((rows, perms_c.shape[0]), dtype=np.int64)
    inner_count = np.empty(rows, dtype=np.int64)
    digits = np.zeros(rows + 1, dtype=np.int64)
    colperm = np.empty(n, dtype=np.int64)
    blank = np.empty(n, dtype=np.bool_)
    ws = np.zeros((7 + n, n + 1), dtype=np.int64)  # label maps, path, counters, candidates
    for f in range(nfirst):
        t, first = firsts[f, 0], firsts[f, 1]
        grid = grids[t]
        for r in range(n):
            blank[r] = True
            for c in range(n):
                if grid[r, c] != 0:
                    blank[r] = False
        nstack = _allowed_orders(grid[first], rows, cols, perms_c, perms_r, stack_orders,
                                 inner_orders, inner_count)  # fmt: skip
        digits[:] = 0
        while True:  # every (stack order, order inside each stack) by a mixed-radix counter
            q = stack_orders[digits[0]]
            for pos in range(rows):
                s = perms_r[q, pos]
                inner = perms_c[inner_orders[s, digits[s + 1]]]
                for j in range(cols):
                    colperm[pos * cols + j] = s * cols + inner[j]
            _search_rows(t, grid, colperm, first, rows, blank, best, ws, found)
            k = 0
            while k <= rows:
                digits[k] += 1
                limit = nstack if k == 0 else inner_count[k - 1]
                if digits[k] < limit:
                    break
                digits[k] = 0
                k += 1
            if k > rows:
                break


@njit(cache=True)
def _canon_batch(values, rows, cols, transposable, perms_c, perms_r, out, found):
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
        _canon_one(grids, rows, cols, perms_c, perms_r, best, found[i])
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
    """

    text: str
    geometry: Geometry
    transposed: bool
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    labels: tuple[int, ...]

    def apply(self, grid: str) -> str:
        """The same transform on another grid of this shape, e.g. the puzzle's solution, which
        becomes the solution of the canonical form."""
        values = parse(grid, self.geometry.shape).values
        return to_text(self.geometry, self._move(values, np.array((0, *self.labels))))

    def _move(self, values: np.ndarray, labels: np.ndarray) -> np.ndarray:
        square = values.reshape(self.geometry.n, self.geometry.n)
        if self.transposed:
            square = square.T
        return labels[square[np.ix_(self.rows, self.cols)]].reshape(-1)


def _kernel_args(geo: Geometry) -> tuple:
    return (
        geo.box_rows,
        geo.box_cols,
        geo.box_rows == geo.box_cols,
        _permutations(geo.box_cols),
        _permutations(geo.box_rows),
    )


def _run(values: np.ndarray, geo: Geometry) -> tuple[np.ndarray, np.ndarray]:
    """Forms (count, ncells) and transforms (count, 1 + 2n) of a parsed batch."""
    out = np.empty(values.shape, dtype=np.int64)
    found = np.empty((values.shape[0], 1 + 2 * geo.n), dtype=np.int64)
    _canon_batch(values, *_kernel_args(geo), out, found)
    return out, found


def canonical_many(puzzles: Sequence[str], box: Box = None) -> list[str]:
    """Canonical forms of a batch of same-shape puzzles (or full grids), in one kernel call."""
    if not puzzles:
        return []
    values = parse_many(list(puzzles), box)
    geo = infer_geometry(values.shape[1], box)
    forms, _ = _run(values, geo)
    return [to_text(geo, form) for form in forms]


def canonical(puzzle: str, box: Box = None) -> str:
    """The canonical (minlex) form of a puzzle or full grid: equal for equivalent puzzles only."""
    return canonical_many([puzzle], box)[0]


def canonical_transform(puzzle: str, box: Box = None) -> Canonical:
    """The canonical form together with a transform that produces it from ``puzzle``."""
    grid = parse(puzzle, box)
    geo = grid.geometry
    n = geo.n
    forms, found = _run(grid.values[None, :], geo)
    result = Canonical(
        text=to_text(geo, forms[0]),
        geometry=geo,
        transposed=bool(found[0, 0]),
        rows=tuple(int(r) for r in found[0, 1 : n + 1]),
        cols=tuple(int(c) for c in found[0, n + 1 :]),
        labels=(),
    )
    # labels in order of first appearance; symbols the puzzle never uses take the labels left over
    moved = result._move(grid.values, np.arange(n + 1))
    seen = list(dict.fromkeys(int(v) for v in moved if v))
    unused = [v for v in range(1, n + 1) if v not in seen]
    labels = np.empty(n, dtype=np.int64)
    labels[np.array(seen + unused, dtype=np.int64) - 1] = np.arange(1, n + 1)
    return Canonical(result.text, geo, result.transposed, result.rows, result.cols, tuple(labels))
