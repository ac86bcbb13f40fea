"""Numba kernels of the hole digger: blank symmetric orbits of clues while a test still holds.

Two tests on the raw values:

* ``unique``: the count to 2 is exactly 1 (a node budget, when given, counts as a failure, so a
  clue is kept whenever uniqueness is not proven);
* ``singles``: naked and hidden singles alone complete the grid (``singles_solve``, the grader's
  singles, kept here because the counter's own propagation may grow stronger), which also
  proves uniqueness.

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
def singles_solve(values, peers, units, cell_units, cand, queue, queued, dirty):
    """True when naked and hidden singles alone complete the grid (then it is unique).

    ``cand`` (uint64), ``queue`` (int32) and ``queued`` (bool) are per-cell scratch arrays,
    ``dirty`` (bool) per unit: only units with a changed cell are scanned for hidden singles.
    """
    ncells = values.shape[0]
    n = units.shape[1]
    full = (U1 << np.uint64(n)) - U1 if n < 64 else ~U0
    tail = 0
    for cell in range(ncells):
        queued[cell] = values[cell] != 0
        if values[cell]:
            cand[cell] = U1 << np.uint64(values[cell] - 1)
            queue[tail] = cell
            tail += 1
        else:
            cand[cell] = full
    dirty[:] = True
    head = 0
    while True:
        while head < tail:  # naked singles: a placed value leaves every peer
            cell = queue[head]
            head += 1
            bit = cand[cell]
            for k in range(peers.shape[1]):
                peer = peers[cell, k]
                mask = cand[peer]
                if mask & bit:
                    mask ^= bit
                    if mask == U0:
                        return False
                    cand[peer] = mask
                    for j in range(3):
                        dirty[cell_units[peer, j]] = True
                    if mask & (mask - U1) == U0 and not queued[peer]:
                        queued[peer] = True
                        queue[tail] = peer
                        tail += 1
        if tail == ncells:
            return True
        for u in range(units.shape[0]):  # hidden singles: a value with one place in a unit
            if not dirty[u]:
                continue
            dirty[u] = False
            once = U0
            twice = U0
            for k in range(n):
                mask = cand[units[u, k]]
                twice |= once & mask
                once |= mask
            if once != full:
                return False
            lone = once & ~twice
            for k in range(n):
                cell = units[u, k]
                if not queued[cell] and cand[cell] & lone:
                    cand[cell] &= lone
                    if cand[cell] & (cand[cell] - U1):
                        return False  # two values that each need this cell
                    queued[cell] = True
                    queue[tail] = cell
                    tail += 1
        if head == tail:
            return False


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
def holds(values, singles, max_nodes, tables, buffers, geo_tables, scratch, rng):
    """True when the puzzle passes the test (``singles`` or ``unique``, see the module doc).

    ``geo_tables`` is (peers, units, cell_units); ``scratch`` is ``_scratch``'s arrays.
    """
    solution, cand, queue, queued, dirty = scratch
    if singles:
        peers, units, cell_units = geo_tables
        return singles_solve(values, peers, units, cell_units, cand, queue, queued, dirty)
    rng[0] = 0
    rng[1] = 0
    return search(values, tables, 2, solution, rng, max_nodes, buffers) == 1


@njit(cache=True)
def _scratch(ncells, nunits):
    """Per-test buffers: solution, candidate masks, queue, queued flags, dirty-unit flags."""
    return (
        np.zeros(ncells, dtype=np.uint8),
        np.zeros(ncells, dtype=np.uint64),
        np.zeros(ncells, dtype=np.int32),
        np.zeros(ncells, dtype=np.bool_),
        np.zeros(nunits, dtype=np.bool_),
    )


@njit(cache=True)
def dig_orbits(
    puzzle, solution, orbits, order, floor, singles, max_nodes, tables, buffers, geo_tables, rng
):
    """Blank each all-clue orbit of ``order`` in turn, keeping it blank while the test holds and
    at least ``floor`` clues remain; changes ``puzzle`` in place and returns its clue count."""
    scratch = _scratch(puzzle.shape[0], geo_tables[1].shape[0])
    n = geo_tables[1].shape[1]
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
            free = free and forced(puzzle, geo_tables[0], orbits[i, k], n)
        if free or holds(puzzle, singles, max_nodes, tables, buffers, geo_tables, scratch, rng):
            clues -= size
        else:
            for k in range(size):
                cell = orbits[i, k]
                puzzle[cell] = solution[cell]
    return clues
