"""The SAT counter (python-sat) against the DFS and the reference; the fallback hook; the MiniZinc
25x25."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import sat, solver
from engine.search import Workspace
from tests import reference
from tests.conftest import read_puzzles
from tests.engine.test_counter import partial_grids, text

SHAPES = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)]
REFERENCE_UP_TO = 9  # the reference backtracker is too slow beyond 9x9


def assert_valid_completion(geo: engine.Geometry, givens: np.ndarray, solution: np.ndarray) -> None:
    """Every unit holds 1..n once and every given is kept (checked without the kernels)."""
    units = np.sort(solution[geo.units], axis=1)
    assert (units == np.arange(1, geo.n + 1)).all()
    assert ((givens == 0) | (givens == solution)).all()


@settings(max_examples=300, deadline=None)
@given(partial_grids(SHAPES), st.sampled_from([1, 2, 5, 20]))
def test_sat_counts_agree_with_dfs_and_reference(case, limit: int) -> None:
    box_rows, box_cols, values = case
    geo = engine.geometry(box_rows, box_cols)
    grid = np.array(values, dtype=np.uint8)
    space = Workspace(geo)
    expected = space.search(grid, limit, np.zeros_like(grid))
    if geo.n <= REFERENCE_UP_TO:
        assert reference.count(values, geo.n, box_rows, box_cols, limit) == expected
    solution = np.zeros_like(grid)
    assert sat.count(grid, space.tables, limit, solution) == expected
    if expected:
        assert_valid_completion(geo, grid, solution)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(3, 3), (3, 4), (4, 4)]), st.randoms(use_true_random=False))
def test_fallback_counts_what_the_dfs_counts(shape: tuple[int, int], rnd: random.Random) -> None:
    """With a one-branch budget, every search that branches ends in SAT (both entry points)."""
    box_rows, box_cols = shape
    geo = engine.geometry(box_rows, box_cols)
    puzzles = []
    for _ in range(3):
        full = engine.random_grid(geo.n, seed=rnd.getrandbits(32), box=shape)
        values = [int(v) for v in engine.parse(full, shape).values]
        keep = rnd.uniform(0.45, 0.7)
        puzzles.append(text([v if rnd.random() < keep else 0 for v in values]))
    space = Workspace(geo)
    expected = [
        space.search(engine.parse(p, shape).values, 3, np.zeros(geo.ncells, np.uint8))
        for p in puzzles
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver, "SAT_FROM", 9)
        patch.setattr(solver, "DFS_BUDGET", 1)
        counts, solutions = engine.count_many(puzzles, 3, box=shape, solutions=True)
        assert counts.tolist() == expected
        assert [engine.count_solutions(p, 3, box=shape) for p in puzzles] == expected
    for puzzle, count, found in zip(puzzles, counts, solutions, strict=True):
        if count:
            givens = engine.parse(puzzle, shape).values
            assert_valid_completion(geo, givens, engine.parse(found, shape).values)


@settings(max_examples=100, deadline=None)
@given(partial_grids([(2, 2), (2, 3)]))
def test_sat_enumerates_distinct_valid_solutions(case) -> None:
    """Past the first solution, blocking clauses make each next one new: as many distinct valid
    completions as the reference counts, the first of them the one ``count`` reports."""
    box_rows, box_cols, values = case
    geo = engine.geometry(box_rows, box_cols)
    grid = np.array(values, dtype=np.uint8)
    space = Workspace(geo)
    limit = 50
    found = list(sat.solutions(grid, space.tables, limit))
    assert len(found) == reference.count(values, geo.n, box_rows, box_cols, limit)
    assert len({bytes(solution) for solution in found}) == len(found)
    for solution in found:
        assert_valid_completion(geo, grid, solution)
    first = np.zeros_like(grid)
    assert sat.count(grid, space.tables, limit, first) == len(found)
    if found:
        assert (first == found[0]).all()


def test_sat_counts_many_solutions_of_a_16x16() -> None:
    """A 16x16 with dozens of solutions (three rows of a full grid blanked), all found by SAT:
    distinct, valid, as many as the DFS counts; a smaller limit cuts the count off."""
    geo = engine.geometry(4, 4)
    grid = engine.parse(engine.random_grid(16, seed=0)).values.copy()
    grid[geo.units[[0, 1, 4]]] = 0
    space = Workspace(geo)
    expected = space.search(grid, 1000, np.zeros_like(grid))
    assert expected == 36
    found = list(sat.solutions(grid, space.tables, 1000))
    assert len({bytes(solution) for solution in found}) == len(found) == expected
    for solution in found:
        assert_valid_completion(geo, grid, solution)
    solution = np.zeros_like(grid)
    assert sat.count(grid, space.tables, 1000, solution) == expected
    assert sat.count(grid, space.tables, expected - 1, solution) == expected - 1
    assert_valid_completion(geo, grid, solution)


def test_huge_limits_stay_with_the_dfs() -> None:
    """Blocking clauses cost memory per solution, so large limits never reach SAT."""
    geo = engine.geometry(4, 4)
    assert solver.dfs_budget(geo, 2) == solver.DFS_BUDGET
    assert solver.dfs_budget(geo, 10**6) == 0
    assert solver.dfs_budget(engine.geometry(3, 3), 2) == 0
    assert engine.count_solutions("." * 256, limit=10**5) == 10**5


def test_minizinc_25x25_is_unique(shared_data) -> None:
    """The MiniZinc Challenge instance: the DFS runs past millions of branches, SAT settles it
    (about 2.5 s of CPU; finding the solution alone, with limit 1, about 1.5 s)."""
    puzzle = read_puzzles(shared_data / "sudoku25x25.txt")[0]
    assert engine.count_solutions(puzzle) == 1
    grid = engine.parse(puzzle)
    count, solution = solver.count_grid(grid, 1)
    assert count == 1
    assert_valid_completion(grid.geometry, grid.values, solution)
