"""Numba kernels: the solution counter / solver behind every uniqueness check.

State is one uint64 candidate mask per cell (bit v-1 = value v still possible). Search is
propagate -> branch -> undo:

* a cell whose mask is a single bit is *placed*: its bit leaves every peer (naked singles);
* a value with one possible cell in a unit is placed there (hidden singles);
* otherwise branch on an open cell with the fewest candidates.

Every mask change is pushed on a trail of (cell, old mask) and undone by popping it, so the search
allocates nothing; all buffers live in a :class:`Workspace` sized once for the geometry.
The same kernel fills empty grids at random (a random state, random branch order, node budget).

Kernel state travels as named tuples (:class:`Tables`, :class:`Buffers`, :class:`Trail`), which
numba compiles to plain structs: a reader sees ``tables.peers``, and swapping two fields is a type
error, not a wrong answer.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.cages import combinations
from engine.geometry import Geometry
from engine.jit import kernel

U1 = np.uint64(1)
U0 = np.uint64(0)
M1 = np.uint64(0x5555555555555555)
M2 = np.uint64(0x3333333333333333)
M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
H01 = np.uint64(0x0101010101010101)
ALL64 = np.uint64(0xFFFFFFFFFFFFFFFF)

OUT_OF_BUDGET = -2  # kernel result: the node budget ran out before the count was settled
FIRST_FILL_BUDGET = 4  # branches per cell a random fill may try before it restarts
MAX_FILL_TRIES = 12  # restarts, each with half as many branches again (about 390 times the first)
TOUCH_NONE = -1  # _propagate: scan only units of queued cells
TOUCH_ALL = -2  # _propagate: scan every unit (after eliminations made outside the queue)
# All-different filtering (a perfect matching per unit) at each fix point when counting: far
# stronger than singles, and worth its cost only on big grids, where singles leave huge trees.
ALLDIFFERENT_FROM = 16
SINGLES_SUFFICE = 2  # a unit with this few open cells has nothing left for matching to find
BIVALUE_WEIGHT = 4  # branching: a two-candidate peer counts this many others (see _pressure)
# Rows of two scratch arrays. They stay 2-D arrays, not named tuples of their rows: each array
# in a kernel's arguments costs, and named tuples of rows made 17-clue counts 3-4 % slower.
# Buffers.dirty, int32 per unit: 1 while the unit waits for a hidden-single rescan; those units
# in the order they were touched; the units of the current round's scan
D_FLAGS, D_LIST, D_SCAN = range(3)
D_ROWS = 3
# Buffers.scratch, int64 per local cell or value of a unit (see _alldifferent): the local cell
# matched to each value; the value matched to each cell; the augmenting path's cells and values;
# per cell, the cells owning its other values and the cells it reaches (bitmasks)
M_OWNER, M_MATCH, M_CELL, M_VALUE, M_ADJ, M_REACH = range(6)
M_ROWS = 6


@kernel(inline="always")
def popcount(x: np.uint64) -> int:
    """Number of set bits (SWAR; LLVM turns it into one popcnt)."""
    x = x - ((x >> U1) & M1)
    x = (x & M2) + ((x >> np.uint64(2)) & M2)
    x = (x + (x >> np.uint64(4))) & M4
    return int((x * H01) >> np.uint64(56))


@kernel(inline="always")
def lowest_bit(x: np.uint64) -> np.uint64:
    return x & (~x + U1)


@kernel(inline="always")
def lowest_bit_signed(x: int) -> int:
    """:func:`lowest_bit` of a signed (int64) mask, such as the 9x9 counter's band words."""
    return x & -x


@kernel(inline="always")
def at_most_one_bit(x: np.uint64) -> bool:
    """True for a mask with one bit set (a placed cell) or none."""
    return x & (x - U1) == U0


@kernel(inline="always")
def bit_index(bit: np.uint64) -> int:
    """Index of a single set bit."""
    return popcount(bit - U1)


