"""Sukaku Explainer's forcing chains, found and rated as SE finds and rates them.

Above 7.5 an SE rating is set by these, so the score follows SE's own procedure rather than a
trial of our own: every candidate is assumed on and off in turn and its implications are
followed breadth first, in SE's order, to a contradiction or to a conclusion that every branch
of a cell or of a unit shares. Three rungs, in SE's order:

* **Nishio** (7.5): one digit's implications only (a digit on puts it off in its peers; a digit
  off with one other place left in a unit puts it on there), *dynamic* (an "off" reads the grid
  as the assumptions so far left it) and ended by a contradiction.
* **Multiple** (8.0): implications through both cells and units on the grid as it is; a
  candidate whose every value of its cell (cells of three or more candidates) or every place of
  its digit in a unit leads to the same conclusion.
* **Dynamic** (8.5): both of those, dynamic, plus contradictions and double implications (a
  candidate on and off both imply the same).

A hint rates its producer's base plus SE's length bonus (:func:`length_steps`) by its
*complexity*: the distinct nodes of its chains, counted from each conclusion back through every
parent (an implication read on the dynamic grid has as parents the "off" nodes that made it).
As SE, a rung takes the easiest hint (lowest rating, then fewest nodes) and records it as one
step; the pass loop then looks for simpler steps again. SE's nested chains (9.0 up) are not
here: a state these rungs leave stuck goes on to one-level trial (``engine.logic.forcing``).
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import (
    C_STEPS,
    CYCLE,
    DYNAMIC_FORCING_CHAIN,
    MULTIPLE_FORCING_CHAIN,
    NISHIO_FORCING_CHAIN,
    S_EXTRA,
    S_TECH,
    U0,
    add_proof,
    bit,
    bit_index,
    commit,
    eliminate,
    eliminate_all,
    lowest_bit,
    mark,
    popcount,
)

#: SE's base rating in tenths of each of its chain techniques, from CYCLE on (CycleHint,
#: ForcingChainHint, Chaining.getDifficulty), and of aligned triplet exclusion between them
BASE_TENTHS = np.array([65, 66, 70, 75, 75, 80, 85], dtype=np.int64)
BASE_TENTHS.setflags(write=False)
assert len(BASE_TENTHS) == DYNAMIC_FORCING_CHAIN - CYCLE + 1
# SE's tie-breaks between hints of one rating and complexity (getSortKey): double implications
# first, then cell and region chains, contradictions last
DOUBLE, CELL, REGION, ABSURD = 1, 5, 6, 7
NO_HINT = 1 << 30


@kernel
def length_steps(length):
    """SE's length bonus in tenths for a chain of ``length``: a tenth per step of 4, 6, 8, 12,
    16, 24 ... (each step alternately 3/2 and 4/3 of the last; ChainingHint.getLengthDifficulty,
    which takes a hint's complexity less two)."""
    steps = 0
    ceiling = 4
    odd = False
    while length > ceiling:
        steps += 1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return steps


@kernel
def settled_tenths(rec):
    """The highest rating, in tenths, of the SE chain steps recorded so far: a hint rated no
    higher cannot raise the puzzle's rating (its hardest step's), so a rung takes the first
    such hint it finds instead of searching on for SE's easiest (the rating stays SE's unless
    the steps that follow differ)."""
    top = 0
    for i in range(rec.counts[C_STEPS]):
        if CYCLE <= rec.steps[i, S_TECH] <= DYNAMIC_FORCING_CHAIN:
            top = max(top, step_tenths(rec.steps, i))
    return top


@kernel(inline="always")
def step_tenths(steps, i):
    """The rating in tenths of step ``i``, one of SE's chains: its base and length bonus."""
    return BASE_TENTHS[steps[i, S_TECH] - CYCLE] + length_steps(steps[i, S_EXTRA] - 2)


@kernel
def _workspace(ncells, n, runs):
    """Arrays for ``runs`` chaining runs kept side by side: each run's records (a node, the node
    being ``2 * (cell * n + digit) + on``, and its parent records), which node is a member of the
    run (``stamp`` equal to the run's), the queues, and the ancestor count's marks."""
    nodes = 2 * ncells * n
    records = nodes + 1  # the members, and the new node of a contradiction
    return (
        np.zeros((runs, nodes), dtype=np.int64),  # 0 member stamps
        np.empty((runs, nodes), dtype=np.int32),  # 1 member's record
        np.empty((runs, records), dtype=np.int32),  # 2 record's node
        np.empty((runs, records + 1), dtype=np.int32),  # 3 record's first parent
        np.empty((runs, records * n + 1), dtype=np.int32),  # 4 parents (records)
        np.zeros((runs, 3), dtype=np.int64),  # 5 records, parents, stamp of each run
        np.empty(nodes, dtype=np.int32),  # 6 "on" queue
        np.empty(nodes, dtype=np.int32),  # 7 "off" queue
        np.zeros(nodes + 1, dtype=np.int64),  # 8 ancestor marks (by node), last: the mark
        np.empty(records * n + 1, dtype=np.int32),  # 9 ancestor queue
        np.zeros(ncells + 1, dtype=np.int64),  # 10 cells met by one "on" (last: the mark)
        np.zeros(1, dtype=np.int64),  # 11 the stamp counter
    )


@kernel(inline="always")
def _member(ws, r, node):
    return ws[0][r, node] == ws[5][r, 2]


@kernel
def _new_record(ws, r, node, parent):
    """Open a record of ``node`` in run ``r`` with one parent record (-1 for none); it holds only
    once :func:`_keep` or :func:`_close` is called."""
    counts = ws[5]
    i = counts[r, 0]
    ws[2][r, i] = node
    ws[3][r, i] = counts[r, 1]
    if parent >= 0:
        ws[4][r, counts[r, 1]] = parent
        counts[r, 1] += 1
    ws[3][r, i + 1] = counts[r, 1]
    return i


@kernel
def _add_parent(ws, r, i, node):
    """Add the member record of ``node`` as a parent of the open record ``i``."""
    counts = ws[5]
    ws[4][r, counts[r, 1]] = ws[1][r, node]
    counts[r, 1] += 1
    ws[3][r, i + 1] = counts[r, 1]


@kernel
def _close(ws, r, i):
    """Keep the open record ``i`` without making it a member (a contradiction's new node)."""
    ws[5][r, 0] = i + 1
    return i


@kernel
def _keep(ws, r, i):
    """Keep the open record ``i`` as the member of its node."""
    counts = ws[5]
    counts[r, 0] = i + 1
    node = ws[2][r, i]
    ws[0][r, node] = counts[r, 2]
    ws[1][r, node] = i


@kernel
def _drop(ws, r, i):
    """Forget the open record ``i`` (its node is a member already)."""
    ws[5][r, 1] = ws[3][r, i]


@kernel
def units_in_se_order(T, cell, k):
    """The cell's ``k``-th unit in SE's order (box, row, column, then a variant's), or -1 for a
    padded repeat."""
    width = T.cell_units.shape[1]
    j = k
    if width >= 3 and k < 3:
        j = (k + 2) % 3
    u = T.cell_units[cell, j]
    for prior in range(width):
        if prior != j and T.cell_units[cell, prior] == u and prior < j:
            return -1
    return u


@kernel
def _chain(ws, r, source, grid, work, T, dynamic, y_links):
    """SE's doChaining: run ``r`` from one assumed node; returns the records (on, off) of the
    first contradiction, or (-1, -1). ``grid``: the candidates of the open cells (placed cells
    hold none); ``work``: the grid the dynamic rules read, reset here and changed by each "off"
    processed. "On" nodes are processed before any pending "off", as in SE."""
    counts, onq, offq, met = ws[5], ws[6], ws[7], ws[10]
    units = T.units
    n = units.shape[1]
    ws[11][0] += 1
    counts[r, 0] = 0
    counts[r, 1] = 0
    counts[r, 2] = ws[11][0]
    ws[3][r, 0] = 0
    work[:] = grid
    i = _new_record(ws, r, source, -1)
    _keep(ws, r, i)
    on_head = on_tail = off_head = off_tail = 0
    if source & 1:
        onq[on_tail] = i
        on_tail += 1
    else:
        offq[off_tail] = i
        off_tail += 1
    while True:
        if on_head < on_tail:
            p = onq[on_head]
            on_head += 1
            pid = ws[2][r, p] >> 1
            cell, digit = pid // n, pid % n
            if y_links:  # the other values of the cell get off
                m = work[cell] & ~bit(digit)
                while m:
                    low = lowest_bit(m)
                    m ^= low
                    off = 2 * (cell * n + bit_index(low))
                    if _member(ws, r, off | 1):
                        return ws[1][r, off | 1], _close(ws, r, _new_record(ws, r, off, p))
                    if not _member(ws, r, off):
                        _keep(ws, r, _new_record(ws, r, off, p))
                        offq[off_tail] = ws[5][r, 0] - 1
                        off_tail += 1
            met[-1] += 1
            met[cell] = met[-1]
            b = bit(digit)
            for k in range(T.cell_units.shape[1]):  # the digit gets off in the cell's units
                u = units_in_se_order(T, cell, k)
                if u < 0:
                    continue
                for j in range(n):
                    c = units[u, j]
                    if met[c] == met[-1] or work[c] & b == U0:
                        continue
                    met[c] = met[-1]
                    off = 2 * (c * n + digit)
                    if _member(ws, r, off | 1):
                        return ws[1][r, off | 1], _close(ws, r, _new_record(ws, r, off, p))
                    if not _member(ws, r, off):
                        _keep(ws, r, _new_record(ws, r, off, p))
                        offq[off_tail] = ws[5][r, 0] - 1
                        off_tail += 1
        elif off_head < off_tail:
            p = offq[off_head]
            off_head += 1
            pid = ws[2][r, p] >> 1
            cell, digit = pid // n, pid % n
            b = bit(digit)
            if y_links and popcount(work[cell]) == 2:  # the cell's other value gets on
                on = 2 * (cell * n + bit_index(work[cell] & ~b)) + 1
                i = _new_record(ws, r, on, p)
                hidden = grid[cell] & ~work[cell]
                while hidden:
                    low = lowest_bit(hidden)
                    hidden ^= low
                    _add_parent(ws, r, i, 2 * (cell * n + bit_index(low)))
                if _member(ws, r, on ^ 1):
                    return _close(ws, r, i), ws[1][r, on ^ 1]
                on_tail = _queue_on(ws, r, i, on, on_tail)
            for k in range(T.cell_units.shape[1]):  # the digit's other place in a unit gets on
                u = units_in_se_order(T, cell, k)
                if u < 0:
                    continue
                other = other_place(units[u], cell, work, b)
                if other < 0:
                    continue
                on = 2 * (other * n + digit) + 1
                i = _new_record(ws, r, on, p)
                for j in range(n):
                    c = units[u, j]
                    if grid[c] & b and work[c] & b == U0:
                        _add_parent(ws, r, i, 2 * (c * n + digit))
                if _member(ws, r, on ^ 1):
                    return _close(ws, r, i), ws[1][r, on ^ 1]
                on_tail = _queue_on(ws, r, i, on, on_tail)
            if dynamic:
                work[cell] &= ~b
        else:
            return -1, -1


@kernel
def other_place(cells, cell, grid, b):
    """The one cell of a unit's ``cells`` other than ``cell`` whose candidates ``grid`` holds
    digit ``b`` (a bit), or -1 when none or several do: SE's strong link in a unit."""
    other = -1
    for c in cells:
        if c != cell and grid[c] & b:
            if other >= 0:
                return -1
            other = c
    return other


@kernel
def _queue_on(ws, r, i, on, on_tail):
    """Keep the open record ``i`` of node ``on`` and queue it, unless ``on`` is a member of run
    ``r`` already; returns the new tail of the "on" queue."""
    if _member(ws, r, on):
        _drop(ws, r, i)
        return on_tail
    _keep(ws, r, i)
    ws[6][on_tail] = i
    return on_tail + 1


@kernel
def _ancestors(ws, r, i):
    """SE's getAncestorCount: the distinct nodes from record ``i`` back through every parent."""
    marks, queue = ws[8], ws[9]
    marks[-1] += 1
    stamp = marks[-1]
    queue[0] = i
    head, tail, count = 0, 1, 0
    while head < tail:
        x = queue[head]
        head += 1
        node = ws[2][r, x]
        if marks[node] == stamp:
            continue
        marks[node] = stamp
        count += 1
        for k in range(ws[3][r, x], ws[3][r, x + 1]):
            queue[tail] = ws[4][r, k]
            tail += 1
    return count


@kernel(inline="always")
def _better(best, tenths, complexity, sort_key):
    return (tenths, complexity, sort_key) < (best[0], best[1], best[2])


@kernel
def _offer(best, grid, base, complexity, sort_key, node, n, source):
    """Keep the hint concluding ``node`` (on: the cell takes the digit; off: it does not) if it
    is the easiest so far and removes a candidate."""
    pid = node >> 1
    cell, digit = pid // n, pid % n
    if node & 1:
        if grid[cell] & ~bit(digit) == U0:
            return
    elif grid[cell] & bit(digit) == U0:
        return
    tenths = base + length_steps(complexity - 2)
    if _better(best, tenths, complexity, sort_key):
        best[0], best[1], best[2], best[3], best[4] = tenths, complexity, sort_key, node, source


@kernel
def _shared(ws, best, grid, base, runs, count, sort_key, n, source):
    """Offer every node that all ``count`` runs listed in ``runs`` reach (a cell's values or a
    unit's places of a digit), its complexity the sum of its ancestors in each run."""
    first = runs[0]
    for x in range(ws[5][first, 0]):
        node = ws[2][first, x]
        if not _member(ws, first, node) or ws[1][first, node] != x:
            continue
        complexity = _ancestors(ws, first, x)
        for k in range(1, count):
            r = runs[k]
            if not _member(ws, r, node):
                complexity = -1
                break
            complexity += _ancestors(ws, r, ws[1][r, node])
        if complexity > 0:
            _offer(best, grid, base, complexity, sort_key, node, n, source)


@kernel
def find_se_chains(cand, placed, T, rec, tech):
    """Record the easiest hint of SE's Nishio, multiple or dynamic forcing chains (``tech``) as
    one step; its ``extra`` is the hint's complexity (see the module docstring). Once a hint
    rated no higher than the grade so far is found (``settled_tenths``), the search stops."""
    ncells = cand.shape[0]
    n = T.units.shape[1]
    nishio = tech == NISHIO_FORCING_CHAIN
    dynamic = tech != MULTIPLE_FORCING_CHAIN
    base = BASE_TENTHS[tech - CYCLE]
    enough = settled_tenths(rec)
    grid = cand.copy()
    for c in range(ncells):
        if placed[c]:
            grid[c] = U0
    work = grid.copy()
    off_run = n  # after the runs of the cell's values; a unit's places take the runs after
    ws = _workspace(ncells, n, 2 * n + 1)
    best = np.array([NO_HINT, NO_HINT, NO_HINT, -1, -1], dtype=np.int64)
    runs = np.empty(n, dtype=np.int64)
    for cell in range(ncells):
        card = popcount(grid[cell])
        if best[0] <= enough:
            break
        if not (card > 2 or (card > 1 and dynamic)):
            continue
        value = 0
        m = grid[cell]
        while m:
            low = lowest_bit(m)
            m ^= low
            digit = bit_index(low)
            on = 2 * (cell * n + digit) + 1
            r = value
            a, b = _chain(ws, r, on, grid, work, T, dynamic, not nishio)
            if a >= 0 and dynamic:  # SE: contradictions count in Nishio and dynamic chains
                complexity = _ancestors(ws, r, a) + _ancestors(ws, r, b)
                _offer(best, grid, base, complexity, ABSURD, on ^ 1, n, cell)
            double = card >= 3 and dynamic and not nishio
            if dynamic and best[0] > enough:
                a, b = _chain(ws, off_run, on ^ 1, grid, work, T, dynamic, not nishio)
                if a >= 0:
                    complexity = _ancestors(ws, off_run, a) + _ancestors(ws, off_run, b)
                    _offer(best, grid, base, complexity, ABSURD, on, n, cell)
                if double:
                    runs[0], runs[1] = r, off_run
                    _shared(ws, best, grid, base, runs, 2, DOUBLE, n, cell)
            if not nishio and best[0] > enough:
                _region_chains(ws, best, grid, work, T, base, cell, digit, r, dynamic)
            value += 1
            if best[0] <= enough:
                break
        if not nishio and best[0] > enough:
            for k in range(card):
                runs[k] = k
            _shared(ws, best, grid, base, runs, card, CELL, n, cell)
    if best[3] < 0:
        return
    node = best[3]
    pid = node >> 1
    cell, digit = pid // n, pid % n
    start = mark(rec)
    add_proof(rec, best[4])
    if node & 1:
        eliminate_all(rec, cand, cell, grid[cell] & ~bit(digit))
    else:
        eliminate(rec, cand, cell, digit)
    commit(rec, start, tech, best[1], bit(digit))


@kernel
def _region_chains(ws, best, grid, work, T, base, cell, digit, r, dynamic):
    """SE's region chains from ``cell`` holding ``digit`` (run ``r``): in each unit where the
    cell is the digit's first place, a chain from every other place (runs after the "off"
    run); the nodes they all reach."""
    units = T.units
    n = units.shape[1]
    b = bit(digit)
    runs = np.empty(n, dtype=np.int64)
    for k in range(T.cell_units.shape[1]):
        u = units_in_se_order(T, cell, k)
        if u < 0:
            continue
        first = -1
        places = 0
        for j in range(n):
            if grid[units[u, j]] & b:
                places += 1
                if first < 0:
                    first = units[u, j]
        if places < 2 or first != cell:
            continue
        runs[0] = r
        count = 1
        for j in range(n):
            c = units[u, j]
            if c != cell and grid[c] & b:
                runs[count] = n + count
                _chain(ws, runs[count], 2 * (c * n + digit) + 1, grid, work, T, dynamic, True)
                count += 1
        _shared(ws, best, grid, base, runs, count, REGION, n, cell)
