"""Numba kernels: the solution counter / solver behind every uniqueness check.

State is one uint64 candidate mask per cell (bit v-1 = value v still possible). Search is
propagate -> branch -> undo:

* a cell whose mask is a single bit is *placed*: its bit leaves every peer (naked singles);
* a value with one possible cell in a unit is placed there (hidden singles);
* otherwise branch on an open cell with the fewest candidates.

Every mask change is pushed on a trail of (cell, old mask) and undone by popping it, so the search
allocates nothing; all buffers live in a :class:`Workspace` sized once for the geometry.
The same kernel fills empty grids at random (``rng`` state, random branch order, node budget).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.geometry import Geometry

U1 = np.uint64(1)
U0 = np.uint64(0)
M1 = np.uint64(0x5555555555555555)
M2 = np.uint64(0x3333333333333333)
M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
H01 = np.uint64(0x0101010101010101)
ALL64 = np.uint64(0xFFFFFFFFFFFFFFFF)

CONTRADICTION = -1  # kernel result: the givens clash (two equal values in a unit)
OUT_OF_BUDGET = -2  # kernel result: the node budget ran out before the count was settled


@njit(cache=True, inline="always")
def popcount(x: np.uint64) -> int:
    """Number of set bits (SWAR; LLVM turns it into one popcnt)."""
    x = x - ((x >> U1) & M1)
    x = (x & M2) + ((x >> np.uint64(2)) & M2)
    x = (x + (x >> np.uint64(4))) & M4
    return int((x * H01) >> np.uint64(56))


@njit(cache=True, inline="always")
def lowest_bit(x: np.uint64) -> np.uint64:
    return x & (~x + U1)


@njit(cache=True, inline="always")
def bit_index(bit: np.uint64) -> int:
    """Index of a single set bit."""
    return popcount(bit - U1)


@njit(cache=True, inline="always")
def next_random(state: np.ndarray) -> np.uint64:
    """splitmix64 step on an explicit one-word state: reproducible, no global RNG."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _set(cand, cell, mask, trail_cell, trail_mask, tp):
    """Change a cell's mask, remembering the old one; returns the new trail length."""
    trail_cell[tp] = cell
    trail_mask[tp] = cand[cell]
    cand[cell] = mask
    return tp + 1


@njit(cache=True, inline="always")
def _touch(cell, cell_units, dirty, dirty_list, ndirty):
    """Mark the units of a changed cell for the next hidden-single scan."""
    for k in range(3):
        u = cell_units[cell, k]
        if not dirty[u]:
            dirty[u] = True
            dirty_list[ndirty] = u
            ndirty += 1
    return ndirty


@njit(cache=True)
def _propagate(cand, full, peers, units, cell_units, ws, queue, qtail, trail_cell, trail_mask, tp):
    """Place queued singles and hidden singles until nothing changes.

    Only units with a changed cell since the last scan are scanned for hidden singles.
    Returns (ok, trail length); on a contradiction ok is False and the caller undoes the trail.
    """
    qhead = 0
    n = units.shape[1]
    dirty, dirty_list, scan_list = ws[0], ws[1], ws[2]
    ndirty = 0
    for k in range(qtail):
        ndirty = _touch(queue[k], cell_units, dirty, dirty_list, ndirty)
    while True:
        while qhead < qtail:
            cell = queue[qhead]
            qhead += 1
            bit = cand[cell]
            for k in range(peers.shape[1]):
                p = peers[cell, k]
                m = cand[p]
                if m & bit:
                    m ^= bit
                    if m == U0:
                        _clear(dirty, dirty_list, ndirty)
                        return False, tp
                    tp = _set(cand, p, m, trail_cell, trail_mask, tp)
                    ndirty = _touch(p, cell_units, dirty, dirty_list, ndirty)
                    if m & (m - U1) == U0:
                        queue[qtail] = p
                        qtail += 1
        # hidden singles: values seen exactly once in a unit
        scan = ndirty
        ndirty = 0
        for i in range(scan):
            u = dirty_list[i]
            scan_list[i] = u
            dirty[u] = False
        for i in range(scan):
            u = scan_list[i]
            once = U0
            twice = U0
            for k in range(n):
                m = cand[units[u, k]]
                twice |= once & m
                once |= m
            if once != full:
                _clear(dirty, dirty_list, ndirty)
                return False, tp
            single = once & ~twice
            while single:
                bit = lowest_bit(single)
                single ^= bit
                for k in range(n):
                    cell = units[u, k]
                    m = cand[cell]
                    if m & bit:
                        if m != bit:
                            tp = _set(cand, cell, bit, trail_cell, trail_mask, tp)
                            ndirty = _touch(cell, cell_units, dirty, dirty_list, ndirty)
                            queue[qtail] = cell
                            qtail += 1
                        break
                else:  # its only cell took another value meanwhile
                    _clear(dirty, dirty_list, ndirty)
                    return False, tp
        if qhead == qtail:
            return True, tp