@kernel(inline="always")
def next_random(state: np.ndarray) -> np.uint64:
    """splitmix64 step on an explicit one-word state: reproducible, no global RNG."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@kernel(inline="always")
def unit_count(cell_units, cell):
    """How many units the cell lies in: its row of ``cell_units`` without the padding (repeats
    of its first unit, see ``engine.geometry``). Loops that are not idempotent stop there."""
    k = cell_units.shape[1]
    while k > 1 and cell_units[cell, k - 1] == cell_units[cell, 0]:
        k -= 1
    return k


@kernel(inline="always")
def _set(cand, cell, mask, trail_cell, trail_mask, tp):
    """Change a cell's mask, remembering the old one; returns the new trail length."""
    trail_cell[tp] = cell
    trail_mask[tp] = cand[cell]
    cand[cell] = mask
    return tp + 1


@kernel(inline="always")
def _touch(cell, cell_units, dirty, dirty_list, ndirty):
    """Mark the units of a changed cell for the next hidden-single scan."""
    for k in range(cell_units.shape[1]):
        u = cell_units[cell, k]
        if not dirty[u]:
            dirty[u] = True
            dirty_list[ndirty] = u
            ndirty += 1
    return ndirty


@kernel(inline="always")
def _drain(cand, peers, cell_units, ws, ndirty, queue, qhead, qtail, trail, tp):
    """Remove each queued placement from its peers; newly single peers join the queue.

    Returns (ok, qtail, ndirty, tp); ok is False on a contradiction (a peer left empty).
    """
    trail_cell, trail_mask = trail.cell, trail.mask
    dirty, dirty_list = ws[D_FLAGS], ws[D_LIST]
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
                    return False, qtail, ndirty, tp
                tp = _set(cand, p, m, trail_cell, trail_mask, tp)
                ndirty = _touch(p, cell_units, dirty, dirty_list, ndirty)
                if at_most_one_bit(m):
                    queue[qtail] = p
                    qtail += 1
    return True, qtail, ndirty, tp


@kernel
def _propagate(cand, full, tables, ws, queue, qtail, touch, trail, tp):
    """Place queued singles and hidden singles until nothing changes; on a Killer, cage sums
    (``_cage_sums``) each time the singles run dry.

    Only units with a cell changed since their last scan are scanned for hidden singles; the
    hidden singles of a round are propagated together when it ends (fewer rescans than one by
    one; two that conflict empty a cell, which the propagation reports). ``touch`` marks
    more units for scanning: a cell's three (cell >= 0), all (TOUCH_ALL) or none (TOUCH_NONE).
    Returns (ok, trail length); on a contradiction ok is False and the caller undoes the trail.
    """
    peers, units, cell_units = tables.peers, tables.units, tables.cell_units
    dirty, dirty_list = ws[D_FLAGS], ws[D_LIST]
    ndirty = 0
    for k in range(qtail):
        ndirty = _touch(queue[k], cell_units, dirty, dirty_list, ndirty)
    if touch >= 0:
        ndirty = _touch(touch, cell_units, dirty, dirty_list, ndirty)
    elif touch == TOUCH_ALL:
        for u in range(units.shape[0]):
            if not dirty[u]:
                dirty[u] = True
                dirty_list[ndirty] = u
                ndirty += 1
    ok, qtail, ndirty, tp = _drain(cand, peers, cell_units, ws, ndirty, queue, 0, qtail, trail, tp)
    while ok:
        ok, ndirty, tp = _singles(cand, full, tables, ws, queue, ndirty, trail, tp)
        if not ok or tables.cages is None:  # known when compiled: classic kernels stop here
            break
        ok, found, ndirty, tp = _cage_sums(
            cand, tables.cages, cell_units, ws, queue, ndirty, trail, tp
        )
        if ok and found:
            ok, _, ndirty, tp = _drain(
                cand, peers, cell_units, ws, ndirty, queue, 0, found, trail, tp
            )
        if not ndirty:
            break
    _clear(dirty, dirty_list, ndirty)
    return ok, tp


