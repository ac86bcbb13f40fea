"""Single-digit patterns built from two strong links: skyscraper and 2-string kite.

A strong link is a line where a digit has exactly two cells: one of them holds it. Two strong links
whose near ends see each other (at most one of them holds the digit) leave the digit in one of the
two far ends, so it leaves every cell that sees both far ends.

* skyscraper: both links in rows (or both in columns), near ends in one column (or row);
* 2-string kite: one row link and one column link, near ends in one box.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
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
    digit_cells,
    eliminate_common,
    line_links,
    mark,
)


@kernel
def find_turbot(cand, placed, pos, T, rec, tech):
    """Record every skyscraper (``tech`` SKYSCRAPER) or 2-string kite for every digit.

    Pairs of links are taken in line order, and each pair's four choices of near ends in order.
    Many pairs have no ends in a common unit of the kind the near ends must share, so each
    link's ends are first turned into a mask of those units, and a pair whose masks are disjoint
    is passed over with one AND; the digit's cells are gathered only once a pair gets that far.
    The checks run inline: a call that takes arrays costs two atomic reference counts per array,
    more than the checks themselves.
    """
    units, cell_units, peers, peer_bits = T[T_UNITS], T[T_CELL_UNITS], T[T_PEERS], T[T_PEER_BITS]
    n = units.shape[1]
    words = peer_bits.shape[1]
    ends = np.zeros((2 * n, 3), dtype=np.int64)
    meets = np.zeros(2 * n, dtype=np.uint64)  # per link: the units its ends lie in (kind shared)
    holders = np.zeros(words, dtype=np.uint64)  # the digit's open cells, as a bitset
    for d in range(n):
        count = line_links(pos, units, d, ends)
        if count < 2:
            continue
        for i in range(count):
            kind = _shared_kind(tech, ends[i, 0] < n)
            meets[i] = bit(cell_units[ends[i, 1], kind] - kind * n) | bit(
                cell_units[ends[i, 2], kind] - kind * n
            )
        holders_ready = False
        for i in range(count):
            rows_i = ends[i, 0] < n
            shared = _shared_kind(tech, rows_i)
            for j in range(i + 1, count):
                if (rows_i == (ends[j, 0] < n)) != (tech == SKYSCRAPER):
                    continue  # a skyscraper takes two rows or two columns, a kite one of each
                if meets[i] & meets[j] == U0:
                    continue  # no near ends can share a unit
                if not holders_ready:
                    digit_cells(pos, units, d, holders)
                    holders_ready = True
                for a in range(1, 3):
                    near1, far1 = ends[i, a], ends[i, 3 - a]
                    for b in range(1, 3):
                        near2, far2 = ends[j, b], ends[j, 3 - b]
                        if near1 in (near2, far2) or far1 in (near2, far2):
                            continue  # a kite's links may cross in one cell
                        if cell_units[near1, shared] != cell_units[near2, shared]:
                            continue
                        if cell_units[far1, shared] == cell_units[far2, shared]:
                            continue  # both ends aligned: an X-wing, not this pattern
                        # most patterns eliminate nothing: one AND with the far ends' peers
                        # says so before anything is recorded
                        seen_by_both = U0
                        for w in range(words):
                            seen_by_both |= peer_bits[far1, w] & peer_bits[far2, w] & holders[w]
                        if seen_by_both != U0:
                            pattern = (far1, near1, near2, far2)
                            _record(rec, cand, placed, peers, cell_units, tech, d, pattern, shared)


@kernel
def _shared_kind(tech, in_rows):
    """The unit kind (0 row, 1 column, 2 box) a pattern's near ends share: row links meet in a
    column and column links in a row for a skyscraper; a kite's meet in a box."""
    if tech == SKYSCRAPER:
        return 1 if in_rows else 0
    return 2


@kernel
def _record(rec, cand, placed, peers, cell_units, tech, digit, pattern, shared):
    """One pattern: cells (far1, near1, near2, far2) of links near1-far1 and near2-far2, near
    ends sharing unit kind ``shared``."""
    start = mark(rec)
    for cell in pattern:
        add_proof(rec, cell)
    eliminate_common(rec, cand, placed, peers, cell_units, pattern[0], pattern[3], digit)
    commit(rec, start, tech, shared, bit(digit))
