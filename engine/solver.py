"""Public solving API: strings in, strings and counts out.

Counting runs the DFS kernel of ``engine.search``. From 16x16 up it gets a branch budget, and a
grid that runs past it is finished by the SAT counter of ``engine.sat`` (CaDiCaL, from python-sat),
which learns from its dead ends: hard competition grids (the MiniZinc 25x25) take the DFS millions
of branches. A grid whose givens leave no single gets a much smaller budget: those are the ones
the DFS cannot finish. Killers fall back at any size (their cages, not givens, hold the clues).
Other smaller grids never fall back: the DFS settles the hardest known 9x9
puzzles fast, and 9x9 counting stays exactly as it was.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable

import numpy as np

from engine import sat
from engine.geometry import Box, Geometry, kept_for
from engine.search import OUT_OF_BUDGET, Workspace
from engine.text import Grid, InvalidPuzzle, find_clash, infer_geometry, parse, parse_many, to_text


class NoSolution(ValueError):
    """The puzzle is well formed but has no solution."""


class MultipleSolutions(ValueError):
    """The puzzle has more than one solution, so it is not a proper Sudoku."""


SAT_FROM = 16  # grids this size and up fall back on the SAT counter when the DFS runs long
# DFS branches before SAT takes over: about 25 ms on a 16x16. With STUCK_BUDGET below, the
# competition 16x16 set takes 2.0 s of CPU with 1,000 or 2,000, 2.5 s with 500, 3.0 s with 300
# (busy machine, bench/sat_bench.py --budgets), and 10.6 s with no fallback
DFS_BUDGET = 1_000
# the budget of a grid whose givens leave no single (no cell down to one value, no value down to
# one place in a unit): in the 16x16 set those are the 12 grids that need 12,000 branches or more
# (the others need 0-2,458), so the 1,000 branches each used to spend before SAT were wasted
# (0.2-0.3 s of CPU on the set). The MiniZinc 25x25 has singles, so it keeps DFS_BUDGET.
STUCK_BUDGET = 50
# a Killer's DFS budget, at any size: Solo's killers take 20-200 branches (0.2-0.4 ms), while
# a random layout with many solutions took one 139,000 (0.28 s) where SAT takes about 10 ms
KILLER_DFS_BUDGET = 2_000
# the SAT counter keeps one blocking clause (one literal per open cell) per solution found:
# past this many literals in all, counting stays with the DFS, which enumerates without memory
SAT_BLOCKING_LITERALS = 1 << 22

_local = threading.local()  # one workspace per geometry per thread (Dask workers use threads)


def workspace(geo: Geometry) -> Workspace:
    """This thread's reusable search buffers for a geometry."""
    return kept_for(_local.__dict__.setdefault("spaces", OrderedDict()), geo, Workspace)


def dfs_budget(geo: Geometry, limit: int) -> int:
    """Branches the DFS may try before the SAT counter takes over (0: no limit, no fallback)."""
    if limit * geo.ncells * geo.n > SAT_BLOCKING_LITERALS:
        return 0
    if geo.cages:
        return KILLER_DFS_BUDGET
    return DFS_BUDGET if geo.n >= SAT_FROM else 0


def dfs_budgets(geo: Geometry, values: np.ndarray, limit: int) -> np.ndarray:
    """Per grid (rows of ``values``), the branches the DFS may try before SAT (as ``dfs_budget``),
    :data:`STUCK_BUDGET` for a grid its givens leave without a single."""
    budget = dfs_budget(geo, limit)
    budgets = np.full(values.shape[0], budget, dtype=np.int64)
    if budget and not geo.cages:  # a Killer's cages are its clues: most have no givens
        stuck = sat.without_singles(values, geo.peers, geo.units, geo.n)
        budgets[stuck] = min(budget, STUCK_BUDGET)
    return budgets


def count_grid(grid: Grid, limit: int = 2) -> tuple[int, np.ndarray]:
    """Count solutions of a parsed grid up to ``limit``; also return the first solution found."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    solution = np.zeros(grid.geometry.ncells, dtype=np.uint8)
    space = workspace(grid.geometry)
    budget = int(dfs_budgets(grid.geometry, grid.values[None], limit)[0])
    count = space.search(grid.values, limit, solution, max_nodes=budget)
    if count == OUT_OF_BUDGET:
        count = sat.count(grid.values, space.tables, limit, solution)
    return count, solution


def guesses(grid: Grid, seed: int = 0) -> int:
    """Branches the counter tries to settle uniqueness (limit 2): how much trial and error is left.

    ``seed`` non-zero randomises the branch order, so the mean over seeds is a smooth measure.
    """
    solution = np.zeros(grid.geometry.ncells, dtype=np.uint8)
    space = workspace(grid.geometry)
    space.search(grid.values, 2, solution, seed)
    return space.branches


def count_solutions(puzzle: str, limit: int = 2, box: Box = None) -> int:
    """Number of solutions, counted up to ``limit`` (2 answers "is it unique?")."""
    return count_grid(parse(puzzle, box), limit)[0]


def solve(puzzle: str, box: Box = None) -> str:
    """The unique solution; raises :class:`NoSolution` or :class:`MultipleSolutions` otherwise."""
    grid = parse(puzzle, box)
    count, solution = count_grid(grid, 2)
    if count == 0:
        raise NoSolution(f"puzzle has no solution: {grid.to_text()}")
    if count > 1:
        raise MultipleSolutions(f"puzzle has more than one solution: {grid.to_text()}")
    return to_text(grid.geometry, solution)


def count_many(
    puzzles: Iterable[str],
    limit: int = 2,
    box: Box = None,
    solutions: bool = False,
) -> np.ndarray | tuple[np.ndarray, list[str]]:
    """Count a batch of same-size puzzles in one kernel call.

    Returns the counts (capped at ``limit``) as an int64 array, plus the first solution of each
    puzzle as text ('' where there is none) when ``solutions`` is true. Raises
    :class:`InvalidPuzzle` naming the first bad puzzle by its position in the batch.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    batch = list(puzzles)
    if not batch:
        empty = np.zeros(0, dtype=np.int64)
        return (empty, []) if solutions else empty
    values = parse_many(batch, box)
    geo = infer_geometry(values.shape[1], box)
    space = workspace(geo)
    budgets = dfs_budgets(geo, values, limit)
    if (budgets == budgets[0]).all():  # one kernel call on the batch as it is (always below 16x16)
        counts, found = space.count_batch(values, limit, int(budgets[0]))
    else:  # one per budget
        counts = np.zeros(values.shape[0], dtype=np.int64)
        found = np.zeros_like(values)
        for budget in np.unique(budgets):
            rows = np.flatnonzero(budgets == budget)
            counts[rows], found[rows] = space.count_batch(values[rows], limit, int(budget))
    for index in np.flatnonzero(counts == OUT_OF_BUDGET):
        counts[index] = sat.count(values[index], space.tables, limit, found[index])
    for index in np.flatnonzero(counts == 0):
        clash = find_clash(geo, values[index])
        if clash:
            raise InvalidPuzzle(f"puzzle #{index}: {clash}")
    if not solutions:
        return counts
    texts = [to_text(geo, row) if count else "" for row, count in zip(found, counts, strict=True)]
    return counts, texts
