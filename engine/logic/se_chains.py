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
from engine.logic.se_graph import static_reach
from engine.logic.state import (
    C_STEPS,
    CYCLE,
    DYNAMIC_FORCING_CHAIN,
    MULTIPLE_FORCING_CHAIN,
    NISHIO_FORCING_CHAIN,
    S_EXTRA,
    S_TECH,
    U0,
    U1,
    add_proof,
    bit,
    bit_index,
    build_layers,
    commit,
    eliminate,
    eliminate_all,
    lowest_bit,
    mark,
    popcount,
)
from engine.search9 import STATE_WORDS, UNSOLVED, assumption_fails9, candidates_state9

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
def _workspace(ncells, n, records, parents):
    """Arrays for the chaining runs of one search. A run's records (a node, the node being
    ``2 * (cell * n + digit) + on``, and its parent records) lie side by side in one arena, so
    a run from an "on" node is kept for every later chain that starts there (a cell's value is
    a place of its digit in three units: SE's cell and region chains start from it four
    times). ``records`` and ``parents``: the arena's room (see :func:`_run`)."""
    nodes = 2 * ncells * n
    return (
        np.zeros(nodes, dtype=np.int64),  # 0 member stamps (of the run being built, or read)
        np.empty(nodes, dtype=np.int32),  # 1 member's record
        np.empty(records, dtype=np.int32),  # 2 record's node
        np.empty(records + 1, dtype=np.int32),  # 3 record's first parent
        np.empty(parents, dtype=np.int32),  # 4 parents (records)
        np.zeros(4, dtype=np.int64),  # 5 records, parents, stamp counter, no room (1)
        np.empty(nodes, dtype=np.int32),  # 6 "on" queue
        np.empty(nodes, dtype=np.int32),  # 7 "off" queue
        np.zeros(nodes + 1, dtype=np.int64),  # 8 ancestor marks (by node), last: the mark
        np.empty((nodes + 2) * n + 1, dtype=np.int32),  # 9 ancestor queue
        np.zeros(ncells + 1, dtype=np.int64),  # 10 cells met by one "on" (last: the mark)
        # 11 runs by slot (an "on" node's cell * n + digit; the last: the "off" run): first and
        # end record, and the records (a, b) of its contradiction; first -1: not run yet
        np.full((ncells * n + 1, 4), -1, dtype=np.int32),
        np.empty(records, dtype=np.int32),  # 12 record's ancestor count, 0 until counted
        np.empty(nodes, dtype=np.int32),  # 13 records that every run holds (``_shared``)
        np.empty(nodes, dtype=np.int64),  # 14 their complexity so far
    )


@kernel
def _grown(ws, ncells, n):
    """The workspace with twice the arena, empty (one cell's chains did not fit)."""
    return _workspace(ncells, n, 2 * ws[2].shape[0], 2 * ws[4].shape[0])


@kernel
def _empty(ws):
    """Forget every run (their records make room)."""
    ws[5][0] = ws[5][1] = ws[5][3] = 0
    ws[11][:, 0] = -1


@kernel(inline="always")
def _member(ws, node):
    return ws[0][node] == ws[5][2]


@kernel
def _new_record(ws, node, parent):
    """Open a record of ``node`` with one parent record (-1 for none); it holds only once
    :func:`_keep` or :func:`_close` is called."""
    counts = ws[5]
    i = counts[0]
    ws[2][i] = node
    ws[3][i] = counts[1]
    ws[12][i] = 0
    if parent >= 0:
        ws[4][counts[1]] = parent
        counts[1] += 1
    ws[3][i + 1] = counts[1]
    return i


@kernel
def _add_parent(ws, i, node):
    """Add the member record of ``node`` as a parent of the open record ``i``."""
    counts = ws[5]
    ws[4][counts[1]] = ws[1][node]
    counts[1] += 1
    ws[3][i + 1] = counts[1]


@kernel
def _close(ws, i):
    """Keep the open record ``i`` without making it a member (a contradiction's new node: the
    last record of its run)."""
    ws[5][0] = i + 1
    return i


