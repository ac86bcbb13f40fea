"""Trial and error, one level deep: a candidate whose placement leads, by singles alone, to a
contradiction (a cell with no candidate, a digit with no place in a unit, or a digit twice in a
unit) is false.

This is the rung beyond the ladder: it keeps the solve deterministic and its iteration count
meaningful where no technique applies. Each refuted candidate is one step; its ``extra`` is the
number of placements the trial made before the contradiction (how far the reader must follow it,
counted in synchronous rounds so that it does not depend on scan order), which the rating uses
like a chain's length.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
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


@kernel
def trial(cand, placed, T, cell, digit, pos, fresh, found, limit):
    """Place ``digit`` at ``cell`` in the given (scratch) state and propagate singles.

    Propagation runs in synchronous rounds, like passes (all singles of the state at the start of
    a round, then all their peer eliminations), so the outcome and the count do not depend on
    scan order. Returns the number of placements made, negated when they end in a contradiction;
    gives up (a positive count) once more than ``limit`` placements are made without one.
    """
    peers, units = T[T_PEERS], T[T_UNITS]
    n = units.shape[1]
    ncells = cand.shape[0]
    placed[cell] = digit + 1
    cand[cell] = bit(digit)
    fresh[0] = cell
    count = 1
    made = 1
    while True:
        # eliminations from this round's placements
        for i in range(count):
            c = fresh[i]
            b = cand[c]
            for k in range(peers.shape[1]):
                p = peers[c, k]
                if placed[p] == placed[c]:
                    return -made
                if placed[p] == 0 and cand[p] & b:
                    cand[p] ^= b
                    if cand[p] == U0:
                        return -made
        # every single of the resulting state
        found[:] = 0
        count = 0
        for c in range(ncells):
            if placed[c] == 0 and popcount(cand[c]) == 1:
                found[c] = bit_index(cand[c]) + 1
                fresh[count] = c
                count += 1
        build_layers(cand, placed, T, pos)
        for u in range(units.shape[0]):
            done = U0
            for k in range(n):
                v = placed[units[u, k]]
                if v:
                    done |= bit(v - 1)
            for d in range(n):
                layer = pos[d, u]
                if done & bit(d) or popcount(layer) > 1:
                    continue
                if layer == U0:
                    return -made  # the digit has no place left in the unit
                c = units[u, bit_index(layer)]
                if found[c] == 0:
                    found[c] = d + 1
                    fresh[count] = c
                    count += 1
                elif found[c] != d + 1:
                    return -made  # one cell would take two digits
        if count == 0 or made + count > limit:
            return made + count
        for i in range(count):
            c = fresh[i]
            placed[c] = found[c]
            cand[c] = bit(found[c] - 1)
        made += count


@kernel
def find_forcing(cand, placed, T, rec):
    """Record the shortest refutations: every candidate that one trial (singles only) refutes
    in the fewest placements. A rater takes the easiest forcing chain on offer, then looks for
    simpler steps again, so a pass holds only those; trials stop once they run longer."""
    units = T[T_UNITS]
    n = units.shape[1]
    ncells = cand.shape[0]
    scratch_cand = np.empty_like(cand)
    scratch_placed = np.empty_like(placed)
    pos = np.zeros((n, units.shape[0]), dtype=np.uint64)
    fresh = np.zeros(ncells, dtype=np.int64)
    found = np.zeros(ncells, dtype=np.int64)
    refuted = np.zeros(ncells * n, dtype=np.int64)  # cell * n + digit of each shortest refutation
    count = 0
    best = ncells + 1
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
            made = trial(scratch_cand, scratch_placed, T, cell, digit, pos, fresh, found, best)
            if made < 0:
                if -made < best:
                    best = -made
                    count = 0
                refuted[count] = cell * n + digit
                count += 1
    for i in range(count):
        cell, digit = refuted[i] // n, refuted[i] % n
        start = mark(rec)
        add_proof(rec, cell)
        eliminate(rec, cand, cell, digit)
        commit(rec, start, TRIAL_AND_ERROR, best, bit(digit))
