"""Basic fish: X-wing (2), swordfish (3), jellyfish (4), by rows and by columns.

For a digit, k base lines whose candidates lie in only k cover lines: the digit goes in those
crossings, so it leaves the rest of the cover lines. The layer of a row is already a mask of
columns (a row's k-th cell is in column k), and a column's layer a mask of rows, so a fish is a
closed set of layers (``engine.logic.subsets.closed_sets``). As for subsets, the search is called
only with k candidate base lines or more, and a fish is recorded only when it eliminates
something: the screens run inline, cheaper than a call that takes arrays.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
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
from engine.logic.subsets import TWO, closed_scratch, closed_sets


@kernel
def find_fish(cand, pos, T, rec, k):
    """Record every basic fish of size ``k`` (2 = X-wing) for every digit and orientation."""
    units = T[T_UNITS]
    n = units.shape[1]
    size = np.uint64(k)
    masks, line, found = closed_scratch()
    for d in range(n):
        for base0 in (0, n):  # rows as base (columns cover), then columns as base
            cover0 = n - base0
            count = 0
            for b in range(n):
                layer = pos[d, base0 + b]
                ones = popcount(layer)
                masks[count] = layer
                line[count] = b
                count += (ones >= TWO) & (ones <= size)  # branch-free, as in find_subsets
            if count < k:
                continue
            for f in range(closed_sets(masks, count, k, found)):
                chosen = found[f, 0]
                bases = U0
                while chosen:
                    low = lowest_bit(chosen)
                    chosen ^= low
                    bases |= bit(line[bit_index(low)])
                outside = U0  # inline: does the digit have a place in a cover outside the bases?
                covers = found[f, 1]
                while covers:
                    low = lowest_bit(covers)
                    covers ^= low
                    outside |= pos[d, cover0 + bit_index(low)] & ~bases
                if outside != U0:
                    _record(cand, pos, units, rec, k, d, base0, bases, found[f, 1])


@kernel
def _record(cand, pos, units, rec, k, d, base0, bases, covers):
    """One fish on digit ``d``: base lines ``bases`` (from ``base0``), cover lines ``covers``."""
    n = units.shape[1]
    cover0 = n - base0
    start = mark(rec)
    rest = bases
    while rest:
        low = lowest_bit(rest)
        rest ^= low
        b = bit_index(low)
        layer = pos[d, base0 + b]
        while layer:
            low2 = lowest_bit(layer)
            layer ^= low2
            add_proof(rec, units[base0 + b, bit_index(low2)])
    while covers:
        low = lowest_bit(covers)
        covers ^= low
        cover = cover0 + bit_index(low)
        outside = pos[d, cover] & ~bases  # positions in a cover line = base indices
        while outside:
            low2 = lowest_bit(outside)
            outside ^= low2
            eliminate(rec, cand, units[cover, bit_index(low2)], d)
    commit(rec, start, X_WING + k - 2, base0, bit(d))
