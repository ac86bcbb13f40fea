"""The numba counter against the slow reference, invariances, golden counts and public sets."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import engine
from engine.search import Workspace, search_except
from engine.solver import guesses
from tests import reference
from tests.conftest import TEST_DATA, read_puzzles
from tests.helpers import clash_free, grid_text, partial_grids


@settings(max_examples=300, deadline=None)
@given(partial_grids(), st.sampled_from([1, 2, 5]))
def test_counter_agrees_with_reference(case: tuple[int, int, list[int]], limit: int) -> None:
    box_rows, box_cols, values = case
    n = box_rows * box_cols
    expected = reference.count(values, n, box_rows, box_cols, limit)
    puzzle = grid_text(values)
    grid = engine.Grid(engine.geometry(box_rows, box_cols), np.array(values, dtype=np.uint8))
    if engine.text.find_clash(grid.geometry, grid.values):
        assert expected == 0
        with pytest.raises(engine.InvalidPuzzle):
            engine.count_solutions(puzzle, limit, box=(box_rows, box_cols))
        return
    assert engine.count_solutions(puzzle, limit, box=(box_rows, box_cols)) == expected
    assert engine.count_many([puzzle], limit, box=(box_rows, box_cols))[0] == expected


def relabel(values: list[int], rnd: random.Random, n: int) -> list[int]:
    labels = list(range(1, n + 1))
    rnd.shuffle(labels)
    return [labels[v - 1] if v else 0 for v in values]


def permute_rows_in_band(values: list[int], rnd: random.Random, box_rows: int, n: int) -> list[int]:
    band = rnd.randrange(n // box_rows)
    rows = list(range(n))
    inner = rows[band * box_rows : (band + 1) * box_rows]
    rnd.shuffle(inner)
    rows[band * box_rows : (band + 1) * box_rows] = inner
    return [values[r * n + c] for r in rows for c in range(n)]


@settings(max_examples=150, deadline=None)
@given(partial_grids(), st.randoms(use_true_random=False))
def test_count_is_invariant_under_relabelling_and_row_swaps(case, rnd: random.Random) -> None:
    box_rows, box_cols, values = case
    n = box_rows * box_cols
    assume(clash_free(case))
    box = (box_rows, box_cols)
    base = engine.count_solutions(grid_text(values), 20, box=box)
    assert engine.count_solutions(grid_text(relabel(values, rnd, n)), 20, box=box) == base
    moved = permute_rows_in_band(values, rnd, box_rows, n)
    assert engine.count_solutions(grid_text(moved), 20, box=box) == base


def golden_cases() -> list[tuple[str, int, str]]:
    cases = []
    for line in (TEST_DATA / "golden_counts.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, count, solution = line.split(":")
            cases.append((puzzle, int(count), solution))
    return cases


def test_golden_file_covers_zero_one_and_many() -> None:
    counts = {count for _, count, _ in golden_cases()}
    assert 0 in counts and 1 in counts and any(c > 1 for c in counts)


@pytest.mark.parametrize(("puzzle", "count", "solution"), golden_cases())
def test_golden_counts(puzzle: str, count: int, solution: str) -> None:
    assert engine.count_solutions(puzzle, limit=count + 1) == count
    if count == 1:
        assert engine.solve(puzzle) == solution
    elif count == 0:
        with pytest.raises(engine.NoSolution):
            engine.solve(puzzle)
    else:
        with pytest.raises(engine.MultipleSolutions):
            engine.solve(puzzle)
        counts, found = engine.count_many([puzzle], limit=count + 1, solutions=True)
        assert counts[0] == count
        assert engine.count_solutions(found[0]) == 1  # a real solution, consistent with givens
        assert all(g in (".", s) for g, s in zip(puzzle, found[0], strict=True))


def assert_unique_and_valid(puzzles: list[str]) -> None:
    counts, solutions = engine.count_many(puzzles, limit=2, solutions=True)
    assert (counts == 1).all(), f"{int((counts != 1).sum())} puzzles are not unique"
    geo = engine.parse(puzzles[0]).geometry
    given = engine.text.parse_many(puzzles)
    solved = engine.text.parse_many(solutions)
    # every unit of every solution holds 1..n once (checked by sorting, independent of the kernel)
    units = np.sort(solved[:, geo.units], axis=2)
    assert (units == np.arange(1, geo.n + 1)).all()
    assert ((given == 0) | (given == solved)).all()


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    ["17_clue.txt", "magictour_top1465.txt", "forum_hardest_1106.txt"],
)
def test_public_sets_are_unique(shared_data, name: str) -> None:
    assert_unique_and_valid(read_puzzles(shared_data / name))


@pytest.mark.slow
def test_multisolution_set_counts_at_least_two(shared_data) -> None:
    counts = engine.count_many(read_puzzles(shared_data / "serg_benchmark_multisolution.txt"))
    assert (counts == 2).all()


def test_solve_errors_name_the_problem() -> None:
    with pytest.raises(engine.MultipleSolutions, match="more than one solution"):
        engine.solve("." * 81)
    grid = engine.random_grid(9, seed=5)
    broken = "." + grid[1:]  # one blank: unique, and solve gives the grid back
    assert engine.solve(broken) == grid
    with pytest.raises(engine.InvalidPuzzle, match="given twice"):
        engine.solve(grid[1] + grid[1:])


def test_count_many_reports_bad_puzzles_by_position() -> None:
    good = engine.random_grid(9, seed=1)
    with pytest.raises(engine.InvalidPuzzle, match=r"puzzle #1: .*index 3 \(r1c4\)"):
        engine.count_many([good, good[:3] + "x" + good[4:]])
    with pytest.raises(engine.InvalidPuzzle, match=r"puzzle #2: .*given twice in row 1"):
        engine.count_many([good, good, good[1] + good[1:]])
    with pytest.raises(engine.InvalidPuzzle, match="puzzle #1: has 80 symbols"):
        engine.count_many([good, good[:80]])
    assert engine.count_many([]).shape == (0,)


def test_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="limit"):
        engine.count_solutions("." * 16, limit=0)


def test_guesses_are_deterministic_and_zero_for_singles_only() -> None:
    grid = engine.parse(engine.random_grid(9, seed=3))
    assert guesses(grid) == 0  # a full grid needs no branch
    hard = engine.parse(
        "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6"
    )
    assert guesses(hard) == guesses(hard) > 0


@settings(max_examples=200, deadline=None)
@given(partial_grids(), st.sampled_from([1, 2, 5]))
def test_alldifferent_filtering_agrees_with_reference(case, limit: int) -> None:
    """Matching-based filtering (on by default from 16x16) is forced on for small grids here."""
    box_rows, box_cols, values = case
    geo = engine.geometry(box_rows, box_cols)
    grid = np.array(values, dtype=np.uint8)
    assume(clash_free(case))
    expected = reference.count(values, geo.n, box_rows, box_cols, limit)
    solution = np.zeros(geo.ncells, dtype=np.uint8)
    assert Workspace(geo, alldifferent=True).search(grid, limit, solution) == expected


@settings(max_examples=200, deadline=None)
@given(partial_grids(), st.sampled_from([1, 2, 5]), st.randoms(use_true_random=False))
def test_search_except_counts_the_solutions_without_a_value(case, limit: int, rnd) -> None:
    """search_except counts what the reference counts over the cell's other values."""
    box_rows, box_cols, values = case
    geo = engine.geometry(box_rows, box_cols)
    blanks = [cell for cell, v in enumerate(values) if v == 0]
    assume(blanks and clash_free(case))
    cell, value = rnd.choice(blanks), rnd.randint(1, geo.n)
    expected = 0
    for other in set(range(1, geo.n + 1)) - {value}:
        values[cell] = other
        expected += reference.count(values, geo.n, box_rows, box_cols, limit)
    values[cell] = 0
    space = Workspace(geo)
    solution = np.zeros(geo.ncells, dtype=np.uint8)
    grid = np.array(values, dtype=np.uint8)
    args = (space.tables, limit, solution, 0, space.buffers)
    # the cell and value typed as the digger passes them (one compiled signature)
    found = search_except(grid, np.int32(cell), np.uint8(value), *args)
    assert found == min(expected, limit)
    if expected:  # the solution it reports avoids the value and keeps the givens
        assert solution[cell] != value
        assert reference.is_valid_solution(solution.tolist(), geo.n, box_rows, box_cols)
        assert all(solution[c] == v for c, v in enumerate(values) if v)


@pytest.mark.slow
def test_hard_16x16_set_is_unique(shared_data) -> None:
    """Competition 16x16 puzzles: singles alone leave millions of branches; matching settles."""
    assert_unique_and_valid(read_puzzles(shared_data / "sudoku16x16.tsv"))
