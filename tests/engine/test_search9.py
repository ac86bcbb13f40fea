"""The 9x9 bitboard counter against the slow reference and the generic counter."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import engine
from engine.search import Workspace, search_except
from engine.search9 import BAND_BITS, BANDS, UNSOLVED, _start, scratch9, search9
from tests import reference
from tests.helpers import partial_grids

NINE = [(3, 3)]
GEOMETRY = engine.geometry(3, 3)
HARD = [  # famous hard puzzles (AI Escargot, Inkala 2012, Easter Monster, a 17-clue one, ...)
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...",
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
]


SCRATCH = scratch9()


def count9(
    values: np.ndarray, limit: int = 2, blank: int = -1, value: int = 0
) -> tuple[int, np.ndarray]:
    """(count, first solution) of :func:`search9`."""
    solution = np.zeros(81, dtype=np.uint8)
    grid = np.ascontiguousarray(values, dtype=np.uint8)
    return int(search9(grid, blank, value, limit, solution, SCRATCH)), solution


def values_of(text: str) -> np.ndarray:
    return engine.text.parse_unchecked(text).values


def assert_solves(solution: np.ndarray, values: list[int] | np.ndarray) -> None:
    """A valid grid that keeps every given."""
    assert reference.is_valid_solution(solution.tolist(), 9, 3, 3)
    assert all(solution[c] == v for c, v in enumerate(values) if v)


@settings(max_examples=200, deadline=None)
@given(partial_grids(NINE), st.sampled_from([1, 2, 5]))
def test_counts_agree_with_reference(case: tuple[int, int, list[int]], limit: int) -> None:
    _, _, values = case
    expected = reference.count(values, 9, 3, 3, limit)
    count, solution = count9(np.array(values, dtype=np.uint8), limit)
    assert count == expected
    if count:
        assert_solves(solution, values)


@settings(max_examples=150, deadline=None)
@given(partial_grids(NINE), st.sampled_from([1, 2, 5]), st.randoms(use_true_random=False))
def test_exclusion_counts_the_solutions_without_the_value(case, limit: int, rnd) -> None:
    """With a value excluded from a blank: what the reference counts over the other values."""
    _, _, values = case
    blanks = [cell for cell, v in enumerate(values) if v == 0]
    assume(blanks)
    cell, value = rnd.choice(blanks), rnd.randint(1, 9)
    expected = 0
    for other in set(range(1, 10)) - {value}:
        values[cell] = other
        expected += reference.count(values, 9, 3, 3, limit)
    values[cell] = 0
    count, solution = count9(np.array(values, dtype=np.uint8), limit, cell, value)
    assert count == min(expected, limit)
    if count:
        assert solution[cell] != value
        assert_solves(solution, values)


@settings(max_examples=100, deadline=None)
@given(partial_grids(NINE))
def test_start_state_is_each_digits_givens_and_free_blanks(case) -> None:
    """The search only prunes with what it is given: the start state is checked cell by cell
    (a start that kept too many candidates would still count right, only slower)."""
    _, _, values = case
    state = scratch9().state
    ok = _start(np.array(values, dtype=np.uint8), state)
    assert ok == (engine.text.find_clash(GEOMETRY, np.array(values)) is None)
    if not ok:
        return
    peers = reference.peers_of(9, 3, 3)
    for cell, v in enumerate(values):
        band, bit = divmod(cell, BAND_BITS)
        assert bool(state[UNSOLVED + band] >> bit & 1) == (v == 0)
        for digit in range(1, 10):
            possible = v == digit or (not v and all(values[p] != digit for p in peers[cell]))
            assert bool(state[BANDS * (digit - 1) + band] >> bit & 1) == possible


def digger_states(count: int, seed: int) -> list[tuple[np.ndarray, int, int]]:
    """States like the digger's: a random grid with 22-50 clues kept, a blank cell, and its
    value in the grid (mostly; the question "is it the only one?") or another value."""
    rnd = random.Random(seed)
    states = []
    for k in range(count):
        grid = values_of(engine.random_grid(9, seed=seed + k))
        keep = rnd.sample(range(81), rnd.randint(22, 50))
        puzzle = np.zeros(81, dtype=np.uint8)
        puzzle[keep] = grid[keep]
        cell = rnd.choice([c for c in range(81) if not puzzle[c]])
        value = int(grid[cell]) if rnd.random() < 0.8 else rnd.randint(1, 9)
        states.append((puzzle, cell, value))
    return states


def test_agrees_with_the_generic_counter_on_digger_states() -> None:
    space = Workspace(GEOMETRY)
    scratch = scratch9()
    fast, generic = np.zeros(81, dtype=np.uint8), np.zeros(81, dtype=np.uint8)
    counts = set()
    for puzzle, cell, value in digger_states(300, seed=90):
        args = (space.tables, 1, generic, 0, space.buffers)
        expected = search_except(puzzle, cell, value, *args)
        assert search9(puzzle, cell, value, 1, fast, scratch) == expected
        if expected:
            assert fast[cell] != value
            assert_solves(fast, puzzle)
        expected = space.search(puzzle, 2, generic)
        assert search9(puzzle, -1, 0, 2, fast, scratch) == expected
        counts.add(expected)
    assert counts == {1, 2}  # both unique and ambiguous puzzles were drawn


@pytest.mark.parametrize("puzzle", HARD)
def test_hard_puzzles_have_their_one_solution(puzzle: str) -> None:
    values = values_of(puzzle)
    count, solution = count9(values, limit=2)
    assert count == 1
    assert engine.to_text(GEOMETRY, solution) == engine.solve(puzzle)
    cell = int(np.flatnonzero(values == 0)[0])
    assert count9(values, 2, cell, int(solution[cell]))[0] == 0  # the only value of its cell


def test_edge_cases() -> None:
    grid = values_of(engine.random_grid(9, seed=7))
    assert count9(np.zeros(81, dtype=np.uint8), limit=5)[0] == 5
    count, solution = count9(grid)
    assert count == 1
    assert (solution == grid).all()
    one_blank = grid.copy()
    one_blank[40] = 0
    assert count9(one_blank, 2, 40, int(grid[40]))[0] == 0
    assert count9(one_blank, 2, 40, int(grid[40]) % 9 + 1)[0] == 1
    clash = grid.copy()
    clash[0] = grid[1]
    assert count9(clash)[0] == 0
    stuck = np.zeros(81, dtype=np.uint8)  # r1c9 sees 1..8 in its row and 9 in its column
    stuck[:8] = np.arange(1, 9)
    stuck[17] = 9
    assert count9(stuck)[0] == 0
