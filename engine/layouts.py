"""Random Jigsaw layouts: n connected regions of n cells that some complete grid fills.

A layout starts as the boxes and is reshaped by random *trades* (a numba kernel): a cell of one
region and a cell of a neighbouring region, each on the border with the other, change sides when
both regions stay connected. Many trades walk far from the boxes (``box_overlap`` measures how
far). A layout that no grid fills exists (a region that is a row's cells but one ...): the
counter looks for one grid within a branch budget, and a layout that fails or runs past it is
drawn again (measured on 9x9: 25 branches a cell fill about 83 % of layouts in 1 ms, 60 a cell
85 % in 3 ms; 12x12 layouts fill less often, and 16x16 ones seldom: seconds a layout).
"""

from __future__ import annotations

import numpy as np

from engine.geometry import SYMBOLS, Geometry, default_box, geometry
from engine.grids import Seed, rng_from
from engine.jit import kernel
from engine.search import OUT_OF_BUDGET, next_random
from engine.solver import workspace

MAX_ROUNDS = 30  # rounds of one trade tried per cell before a layout is drawn again
MOVED = 0.4  # the trades stop once 40 % of the cells lie outside their region's best box
FILL_BRANCHES_PER_CELL = 25  # the budget to find one complete grid before drawing another
MAX_DRAWS = 200


class NoLayout(RuntimeError):
    """No fillable layout was found in MAX_DRAWS draws (never seen for sizes 4 to 16)."""


def random_layout(size: int, *, seed: Seed, variant: str = "jigsaw") -> Geometry:
    """A random Jigsaw geometry of ``size`` (any size with a box shape) whose regions are
    connected, far from boxes, and filled by at least one complete grid of ``variant`` (which
    must contain jigsaw, e.g. ``jigsaw+x``)."""
    rng = rng_from(seed)
    box_rows, box_cols = default_box(size)
    for _ in range(MAX_DRAWS):
        region = _reshaped(size, box_rows, box_cols, rng)
        if region is None:
            continue
        layout = "".join(SYMBOLS[r] for r in region)
        geo = geometry(box_rows, box_cols, variant, layout)
        empty = np.zeros(geo.ncells, dtype=np.uint8)
        budget = FILL_BRANCHES_PER_CELL * geo.ncells
        found = workspace(geo).search(empty, 1, np.zeros_like(empty), 1, budget)
        if found not in (0, OUT_OF_BUDGET):
            return geo
    raise NoLayout(f"no fillable {size}x{size} {variant} layout in {MAX_DRAWS} draws")


def box_overlap(region: np.ndarray, box_rows: int, box_cols: int) -> float:
    """Share of cells lying in the box that holds most of their region: 1.0 for the boxes."""
    n = box_rows * box_cols
    box = geometry(box_rows, box_cols).box_of
    counts = np.zeros((n, n), dtype=np.int64)
    return _overlap(np.asarray(region, dtype=np.int32), box.astype(np.int32), n, counts)


def _reshaped(n: int, box_rows: int, box_cols: int, rng: np.random.Generator) -> np.ndarray | None:
    """The boxes after rounds of trades, once far enough from them (None: still too close)."""
    boxes = geometry(box_rows, box_cols).box_of.astype(np.int32)
    region = boxes.copy()  # the boxes to start from
    stream = np.array([rng.integers(1, 2**63)], dtype=np.uint64)
    scratch = np.empty((3, n * n), dtype=np.int32)
    counts = np.empty((n, n), dtype=np.int64)
    return region if _trade_rounds(region, boxes, n, stream, scratch, counts) else None


@kernel
def _trade_rounds(region, boxes, n, stream, scratch, counts):
    """Up to MAX_ROUNDS rounds of trades, until the regions lie far enough from the ``boxes``
    (True) or the rounds run out (False)."""
    for _ in range(MAX_ROUNDS):
        trade_round(region, n, stream, scratch)
        if _overlap(region, boxes, n, counts) <= 1 - MOVED:
            return True
    return False


@kernel
def _overlap(region, boxes, n, counts):
    """:func:`box_overlap` of ``region`` against ``boxes`` (``counts``: n x n scratch)."""
    counts[:, :] = 0
    for cell in range(n * n):
        counts[region[cell], boxes[cell]] += 1
    kept = 0
    for r in range(n):
        kept += counts[r].max()
    return kept / (n * n)


@kernel
def trade_round(region, n, stream, scratch):
    """One round: n*n trades tried (random numbers from ``stream``), each kept when both regions
    stay connected. ``scratch`` holds three rows of n*n ints (candidates, search stack, seen)."""
    back, stack, seen = scratch[0], scratch[1], scratch[2]
    for _ in range(n * n):
        a = int(next_random(stream) % np.uint64(n * n))
        b = _random_neighbour_outside(region, a, n, stream)
        if b < 0:
            continue
        mine, theirs = region[a], region[b]
        count = 0  # cells of b's region, b aside, that border a's region elsewhere than at a
        for c in range(n * n):
            if region[c] == theirs and c != b and _borders(region, c, mine, a, n):
                back[count] = c
                count += 1
        if count == 0:
            continue
        c = back[int(next_random(stream) % np.uint64(count))]
        region[a], region[c] = theirs, mine
        if not (_connected(region, a, n, stack, seen) and _connected(region, c, n, stack, seen)):
            region[a], region[c] = mine, theirs


@kernel(inline="always")
def _random_neighbour_outside(region, a, n, stream):
    """A random orthogonal neighbour of ``a`` in another region, or -1."""
    options = np.empty(4, dtype=np.int64)
    count = 0
    r, c = a // n, a % n
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < n and 0 <= cc < n and region[rr * n + cc] != region[a]:
            options[count] = rr * n + cc
            count += 1
    if count == 0:
        return -1
    return options[int(next_random(stream) % np.uint64(count))]


@kernel(inline="always")
def _borders(region, cell, name, other_than, n):
    """True when ``cell`` has an orthogonal neighbour in region ``name`` besides ``other_than``."""
    r, c = cell // n, cell % n
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < n and 0 <= cc < n:
            d = rr * n + cc
            if d != other_than and region[d] == name:
                return True
    return False


@kernel
def _connected(region, start, n, stack, seen):
    """True when every cell of ``start``'s region is reachable from ``start``."""
    name = region[start]
    seen[:] = 0
    seen[start] = 1
    stack[0] = start
    top, reached = 1, 1
    while top:
        top -= 1
        cell = stack[top]
        r, c = cell // n, cell % n
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < n and 0 <= cc < n:
                d = rr * n + cc
                if not seen[d] and region[d] == name:
                    seen[d] = 1
                    stack[top] = d
                    top += 1
                    reached += 1
    return reached == n
