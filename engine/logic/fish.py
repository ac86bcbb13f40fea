"""Basic fish: X-wing (2), swordfish (3), jellyfish (4), by rows and by columns.

For a digit, k base lines whose candidates lie in only k cover lines: the digit goes in those
crossings, so it leaves the rest of the cover lines. The layer of a row is already a mask of
columns (a row's k-th cell is in column k), and a column's layer a mask of rows, so a fish is a
closed set of layers (``engine.logic.subsets.closed_sets``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.logic.state import (
    T_UNITS,
    U0,
    X_WING,
    add_proof,
    bit,
    bit_index,
    commit,
    eliminate,
    lowest_bit,
    mark,
    popcount,
)
from engine.logic.subsets import MAX_CLOSED, MAX_SUBSET, closed_sets


@njit(cache=True)
def find_fish(cand, pos, T, rec, k):
    """Record every basic fish of size ``k`` (2 = X-wing) for every digit and orientation."""
    units = T[T_UNITS]
    n = units.shape[1]
    tech = X_WING + k - 2
    masks = np.zeros(64, dtype=np.uint64)
    line = np.zeros(64, dtype=np.int64)
    out_items = np.zeros(MAX_CLOSED, dtype=np.uint64)
    out_union = np.zeros(MAX_CLOSED, dtype=np.uint64)
    idx = np.zeros(MAX_SUBSET + 1, dtype=np.int64)
    unions = np.zeros(MAX_SUBSET + 1, dtype=np.uint64)
    for d in range(n):
        for base0 in (0, n):  # rows as base (columns cover), then columns as base
            cover0 = n - base0
            count = 0
            for b in range(n):
                c = popcount(pos[d, base0 + b])
                if 2 <= c <= k:
                    masks[count] = pos[d, base0 + b]
                    line[count] = b
                    count += 1
            found = closed_sets(masks, count, k, out_items, out_union, idx, unions)
            for f in range(found):
                start = mark(rec)
                bases = U0
                chosen = out_items[f]
                while chosen:
                    low = lowest_bit(chosen)
                    chosen ^= low
                    b = line[bit_index(low)]
                    bases |= bit(b)
                    layer = pos[d, base0 + b]
                    while layer:
                        low2 = lowest_bit(layer)
                        layer ^= low2
                        add_proof(rec, units[base0 + b, bit_index(low2)])
                covers = out_union[f]
                while covers:
                    low = lowest_bit(covers)
                    covers ^= low
                    cover = cover0 + bit_index(low)
                    outside = pos[d, cover] & ~bases  # positions in a cover line = base indices
                    while outside:
                        low2 = lowest_bit(outside)
                        outside ^= low2
                        eliminate(rec, cand, units[cover, bit_index(low2)], d)
                commit(rec, start, tech, base0, bit(d))
