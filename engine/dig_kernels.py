"""Numba kernels of the hole digger: blank symmetric orbits of clues while a test still holds.

The tests, cheapest first (``dig_orbits``):

* ``forced``: the clues alone force every blanked cell (a naked or hidden single), so the
  puzzle keeps its solutions: no search;
* a pool set without clues: a second solution is known, so the orbit stays;
* ``singles`` (singles-level digs): naked and hidden singles alone complete the grid
  (``singles_solve``: the counter with its all-different filtering off, allowed no branch),
  which also proves uniqueness;
* ``unique``: no solution puts another value in a blanked cell (``unique_without``: one
  limit-1 search per blanked cell that excludes its value, by ``engine.search9`` on 9x9 grids;
  a node budget, when given, counts as a failure, so a clue is kept whenever uniqueness is not
  proven).

A set of cells is *unavoidable* when the grid's values there can be changed into another valid
grid: a puzzle with no clue in it has a second solution. The *pool* keeps such sets of one grid
as cell bitmasks (rows of uint64 words) with two counts, of sets stored and of seeded sets:
``seed_sets`` adds the cheap ones, which the tests scan, and every second solution a search
finds adds the cells where it differs (large sets, rarely left without clues, so not scanned:
measured, they would spare one search in two digs). Each kept orbit remembers the pool index of its
*witness*, a set whose only clues lie in the orbit: while that holds the orbit is still needed,
so a later dig skips it, and re-digging after a local-search move (``swap_orbit``) tests only
the orbits whose witness the move gave a clue.

``dig_fresh`` digs fresh candidates in a loop, each in an order shuffled from a splitmix64
stream, until one is worth grading, so that the digs a band rejects unseen never return to
Python.

An orbit is a row of cell indices padded with ``NO_CELL`` (its cells under the symmetry); the
orbit masks are the same cells as bitmasks.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.search import (
    OUT_OF_BUDGET,
    U0,
    U1,
    Buffers,
    Tables,
    allowed,
    at_most_one_bit,
    next_random,
    search,
    search_except,
    unit_count,
    unit_values,
)
from engine.search9 import Scratch9, search9, singles9

NO_CELL = -1  # padding in an orbit row
NO_SET = -1  # an orbit's witness when it has none
UNIQUE = -2  # witness_set: the removal keeps the puzzle unique
UNPROVEN = -3  # witness_set: uniqueness not proven, and no second solution known
UNLIMITED = 0  # max_nodes for an uncapped count


class Counters(NamedTuple):
    """The working memory of the two counters a removal test may run."""

    counter: Buffers  # the generic counter's (engine.search)
    nine: Scratch9  # the 9x9 kernel's scratch


class Provers(NamedTuple):
    """What a removal test (``witness_set``) proves uniqueness with."""

    tables: Tables  # the counter's, all-different filtering as the size wants
    singles_tables: Tables  # the same with it off: singles alone
    counters: Counters
    max_nodes: int  # branches per count before a removal is left unproven (UNLIMITED: none)


class Orbits(NamedTuple):
    """The symmetry orbits a dig blanks together (each row padded with NO_CELL)."""

    cells: np.ndarray  # orbit -> its cells
    masks: np.ndarray  # orbit -> its cells as a bitmask (clue_mask's words)
    of_cell: np.ndarray  # cell -> its orbit


class Pool(NamedTuple):
    """The unavoidable sets known for the grid, one bitmask row each."""

    sets: np.ndarray
    count: np.ndarray  # [sets stored, of which seeded by seed_sets]


class Walk(NamedTuple):
    """The digger's settings for fresh digs (see dig_fresh)."""

    floor: int  # fewest clues a dig may leave
    singles: bool  # a singles-level band: singles alone must solve each step's puzzle
    minimal: bool  # every clue must be needed
    beyond_singles: bool  # the band needs more than singles


