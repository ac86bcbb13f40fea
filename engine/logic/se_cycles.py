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
from engine.logic.se_chains import board_of, length_steps, settled_tenths
from engine.logic.se_graph import static_reach
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
def _workspace(ncells, n, nodes):
    """Records of one search (a node of the static graph, which has ``nodes``; parent record,
    depth), the "on" nodes met (stamps), the layers, and the stamps a cycle's eliminations are
    read with."""
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
        np.zeros(ncells + 1, dtype=np.int64),  # 8 the cycle's cells
        np.empty(ncells * n, dtype=np.int32),  # 9 the best hint's eliminations
        np.zeros(1, dtype=np.int64),  # 10 their count
        np.empty(nodes, dtype=np.int64),  # 11 a forcing chain search's distances, by node
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
def _search(ws, source, graph, grid, T, mode, best, comp):
    """SE's doCycles from ``source``, a node of the static graph (``static_reach``, whose
    links are the search's, in SE's order), layer by layer; ``mode`` is (base, tie-break, scan
    order, cap): an "off" node is kept once per chain that reaches it, unless it is on that
    chain, and a cycle closes where the source comes back after four nodes or more. Offers
    each cycle to ``best``; stops after ``cap`` layers. A cycle lies in the source's strongly
    connected component (``comp``), and so does every path between two of its nodes: the
    search keeps no node outside it, and finds the same cycles in the same order."""
    nodes, parent, depth, met, layer, following = ws[0], ws[1], ws[2], ws[3], ws[4], ws[5]
    adj, degree = graph[0], graph[1]
    base, sort_key, order, cap = mode
    met[-1] += 1
    seen = met[-1]
    how = (source, seen, base, sort_key, order)
    nodes[0], parent[0], depth[0] = source, -1, 0
    met[source] = seen
    layer[0] = 0
    size, count = 1, 1
    length = 0
    while size:
        length += 1
        if _past_best(best, base, sort_key, length, cap):
            return
        nxt = 0
        for li in range(size):
            p = layer[li]
            v = nodes[p]
            for e in range(degree[v]):
                w = adj[v, e]
                if comp[w] != comp[source]:
                    continue  # no way back to the source
                if length >= 4 and w == source:
                    _close_cycle(ws, p, count, best, grid, T, how, graph[2])
                count, nxt = _step(ws, p, w, how, count, nxt)
        for li in range(nxt):
            layer[li] = following[li]
        size = nxt


@kernel(inline="always")
def _past_best(best, base, sort_key, length, cap):
    """True when a search's hints from layer ``length`` on (``length`` nodes or more) cannot
    beat ``best``, or one rated low enough is in hand (``best[6]``, see ``find_se_cycles``)."""
    bound = base + length_steps(length - 2)
    return (
        length > cap
        or best[0] <= best[6]
        or bound > best[0]
        or (bound == best[0] and (length, sort_key) > (best[1], best[2]))
    )


@kernel
def _step(ws, p, node, how, count, nxt):
    """Record ``p`` implies ``node``: keep it for the next layer unless met (an "off": unless
    on the chain to ``p``). ``how``: the search's (source, stamp, base, tie-break, scan
    order). Returns the new (record count, next layer size)."""
    nodes, parent, depth, met, following = ws[0], ws[1], ws[2], ws[3], ws[5]
    if not node & 1:
        if _is_ancestor(ws, p, node):
            return count, nxt
    elif met[node] == how[1]:
        return count, nxt
    met[node] = how[1]
    nodes[count], parent[count], depth[count] = node, p, depth[p] + 1
    following[nxt] = count
    return count + 1, nxt + 1


@kernel
def _close_cycle(ws, p, count, best, grid, T, how, candidates):
    """The "off" record ``p`` brings the source back on: a cycle, held in the free record
    ``count`` (overwritten by the next record)."""
    nodes, parent, depth = ws[0], ws[1], ws[2]
    nodes[count], parent[count], depth[count] = nodes[0], p, depth[p] + 1
    _offer_cycle(ws, best, grid, T, how, count, candidates)


@kernel(inline="always")
def _better(best, tenths, complexity, how):
    """SE's order of hints: rating, complexity, tie-break, then the first found (in SE's scan:
    by source cell and digit, a cycle before a forcing chain from "on" and one from "off")."""
    return (tenths, complexity, how[3], how[4]) < (best[0], best[1], best[2], best[3])


