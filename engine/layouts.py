"""Random Jigsaw layouts: n connected regions of n cells that some complete grid fills.

A layout starts as the boxes and is reshaped by random *trades*: a cell of one region and a cell
of a neighbouring region, each on the border with the other, change sides when both regions stay
connected. Many trades walk far from the boxes (``box_overlap`` measures how far). A layout
that no grid fills exists (a region that is a row's cells but one ...): the counter settles it
within a node budget, and a layout that fails or runs past the budget is drawn again.
"""

from __future__ import annotations

import numpy as np

from engine.geometry import SYMBOLS, Geometry, default_box, geometry
from engine.grids import Seed, rng_from
from engine.search import OUT_OF_BUDGET
from engine.solver import workspace

MAX_ROUNDS = 30  # rounds of one trade tried per cell before a layout is drawn again
MOVED = 0.4  # the trades stop once 40 % of the cells lie outside their region's best box
FILL_BUDGET = 20_000  # branches to find one complete grid of a layout before drawing another
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
        found = workspace(geo).search(empty, 1, np.zeros_like(empty), 1, FILL_BUDGET)
        if found not in (0, OUT_OF_BUDGET):
            return geo
    raise NoLayout(f"no fillable {size}x{size} {variant} layout in {MAX_DRAWS} draws")


def box_overlap(region: np.ndarray, box_rows: int, box_cols: int) -> float:
    """Share of cells lying in the box that holds most of their region: 1.0 for the boxes."""
    n = box_rows * box_cols
    cells = np.arange(n * n)
    box = (cells // n // box_rows) * box_rows + cells % n // box_cols
    counts = np.zeros((n, n), dtype=np.int64)
    np.add.at(counts, (region, box), 1)
    return float(counts.max(axis=1).sum() / (n * n))


def _reshaped(n: int, box_rows: int, box_cols: int, rng: np.random.Generator) -> np.ndarray | None:
    """The boxes after rounds of trades, once far enough from them (None: still too close)."""
    cells = np.arange(n * n)
    region = ((cells // n // box_rows) * box_rows + cells % n // box_cols).astype(np.int32)
    for _ in range(MAX_ROUNDS):
        _trade(region, n, rng)
        if box_overlap(region, box_rows, box_cols) <= 1 - MOVED:
            return region
    return None


def _trade(region: np.ndarray, n: int, rng: np.random.Generator) -> None:
    """One round: n*n trades tried, each kept when both regions stay connected."""
    for _ in range(n * n):
        a = int(rng.integers(n * n))
        others = [b for b in _neighbours(a, n) if region[b] != region[a]]
        if not others:
            continue
        b = others[int(rng.integers(len(others)))]
        # a leaves for b's region; a cell of b's region bordering a's region comes back
        mine, theirs = region[a], region[b]
        back = [
            c
            for c in np.flatnonzero(region == theirs).tolist()
            if c != b and any(region[d] == mine and d != a for d in _neighbours(c, n))
        ]
        if not back:
            continue
        c = back[int(rng.integers(len(back)))]
        region[a], region[c] = theirs, mine
        if not (_connected(region, mine, n) and _connected(region, theirs, n)):
            region[a], region[c] = mine, theirs
    return region


def _neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [
        rr * n + cc
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 0 <= rr < n and 0 <= cc < n
    ]


def _connected(region: np.ndarray, name: int, n: int) -> bool:
    cells = np.flatnonzero(region == name)
    seen, todo = {int(cells[0])}, [int(cells[0])]
    while todo:
        for d in _neighbours(todo.pop(), n):
            if d not in seen and region[d] == name:
                seen.add(d)
                todo.append(d)
    return len(seen) == len(cells)
