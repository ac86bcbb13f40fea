"""Sukaku Explainer's forcing chains and bidirectional cycles, found and rated as SE does.

SE's first chaining technique (its "Forcing Chains & Cycles", 6.5 up) follows the implications
of one candidate assumed on (and, for forcing chains, off) breadth first on the grid as it is:
a candidate on puts its digit off in its peers and, with Y-links, the cell's other digits off; a
candidate off puts on the digit's other place in a unit that has two and, with Y-links, the
other digit of a bivalue cell. Three searches, each rated as SE rates its hints:

* **cycles** (6.5 with X- or Y-links alone, 7.0 with both): the assumption comes back to itself
  after four or more nodes; a candidate that sees an "on" node of the cycle and an "off" node of
  its digit, in cells off the cycle, goes.
* **forcing chains** (6.6 with X-links alone, 7.0 with both): the assumption implies its own
  opposite, so it is false (or, assumed off, true).

A hint rates its base plus SE's length bonus (``engine.logic.se_chains.length_steps``) by its
complexity, the nodes of its chain. As SE, the rung takes the easiest hint (lowest rating, then
fewest nodes, then X before Y before both) and records it as one step, whose ``extra`` is that
complexity and whose technique says which kind it is (``CYCLE``, ``FORCING_X_CHAIN``,
``FORCING_CHAIN``).
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.se_chains import length_steps, settled_tenths, units_in_se_order
from engine.logic.state import (
    CYCLE,
    FORCING_CHAIN,
    FORCING_X_CHAIN,
    U0,
    add_proof,
    bit,
    bit_index,
    commit,
    eliminate,
    lowest_bit,
    mark,
    popcount,
)

NO_HINT = 1 << 30


@kernel
def _workspace(ncells, n):
    """Records of one search (node ``2 * (cell * n + digit) + on``, parent record, depth), the
    "on" nodes met (stamps), the layers, and the stamps a cycle's eliminations are read with."""
    nodes = 2 * ncells * n
    records = nodes * (1 + 4 * n)  # a cycle search keeps every "off" of every "on" it meets
    return (
        np.empty(records, dtype=np.int32),  # 0 node
        np.empty(records, dtype=np.int32),  # 1 parent record
        np.empty(records, dtype=np.int32),  # 2 depth (the source: 0)
        np.zeros(nodes + 1, dtype=np.int64),  # 3 nodes met, last: the stamp
        np.empty(records, dtype=np.int32),  # 4 this layer
        np.empty(records, dtype=np.int32),  # 5 the next layer
        np.zeros(ncells * n + 1, dtype=np.int64),  # 6 candidates cancelled forward
        np.zeros(ncells * n + 1, dtype=np.int64),  # 7 ... and backward, last: the stamp
        np.zeros(ncells + 1, dtype=np.int64),  # 8 the cycle's cells / the cells one "on" met
        np.empty(ncells * n, dtype=np.int32),  # 9 the best hint's eliminations
        np.zeros(1, dtype=np.int64),  # 10 their count
    )


@kernel
def _is_ancestor(ws, rec, node):
    """SE's isParent: ``node`` is on the chain from record ``rec`` back to the source."""
    x = ws[1][rec]
    while x >= 0:
        if ws[0][x] == node:
            return True
        x = ws[1][x]
    return False