@kernel(inline="always")
def _singles(cand, full, tables, ws, queue, ndirty, trail, tp):
    """Hidden singles in the units marked dirty, and the naked singles they make, until no unit
    is dirty; returns (ok, ndirty, tp) (ndirty left as it stood when a contradiction stopped)."""
    peers, units, cell_units = tables.peers, tables.units, tables.cell_units
    n = units.shape[1]
    trail_cell, trail_mask = trail.cell, trail.mask
    dirty, dirty_list, scan_list = ws[D_FLAGS], ws[D_LIST], ws[D_SCAN]
    ok = True
    while ok and ndirty:
        scan = ndirty
        ndirty = 0
        for i in range(scan):
            u = dirty_list[i]
            scan_list[i] = u
            dirty[u] = False
        found = 0  # hidden singles of this round, placed together once the round is scanned
        for i in range(scan):
            u = scan_list[i]
            once = U0
            twice = U0
            placed = U0
            for k in range(n):
                m = cand[units[u, k]]
                twice |= once & m
                once |= m
                if at_most_one_bit(m):
                    placed |= m
            if once != full:
                ok = False
                break
            single = once & ~twice & ~placed  # values with one possible cell, not yet placed
            while single:
                bit = lowest_bit(single)
                single ^= bit
                for k in range(n):
                    cell = units[u, k]
                    if cand[cell] & bit:
                        break
                else:  # its only cell took another value meanwhile
                    ok = False
                    break
                if cand[cell] != bit:
                    tp = _set(cand, cell, bit, trail_cell, trail_mask, tp)
                    ndirty = _touch(cell, cell_units, dirty, dirty_list, ndirty)
                    queue[found] = cell
                    found += 1
            if not ok:
                break
        if ok and found:
            ok, _, ndirty, tp = _drain(
                cand, peers, cell_units, ws, ndirty, queue, 0, found, trail, tp
            )
    return ok, ndirty, tp


@kernel
def _cage_sums(cand, cages, cell_units, ws, queue, ndirty, trail, tp):
    """Killer cages: each cage's open cells keep only the digits of the digit sets its total
    allows (``cages.sets``) that hold its placed digits and fit its open cells (each
    open cell takes one of the set's digits left, every digit left has an open cell); a digit
    that every such set holds, with one open cell for it, is placed there. A cage with one open
    cell so gets the exact value its total leaves. Returns (ok, new singles queued, ndirty, tp).
    """
    if cages is None:  # pruned when compiled (classic kernels never get here: _propagate)
        return True, 0, ndirty, tp
    cells, starts, sets = cages.cells, cages.starts, cages.sets
    trail_cell, trail_mask = trail.cell, trail.mask
    dirty, dirty_list = ws[D_FLAGS], ws[D_LIST]
    found = 0
    for k in range(cells.shape[0]):
        placed = U0
        union = U0
        nopen = 0
        for j in range(cells.shape[1]):
            c = cells[k, j]
            if c < 0:
                break
            m = cand[c]
            if at_most_one_bit(m):
                placed |= m
            else:
                union |= m
                nopen += 1
        allowed = U0
        required = ALL64
        valid = False
        for s in range(starts[k], starts[k + 1]):
            rest = sets[s] & ~placed
            if sets[s] & placed != placed or rest & ~union or popcount(rest) != nopen:
                continue
            fits = True
            for j in range(cells.shape[1]):
                c = cells[k, j]
                if c < 0:
                    break
                m = cand[c]
                if not at_most_one_bit(m) and not m & rest:
                    fits = False
                    break
            if fits:
                valid = True
                allowed |= rest
                required &= rest
        if not valid:
            return False, found, ndirty, tp
        if nopen == 0:
            continue
        for j in range(cells.shape[1]):
            c = cells[k, j]
            if c < 0:
                break
            m = cand[c]
            if at_most_one_bit(m):
                continue
            kept = m & allowed
            if kept != m:
                tp = _set(cand, c, kept, trail_cell, trail_mask, tp)
                ndirty = _touch(c, cell_units, dirty, dirty_list, ndirty)
                if at_most_one_bit(kept):
                    queue[found] = c
                    found += 1
        required &= allowed
        while required and nopen > 1:
            bit = lowest_bit(required)
            required ^= bit
            only = -1
            for j in range(cells.shape[1]):
                c = cells[k, j]
                if c < 0:
                    break
                if cand[c] & bit:
                    only = c if only == -1 else -2
            if only == -1:
                return False, found, ndirty, tp
            if only >= 0 and cand[only] != bit:
                tp = _set(cand, only, bit, trail_cell, trail_mask, tp)
                ndirty = _touch(only, cell_units, dirty, dirty_list, ndirty)
                queue[found] = only
                found += 1
    return True, found, ndirty, tp


