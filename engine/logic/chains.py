"""Chains: X-chains, XY-chains and alternating inference chains (AIC, nice loops).

A candidate Z is false when assuming it true leads, along alternating weak and strong links, to
Z false. Weak link: two candidates that cannot both be true (same cell, or same digit in cells
that see each other). Strong link: two candidates that cannot both be false (a cell with two
candidates, or a unit where a digit has two places). From "on(Z)" a weak link gives "off", a
strong link from "off" gives "on"; reaching "off(Z)" eliminates Z. This covers an AIC whose ends
both see Z and the discontinuous nice loops. A breadth-first search from each candidate finds the
shortest such chain; its length (links) goes into the step's ``extra`` for the rating.

* X-chain: one digit throughout (weak and strong links between cells);
* XY-chain: strong links inside bivalue cells, weak links between cells on one digit;
* AIC: any links.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.logic.state import (
    AIC,
    T_CELL_UNITS,
    T_PEERS,
    T_UNITS,
    X_CHAIN,
    XY_CHAIN,
    add_proof,
    bit,
    bit_index,
    commit,
    eliminate,
    lowest_bit,
    mark,
    popcount,
)

OFF = 0
ON = 1


@njit(cache=True, inline="always")
def _visit(state, parent, stamp, seen, queue, tail, origin):
    if seen[state] != stamp:
        seen[state] = stamp
        parent[state] = origin
        queue[tail] = state
        tail += 1
    return tail


@njit(cache=True)
def find_chains(cand, placed, pos, T, rec, tech):
    """Record every candidate that a chain of kind ``tech`` (X_CHAIN, XY_CHAIN, AIC) refutes."""
    units, peers, cell_units = T[T_UNITS], T[T_PEERS], T[T_CELL_UNITS]
    n = units.shape[1]
    ncells = cand.shape[0]
    nstates = ncells * n * 2
    seen = np.zeros(nstates, dtype=np.int64)
    parent = np.zeros(nstates, dtype=np.int64)
    depth = np.zeros(nstates, dtype=np.int64)
    queue = np.zeros(nstates, dtype=np.int64)
    cell_links = tech != X_CHAIN  # strong links inside bivalue cells
    digit_strong = tech != XY_CHAIN  # strong links between cells on one digit
    cell_weak = tech == AIC  # weak links between digits of one cell
    stamp = 0
    for z_cell in range(ncells):
        if placed[z_cell]:
            continue
        zm = cand[z_cell]
        while zm:
            low = lowest_bit(zm)
            zm ^= low
            z_digit = bit_index(low)
            stamp += 1
            start_state = (z_cell * n + z_digit) * 2 + ON
            seen[start_state] = stamp
            depth[start_state] = 0
            parent[start_state] = -1
            queue[0] = start_state
            head, tail = 0, 1
            goal = start_state - ON + OFF
            while head < tail and seen[goal] != stamp:
                state = queue[head]
                head += 1
                node = state >> 1
                cell, digit = node // n, node % n
                before = tail
                if state & 1 == ON:  # weak links: this candidate true makes these false
                    b = bit(digit)
                    for k in range(peers.shape[1]):
                        p = peers[cell, k]
                        if placed[p] == 0 and cand[p] & b:
                            tail = _visit(
                                (p * n + digit) * 2, parent, stamp, seen, queue, tail, state
                            )
                    if cell_weak:
                        others = cand[cell] ^ b
                        while others:
                            o = lowest_bit(others)
                            others ^= o
                            target = (cell * n + bit_index(o)) * 2
                            tail = _visit(target, parent, stamp, seen, queue, tail, state)
                else:  # strong links: this candidate false makes these true
                    m = cand[cell]
                    if cell_links and popcount(m) == 2:
                        other = bit_index(m ^ bit(digit))
                        target = (cell * n + other) * 2 + ON
                        tail = _visit(target, parent, stamp, seen, queue, tail, state)
                    if digit_strong:
                        for k in range(3):
                            u = cell_units[cell, k]
                            layer = pos[digit, u]
                            if popcount(layer) == 2:
                                while layer:
                                    low2 = lowest_bit(layer)
                                    layer ^= low2
                                    c2 = units[u, bit_index(low2)]
                                    if c2 != cell:
                                        target = (c2 * n + digit) * 2 + ON
                                        tail = _visit(
                                            target, parent, stamp, seen, queue, tail, state
                                        )
                for i in range(before, tail):
                    depth[queue[i]] = depth[state] + 1
            if seen[goal] == stamp:
                start = mark(rec)
                digits = np.uint64(0)
                s = parent[goal]
                while s != start_state:
                    add_proof(rec, (s >> 1) // n)
                    digits |= bit((s >> 1) % n)
                    s = parent[s]
                eliminate(rec, cand, z_cell, z_digit)
                commit(rec, start, tech, depth[goal], digits | low)