@njit(cache=True)
def singles_solve(values, singles_tables, solution, buffers):
    """True when naked and hidden singles alone complete the grid (then it is unique).

    The counter run on ``singles_tables`` (its tables with all-different filtering off) with a
    one-branch budget: singles finished the grid iff it found a solution before any branch.
    """
    fixed = buffers.fixed_order
    solved = search(values, singles_tables, 1, solution, fixed, 1, buffers) == 1
    return solved and buffers.branches[0] == 0


@njit(cache=True)
def forced(puzzle, taken, cell, value, tables):
    """True when the clues alone force a blank cell's value: a naked single (its units leave it
    only that value) or a hidden single (no other blank cell of one of its units allows it).
    ``taken`` holds the clues' values per unit (``engine.search.unit_values``)."""
    n, units, cell_units = tables.n, tables.units, tables.cell_units
    full = ~U0 if n == 64 else (U1 << np.uint64(n)) - U1
    options = allowed(taken, cell_units, cell, full)
    if at_most_one_bit(options):
        return True
    bit = U1 << np.uint64(value - 1)
    for k in range(cell_units.shape[1]):
        unit = cell_units[cell, k]
        alone = True
        for j in range(n):
            other = units[unit, j]
            if (
                other != cell
                and puzzle[other] == 0
                and allowed(taken, cell_units, other, full) & bit != U0
            ):
                alone = False
                break
        if alone:
            return True
    return False


@njit(cache=True, inline="always")
def _flip(mask, cell):
    mask[cell >> 6] ^= U1 << np.uint64(cell & 63)


@njit(cache=True, inline="always")
def _has(mask, cell):
    return (mask[cell >> 6] >> np.uint64(cell & 63)) & U1 != U0


@njit(cache=True)
def clue_mask(puzzle, words):
    """The clue cells of a puzzle as a bitmask of ``words`` uint64 words."""
    mask = np.zeros(words, dtype=np.uint64)
    for cell in range(puzzle.shape[0]):
        if puzzle[cell]:
            _flip(mask, cell)
    return mask


@njit(cache=True)
def _set_orbit(puzzle, clues, orbit, clue, solution):
    """Make the orbit's cells clues (``clue`` true) or blanks, in the puzzle and its clue mask."""
    for k in range(orbit.shape[0]):
        cell = orbit[k]
        if cell == NO_CELL:
            break
        if (puzzle[cell] != 0) != clue:
            _flip(clues, cell)
        puzzle[cell] = solution[cell] if clue else 0


@njit(cache=True)
def _flip_values(taken, cell_units, orbit, solution):
    """Follow an orbit's cells turning from clues to blanks or back in the values per unit."""
    for k in range(orbit.shape[0]):
        cell = orbit[k]
        if cell == NO_CELL:
            break
        bit = U1 << np.uint64(solution[cell] - 1)
        for j in range(unit_count(cell_units, cell)):
            taken[cell_units[cell, j]] ^= bit


@njit(cache=True)
def still_needed(sets, witness, clues, orbit_mask):
    """True when the orbit's witness set has no clue outside the orbit (see the module doc)."""
    if witness == NO_SET:
        return False
    for w in range(clues.shape[0]):  # noqa: SIM110 (a plain loop for numba)
        if sets[witness, w] & clues[w] & ~orbit_mask[w]:
            return False
    return True


@njit(cache=True)
def _clue_free(sets, count, clues):
    """Index of a pool set without clues, or NO_SET."""
    for s in range(count):
        free = True
        for w in range(clues.shape[0]):
            if sets[s, w] & clues[w]:
                free = False
                break
        if free:
            return s
    return NO_SET