@kernel(inline="always")
def _clear(dirty, dirty_list, ndirty):
    for i in range(ndirty):
        dirty[dirty_list[i]] = False


@kernel
def _match_unit(units, u, cand, owner, match, stack_cell, stack_val):
    """A perfect matching of the unit's cells to values (Kuhn's augmenting paths, iterative).

    ``match[k]`` is the value index of local cell k, ``owner[v]`` the local cell of value v.
    Returns False when there is none: some values cannot all find distinct cells.
    """
    n = units.shape[1]
    for v in range(n):
        owner[v] = -1
    for root in range(n):
        visited = U0
        sp = 0
        stack_cell[0] = root
        found = False
        while sp >= 0:
            k = stack_cell[sp]
            rest = cand[units[u, k]] & ~visited
            if rest == U0:
                sp -= 1
                continue
            bit = lowest_bit(rest)
            visited |= bit
            v = bit_index(bit)
            stack_val[sp] = v
            if owner[v] < 0:  # a free value: shift the path along
                for d in range(sp + 1):
                    owner[stack_val[d]] = stack_cell[d]
                    match[stack_cell[d]] = stack_val[d]
                found = True
                break
            sp += 1
            stack_cell[sp] = owner[v]
        if not found:
            return False
    return True


@kernel
def _alldifferent(cand, tables, scratch, queue, trail, tp):
    """Remove every candidate that no perfect cell-value matching of its unit can use (Régin).

    With as many values as cells, an unmatched candidate (cell k, value v) can be used iff k and
    the cell matched to v lie on a common alternating cycle: the same strongly connected
    component of "k -> owner of each other value of k". Reachability is kept as bitmasks.
    Returns (ok, changed, qtail, tp); new singles are queued.
    """
    units = tables.units
    n = units.shape[1]
    owner, match = scratch[M_OWNER], scratch[M_MATCH]
    stack_cell, stack_val = scratch[M_CELL], scratch[M_VALUE]
    adj, reach = scratch[M_ADJ], scratch[M_REACH]
    qtail = 0
    changed = False
    for u in range(units.shape[0]):
        open_cells = 0
        for k in range(n):
            m = cand[units[u, k]]
            if not at_most_one_bit(m):
                open_cells += 1
        if open_cells <= SINGLES_SUFFICE:
            continue
        if not _match_unit(units, u, cand, owner, match, stack_cell, stack_val):
            return False, changed, qtail, tp
        for k in range(n):
            others = cand[units[u, k]] & ~(U1 << np.uint64(match[k]))
            a = 0
            while others:
                bit = lowest_bit(others)
                others ^= bit
                a |= 1 << owner[bit_index(bit)]
            adj[k] = a
        for k in range(n):
            seen = adj[k]
            frontier = seen
            while frontier:
                step = 0
                while frontier:
                    j = lowest_bit_signed(frontier)
                    frontier ^= j
                    step |= adj[bit_index(np.uint64(j))]
                frontier = step & ~seen
                seen |= step
            reach[k] = seen
        for k in range(n):
            cell = units[u, k]
            m = cand[cell]
            others = m & ~(U1 << np.uint64(match[k]))
            drop = U0
            while others:
                bit = lowest_bit(others)
                others ^= bit
                j = owner[bit_index(bit)]
                if not ((reach[k] >> j) & 1 and (reach[j] >> k) & 1):
                    drop |= bit
            if drop:
                m &= ~drop
                tp = _set(cand, cell, m, trail.cell, trail.mask, tp)
                changed = True
                if at_most_one_bit(m):
                    queue[qtail] = cell
                    qtail += 1
    return True, changed, qtail, tp


@kernel
def _settle(cand, full, tables, ws, scratch, strong, queue, qtail, touch, trail, tp):
    """Singles to a fix point; if ``strong``, then all-different filtering while it removes any."""
    ok, tp = _propagate(cand, full, tables, ws, queue, qtail, touch, trail, tp)
    while ok and strong:
        ok, changed, qtail, tp = _alldifferent(cand, tables, scratch, queue, trail, tp)
        if not (ok and changed):
            break
        ok, tp = _propagate(cand, full, tables, ws, queue, qtail, TOUCH_ALL, trail, tp)
    return ok, tp


