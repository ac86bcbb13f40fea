"""SE's implication graph on the grid as it is, and which node reaches which on it.

SE's static searches (its cycles and forcing chains, and its multiple forcing chains, which read
the grid as it stands rather than as the assumptions leave it) follow fixed links: a candidate
on puts its digit off in its units and, with Y-links, the cell's other digits off; a candidate
off puts on the digit's other place in a unit that has two (X-links) and, with Y-links, the
other digit of a bivalue cell. A run from a node reaches no more than the node's reach on this
graph (a contradiction can end it sooner), so a search can skip a source, or a set of sources,
whose reach holds nothing it could conclude.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import U0, U1, bit, bit_index, lowest_bit, popcount


@kernel
def static_reach(grid, T, y_links, x_links, se_units, where, layers):
    """Which node reaches which on the grid as it is, with SE's links of a search (an "on"
    puts its digit off in its units, and with ``y_links`` the cell's other digits; an "off"
    puts on a bivalue cell's other digit with ``y_links``, the digit's other place in a unit
    with ``x_links``): the nodes of the candidates (``index[cell * n + digit]``, -1 for none;
    node ``2 * k + on`` of candidate ``k``), each node's strongly connected component, each
    component's reach as a bitset over the nodes, and the graph (each node's links, in the
    order SE follows them, their count, and each candidate ``k``'s ``cell * n + digit``). SE's
    searches run on this graph (forcing chains, cycles) and find something only where reach
    says so: most sources need no search (Tarjan's components, then their reach in the order
    Tarjan closes them). ``se_units``, ``where`` and ``layers`` are ``board_of``'s: a digit's
    places in a unit are one word."""
    units = T.units
    n = units.shape[1]
    ncells = grid.shape[0]
    index = np.full(ncells * n, -1, dtype=np.int64)
    candidates = np.empty(ncells * n, dtype=np.int64)
    k = 0
    for c in range(ncells):
        m = grid[c]
        while m:
            low = lowest_bit(m)
            m ^= low
            index[c * n + bit_index(low)] = k
            candidates[k] = c * n + bit_index(low)
            k += 1
    nodes = 2 * k
    width = 4 * n
    adj = np.empty((nodes, width), dtype=np.int64)
    degree = np.zeros(nodes, dtype=np.int64)
    linked = np.full(ncells, -1, dtype=np.int64)  # the "on" node a cell's "off" last joined
    for c in range(ncells):
        m = grid[c]
        while m:
            low = lowest_bit(m)
            m ^= low
            d = bit_index(low)
            on = 2 * index[c * n + d] + 1
            rest = grid[c] & ~low if y_links else U0  # on: the cell's other digits off
            while rest:
                other = lowest_bit(rest)
                rest ^= other
                adj[on, degree[on]] = 2 * index[c * n + bit_index(other)]
                degree[on] += 1
            if y_links and popcount(grid[c]) == 2:  # off: a bivalue cell's other digit on
                adj[on - 1, degree[on - 1]] = 2 * index[c * n + bit_index(grid[c] & ~low)] + 1
                degree[on - 1] += 1
            for k in range(se_units.shape[1]):
                u = se_units[c, k]
                if u < 0:
                    continue
                others = layers[d, u] & ~bit(where[c, k])
                alone = others & (others - U1) == U0
                while others:
                    other = lowest_bit(others)
                    others ^= other
                    q = units[u, bit_index(other)]
                    if linked[q] != on:  # on: the digit off in the cell's units, once
                        linked[q] = on
                        adj[on, degree[on]] = 2 * index[q * n + d]
                        degree[on] += 1
                    if x_links and alone:  # off: the digit's other place in a unit on
                        adj[on - 1, degree[on - 1]] = 2 * index[q * n + d] + 1
                        degree[on - 1] += 1
    words = (nodes + 63) // 64
    comp = np.full(nodes, -1, dtype=np.int64)
    reach = np.zeros((nodes, words), dtype=np.uint64)
    low_link = np.zeros(nodes, dtype=np.int64)
    order = np.full(nodes, -1, dtype=np.int64)
    stack = np.empty(nodes, dtype=np.int64)
    on_stack = np.zeros(nodes, dtype=np.bool_)
    calls = np.empty(nodes, dtype=np.int64)
    edge = np.zeros(nodes, dtype=np.int64)
    joined = np.full(nodes, -1, dtype=np.int64)  # by component: the last that joined its reach
    counter = 0
    top = 0
    comps = 0
    for root in range(nodes):
        if order[root] >= 0:
            continue
        depth = 0
        calls[0] = root
        order[root] = low_link[root] = counter
        counter += 1
        stack[top] = root
        top += 1
        on_stack[root] = True
        while depth >= 0:
            v = calls[depth]
            if edge[v] < degree[v]:
                w = adj[v, edge[v]]
                edge[v] += 1
                if order[w] < 0:
                    order[w] = low_link[w] = counter
                    counter += 1
                    stack[top] = w
                    top += 1
                    on_stack[w] = True
                    depth += 1
                    calls[depth] = w
                elif on_stack[w]:
                    low_link[v] = min(low_link[v], order[w])
                continue
            if low_link[v] == order[v]:  # v closes a component: its reach is complete below
                start = top
                while True:
                    start -= 1
                    w = stack[start]
                    on_stack[w] = False
                    comp[w] = comps
                    reach[comps, w >> 6] |= np.uint64(1) << np.uint64(w & 63)
                    if w == v:
                        break
                joined[comps] = comps  # each component below joins once
                for i in range(start, top):
                    w = stack[i]
                    for e in range(degree[w]):
                        x = comp[adj[w, e]]
                        if joined[x] != comps:
                            joined[x] = comps
                            for word in range(words):
                                reach[comps, word] |= reach[x, word]
                top = start
                comps += 1
            depth -= 1
            if depth >= 0:
                parent = calls[depth]
                low_link[parent] = min(low_link[parent], low_link[v])
    return index, comp, reach, (adj, degree, candidates)
