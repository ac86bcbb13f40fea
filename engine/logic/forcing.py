"""Trial and error, one level deep: a candidate whose placement leads, by singles alone, to a
contradiction (a cell with no candidate, a digit with no place in a unit, or a digit twice in a
unit) is false.

This is the rung beyond the ladder: it keeps the solve deterministic and its iteration count
meaningful where no technique applies. Each refuted candidate is one step; its ``extra`` is the
number of placements the trial made before the contradiction (how far the reader must follow it),
which the rating uses like a chain's length.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.logic.state import (
    T_PEERS,
    T_UNITS,
    TRIAL_AND_ERROR,
    U0,
    add_proof,
    bit,
    bit_index,
    build_layers,
    commit,
    eliminate,
    lowest_bit,
    mark,
    popcount,
)


@njit(cache=True)
def trial(cand, placed, T, cell, digit, pos, queue):
    """Place ``digit`` at ``cell`` in the given (scratch) state and propagate singles.

    Returns the number of placements made, negated when they end in a contradiction.
    """
    peers, units = T[T_PEERS], T[T_UNITS]
    n = units.shape[1]
    placed[cell] = digit + 1
    cand[cell] = bit(digit)
    queue[0] = cell
    head, tail = 0, 1
    made = 1
    while True:
        while head < tail:
            c = queue[head]
            head += 1
            b = cand[c]
            for k in range(peers.shape[1]):
                p = peers[c, k]
                if placed[p] == placed[c]:
                    return -made
                if placed[p] == 0 and cand[p] & b:
                    m = cand[p] ^ b
                    if m == U0:
                        return -made
                    cand[p] = m
                    if popcount(m) == 1:
                        placed[p] = bit_index(m) + 1
                        queue[tail] = p
                        tail += 1
                        made += 1
        build_layers(cand, placed, units, pos)
        for u in range(units.shape[0]):
            done = U0
            for k in range(n):
                v = placed[units[u, k]]
                if v:
                    done |= bit(v - 1)
            for d in range(n):
                if done & bit(d):
                    continue
                layer = pos[d, u]
                if layer == U0:
                    return -made
                if popcount(layer) == 1:
                    c = units[u, bit_index(layer)]
                    if placed[c] == 0:
                        placed[c] = d + 1
                        cand[c] = bit(d)
                        queue[tail] = c
                        tail += 1
                        made += 1
        if head == tail:
            return made


@njit(cache=True)
def find_forcing(cand, placed, T, rec):
    """Record every candidate that one trial (singles only) refutes."""
    units = T[T_UNITS]
    n = units.shape[1]
    ncells = cand.shape[0]
    scratch_cand = np.empty_like(cand)
    scratch_placed = np.empty_like(placed)
    pos = np.zeros((n, units.shape[0]), dtype=np.uint64)
    queue = np.zeros(ncells * 2, dtype=np.int64)
    for cell in range(ncells):
        if placed[cell]:
            continue
        m = cand[cell]
        while m:
            low = lowest_bit(m)
            m ^= low
            digit = bit_index(low)
            scratch_cand[:] = cand
            scratch_placed[:] = placed
            made = trial(scratch_cand, scratch_placed, T, cell, digit, pos, queue)
            if made < 0:
                start = mark(rec)
                add_proof(rec, cell)
                eliminate(rec, cand, cell, digit)
                commit(rec, start, TRIAL_AND_ERROR, -made, low)