@kernel(inline="always")
def _pressure(cand, peers, cell, m):
    """How much a branch on the two-candidate cell ``cell`` propagates: its open peers that share
    a candidate, those with two candidates (which either branch may leave single) counting
    BIVALUE_WEIGHT. Measured on 17-clue puzzles: half the branches of the first such cell."""
    pressure = 0
    for k in range(peers.shape[1]):
        p = cand[peers[cell, k]]
        if p & m:
            rest = p & (p - U1)
            if rest:
                pressure += BIVALUE_WEIGHT if at_most_one_bit(rest) else 1
    return pressure


@kernel
def _choose(cand, units, peers, places, choice):
    """Pick the next branch: an open cell with the fewest candidates or, when every open cell has
    three or more and ``places`` is set, a value with exactly two places in a unit (a two-way
    branch on one place; random fills skip it, as it would make them less random). Among
    two-candidate cells the one under most pressure from its peers is taken (``_pressure``);
    random fills take the first.

    Writes (cell, alternatives as single bits, final mask alternative) to ``choice``;
    returns False when every cell is placed (a solution).
    """
    best = -1
    best_count = 65
    best_pressure = -1
    for cell in range(cand.shape[0]):
        m = cand[cell]
        if not at_most_one_bit(m):
            c = popcount(m)
            if c < best_count:
                best, best_count, best_pressure = cell, c, -1
            if c == 2:
                if not places:
                    break
                pressure = _pressure(cand, peers, cell, m)
                if pressure > best_pressure:
                    best, best_pressure = cell, pressure
    if best < 0:
        return False
    choice[0] = np.uint64(best)
    choice[1] = cand[best]
    choice[2] = U0
    if best_count == 2 or not places:
        return True
    n = units.shape[1]
    for u in range(units.shape[0]):
        once = U0
        twice = U0
        thrice = U0
        placed = U0
        for k in range(n):
            m = cand[units[u, k]]
            thrice |= twice & m
            twice |= once & m
            once |= m
            if at_most_one_bit(m):
                placed |= m
        pair = twice & ~thrice & ~placed
        if pair:
            bit = lowest_bit(pair)
            for k in range(n):
                cell = units[u, k]
                if cand[cell] & bit:
                    choice[0] = np.uint64(cell)
                    choice[1] = bit
                    choice[2] = cand[cell] & ~bit
                    return True
    return True


@kernel
def unit_values(values, cell_units, taken):
    """Fill ``taken`` with the values (bit v-1 for value v) that the givens hold in each unit;
    False, stopping there, when two givens of a unit share a value."""
    taken[:] = U0
    for c in range(values.shape[0]):
        v = values[c]
        if v:
            bit = U1 << np.uint64(v - 1)
            for k in range(unit_count(cell_units, c)):
                u = cell_units[c, k]
                if taken[u] & bit:
                    return False
                taken[u] |= bit
    return True


@kernel(inline="always")
def allowed(taken, cell_units, cell, full):
    """The values that the givens in a cell's units (``unit_values``) leave it."""
    held = U0
    for k in range(cell_units.shape[1]):
        held |= taken[cell_units[cell, k]]
    return full & ~held


@kernel
def _givens(values, cand, full, cell_units, queue, taken):
    """The start state: each given's bit, each blank's values that no given in its units takes
    (one pass over unit masks ``taken``, cheaper than propagating every given to its peers); the
    blanks left with one value are queued. Returns the queue length, or -1 on a clash or a blank
    left without a value."""
    if not unit_values(values, cell_units, taken):
        return -1
    qtail = 0
    for c in range(values.shape[0]):
        v = values[c]
        if v:
            cand[c] = U1 << np.uint64(v - 1)
        else:
            m = allowed(taken, cell_units, c, full)
            if m == U0:
                return -1
            cand[c] = m
            if at_most_one_bit(m):
                queue[qtail] = c
                qtail += 1
    return qtail