@njit(cache=True)
def unique_without(puzzle, orbit, solution, witness, tables, spaces, max_nodes):
    """True when the puzzle, unique with the orbit's cells as clues and now with them blank, is
    still unique: no solution puts another value in one of them (one limit-1 search per blanked
    cell with its value excluded: ``search9`` on 9x9 grids, else ``search_except``). On False,
    ``witness`` holds the second solution found, or witness[0] == 0 when the node budget ran
    out. ``spaces`` holds both counters' working memory (:class:`Counters`).
    """
    classic = tables.n == 9 and tables.classic  # the 9x9 kernel, which needs no node budget
    for k in range(orbit.shape[0]):
        cell = orbit[k]
        if cell == NO_CELL:
            break
        if classic:
            count = search9(puzzle, cell, solution[cell], 1, witness, spaces.nine)
        else:
            count = search_except(
                puzzle, cell, solution[cell], tables, 1, witness, max_nodes, spaces.counter
            )
        if count == OUT_OF_BUDGET:
            witness[0] = 0
        if count != 0:
            return False
    return True


@njit(cache=True)
def witness_set(
    puzzle,
    clues,
    orbit,
    solution,
    singles,
    pool,
    found,
    provers,
):
    """Test a removal (see the module doc): with the orbit's cells just blanked from a unique
    puzzle (``clues`` its mask), return UNIQUE; or the pool index of a set now without clues (a
    seeded one, else the one a search's second solution adds); or UNPROVEN (singles are stuck,
    or the node budget ran out first)."""
    sets, count = pool.sets, pool.count
    known = _clue_free(sets, count[1], clues)
    if known != NO_SET:
        return known
    found[0] = 0  # no solution found yet (values start at 1)
    if singles:
        if singles_solve(puzzle, provers.singles_tables, found, provers.counters.counter):
            return UNIQUE
        # the one branch singles_solve allows may have found a second solution: keep it
    elif unique_without(
        puzzle, orbit, solution, found, provers.tables, provers.counters, provers.max_nodes
    ):
        return UNIQUE
    if found[0] == 0 or (found == solution).all():
        return UNPROVEN
    index = count[0]
    sets[index] = 0
    for cell in range(puzzle.shape[0]):
        if found[cell] != solution[cell]:
            _flip(sets[index], cell)
    count[0] = index + 1
    return index


@njit(cache=True)
def dig_orbits(
    puzzle, solution, orbits, order, floor, singles, first_only, witnesses, pool, provers
):
    """Blank each all-clue orbit of ``order`` in turn, keeping it blank while the test holds and
    at least ``floor`` clues remain (stopping after the first removal if ``first_only``: a
    minimality check); orbits still needed by their witness are skipped, and failed ``unique``
    tests record one. Changes ``puzzle``, ``witnesses`` and the pool in place and returns the
    clue count."""
    tables = provers.tables
    cells, orbit_masks = orbits.cells, orbits.masks
    found = np.zeros(puzzle.shape[0], dtype=np.uint8)  # the tests' solution buffer
    clues = clue_mask(puzzle, orbit_masks.shape[1])
    cell_units = tables.cell_units
    taken = np.empty(tables.units.shape[0], dtype=np.uint64)  # the clues' values per unit (forced)
    unit_values(puzzle, cell_units, taken)
    count = 0
    for cell in range(puzzle.shape[0]):
        if puzzle[cell]:
            count += 1
    for i in order:
        size = 0
        full = True
        for k in range(cells.shape[1]):
            cell = cells[i, k]
            if cell == NO_CELL:
                break
            size += 1
            if puzzle[cell] == 0:
                full = False
        if not full or count - size < floor:
            continue
        if still_needed(pool.sets, witnesses[i], clues, orbit_masks[i]):
            continue
        _set_orbit(puzzle, clues, cells[i], False, solution)
        _flip_values(taken, cell_units, cells[i], solution)
        free = True  # the clues alone force every blanked cell: no test needed
        for k in range(size):
            free = free and forced(puzzle, taken, cells[i, k], solution[cells[i, k]], tables)
        if free:
            removed = True
        else:
            result = witness_set(
                puzzle,
                clues,
                cells[i],
                solution,
                singles,
                pool,
                found,
                provers,
            )
            removed = result == UNIQUE
            witnesses[i] = result if result >= 0 else NO_SET
        if removed:
            count -= size
            if first_only:
                break
        else:
            _set_orbit(puzzle, clues, cells[i], True, solution)
            _flip_values(taken, cell_units, cells[i], solution)
    return count