@kernel
def _keep(best, tenths, complexity, how, cell):
    best[0], best[1], best[2], best[3], best[4], best[5] = (
        tenths,
        complexity,
        how[3],
        how[4],
        cell,
        how[2],
    )


@kernel
def _offer_forcing(ws, best, grid, how, complexity, target, n):
    """A forcing chain ending at ``target`` (the source's opposite): off, the candidate goes;
    on, the cell's other candidates go."""
    tenths = how[2] + length_steps(complexity - 2)
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
def _offer_cycle(ws, best, grid, T, how, closing, candidates):
    """A cycle from the source back to itself (record ``closing``): the candidates off the
    cycle that see one of its "on" nodes and one of its "off" nodes of their digit go
    (``candidates``: each static node's candidate, ``cell * n + digit``)."""
    nodes, parent, depth, cells = ws[0], ws[1], ws[2], ws[8]
    forward, backward = ws[6], ws[7]
    n = T.units.shape[1]
    complexity = depth[closing]  # the closing node is the source: counted once
    tenths = how[2] + length_steps(complexity - 2)
    if not _better(best, tenths, complexity, how):
        return
    cells[-1] += 1
    x = closing
    while parent[x] >= 0:
        cells[candidates[nodes[x] >> 1] // n] = cells[-1]
        x = parent[x]
    forward[-1] += 1
    stamp = forward[-1]
    x = closing
    while parent[x] >= 0:
        pid = candidates[nodes[x] >> 1]
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
        pid = candidates[nodes[x] >> 1]
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
        _keep(best, tenths, complexity, how, candidates[nodes[closing] >> 1] // n)


#: SE's unary searches (X-links alone, Y-links alone, both) as (Y-links, X-links, cycles,
#: forcing chains, base in tenths, tie-break). SE finds both kinds from each source in turn;
#: here a kind's sources come together, and the cycles with both links come last: a cycle that
#: removes a candidate gives that candidate a forcing chain a few nodes longer, so where no
#: forcing chain holds, no cycle with both links can, and where one does its length bounds
#: the cycle search. Forcing chains with both links are looked for twice, first no longer than
#: ``SHORT`` layers: most states have short ones, and once one is found every longer search
#: stops at its length. The order of hints stays SE's (``_better``).
ALL = 1 << 20
SHORT = 6
SEARCHES = (
    (False, True, True, False, 65, 2, ALL),
    (False, True, False, True, 66, 2, ALL),
    (True, False, True, False, 65, 3, ALL),
    (True, True, False, True, 70, 4, SHORT),
    (True, True, False, True, 70, 4, ALL),
    (True, True, True, False, 70, 4, ALL),
)


@kernel
def find_se_cycles(cand, placed, T, rec):
    """Record the easiest of SE's cycles and forcing chains as one step (see the module
    docstring); its ``extra`` is the hint's complexity."""
    ncells = cand.shape[0]
    n = T.units.shape[1]
    grid = cand.copy()
    candidates = 0
    for c in range(ncells):
        if placed[c]:
            grid[c] = U0
        candidates += popcount(grid[c])
    ws = _workspace(ncells, n, 2 * candidates)
    # rating in tenths, complexity, tie-break, scan order, cell, base; a rating that is enough
    best = np.array([NO_HINT, NO_HINT, NO_HINT, NO_HINT, -1, 0, 0], dtype=np.int64)
    best[6] = settled_tenths(rec)
    index = comp = np.empty(0, dtype=np.int64)
    reach = np.empty((0, 0), dtype=np.uint64)
    goes = np.empty(0, dtype=np.uint64)
    graph = (np.empty((0, 0), dtype=np.int64), index, index)
    links = -1
    board = board_of(grid, placed, T)
    for y_links, x_links, cycles, forcing, base, sort_key, cap in SEARCHES:
        if best[0] <= best[6]:
            break  # a hint rated low enough is in hand: the later searches would stop at once
        if y_links and x_links and cycles and best[4] < 0:
            break  # no forcing chain: no cycle with both links removes anything
        if links != 2 * y_links + x_links:  # the searches ``reach`` spares: most of them
            links = 2 * y_links + x_links
            index, comp, reach, graph = static_reach(grid, T, y_links, x_links, *board[1:4])
            goes = _refutable(reach, comp)
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
                v = 2 * index[on >> 1] + 1  # the source's node in ``reach``
                if cycles and _meets(reach[comp[v]], goes):
                    _search(ws, v, graph, grid, T, (base, sort_key, order, cap), best, comp)
                if not forcing:
                    continue
                for opposite in range(2):  # from "on", then from "off"
                    if _reaches(reach, comp, v ^ opposite):
                        how = (on ^ opposite, 0, base, sort_key, order + 1 + opposite)
                        toward = reach[comp[v ^ opposite]]
                        _forcing_chain(ws, graph, v ^ opposite, how, cap, best, grid, n, toward)
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


@kernel
def _forcing_chain(ws, graph, v, how, cap, best, grid, n, toward):
    """SE's doForcingChains from node ``v`` of the static graph (``static_reach``): the chain
    to its opposite is the shortest path, offered if ``_search``'s bounds allow its length;
    ``how`` as there, for the source's own node; ``toward``: the nodes ``v`` reaches.

    Each of SE's links holds reversed with the opposite signs, so a node ``w`` leads on to
    ``v``'s opposite in as many links as ``v`` takes to reach ``w``'s opposite. One breadth
    first search from ``v`` (each node once, at its distance) then measures both halves of a
    chain: where ``w`` and its opposite are both met, a chain of their two distances holds, and
    once the layers reach half a chain's length no shorter one is left to find. It keeps no
    node whose opposite ``v`` does not reach (that node leads nowhere near the target)."""
    adj, degree = graph[0], graph[1]
    met, layer, following, distance = ws[3], ws[4], ws[5], ws[11]
    met[-1] += 1
    seen = met[-1]
    met[v] = seen
    distance[v] = 0
    layer[0] = v
    size = 1
    shortest = NO_HINT  # the shortest chain met so far, in links
    depth = 0  # every node within ``depth`` links is met: a chain not met is longer than 2 * depth
    base, sort_key = how[2], how[3]
    while shortest > 2 * depth + 1 and size:
        if _past_best(best, base, sort_key, 2 * depth + 1, cap):
            return
        depth += 1
        count = 0
        for i in range(size):
            x = layer[i]
            for e in range(degree[x]):
                w = adj[x, e]
                if met[w] == seen:
                    continue
                met[w] = seen
                distance[w] = depth
                if toward[(w ^ 1) >> 6] & bit((w ^ 1) & 63) == U0:
                    continue  # no way on to the target
                if met[w ^ 1] == seen:
                    shortest = min(shortest, depth + distance[w ^ 1])
                following[count] = w
                count += 1
        layer, following = following, layer
        size = count
    if shortest < NO_HINT and not _past_best(best, base, sort_key, shortest, cap):
        _offer_forcing(ws, best, grid, how, shortest + 1, how[0] ^ 1, n)


@kernel
def _refutable(reach, comp):
    """The "off" nodes of the candidates whose "on" reaches their "off" (a forcing chain says
    they go), as a bitset over the nodes. A cycle's candidate q goes because it sees an "on"
    node A and an "off" node B of the cycle: q on puts A off, which, the cycle's links read
    backwards (each of SE's links holds reversed with the opposite signs), turns B on and so q
    off. So only these candidates can go, and only a source whose "on" reaches one of their
    "off" nodes (going round the cycle to A, on, then to q) can close a cycle that removes
    anything: the cycle searches skip every other source, and find the same hints."""
    goes = np.zeros(reach.shape[1], dtype=np.uint64)
    for off in range(0, comp.shape[0], 2):
        if _reaches(reach, comp, off + 1):
            goes[off >> 6] |= bit(off & 63)
    return goes


@kernel(inline="always")
def _meets(row, goes):
    """Whether the reach ``row`` holds a node of ``goes`` (see :func:`_refutable`)."""
    for w in range(goes.shape[0]):  # noqa: SIM110 (a plain loop for numba)
        if row[w] & goes[w] != U0:
            return True
    return False


@kernel(inline="always")
def _reaches(reach, comp, v):
    """Whether node ``v`` reaches its opposite (so a forcing chain from ``v`` exists)."""
    w = v ^ 1
    return reach[comp[v], w >> 6] & (np.uint64(1) << np.uint64(w & 63)) != U0