@kernel
def search(values, tables, limit, solution, random_state, max_nodes, buffers):
    """Count solutions of ``values`` up to ``limit``; the first one found goes to ``solution``.

    ``random_state`` (one uint64) randomises the branch order when non-zero and advances with
    each random draw; ``max_nodes`` > 0 caps the number of branches tried. The branches tried
    (the guesses, a difficulty measure) are left in ``buffers.branches[0]``.
    Returns the count or OUT_OF_BUDGET; clashing givens simply count 0 (callers that must tell
    a clash from an unsolvable puzzle check the zero-count rows).
    """
    places = random_state[0] == U0
    return _search(values, -1, 0, places, tables, limit, solution, random_state, max_nodes, buffers)


@kernel
def search_except(values, blank, value, tables, limit, solution, max_nodes, buffers):
    """As :func:`search` in fixed branch order, counting only the solutions that do not put
    ``value`` in the cell ``blank`` (a blank of ``values``). One search proves that a removed
    clue's value is the only one its cell can take, where trying each other value would start a
    search per value.

    Made for nearly solved grids (the digger's): it branches on the first cell with fewest
    candidates, as the pressure heuristic costs more than it saves there (measured on digs:
    20 % less time per search, finding second solutions 12.3 -> 9.4 us).
    """
    fixed = buffers.fixed_order
    return _search(values, blank, value, False, tables, limit, solution, fixed, max_nodes, buffers)


@kernel
def _search(
    values, blank, value, places, tables, limit, solution, random_state, max_nodes, buffers
):
    """The counter (see :func:`search`), with ``value`` excluded from the cell ``blank`` when it
    is >= 0; ``places`` turns on the branching heuristics of ``_choose``."""
    cand, queue, stack, stack_tp = buffers.cand, buffers.queue, buffers.stack, buffers.stack_tp
    trail, units_ws = buffers.trail, buffers.dirty
    trail_cell, trail_mask = trail.cell, trail.mask
    choice, scratch, branches = buffers.choice, buffers.scratch, buffers.branches
    n = tables.n
    units = tables.units
    ncells = values.shape[0]
    full = ALL64 if n == 64 else (U1 << np.uint64(n)) - U1
    randomise = random_state[0] != U0
    strong = tables.alldifferent and not randomise  # random fills of empty grids need no more
    branches[0] = 0
    qtail = _givens(values, cand, full, tables.cell_units, queue, buffers.taken)
    if qtail < 0:  # clashing givens, or a blank they leave without a value
        return 0
    if blank >= 0:
        rest = cand[blank] & ~(U1 << np.uint64(value - 1))
        if rest == U0:
            return 0
        if rest != cand[blank] and at_most_one_bit(rest):  # newly single: queue it
            queue[qtail] = blank
            qtail += 1
        cand[blank] = rest
    count = 0
    nodes = 0
    sp = 0
    ok, tp = _settle(
        cand, full, tables, units_ws, scratch, strong, queue, qtail, TOUCH_ALL, trail, 0
    )
    while True:
        if ok:
            if not _choose(cand, units, tables.peers, places, choice):
                count += 1
                if count == 1:
                    for cell in range(ncells):
                        solution[cell] = bit_index(cand[cell]) + 1
                if count >= limit:
                    branches[0] = nodes
                    return count
            else:  # a stack frame: cell, single-bit alternatives left, final mask alternative
                stack[sp, 0] = choice[0]
                stack[sp, 1] = choice[1]
                stack[sp, 2] = choice[2]
                stack_tp[sp] = tp
                sp += 1
        # next untried alternative of the innermost open choice
        ok = False
        while not ok:
            if sp == 0:
                branches[0] = nodes
                return count
            top = sp - 1
            tp = _undo(cand, trail_cell, trail_mask, tp, stack_tp[top])
            cell = int(stack[top, 0])
            rest = stack[top, 1]
            if rest:
                pick = rest
                if randomise:  # drop a random number of the lower candidates first
                    for _ in range(int(next_random(random_state) % np.uint64(popcount(rest)))):
                        pick ^= lowest_bit(pick)
                mask = lowest_bit(pick)
                stack[top, 1] = rest ^ mask
            elif stack[top, 2]:
                mask = stack[top, 2]
                stack[top, 2] = U0
            else:
                sp -= 1
                continue
            nodes += 1
            if max_nodes > 0 and nodes > max_nodes:
                branches[0] = nodes
                return OUT_OF_BUDGET
            tp = _set(cand, cell, mask, trail_cell, trail_mask, tp)
            queue[0] = cell
            if at_most_one_bit(mask):  # a placement: propagate it
                ok, tp = _settle(
                    cand, full, tables, units_ws, scratch, strong, queue, 1, TOUCH_NONE, trail, tp
                )
            else:  # an exclusion: rescan the cell's units
                ok, tp = _settle(
                    cand, full, tables, units_ws, scratch, strong, queue, 0, cell, trail, tp
                )