@njit(cache=True)
def solved_by_singles(puzzle, singles_tables, spaces, solution):
    """True when naked and hidden singles alone complete the puzzle: ``singles9`` on 9x9 grids
    (about a tenth of the cost), else ``singles_solve`` (which fills ``solution``)."""
    if singles_tables.n == 9 and singles_tables.classic:
        return singles9(puzzle, spaces.nine)
    return singles_solve(puzzle, singles_tables, solution, spaces.counter)


@njit(cache=True)
def shuffle(order, stream):
    """Put ``order`` in a uniformly random order (Fisher-Yates on the splitmix64 ``stream``)."""
    for i in range(order.shape[0] - 1, 0, -1):
        j = int(next_random(stream) % np.uint64(i + 1))
        order[i], order[j] = order[j], order[i]


@njit(cache=True)
def dig_fresh(puzzle, witnesses, solution, orbits, walk, tries, pool, provers, stream, scratch):
    """Dig candidates from the full grid, each in a fresh random order drawn from ``stream``,
    until one is worth grading, ``tries`` were dug, or the pool has no room for another: returns
    (candidates dug, whether the last one, left in ``puzzle`` and ``witnesses``, is worth
    grading). ``walk`` holds the digger's settings (:class:`Walk`):

    * a singles-level dig (``singles``) for a minimal puzzle is worth grading only when no orbit
      can go in a plain dig either (one that can needs more than singles);
    * a dig for a band beyond singles (``beyond_singles``) only when singles do not solve it.

    Returning only those keeps the Python around the kernel out of the most frequent case.
    """
    sets, count = pool.sets, pool.count
    order = np.arange(orbits.cells.shape[0])
    dug = 0
    while dug < tries and count[0] + 2 * order.shape[0] <= sets.shape[0]:
        dug += 1
        puzzle[:] = solution
        witnesses[:] = NO_SET
        shuffle(order, stream)
        clues = dig_orbits(
            puzzle,
            solution,
            orbits,
            order,
            floor=walk.floor,
            singles=walk.singles,
            first_only=False,
            witnesses=witnesses,
            pool=pool,
            provers=provers,
        )
        if walk.minimal and walk.singles:
            shuffle(order, stream)
            removable = dig_orbits(
                puzzle,
                solution,
                orbits,
                order,
                floor=0,
                singles=False,
                first_only=True,
                witnesses=witnesses,
                pool=pool,
                provers=provers,
            )
            if removable < clues:
                continue
        elif walk.beyond_singles and solved_by_singles(
            puzzle, provers.singles_tables, provers.counters, scratch
        ):
            continue
        return dug, True
    return dug, False


@njit(cache=True)
def swap_orbit(puzzle, solution, orbits, out, witnesses, pool, state, provers):
    """Blank the clue orbit ``out``; while the puzzle is not unique, give back a blank orbit (at
    random) holding a cell of the set without clues, which rules that second solution out. A
    given-back orbit takes that set as its witness.

    Returns the number of orbits given back, or 0 with the puzzle unchanged when ``out`` has no
    witness, no orbit can be given back or the node budget ran out.
    """
    cells, cell_orbit = orbits.cells, orbits.of_cell
    sets = pool.sets
    words = sets.shape[1]
    clues = clue_mask(puzzle, words)
    found = np.zeros(puzzle.shape[0], dtype=np.uint8)
    added = np.empty(cells.shape[0], dtype=np.int64)
    count = 0
    free_set = witnesses[out]
    _set_orbit(puzzle, clues, cells[out], False, solution)
    while free_set >= 0:
        choices = 0
        for cell in range(puzzle.shape[0]):
            if _givable(sets[free_set], puzzle, cell_orbit, cell, out):
                choices += 1
        if choices == 0:
            break
        pick = int(next_random(state) % np.uint64(choices))
        for cell in range(puzzle.shape[0]):
            if _givable(sets[free_set], puzzle, cell_orbit, cell, out):
                if pick == 0:
                    break
                pick -= 1
        orbit = cell_orbit[cell]
        _set_orbit(puzzle, clues, cells[orbit], True, solution)
        witnesses[orbit] = free_set
        added[count] = orbit
        count += 1
        free_set = witness_set(
            puzzle,
            clues,
            cells[out],
            solution,
            False,
            pool,
            found,
            provers,
        )
        if free_set == UNIQUE:
            return count
    _set_orbit(puzzle, clues, cells[out], True, solution)  # undo: the puzzle as it was
    for j in range(count):
        _set_orbit(puzzle, clues, cells[added[j]], False, solution)
    return 0