@kernel
def _keep(ws, i):
    """Keep the open record ``i`` as the member of its node."""
    counts = ws[5]
    counts[0] = i + 1
    node = ws[2][i]
    ws[0][node] = counts[2]
    ws[1][node] = i


@kernel
def _drop(ws, i):
    """Forget the open record ``i`` (its node is a member already)."""
    ws[5][1] = ws[3][i]


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
def _run(ws, slot, source, grid, board, T, dynamic, y_links):
    """Chain from ``source`` as run ``slot`` unless this search ran it already. A run that
    might not fit in the arena's room (as many records as nodes, ``n`` parents each) is left
    empty and flags the workspace: the caller makes room and runs it again."""
    runs, counts = ws[11], ws[5]
    if runs[slot, 0] >= 0:
        return
    nodes = ws[0].shape[0]
    first = counts[0]
    runs[slot, 0] = runs[slot, 1] = first
    runs[slot, 2] = runs[slot, 3] = -1
    if (
        first + nodes + 2 > ws[2].shape[0]
        or counts[1] + (nodes + 2) * T.units.shape[1] > ws[4].shape[0]
    ):
        counts[3] = 1
        return
    runs[slot, 2], runs[slot, 3] = _chain(ws, source, grid, board, T, dynamic, y_links)
    runs[slot, 1] = counts[0]


@kernel
def board_of(grid, placed, T):
    """What a chain run reads: the grid the dynamic rules change (reset from ``grid`` by each
    run), each cell's units in SE's order and its place in each, and the per-digit unit
    layers of that grid and of ``grid`` (a place as a bit), so a unit's cells that hold a digit
    are one word."""
    ncells, width = T.cell_units.shape
    order = np.empty((ncells, width), dtype=np.int64)
    where = np.empty((ncells, width), dtype=np.int64)
    for cell in range(ncells):
        for k in range(width):
            order[cell, k] = units_in_se_order(T, cell, k)
            for j in range(width):
                if T.cell_units[cell, j] == order[cell, k]:
                    where[cell, k] = T.unit_pos[cell, j]
    start = np.empty((T.units.shape[1], T.units.shape[0]), dtype=np.uint64)
    build_layers(grid, placed, T, start)
    return grid.copy(), order, where, start.copy(), start


