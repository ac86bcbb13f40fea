"""Naked and hidden subsets (pairs, triples, quads) and the closed-set search they share with fish.

A *closed set* is k items whose masks together cover exactly k bits: k cells holding only k
digits (naked), k digits that fit only k cells of a unit (hidden), k lines whose candidates for a
digit lie in only k cross lines (fish, see ``engine.logic.fish``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.logic.state import (
    NAKED_PAIR,
    T_UNITS,
    U0,
    add_proof,
    bit,
    bit_index,
    commit,
    eliminate,
    flag_direct,
    lowest_bit,
    mark,
    popcount,
)

MAX_SUBSET = 4
MAX_CLOSED = 512  # closed sets kept per search (more only on pathological states)


@njit(cache=True)
def closed_sets(masks, count, k, out_items, out_union, idx, unions):
    """All sets of ``k`` of the first ``count`` masks whose union has exactly k bits.

    Writes each set (as a bit mask of item indices) and its union; returns how many were found.
    Depth-first over index combinations, pruning as soon as a partial union exceeds k bits;
    ``idx`` and ``unions`` (MAX_SUBSET + 1 long) are the caller's scratch for the search stack.
    """
    found = 0
    if count < k:
        return 0
    unions[0] = U0
    depth = 0
    idx[0] = -1
    while depth >= 0:
        idx[depth] += 1
        if idx[depth] > count - (k - depth):
            depth -= 1
            continue
        u = unions[depth] | masks[idx[depth]]
        if popcount(u) > k:
            continue
        if depth == k - 1:
            if popcount(u) == k and found < out_items.shape[0]:
                items = U0
                for j in range(k):
                    items |= bit(idx[j])
                out_items[found] = items
                out_union[found] = u
                found += 1
            continue
        unions[depth + 1] = u
        depth += 1
        idx[depth] = idx[depth - 1]
    return found


@njit(cache=True)
def find_subsets(cand, placed, pos, T, rec, k, hidden):
    """Record every naked (or, with ``hidden``, hidden) subset of size ``k`` in every unit."""
    units = T[T_UNITS]
    n = units.shape[1]
    tech = NAKED_PAIR + 2 * (k - 2) + (1 if hidden else 0)
    masks = np.zeros(64, dtype=np.uint64)
    item = np.zeros(64, dtype=np.int64)
    out_items = np.zeros(MAX_CLOSED, dtype=np.uint64)
    out_union = np.zeros(MAX_CLOSED, dtype=np.uint64)
    idx = np.zeros(MAX_SUBSET + 1, dtype=np.int64)
    unions = np.zeros(MAX_SUBSET + 1, dtype=np.uint64)
    for u in range(units.shape[0]):
        count = 0
        if hidden:
            for d in range(n):
                c = popcount(pos[d, u])
                if 2 <= c <= k:
                    masks[count] = pos[d, u]
                    item[count] = d
                    count += 1
        else:
            for j in range(n):
                cell = units[u, j]
                c = popcount(cand[cell])
                if placed[cell] == 0 and 2 <= c <= k:
                    masks[count] = cand[cell]
                    item[count] = j
                    count += 1
        found = closed_sets(masks, count, k, out_items, out_union, idx, unions)
        for f in range(found):
            start = mark(rec)
            chosen = out_items[f]
            if hidden:
                digits = U0
                while chosen:
                    low = lowest_bit(chosen)
                    chosen ^= low
                    digits |= bit(item[bit_index(low)])
                where = out_union[f]
                while where:
                    low = lowest_bit(where)
                    where ^= low
                    cell = units[u, bit_index(low)]
                    add_proof(rec, cell)
                    others = cand[cell] & ~digits
                    while others:
                        o = lowest_bit(others)
                        others ^= o
                        eliminate(rec, cand, cell, bit_index(o))
            else:
                digits = out_union[f]
                inside = U0  # unit positions of the subset's cells
                while chosen:
                    low = lowest_bit(chosen)
                    chosen ^= low
                    j = item[bit_index(low)]
                    inside |= bit(j)
                    add_proof(rec, units[u, j])
                for j in range(n):
                    cell = units[u, j]
                    if placed[cell] == 0 and not inside & bit(j):
                        hit = cand[cell] & digits
                        while hit:
                            low = lowest_bit(hit)
                            hit ^= low
                            eliminate(rec, cand, cell, bit_index(low))
            if commit(rec, start, tech, u, digits) and hidden:
                flag_direct(rec, pos, T)
