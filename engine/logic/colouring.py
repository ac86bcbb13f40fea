"""Simple colouring (single-digit colouring) of the strong-link graph.

For one digit, join the two cells of every unit where it has exactly two places, and colour each
connected cluster in two colours: in each cluster one colour holds the digit in all its cells.

* trap: a cell outside the cluster that sees both colours cannot hold the digit;
* wrap: a colour with two cells that see each other is false, so the digit leaves all its cells.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import (
    SIMPLE_COLOURING,
    add_proof,
    bit,
    bit_index,
    commit,
    eliminate,
    lowest_bit,
    mark,
    popcount,
    sees,
)

TRAP = 0
WRAP = 1


@kernel
def find_colouring(cand, placed, pos, T, rec):
    """Record every simple-colouring trap and wrap, one step per cluster and kind."""
    units, cell_units = T.units, T.cell_units
    n = units.shape[1]
    ncells = cand.shape[0]
    colour = np.full(ncells, -1, dtype=np.int64)
    owner = np.full(ncells, -1, dtype=np.int64)  # the seed cell of each coloured cell's cluster
    cluster = np.zeros(ncells, dtype=np.int64)  # cells of the current cluster, BFS order
    for d in range(n):
        b = bit(d)
        colour[:] = -1
        owner[:] = -1
        for seed in range(ncells):
            if placed[seed] or not cand[seed] & b or colour[seed] >= 0:
                continue
            # breadth-first colouring along strong links
            colour[seed] = 0
            owner[seed] = seed
            cluster[0] = seed
            size = 1
            head = 0
            while head < size:
                cell = cluster[head]
                head += 1
                for k in range(3):
                    u = cell_units[cell, k]
                    layer = pos[d, u]
                    if popcount(layer) != 2:
                        continue
                    while layer:
                        low = lowest_bit(layer)
                        layer ^= low
                        other = units[u, bit_index(low)]
                        if other != cell and colour[other] < 0:
                            colour[other] = 1 - colour[cell]
                            owner[other] = seed
                            cluster[size] = other
                            size += 1
            if size < 3:
                continue  # one strong link alone is a locked-candidates or fish matter
            _wrap(cand, rec, cluster, size, colour, T.peer_bits, d)
            _trap(cand, placed, rec, cluster, size, colour, owner, T.peer_bits, d)


@kernel
def _wrap(cand, rec, cluster, size, colour, peer_bits, digit):
    for c in range(2):
        clash = False
        for i in range(size):
            for j in range(i + 1, size):
                a, b = cluster[i], cluster[j]
                if colour[a] == c and colour[b] == c and sees(a, b, peer_bits):
                    clash = True
        if clash:
            start = mark(rec)
            for i in range(size):
                add_proof(rec, cluster[i])
                if colour[cluster[i]] == c:
                    eliminate(rec, cand, cluster[i], digit)
            commit(rec, start, SIMPLE_COLOURING, WRAP, bit(digit))


@kernel
def _trap(cand, placed, rec, cluster, size, colour, owner, peer_bits, digit):
    b = bit(digit)
    start = mark(rec)
    for i in range(size):
        add_proof(rec, cluster[i])
    for cell in range(cand.shape[0]):
        if placed[cell] or not cand[cell] & b or owner[cell] == cluster[0]:
            continue
        seen = 0
        for i in range(size):
            if sees(cell, cluster[i], peer_bits):
                seen |= 1 << colour[cluster[i]]
        if seen == 3:
            eliminate(rec, cand, cell, digit)
    commit(rec, start, SIMPLE_COLOURING, TRAP, b)