@kernel
def _chain(ws, source, grid, board, T, dynamic, y_links):
    """SE's doChaining from one assumed node, its records appended to the arena; returns the
    records (on, off) of the first contradiction, or (-1, -1). ``grid``: the candidates of the
    open cells (placed cells hold none); ``board`` (:func:`board_of`): the grid the dynamic rules
    read, reset here and changed by each "off" processed, with its layers. "On" nodes are
    processed before any pending "off", as in SE."""
    counts, onq, offq, met = ws[5], ws[6], ws[7], ws[10]
    work, order, where, layers, start = board
    units = T.units
    n, width = units.shape[1], order.shape[1]
    counts[2] += 1
    work[:] = grid
    layers[:, :] = start
    i = _new_record(ws, source, -1)
    _keep(ws, i)
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
            pid = ws[2][p] >> 1
            cell, digit = pid // n, pid % n
            if y_links:  # the other values of the cell get off
                m = work[cell] & ~bit(digit)
                while m:
                    low = lowest_bit(m)
                    m ^= low
                    off = 2 * (cell * n + bit_index(low))
                    if _member(ws, off | 1):
                        return ws[1][off | 1], _close(ws, _new_record(ws, off, p))
                    if not _member(ws, off):
                        _keep(ws, _new_record(ws, off, p))
                        offq[off_tail] = counts[0] - 1
                        off_tail += 1
            met[-1] += 1
            met[cell] = met[-1]
            for k in range(width):  # the digit gets off in the cell's units
                u = order[cell, k]
                if u < 0:
                    continue
                m = layers[digit, u]
                while m:
                    low = lowest_bit(m)
                    m ^= low
                    c = units[u, bit_index(low)]
                    if met[c] == met[-1]:
                        continue
                    met[c] = met[-1]
                    off = 2 * (c * n + digit)
                    if _member(ws, off | 1):
                        return ws[1][off | 1], _close(ws, _new_record(ws, off, p))
                    if not _member(ws, off):
                        _keep(ws, _new_record(ws, off, p))
                        offq[off_tail] = counts[0] - 1
                        off_tail += 1
        elif off_head < off_tail:
            p = offq[off_head]
            off_head += 1
            pid = ws[2][p] >> 1
            cell, digit = pid // n, pid % n
            b = bit(digit)
            if y_links and popcount(work[cell]) == 2:  # the cell's other value gets on
                on = 2 * (cell * n + bit_index(work[cell] & ~b)) + 1
                i = _new_record(ws, on, p)
                hidden = grid[cell] & ~work[cell]
                while hidden:
                    low = lowest_bit(hidden)
                    hidden ^= low
                    _add_parent(ws, i, 2 * (cell * n + bit_index(low)))
                if _member(ws, on ^ 1):
                    return _close(ws, i), ws[1][on ^ 1]
                on_tail = _queue_on(ws, i, on, on_tail)
            for k in range(width):  # the digit's other place in a unit gets on
                u = order[cell, k]
                if u < 0:
                    continue
                others = layers[digit, u] & ~bit(where[cell, k])
                if others == U0 or others & (others - U1) != U0:
                    continue  # SE's strong link: exactly one other place
                on = 2 * (units[u, bit_index(others)] * n + digit) + 1
                i = _new_record(ws, on, p)
                gone = start[digit, u] & ~layers[digit, u]
                while gone:
                    low = lowest_bit(gone)
                    gone ^= low
                    _add_parent(ws, i, 2 * (units[u, bit_index(low)] * n + digit))
                if _member(ws, on ^ 1):
                    return _close(ws, i), ws[1][on ^ 1]
                on_tail = _queue_on(ws, i, on, on_tail)
            if dynamic:
                work[cell] &= ~b
                for k in range(width):
                    layers[digit, T.cell_units[cell, k]] &= ~bit(T.unit_pos[cell, k])
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
def _queue_on(ws, i, on, on_tail):
    """Keep the open record ``i`` of node ``on`` and queue it, unless ``on`` is a member
    already; returns the new tail of the "on" queue."""
    if _member(ws, on):
        _drop(ws, i)
        return on_tail
    _keep(ws, i)
    ws[6][on_tail] = i
    return on_tail + 1


@kernel
def _ancestors(ws, i):
    """SE's getAncestorCount: the distinct nodes from record ``i`` back through every parent
    (counted once per record: a kept run is read by several searches)."""
    if ws[12][i]:
        return ws[12][i]
    marks, queue = ws[8], ws[9]
    marks[-1] += 1
    stamp = marks[-1]
    queue[0] = i
    head, tail, count = 0, 1, 0
    while head < tail:
        x = queue[head]
        head += 1
        node = ws[2][x]
        if marks[node] == stamp:
            continue
        marks[node] = stamp
        count += 1
        for k in range(ws[3][x], ws[3][x + 1]):
            queue[tail] = ws[4][k]
            tail += 1
    ws[12][i] = count
    return count