@njit(cache=True, inline="always")
def _clear(dirty, dirty_list, ndirty):
    for i in range(ndirty):
        dirty[dirty_list[i]] = False


@njit(cache=True)
def _undo(cand, trail_cell, trail_mask, tp, keep):
    while tp > keep:
        tp -= 1
        cand[trail_cell[tp]] = trail_mask[tp]
    return tp


@njit(cache=True)
def _clash(values, peers):
    """True when two givens in one unit are equal."""
    for cell in range(values.shape[0]):
        v = values[cell]
        if v:
            for k in range(peers.shape[1]):
                if values[peers[cell, k]] == v:
                    return True
    return False


@njit(cache=True)
def search(
    values,
    n,
    peers,
    units,
    cell_units,
    limit,
    solution,
    rng,
    max_nodes,
    cand,
    queue,
    trail_cell,
    trail_mask,
    stack_cell,
    stack_rest,
    stack_tp,
    units_ws,
):
    """Count solutions of ``values`` up to ``limit``; the first one found goes to ``solution``.

    ``rng[0]`` randomises the branch order when non-zero; ``max_nodes`` > 0 caps the number of
    branches tried, and ``rng[1]`` receives the number tried (the guesses, a difficulty measure).
    Returns the count, CONTRADICTION or OUT_OF_BUDGET.
    """
    ncells = values.shape[0]
    if _clash(values, peers):
        return CONTRADICTION
    full = ALL64 if n == 64 else (U1 << np.uint64(n)) - U1
    randomise = rng[0] != U0
    qtail = 0
    for cell in range(ncells):
        v = values[cell]
        if v:
            cand[cell] = U1 << np.uint64(v - 1)
            queue[qtail] = cell
            qtail += 1
        else:
            cand[cell] = full
    count = 0
    nodes = 0
    sp = 0
    ok, tp = _propagate(
        cand, full, peers, units, cell_units, units_ws, queue, qtail, trail_cell, trail_mask, 0
    )
    while True:
        if ok:
            best = -1
            best_count = 65
            for cell in range(ncells):
                m = cand[cell]
                if m & (m - U1):
                    c = popcount(m)
                    if c < best_count:
                        best, best_count = cell, c
                        if c == 2:
                            break
            if best < 0:
                count += 1
                if count == 1:
                    for cell in range(ncells):
                        solution[cell] = bit_index(cand[cell]) + 1
                if count >= limit:
                    rng[1] = nodes
                    return count
            else:
                stack_cell[sp] = best
                stack_rest[sp] = cand[best]
                stack_tp[sp] = tp
                sp += 1
        # next untried value of the innermost open choice
        ok = False
        while not ok:
            if sp == 0:
                rng[1] = nodes
                return count
            top = sp - 1
            tp = _undo(cand, trail_cell, trail_mask, tp, stack_tp[top])
            rest = stack_rest[top]
            if rest == U0:
                sp -= 1
                continue
            nodes += 1
            if max_nodes > 0 and nodes > max_nodes:
                rng[1] = nodes
                return OUT_OF_BUDGET
            pick = rest
            if randomise:  # drop a random number of the lower candidates first
                for _ in range(int(next_random(rng) % np.uint64(popcount(rest)))):
                    pick ^= lowest_bit(pick)
            bit = lowest_bit(pick)
            stack_rest[top] = rest ^ bit
            cell = stack_cell[top]
            tp = _set(cand, cell, bit, trail_cell, trail_mask, tp)
            queue[0] = cell
            ok, tp = _propagate(
                cand, full, peers, units, cell_units, units_ws, queue, 1, trail_cell, trail_mask, tp
            )


