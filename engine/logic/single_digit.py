"""Single-digit patterns built from two strong links: skyscraper and 2-string kite.

A strong link is a line where a digit has exactly two cells: one of them holds it. Two strong links
whose near ends see each other (at most one of them holds the digit) leave the digit in one of the
two far ends, so it leaves every cell that sees both far ends.

* skyscraper: both links in rows (or both in columns), near ends in one column (or row);
* 2-string kite: one row link and one column link, near ends in one box.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.logic.state import (
    SKYSCRAPER,
    T_CELL_UNITS,
    T_PEER_BITS,
    T_PEERS,
    T_UNITS,
    U0,
    add_proof,
    bit,
    commit,
    eliminate_common,
    line_links,
    mark,
)


@njit(cache=True, inline="always")
def _turbot(rec, cand, placed, T, tech, digit, near1, far1, near2, far2, shared, holders):
    """One pattern: links near1-far1 and near2-far2, near ends sharing unit kind ``shared``.

    ``holders`` are the digit's open cells as a bitset: most patterns eliminate nothing, and
    one AND with the two far ends' peer sets says so before anything is recorded.
    """
    cell_units = T[T_CELL_UNITS]
    if near1 in (near2, far2) or far1 in (near2, far2):
        return
    if cell_units[near1, shared] != cell_units[near2, shared]:
        return
    if cell_units[far1, shared] == cell_units[far2, shared]:
        return  # both ends aligned: an X-wing, not this pattern
    peer_bits = T[T_PEER_BITS]
    seen_by_both = U0
    for w in range(holders.shape[0]):
        seen_by_both |= peer_bits[far1, w] & peer_bits[far2, w] & holders[w]
    if seen_by_both == U0:
        return
    start = mark(rec)
    add_proof(rec, far1)
    add_proof(rec, near1)
    add_proof(rec, near2)
    add_proof(rec, far2)
    eliminate_common(rec, cand, placed, T[T_PEERS], cell_units, far1, far2, digit)
    commit(rec, start, tech, shared, bit(digit))


@njit(cache=True)
def find_turbot(cand, placed, pos, T, rec, tech):
    """Record every skyscraper (``tech`` SKYSCRAPER) or 2-string kite for every digit."""
    units = T[T_UNITS]
    n = units.shape[1]
    ends = np.zeros((2 * n, 3), dtype=np.int64)
    holders = np.zeros(T[T_PEER_BITS].shape[1], dtype=np.uint64)
    for d in range(n):
        count = line_links(pos, units, d, ends)
        if count < 2:
            continue
        holders[:] = U0
        digit_bit = bit(d)
        for cell in range(cand.shape[0]):
            if placed[cell] == 0 and cand[cell] & digit_bit:
                holders[cell >> 6] |= bit(cell & 63)
        for i in range(count):
            for j in range(i + 1, count):
                rows_i = ends[i, 0] < n
                rows_j = ends[j, 0] < n
                if tech == SKYSCRAPER:
                    if rows_i != rows_j:
                        continue
                    shared = 1 if rows_i else 0  # rows meet in a column, columns in a row
                else:
                    if rows_i == rows_j:
                        continue
                    shared = 2
                for a in range(1, 3):
                    for b in range(1, 3):
                        _turbot(
                            rec,
                            cand,
                            placed,
                            T,
                            tech,
                            d,
                            ends[i, a],
                            ends[i, 3 - a],
                            ends[j, b],
                            ends[j, 3 - b],
                            shared,
                            holders,
                        )