@kernel
def _members(ws, slot):
    """The member records of run ``slot`` (without a contradiction's last record)."""
    runs = ws[11]
    return runs[slot, 0], runs[slot, 1] - (runs[slot, 2] >= 0)


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
def _shared(ws, best, grid, base, slots, count, sort_key, n, source):
    """Offer every node that all ``count`` runs listed in ``slots`` reach (a cell's values or
    a unit's places of a digit), its complexity the sum of its ancestors in each run, in the
    order the first run reached them."""
    held, complexity, counts = ws[13], ws[14], ws[5]
    lo, hi = _members(ws, slots[0])
    alive = 0
    for x in range(lo, hi):
        held[alive] = x
        complexity[alive] = 0
        alive += 1
    for k in range(1, count):
        lo, hi = _members(ws, slots[k])
        counts[2] += 1  # read run k's members into the stamps
        for x in range(lo, hi):
            ws[0][ws[2][x]] = counts[2]
            ws[1][ws[2][x]] = x
        kept = 0
        for j in range(alive):
            node = ws[2][held[j]]
            if _member(ws, node):
                held[kept] = held[j]
                complexity[kept] = complexity[j] + _ancestors(ws, ws[1][node])
                kept += 1
        alive = kept
    for j in range(alive):
        x = held[j]
        _offer(best, grid, base, complexity[j] + _ancestors(ws, x), sort_key, ws[2][x], n, source)


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
    board = board_of(grid, placed, T)
    nodes = 2 * ncells * n
    # room for many runs: ``_run`` wants room for the longest one (a record per node, n
    # parents each) before it starts, and most runs hold a few dozen records
    ws = _workspace(ncells, n, 32 * (nodes + 2), max(2 * n, 64) * (nodes + 2))
    best = np.array([NO_HINT, NO_HINT, NO_HINT, -1, -1], dtype=np.int64)
    room = _digit_room(ncells, T.units.shape[0])
    closures = _closures(grid, placed, n, dynamic and not nishio)
    if dynamic and enough >= base:
        spares = (room, closures)
        _quick_contradiction(ws, best, grid, board, T, base, nishio, enough, spares)
        if best[0] > enough:
            best[:] = NO_HINT  # the search below finds SE's easiest hint, in SE's order
            best[3] = best[4] = -1
    before = best.copy()
    slots = np.empty((3, n), dtype=np.int64)  # runs of a cell's values, of a unit's places, a pair
    bounds = _static_bounds(grid, T, board, dynamic)
    for cell in range(ncells):
        card = popcount(grid[cell])
        if best[0] <= enough:
            break
        if not (card > 2 or (card > 1 and dynamic)):
            continue
        before[:] = best
        emptied = False
        while True:
            _cell_chains(
                ws,
                best,
                grid,
                board,
                T,
                base,
                cell,
                dynamic,
                nishio,
                enough,
                slots,
                (bounds, room, closures),
            )
            if not ws[5][3]:
                break
            # a run found no room: make room (grow an arena that this cell alone filled) and
            # take the cell again, its offers as if first made
            best[:] = before
            if emptied:
                ws = _grown(ws, ncells, n)
            else:
                _empty(ws)
            emptied = True
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
def _quick_contradiction(ws, best, grid, board, T, base, nishio, enough, spares):
    """Offer the contradictions of every candidate assumed on until one is rated no higher
    than ``enough``. Where any such hint will do (the grade is settled), these are found
    first: they need one run each (kept for the full search), where a cell's or a unit's
    chains need several.

    On a 9x9 grid a candidate is run only if naked and hidden singles after it fail
    (``_closure_fails``, a tenth of a run's time, its closure kept for the full search): SE's
    dynamic chains through cells and units follow exactly those rules, so an assumption that
    singles leave consistent has no contradiction to find (four in five, on hard puzzles). A
    Nishio run is made only where it meets one (``_digit_fails``, on any grid). ``spares``:
    room for ``_digit_fails`` and the search's closures."""
    room, closures = spares
    n = T.units.shape[1]
    for cell in range(grid.shape[0]):
        if popcount(grid[cell]) < 2:
            continue
        m = grid[cell]
        while m:
            low = lowest_bit(m)
            m ^= low
            if nishio:
                if not _digit_fails(board[4], T, bit_index(low), cell, True, room):
                    continue
            elif not _closure_fails(closures, cell, bit_index(low), 1):
                continue
            r = cell * n + bit_index(low)
            _run(ws, r, 2 * r + 1, grid, board, T, True, not nishio)
            if ws[5][3]:  # no room: the runs kept so far make way
                _empty(ws)
                _run(ws, r, 2 * r + 1, grid, board, T, True, not nishio)
            a, b = ws[11][r, 2], ws[11][r, 3]
            if a >= 0:
                complexity = _ancestors(ws, a) + _ancestors(ws, b)
                _offer(best, grid, base, complexity, ABSURD, 2 * r, n, cell)
                if best[0] <= enough:
                    return