@njit(cache=True)
def count_batch(
    puzzles,
    n,
    peers,
    units,
    cell_units,
    limit,
    counts,
    solutions,
    cand,
    queue,
    trail_cell,
    trail_mask,
    stack_cell,
    stack_rest,
    stack_tp,
    units_ws,
):
    """Count every row of ``puzzles`` (one call for a whole batch: no per-puzzle Python)."""
    rng = np.zeros(2, dtype=np.uint64)
    for i in range(puzzles.shape[0]):
        counts[i] = search(
            puzzles[i],
            n,
            peers,
            units,
            cell_units,
            limit,
            solutions[i],
            rng,
            0,
            cand,
            queue,
            trail_cell,
            trail_mask,
            stack_cell,
            stack_rest,
            stack_tp,
            units_ws,
        )


class Workspace:
    """Preallocated search buffers for one geometry (reuse it across calls)."""

    def __init__(self, geo: Geometry) -> None:
        if geo.n > 64:
            raise ValueError(f"the search handles grids up to 64x64, not {geo.n}x{geo.n}")
        ncells = geo.ncells
        self.geometry = geo
        self.cand = np.zeros(ncells, dtype=np.uint64)
        self.queue = np.zeros(ncells, dtype=np.int32)
        # masks only shrink along a search path, so each cell changes at most n times
        self.trail_cell = np.zeros(ncells * (geo.n + 1), dtype=np.int32)
        self.trail_mask = np.zeros(ncells * (geo.n + 1), dtype=np.uint64)
        self.stack_cell = np.zeros(ncells + 1, dtype=np.int32)
        self.stack_rest = np.zeros(ncells + 1, dtype=np.uint64)
        self.stack_tp = np.zeros(ncells + 1, dtype=np.int64)
        # unit bookkeeping for hidden singles: dirty flags, dirty list, list being scanned
        self.units_ws = np.zeros((3, 3 * geo.n), dtype=np.int32)

    def buffers(self) -> tuple[np.ndarray, ...]:
        return (
            self.cand,
            self.queue,
            self.trail_cell,
            self.trail_mask,
            self.stack_cell,
            self.stack_rest,
            self.stack_tp,
            self.units_ws,
        )

    def search(
        self,
        values: np.ndarray,
        limit: int,
        solution: np.ndarray,
        rng: np.ndarray | None = None,
        max_nodes: int = 0,
    ) -> int:
        """Run the kernel on one grid; ``rng`` is the [random state, guesses out] pair."""
        geo = self.geometry
        if rng is None:
            rng = np.zeros(2, dtype=np.uint64)
        return search(
            values,
            geo.n,
            geo.peers,
            geo.units,
            geo.cell_units,
            limit,
            solution,
            rng,
            max_nodes,
            *self.buffers(),
        )

    def count_batch(self, puzzles: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
        geo = self.geometry
        counts = np.zeros(puzzles.shape[0], dtype=np.int64)
        solutions = np.zeros_like(puzzles)
        count_batch(
            puzzles,
            geo.n,
            geo.peers,
            geo.units,
            geo.cell_units,
            limit,
            counts,
            solutions,
            *self.buffers(),
        )
        return counts, solutions