@kernel
def _undo(cand, trail_cell, trail_mask, tp, keep):
    while tp > keep:
        tp -= 1
        cand[trail_cell[tp]] = trail_mask[tp]
    return tp


@kernel
def count_batch(puzzles, tables, limit, counts, solutions, buffers, max_nodes):
    """Count every row of ``puzzles`` (one call for a whole batch: no per-puzzle Python).

    ``max_nodes`` > 0 caps the branches per row; a row past it counts OUT_OF_BUDGET.
    """
    for i in range(puzzles.shape[0]):
        counts[i] = search(
            puzzles[i], tables, limit, solutions[i], buffers.fixed_order, max_nodes, buffers
        )


@kernel
def fill_batch(tables, grids, random_state, first_budget, buffers):
    """Fill each row of ``grids`` with a random complete grid (randomised search from empty).

    A try that wanders past its node budget restarts with the next random numbers and a budget
    half as large again: restarts tame the heavy tail of randomised backtracking on big grids.
    A row still unfilled after MAX_FILL_TRIES tries is left blank (some 12x12 Jigsaw layouts
    defeat every random order): ``engine.grids`` fills it by SAT.
    """
    empty = np.zeros(grids.shape[1], dtype=np.uint8)
    for i in range(grids.shape[0]):
        budget = first_budget
        filled = False
        for _ in range(MAX_FILL_TRIES):
            if search(empty, tables, 1, grids[i], random_state, budget, buffers) != OUT_OF_BUDGET:
                filled = True
                break
            budget += budget // 2
        if not filled:
            grids[i, :] = 0


class Tables(NamedTuple):
    """What the counter reads of a geometry."""

    n: int
    box_rows: int
    box_cols: int
    classic: bool  # rows, columns, boxes only: the shape-specific kernels (search9, band swaps)
    peers: np.ndarray
    units: np.ndarray
    cell_units: np.ndarray
    alldifferent: bool  # matching-based filtering at each fix point (see ALLDIFFERENT_FROM)
    # Killer cages, None otherwise: a type of its own, so classic kernels compile without them
    # (passing three more arrays made classic counting 5-10 % slower)
    cages: Cages | None


class Trail(NamedTuple):
    """Every mask change of the current search path, to undo on backtracking."""

    cell: np.ndarray  # int32: the cell changed ...
    mask: np.ndarray  # uint64: ... and its previous mask


class Buffers(NamedTuple):
    """The counter's working memory, allocated once per :class:`Workspace`."""

    cand: np.ndarray  # candidate mask per cell
    queue: np.ndarray  # new singles to propagate
    trail: Trail
    stack: np.ndarray  # branch frames: cell, single-bit alternatives left, final mask alternative
    stack_tp: np.ndarray  # trail length at each frame
    dirty: np.ndarray  # units to rescan, rows D_*
    choice: np.ndarray  # the branch _choose picked
    scratch: np.ndarray  # all-different matching scratch, rows M_* (see _alldifferent)
    taken: np.ndarray  # values the givens take, per unit (_givens)
    branches: np.ndarray  # out: branches the last search tried
    fixed_order: np.ndarray  # a zero random state: the deterministic branch order


class Cages(NamedTuple):
    """What the counter reads of a Killer's cages."""

    cells: np.ndarray  # int32 (ncages, largest): each cage's cells padded with -1
    starts: np.ndarray  # int32 (ncages + 1): cage k's digit sets are sets[starts[k]:starts[k+1]]
    sets: np.ndarray  # uint64: the digit sets each cage's total allows (engine.cages.combinations)