@kernel
def _static_bounds(grid, T, board, dynamic):
    """For the multiple forcing chains, which run on the grid as it is: each candidate's node
    in the static graph (``static_reach`` with X- and Y-links), its component, the components'
    reach, and the nodes a hint could conclude (every "off", and "on" in a cell with another
    candidate). Empty for the dynamic searches."""
    n = T.units.shape[1]
    if dynamic:
        none = np.empty(0, dtype=np.int64)
        return none, none, np.empty((0, 0), dtype=np.uint64), np.empty(0, dtype=np.uint64)
    index, comp, reach, graph = static_reach(grid, T, True, True, board[1], board[2], board[4])
    useful = np.zeros(reach.shape[1], dtype=np.uint64)
    candidates = graph[2]  # the first nodes // 2 are the grid's
    for k in range(reach.shape[0] // 2):
        node = 2 * k
        useful[node >> 6] |= U1 << np.uint64(node & 63)
        if popcount(grid[candidates[k] // n]) > 1:
            useful[(node + 1) >> 6] |= U1 << np.uint64((node + 1) & 63)
    return index, comp, reach, useful


@kernel
def _may_share(bounds, sources, count):
    """False when the "on" nodes of the candidates ``sources[:count]`` (``cell * n + digit``)
    reach no node in common on the static graph that a hint could conclude: their runs then
    share no conclusion (a run reaches no more than its source's reach), and need not be run
    for it. True when there are no bounds (the dynamic searches)."""
    index, comp, reach, useful = bounds
    if useful.shape[0] == 0:
        return True
    for w in range(reach.shape[1]):
        common = useful[w]
        for k in range(count):
            common &= reach[comp[2 * index[sources[k]] + 1], w]
        if common != U0:
            return True
    return False


@kernel
def _closures(grid, placed, n, wanted):
    """For a dynamic search through cells and units on a 9x9 grid (``wanted``): room for the
    singles closure of every assumption (a candidate on or off, as node ``2 * (cell * n +
    digit) + on``), whether each is known (0: not yet, 1: singles leave it consistent, 2:
    they fail), the grid's own state (``candidates_state9``) and room for a union. Empty
    elsewhere: nothing is then bounded."""
    if not wanted or n != 9:
        none = np.empty(0, dtype=np.int64)
        return np.empty((0, STATE_WORDS), dtype=np.int64), np.empty(0, dtype=np.int8), none, none
    state = np.zeros(STATE_WORDS, dtype=np.int64)
    candidates_state9(grid, placed, state)
    nodes = 2 * grid.shape[0] * n
    known = np.zeros(nodes, dtype=np.int8)
    return np.empty((nodes, STATE_WORDS), dtype=np.int64), known, state, np.empty_like(state)


@kernel
def _closure_fails(closures, cell, digit, on):
    """True when singles after the assumption (``cell`` holding ``digit``, or with ``on`` 0
    not holding it) fail, or where there are no closures. A dynamic run through cells and
    units follows exactly those rules, so it meets a contradiction only then."""
    rows, known, state, _ = closures
    if known.shape[0] == 0:
        return True
    node = 2 * (cell * 9 + digit) + on
    if known[node] == 0:
        known[node] = 2 if assumption_fails9(state, rows[node], cell, digit, on == 1) else 1
    return known[node] == 2


@kernel
def _closures_share(closures, candidates, count, on_only):
    """False when the dynamic runs from ``candidates[:count]`` assumed on (or, without
    ``on_only``, the one candidate assumed on and off) can share no conclusion: each reaches
    no more than its singles closure, so the candidates that every consistent closure removes
    hold all they share (a cell put on in all has its other candidates removed in all). True
    where there are no closures, or every closure fails."""
    rows, known, state, union = closures
    if known.shape[0] == 0:
        return True
    union[:] = 0
    for i in range(2 if not on_only else count):
        candidate = candidates[0 if not on_only else i]
        on = 1 if on_only else 1 - i
        if _closure_fails(closures, candidate // 9, candidate % 9, on):
            continue
        row = rows[2 * candidate + on]
        for w in range(UNSOLVED):
            union[w] |= row[w]
    for w in range(UNSOLVED):  # noqa: SIM110 (a plain loop for numba)
        if state[w] & ~union[w]:
            return True
    return False


@kernel
def _digit_room(ncells, nunits):
    """Room for ``_digit_fails``: a digit's unit layers, the units it is placed in, a queue
    of cells and each cell's state (1: on, 2: off)."""
    return (
        np.empty(nunits, dtype=np.uint64),
        np.empty(nunits, dtype=np.bool_),
        np.empty(ncells, dtype=np.int64),
        np.empty(ncells, dtype=np.int8),
    )


@kernel
def _digit_fails(start, T, digit, cell, on, room):
    """True when SE's Nishio run from ``cell`` holding ``digit`` (``on``) or not holding it
    meets a contradiction. Such a run follows the digit's own rules only: an "on" puts the
    digit off in its units, and an "off" that leaves a unit one place puts it on there, on the
    grid as the run leaves it. Followed here to their end on the digit's unit layers
    (``start``, ``board_of``'s), the contradiction is a cell put both on and off (a unit that
    loses every place puts its last one on as the one before goes, then off; one that held a
    single place at the start puts nothing on)."""
    layer, placed, queue, state = room
    units, cell_units = T.units, T.cell_units
    for u in range(units.shape[0]):
        layer[u] = start[digit, u]
        placed[u] = layer[u] == U0  # at the start, the units the digit is placed in
    state[:] = 0
    tail = 0
    if on:
        state[cell] = 1
        queue[0] = cell
        tail = 1
    else:
        tail = _put_off(layer, placed, queue, tail, state, T, cell)
    head = 0
    while head < tail:
        x = queue[head]
        head += 1
        for k in range(cell_units.shape[1]):
            placed[cell_units[x, k]] = True
        for k in range(cell_units.shape[1]):
            u = cell_units[x, k]
            others = layer[u] & ~bit(T.unit_pos[x, k])
            while others:
                low = lowest_bit(others)
                others ^= low
                p = units[u, bit_index(low)]
                if state[p] == 1:
                    return True  # two places of one unit on: one is put off
                if state[p] == 0:
                    tail = _put_off(layer, placed, queue, tail, state, T, p)
    return False


@kernel
def _put_off(layer, placed, queue, tail, state, T, cell):
    """Put ``cell`` off in the digit's layers (``_digit_fails``) and queue the place it
    leaves alone in any of its units; the new tail of the queue."""
    units, cell_units = T.units, T.cell_units
    state[cell] = 2
    for k in range(cell_units.shape[1]):
        layer[cell_units[cell, k]] &= ~bit(T.unit_pos[cell, k])
    for k in range(cell_units.shape[1]):
        u = cell_units[cell, k]
        if placed[u]:
            continue
        places = layer[u]
        if places != U0 and places & (places - U1) == U0:
            p = units[u, bit_index(places)]
            if state[p] == 0:
                state[p] = 1
                queue[tail] = p
                tail += 1
    return tail


@kernel
def _cell_chains(ws, best, grid, board, T, base, cell, dynamic, nishio, enough, slots, spares):
    """The hints of one cell: a contradiction from a value on or off, a double implication,
    the region chains from each value, then what every value of the cell implies. A run is
    made only where it may offer something (``spares``: the static bounds of the multiple
    chains, ``_may_share``; room for ``_digit_fails``, by which a Nishio run meets a
    contradiction or not; the singles closures of the dynamic chains, ``_closures_share``)."""
    bounds, room, closures = spares
    n = T.units.shape[1]
    off_slot = ws[11].shape[0] - 1
    card = popcount(grid[cell])
    value = 0
    m = grid[cell]
    while m:
        low = lowest_bit(m)
        slots[0, value] = cell * n + bit_index(low)
        m ^= low
        value += 1
    shares = _may_share(bounds, slots[0], card) and _closures_share(closures, slots[0], card, True)
    value = 0
    m = grid[cell]
    while m:
        low = lowest_bit(m)
        m ^= low
        digit = bit_index(low)
        on = 2 * (cell * n + digit) + 1
        r = cell * n + digit
        double = dynamic and not nishio and card >= 3
        double = double and _closures_share(closures, slots[0, value:], 1, False)
        if nishio:
            run_on = _digit_fails(board[4], T, digit, cell, True, room)
        else:  # a dynamic run's contradiction is one that singles find (``_closure_fails``)
            run_on = shares or double or (dynamic and _closure_fails(closures, cell, digit, 1))
        if run_on:
            _run(ws, r, on, grid, board, T, dynamic, not nishio)
            a, b = ws[11][r, 2], ws[11][r, 3]
            if a >= 0 and dynamic:  # SE: contradictions count in Nishio and dynamic chains
                complexity = _ancestors(ws, a) + _ancestors(ws, b)
                _offer(best, grid, base, complexity, ABSURD, on ^ 1, n, cell)
        if dynamic and best[0] > enough:
            records, parents = ws[5][0], ws[5][1]
            if nishio:
                run_off = _digit_fails(board[4], T, digit, cell, False, room)
            else:
                run_off = double or _closure_fails(closures, cell, digit, 0)
            if run_off:
                _run(ws, off_slot, on ^ 1, grid, board, T, dynamic, not nishio)
                a, b = ws[11][off_slot, 2], ws[11][off_slot, 3]
                if a >= 0:
                    complexity = _ancestors(ws, a) + _ancestors(ws, b)
                    _offer(best, grid, base, complexity, ABSURD, on, n, cell)
                if double:
                    slots[2, 0], slots[2, 1] = r, off_slot
                    _shared(ws, best, grid, base, slots[2], 2, DOUBLE, n, cell)
            ws[5][0], ws[5][1] = records, parents  # no later chain starts "off": room
            ws[11][off_slot, 0] = -1
        if not nishio and best[0] > enough:
            _region_chains(
                ws, best, grid, board, T, base, cell, digit, r, dynamic, slots[1], spares
            )
        value += 1
        if best[0] <= enough:
            return
    if not nishio and shares:
        _shared(ws, best, grid, base, slots[0], card, CELL, n, cell)


@kernel
def _region_chains(ws, best, grid, board, T, base, cell, digit, r, dynamic, slots, spares):
    """SE's region chains from ``cell`` holding ``digit`` (run ``r``): in each unit where the
    cell is the digit's first place, a chain from every other place; the nodes they all
    reach. ``slots``: room for a unit's runs. A unit whose places could share nothing
    (``_may_share``, ``_closures_share``) is passed over."""
    units = T.units
    n = units.shape[1]
    order, start = board[1], board[4]
    for k in range(order.shape[1]):
        u = order[cell, k]
        if u < 0:
            continue
        places = start[digit, u]
        if popcount(places) < 2 or units[u, bit_index(lowest_bit(places))] != cell:
            continue
        slots[0] = r
        count = 1
        places &= places - U1  # the other places, in the unit's order
        while places:
            low = lowest_bit(places)
            places ^= low
            slots[count] = units[u, bit_index(low)] * n + digit
            count += 1
        if not _may_share(spares[0], slots, count):
            continue
        if not _closures_share(spares[2], slots, count, True):
            continue
        for k in range(count):  # run ``r`` too: its cell's chains may not have needed it
            _run(ws, slots[k], 2 * slots[k] + 1, grid, board, T, dynamic, True)
        _shared(ws, best, grid, base, slots, count, REGION, n, cell)
