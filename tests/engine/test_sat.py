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
from engine.search import OUT_OF_BUDGET, Workspace
from tests import reference
from tests.conftest import read_puzzles
from tests.helpers import grid_text, partial_grids

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
        puzzles.append(grid_text([v if rnd.random() < keep else 0 for v in values]))
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


def has_single(geo: engine.Geometry, values: list[int]) -> bool:
    """A plain scan: an open cell its peers' givens leave one value, or a value a unit lacks
    that one of its open cells alone may take."""
    allowed = [
        set() if v else set(range(1, geo.n + 1)) - {values[p] for p in geo.peers[cell]}
        for cell, v in enumerate(values)
    ]
    if any(len(values_left) == 1 for values_left in allowed):
        return True
    return any(
        sum(value in allowed[cell] for cell in unit) == 1
        for unit in geo.units
        for value in range(1, geo.n + 1)
    )


@settings(max_examples=150, deadline=None)
@given(st.lists(partial_grids([(2, 2), (2, 3), (3, 3), (4, 4)]), min_size=1, max_size=4))
def test_without_singles_matches_a_plain_scan(cases) -> None:
    """Grids of one shape in a batch, split into one-row steps or not: the same answer per grid
    as a cell-by-cell scan (clashing grids may get either)."""
    box_rows, box_cols, _ = cases[0]
    geo = engine.geometry(box_rows, box_cols)
    rows = [
        values for shape_r, shape_c, values in cases if (shape_r, shape_c) == (box_rows, box_cols)
    ]
    batch = np.array(rows, dtype=np.uint8)
    stuck = sat.without_singles(batch, geo.peers, geo.units, geo.n)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sat, "ROWS_AT_ONCE", 1)
        assert (sat.without_singles(batch, geo.peers, geo.units, geo.n) == stuck).all()
    for values, flag in zip(rows, stuck, strict=True):
        grid = np.array(values, dtype=np.uint8)
        if sat.candidates(grid, geo.peers, geo.n) is not None:
            assert flag == (not has_single(geo, values))


def test_grids_without_singles_go_to_sat_early(shared_data) -> None:
    """The 16x16 competition set: the grids whose givens leave no single get the small budget,
    and each of them runs past the full one in the DFS (what the small budget rests on); every
    grid still counts 1 through the engine, with a valid solution."""
    puzzles = read_puzzles(shared_data / "sudoku16x16.tsv")
    values = engine.text.parse_many(puzzles, None)
    geo = engine.geometry(4, 4)
    budgets = solver.dfs_budgets(geo, values, 2)
    stuck = np.flatnonzero(budgets == solver.STUCK_BUDGET)
    assert stuck.size and (budgets[budgets != solver.STUCK_BUDGET] == solver.DFS_BUDGET).all()
    space = Workspace(geo)
    for index in stuck:
        grid = values[index]
        assert space.search(grid, 2, grid.copy(), max_nodes=solver.DFS_BUDGET) == OUT_OF_BUDGET
    counts, solutions = engine.count_many(puzzles, 2, solutions=True)
    assert (counts == 1).all()
    for grid, found in zip(values, solutions, strict=True):
        assert_valid_completion(geo, grid, engine.parse(found).values)