@njit(cache=True, inline="always")
def _givable(free_set, puzzle, cell_orbit, cell, out):
    """True for a blank cell of the set outside the orbit being swapped out."""
    return _has(free_set, cell) and puzzle[cell] == 0 and cell_orbit[cell] != out


@njit(cache=True)
def seed_sets(solution, tables, sets, count):
    """Add the grid's cheapest unavoidable sets to the pool from row ``count[0]`` (the stored
    count, which it advances):

    * (classic grids) two rows of a band (two columns of a stack) holding the same set over some
      columns: swapping them there keeps every row, column and box valid; one set per cycle;
    * two values: swapping them in a connected part of their cells (linked through shared
      units) keeps every unit valid; one set per part.

    Each set has at least 4 cells of the 2n it is drawn from, so there are fewer than n**3 / 2:
    the caller leaves that much room. Sets covering all 2n cells of two lines or two values are
    left out: a puzzle rarely lacks clues in so many cells, and every set costs a scan per test.
    """
    n, box_rows, box_cols, units = tables.n, tables.box_rows, tables.box_cols, tables.units
    ncells = solution.shape[0]
    where = np.empty(n + 1, dtype=np.int64)
    seen = np.zeros(n, dtype=np.bool_)
    for kind in range(2 if tables.classic else 0):  # rows in bands, then columns in stacks
        height = box_rows if kind == 0 else box_cols
        for first in range(n):
            for second in range(first + 1, (first // height + 1) * height):
                one, two = kind * n + first, kind * n + second
                for k in range(n):
                    where[solution[units[two, k]]] = k
                    seen[k] = False
                for start in range(n):
                    if seen[start]:
                        continue
                    index = count[0]
                    sets[index] = 0
                    size = 0
                    k = start
                    while not seen[k]:
                        seen[k] = True
                        _flip(sets[index], units[one, k])
                        _flip(sets[index], units[two, k])
                        size += 2
                        k = where[solution[units[one, k]]]
                    if size < 2 * n:
                        count[0] = index + 1
    place = np.empty((units.shape[0], n + 1), dtype=np.int64)  # the cell of each value per unit
    for unit in range(units.shape[0]):
        for k in range(n):
            place[unit, solution[units[unit, k]]] = units[unit, k]
    parent = np.arange(ncells)
    for a in range(1, n + 1):
        for b in range(a + 1, n + 1):
            for unit in range(units.shape[0]):
                x, y = _root(parent, place[unit, a]), _root(parent, place[unit, b])
                parent[x] = y
            for row in range(n):  # each part once, at its root
                for root in (place[row, a], place[row, b]):
                    if parent[root] != root:
                        continue
                    index = count[0]
                    sets[index] = 0
                    size = 0
                    for other_row in range(n):
                        for cell in (place[other_row, a], place[other_row, b]):
                            if _root(parent, cell) == root:
                                _flip(sets[index], cell)
                                size += 1
                    if size < 2 * n:
                        count[0] = index + 1
            for row in range(n):
                parent[place[row, a]] = place[row, a]
                parent[place[row, b]] = place[row, b]


@njit(cache=True, inline="always")
def _root(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x
