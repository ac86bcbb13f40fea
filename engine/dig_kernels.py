"""Numba kernels of the hole digger: blank symmetric orbits of clues while a test still holds.

Two tests on the raw values:

* ``unique``: the count to 2 is exactly 1 (a node budget, when given, counts as a failure, so a
  clue is kept whenever uniqueness is not proven);
* ``singles``: naked and hidden singles alone complete the grid (``singles_solve``: the counter
  with its all-different filtering off, allowed no branch), which also proves uniqueness.

An orbit is a row of cell indices padded with ``NO_CELL`` (its cells under the symmetry).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.search import search

NO_CELL = -1  # padding in an orbit row
UNLIMITED = 0  # max_nodes for an uncapped count
U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True)
def singles_solve(values, singles_tables, solution, rng, buffers):
    """True when naked and hidden singles alone complete the grid (then it is unique).

    The counter run on ``singles_tables`` (its tables with all-different filtering off) with a
    one-branch budget: singles finished the grid iff it found a solution before any branch.
    """
    rng[0] = 0
    rng[1] = 0
    return search(values, singles_tables, 1, solution, rng, 1, buffers) == 1 and rng[1] == 0


@njit(cache=True)
def forced(puzzle, peers, cell, n):
    """True when the clues among a blank cell's peers leave it one value (a naked single), so
    blanking it cannot change the puzzle's solutions: no test needed."""
    seen = U0
    for k in range(peers.shape[1]):
        value = puzzle[peers[cell, k]]
        if value:
            seen |= U1 << np.uint64(value - 1)
    count = 0
    while seen:
        seen &= seen - U1
        count += 1
    return count == n - 1


@njit(cache=True)
def holds(values, singles, max_nodes, tables, singles_tables, buffers, solution, rng):
    """True when the puzzle passes the test (``singles`` or ``unique``, see the module doc)."""
    if singles:
        return singles_solve(values, singles_tables, solution, rng, buffers)
    rng[0] = 0
    rng[1] = 0
    return search(values, tables, 2, solution, rng, max_nodes, buffers) == 1


@njit(cache=True)
def dig_orbits(
    puzzle, solution, orbits, order, floor, singles, max_nodes, tables, singles_tables, buffers, rng
):
    """Blank each all-clue orbit of ``order`` in turn, keeping it blank while the test holds and
    at least ``floor`` clues remain; changes ``puzzle`` in place and returns its clue count."""
    found = np.zeros(puzzle.shape[0], dtype=np.uint8)  # the tests' solution buffer
    n = tables[0]
    clues = 0
    for cell in range(puzzle.shape[0]):
        if puzzle[cell]:
            clues += 1
    for i in order:
        size = 0
        full = True
        for k in range(orbits.shape[1]):
            cell = orbits[i, k]
            if cell == NO_CELL:
                break
            size += 1
            if puzzle[cell] == 0:
                full = False
        if not full or clues - size < floor:
            continue
        for k in range(size):
            puzzle[orbits[i, k]] = 0
        free = True
        for k in range(size):
            free = free and forced(puzzle, tables[3], orbits[i, k], n)
        if free or holds(puzzle, singles, max_nodes, tables, singles_tables, buffers, found, rng):
            clues -= size
        else:
            for k in range(size):
                cell = orbits[i, k]
                puzzle[cell] = solution[cell]
    return clues