@kernel
def _search(ws, source, grid, T, y_links, x_links, cycles, best, base, sort_key, order):
    """One of SE's unary searches from ``source``, layer by layer: with ``cycles``, SE's doCycles
    (an "off" node is kept once per chain that reaches it, unless it is on that chain, and a
    cycle closes where the source comes back after four nodes or more); else doForcingChains
    (each node once; the chain ends at the source's opposite). Offers each hint to ``best``."""
    nodes, parent, depth, met, layer, following = ws[0], ws[1], ws[2], ws[3], ws[4], ws[5]
    near = ws[8]
    units = T.units
    n = units.shape[1]
    met[-1] += 1
    seen = met[-1]
    how = (source, cycles, seen, base, sort_key, order)
    nodes[0], parent[0], depth[0] = source, -1, 0
    met[source] = seen
    layer[0] = 0
    size, count = 1, 1
    on_phase = source & 1 == 1
    length = 0
    while size:
        length += 1
        # a hint found from here on has ``length`` nodes or more: stop once none can do better
        bound = base + length_steps(length - 2)
        if (
            best[0] <= best[6]
            or bound > best[0]
            or (bound == best[0] and (length, sort_key) > (best[1], best[2]))
        ):
            return
        nxt = 0
        for li in range(size):
            p = layer[li]
            pid = nodes[p] >> 1
            cell, digit = pid // n, pid % n
            b = bit(digit)
            if on_phase:
                m = grid[cell] & ~b if y_links else U0  # the cell's other digits
                while m:
                    low = lowest_bit(m)
                    m ^= low
                    off = 2 * (cell * n + bit_index(low))
                    count, nxt = _step(ws, p, off, how, count, nxt, best, grid, T)
                near[-1] += 1  # the digit in the cell's units, each cell once
                near[cell] = near[-1]
                for k in range(T.cell_units.shape[1]):
                    u = units_in_se_order(T, cell, k)
                    if u < 0:
                        continue
                    for j in range(n):
                        c = units[u, j]
                        if near[c] != near[-1] and grid[c] & b:
                            near[c] = near[-1]
                            off = 2 * (c * n + digit)
                            count, nxt = _step(ws, p, off, how, count, nxt, best, grid, T)
            else:
                if y_links and popcount(grid[cell]) == 2:  # the bivalue cell's other digit
                    on = 2 * (cell * n + bit_index(grid[cell] & ~b)) + 1
                    if cycles and length >= 4 and on == source:
                        _close_cycle(ws, p, count, best, grid, T, how)
                    count, nxt = _step(ws, p, on, how, count, nxt, best, grid, T)
                if not x_links:
                    continue
                for k in range(T.cell_units.shape[1]):  # the digit's other place in a unit
                    u = units_in_se_order(T, cell, k)
                    if u < 0:
                        continue
                    other = -1
                    for j in range(n):
                        c = units[u, j]
                        if c != cell and grid[c] & b:
                            if other >= 0:
                                other = -2
                                break
                            other = c
                    if other >= 0:
                        on = 2 * (other * n + digit) + 1
                        if cycles and length >= 4 and on == source:
                            _close_cycle(ws, p, count, best, grid, T, how)
                        count, nxt = _step(ws, p, on, how, count, nxt, best, grid, T)
        for li in range(nxt):
            layer[li] = following[li]
        size = nxt
        on_phase = not on_phase


@kernel
def _step(ws, p, node, how, count, nxt, best, grid, T):
    """Record ``p`` implies ``node``: keep it for the next layer unless met (an "off" in a cycle
    search: unless on the chain to ``p``); a forcing chain ends at the source's opposite.
    ``how``: the search's (source, cycles, stamp, base, tie-break, scan order). Returns the new
    (record count, next layer size)."""
    nodes, parent, depth, met, following = ws[0], ws[1], ws[2], ws[3], ws[5]
    source, cycles, seen = how[0], how[1], how[2]
    if cycles and not node & 1:
        if _is_ancestor(ws, p, node):
            return count, nxt
    elif met[node] == seen:
        return count, nxt
    met[node] = seen
    nodes[count], parent[count], depth[count] = node, p, depth[p] + 1
    if not cycles and node == source ^ 1:
        _offer_forcing(ws, best, grid, how, depth[count] + 1, node, T.units.shape[1])
    following[nxt] = count
    return count + 1, nxt + 1


@kernel
def _close_cycle(ws, p, count, best, grid, T, how):
    """The "off" record ``p`` brings the source back on: a cycle, held in the free record
    ``count`` (overwritten by the next record)."""
    nodes, parent, depth = ws[0], ws[1], ws[2]
    nodes[count], parent[count], depth[count] = nodes[0], p, depth[p] + 1
    _offer_cycle(ws, best, grid, T, how, count)


@kernel(inline="always")
def _better(best, tenths, complexity, how):
    """SE's order of hints: rating, complexity, tie-break, then the first found (in SE's scan:
    by source cell and digit, a cycle before a forcing chain from "on" and one from "off")."""
    return (tenths, complexity, how[4], how[5]) < (best[0], best[1], best[2], best[3])


@kernel
def _keep(best, tenths, complexity, how, cell):
    best[0], best[1], best[2], best[3], best[4], best[5] = (
        tenths,
        complexity,
        how[4],
        how[5],
        cell,
        how[3],
    )


@kernel
def _offer_forcing(ws, best, grid, how, complexity, target, n):
    """A forcing chain ending at ``target`` (the source's opposite): off, the candidate goes;
    on, the cell's other candidates go."""
    tenths = how[3] + length_steps(complexity - 2)
    if not _better(best, tenths, complexity, how):
        return
    pid = target >> 1
    cell, digit = pid // n, pid % n
    kept = ws[9]
    m = grid[cell] & ~bit(digit) if target & 1 else bit(digit)
    count = 0
    while m:
        low = lowest_bit(m)
        m ^= low
        kept[count] = cell * n + bit_index(low)
        count += 1
    if count:
        ws[10][0] = count
        _keep(best, tenths, complexity, how, cell)