def cage_tables(geo: Geometry) -> Cages | None:
    """The counter's cage tables (see :class:`Tables`): None for a grid without cages; read-only,
    as a geometry's tables, so every Killer compiles to one kernel type."""
    if not geo.cages:
        return None
    sets = [combinations(len(cage.cells), cage.total, geo.n) for cage in geo.cages]
    starts = np.zeros(len(sets) + 1, dtype=np.int32)
    starts[1:] = np.cumsum([len(s) for s in sets])
    flat = np.array([mask for s in sets for mask in s], dtype=np.uint64)
    cells = np.full((len(sets), max(len(cage.cells) for cage in geo.cages)), -1, dtype=np.int32)
    for k, cage in enumerate(geo.cages):
        cells[k, : len(cage.cells)] = cage.cells
    for array in (cells, starts, flat):
        array.setflags(write=False)
    return Cages(cells=cells, starts=starts, sets=flat)


class Workspace:
    """Preallocated search buffers for one geometry (reuse it across calls)."""

    def __init__(self, geo: Geometry, alldifferent: bool | None = None) -> None:
        """``alldifferent`` forces matching-based filtering on or off (default: by grid size)."""
        if geo.n > 64:
            raise ValueError(f"the search handles grids up to 64x64, not {geo.n}x{geo.n}")
        ncells = geo.ncells
        self.geometry = geo
        self.tables = Tables(
            n=geo.n,
            box_rows=geo.box_rows,
            box_cols=geo.box_cols,
            classic=geo.classic,
            peers=geo.peers,
            units=geo.units,
            cell_units=geo.cell_units,
            alldifferent=geo.n >= ALLDIFFERENT_FROM if alldifferent is None else alldifferent,
            cages=cage_tables(geo),
        )
        # masks only shrink along a search path, so each cell changes at most n times
        trail_size = ncells * (geo.n + 1)
        self.buffers = Buffers(
            cand=np.zeros(ncells, dtype=np.uint64),
            queue=np.zeros(ncells, dtype=np.int32),
            trail=Trail(
                cell=np.zeros(trail_size, dtype=np.int32),
                mask=np.zeros(trail_size, dtype=np.uint64),
            ),
            stack=np.zeros((ncells + 1, 3), dtype=np.uint64),
            stack_tp=np.zeros(ncells + 1, dtype=np.int64),
            dirty=np.zeros((D_ROWS, len(geo.units)), dtype=np.int32),
            choice=np.zeros(3, dtype=np.uint64),
            scratch=np.zeros((M_ROWS, geo.n + 1), dtype=np.int64),
            taken=np.zeros(len(geo.units), dtype=np.uint64),
            branches=np.zeros(1, dtype=np.int64),
            fixed_order=np.zeros(1, dtype=np.uint64),
        )

    @property
    def branches(self) -> int:
        """Branches the last search tried (the guesses it needed)."""
        return int(self.buffers.branches[0])

    def search(
        self,
        values: np.ndarray,
        limit: int,
        solution: np.ndarray,
        random_state: int = 0,
        max_nodes: int = 0,
    ) -> int:
        """Run the kernel on one grid; a non-zero ``random_state`` randomises the branch order."""
        state = np.array([random_state], dtype=np.uint64)
        values = np.require(values, np.uint8, ("C", "W"))  # one kernel type (parse: read-only)
        return search(values, self.tables, limit, solution, state, max_nodes, self.buffers)

    def fill_batch(self, count: int, state: int) -> np.ndarray:
        """``count`` random complete grids (rows of values) from a non-zero 64-bit state."""
        grids = np.zeros((count, self.geometry.ncells), dtype=np.uint8)
        random_state = np.array([state], dtype=np.uint64)
        fill_batch(
            self.tables, grids, random_state, FIRST_FILL_BUDGET * self.geometry.ncells, self.buffers
        )
        return grids

    def count_batch(
        self, puzzles: np.ndarray, limit: int, max_nodes: int = 0
    ) -> tuple[np.ndarray, np.ndarray]:
        """Counts (or OUT_OF_BUDGET past ``max_nodes`` branches, if > 0) and first solutions."""
        counts = np.zeros(puzzles.shape[0], dtype=np.int64)
        solutions = np.zeros_like(puzzles)
        count_batch(puzzles, self.tables, limit, counts, solutions, self.buffers, max_nodes)
        return counts, solutions