@kernel
def _offer_cycle(ws, best, grid, T, how, closing):
    """A cycle from the source back to itself (record ``closing``): the candidates off the
    cycle that see one of its "on" nodes and one of its "off" nodes of their digit go."""
    nodes, parent, depth, cells = ws[0], ws[1], ws[2], ws[8]
    forward, backward = ws[6], ws[7]
    n = T.units.shape[1]
    complexity = depth[closing]  # the closing node is the source: counted once
    tenths = how[3] + length_steps(complexity - 2)
    if not _better(best, tenths, complexity, how):
        return
    cells[-1] += 1
    x = closing
    while parent[x] >= 0:
        cells[(nodes[x] >> 1) // n] = cells[-1]
        x = parent[x]
    forward[-1] += 1
    stamp = forward[-1]
    x = closing
    while parent[x] >= 0:
        pid = nodes[x] >> 1
        cell, digit = pid // n, pid % n
        for q in T.peers[cell]:
            if q == cell or cells[q] == cells[-1] or grid[q] & bit(digit) == U0:
                continue
            if nodes[x] & 1:
                forward[q * n + digit] = stamp
            else:
                backward[q * n + digit] = stamp
        x = parent[x]
    kept = ws[9]
    count = 0
    x = closing
    while parent[x] >= 0:
        pid = nodes[x] >> 1
        cell, digit = pid // n, pid % n
        for q in T.peers[cell]:
            i = q * n + digit
            if forward[i] == stamp and backward[i] == stamp:
                forward[i] = 0  # each once
                kept[count] = i
                count += 1
        x = parent[x]
    if count:
        ws[10][0] = count
        _keep(best, tenths, complexity, how, (nodes[closing] >> 1) // n)


#: SE's unary searches (X-links alone, Y-links alone, both) as (Y-links, X-links, cycles,
#: forcing chains, base in tenths, tie-break). SE finds both kinds from each source in turn;
#: here a kind's sources come together, and the cycles with both links come last: a cycle that
#: removes a candidate gives that candidate a forcing chain a few nodes longer, so where no
#: forcing chain holds, no cycle with both links can, and where one does its length bounds
#: the cycle search. The order of hints stays SE's (``_better``).
SEARCHES = (
    (False, True, True, False, 65, 2),
    (False, True, False, True, 66, 2),
    (True, False, True, False, 65, 3),
    (True, True, False, True, 70, 4),
    (True, True, True, False, 70, 4),
)


@kernel
def find_se_cycles(cand, placed, T, rec):
    """Record the easiest of SE's cycles and forcing chains as one step (see the module
    docstring); its ``extra`` is the hint's complexity."""
    ncells = cand.shape[0]
    n = T.units.shape[1]
    grid = cand.copy()
    for c in range(ncells):
        if placed[c]:
            grid[c] = U0
    ws = _workspace(ncells, n)
    # rating in tenths, complexity, tie-break, scan order, cell, base; a rating that is enough
    best = np.array([NO_HINT, NO_HINT, NO_HINT, NO_HINT, -1, 0, 0], dtype=np.int64)
    best[6] = settled_tenths(rec)
    for y_links, x_links, cycles, forcing, base, sort_key in SEARCHES:
        if y_links and x_links and cycles and best[4] < 0:
            break  # no forcing chain: no cycle with both links removes anything
        for cell in range(ncells):
            if best[0] <= best[6]:
                break
            card = popcount(grid[cell])
            if card < 2 or (not x_links and card > 2):  # SE: Y-cycles start in bivalue cells
                continue
            m = grid[cell]
            while m:
                low = lowest_bit(m)
                m ^= low
                on = 2 * (cell * n + bit_index(low)) + 1
                order = 4 * (on >> 1)
                if cycles:
                    _search(ws, on, grid, T, y_links, x_links, True, best, base, sort_key, order)
                if forcing:
                    _search(ws, on, grid, T, y_links, True, False, best, base, sort_key, order + 1)
                    _search(
                        ws, on ^ 1, grid, T, y_links, True, False, best, base, sort_key, order + 2
                    )
    if best[4] < 0:
        return
    start = mark(rec)
    add_proof(rec, best[4])
    kept = ws[9]
    digits = U0
    for i in range(ws[10][0]):
        eliminate(rec, cand, kept[i] // n, kept[i] % n)
        digits |= bit(kept[i] % n)
    tech = CYCLE if best[5] == 65 else (FORCING_X_CHAIN if best[5] == 66 else FORCING_CHAIN)
    commit(rec, start, tech, best[1], digits)
