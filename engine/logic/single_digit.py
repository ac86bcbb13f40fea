"""Single-digit patterns built from two strong links: skyscraper and 2-string kite.

A strong link is a line where a digit has exactly two cells: one of them holds it. Two strong links
whose near ends see each other (at most one of them holds the digit) leave the digit in one of the
two far ends, so it leaves every cell that sees both far ends.

* skyscraper: both links in rows (or both in columns), near ends in one column (or row);
* 2-string kite: one row link and one column link, near ends in one box.

An *empty rectangle* replaces one strong link with a box whose candidates lie in one row and one
column of it (both used): the box's digit is in that row or that column. A strong link in a
column with one end in that row (off the box) then leaves the digit in its other end or in the
box's column, so it leaves their crossing; the same with rows and columns swapped. A box of only
two candidates is left to the turbot fish (the two are a strong link), as HoDoKu does by default:
its "dual" empty rectangles and those "with only two rectangle candidates" are such turbot fish.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import (
    EMPTY_RECTANGLE,
    SKYSCRAPER,
    U0,
    add_proof,
    bit,
    bit_index,
    commit,
    digit_cells,
    eliminate,
    eliminate_common,
    line_links,
    lowest_bit,
    mark,
    popcount,
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
    units, cell_units, peers, peer_bits = T.units, T.cell_units, T.peers, T.peer_bits
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
                            _record(rec, cand, placed, peers, peer_bits, tech, d, pattern, shared)


@kernel
def _shared_kind(tech, in_rows):
    """The unit kind (0 row, 1 column, 2 box) a pattern's near ends share: row links meet in a
    column and column links in a row for a skyscraper; a kite's meet in a box."""
    if tech == SKYSCRAPER:
        return 1 if in_rows else 0
    return 2


@kernel
def _record(rec, cand, placed, peers, peer_bits, tech, digit, pattern, shared):
    """One pattern: cells (far1, near1, near2, far2) of links near1-far1 and near2-far2, near
    ends sharing unit kind ``shared``."""
    start = mark(rec)
    for cell in pattern:
        add_proof(rec, cell)
    eliminate_common(rec, cand, placed, peers, peer_bits, pattern[0], pattern[3], digit)
    commit(rec, start, tech, shared, bit(digit))


@kernel
def find_empty_rectangles(cand, pos, T, rec):
    """Record every empty rectangle for every digit: box by box, each row and column of the box
    that together hold all its candidates (each holding one off their crossing), then each
    strong link that meets one of them off the box (see the module docstring).

    ``T.inter`` lists each box's crossing lines together, rows first, so a box's rows and
    columns are read from its own slice of it.
    """
    units, inter, inter_masks = T.units, T.inter, T.inter_masks
    n = units.shape[1]
    per_box = inter.shape[0] // n
    for d in range(n):
        for box in range(n):
            cands = pos[d, 2 * n + box]
            if popcount(cands) < 3:  # two: a turbot fish's (see the module docstring)
                continue
            first = box * per_box
            rows = U0  # the lines that cross the box (rows, then columns, as masks)
            cols = U0
            for i in range(first, first + per_box):
                if inter[i, 1] < n:
                    rows |= bit(inter[i, 1])
                else:
                    cols |= bit(inter[i, 1] - n)
            for i in range(first, first + per_box):
                if inter[i, 1] >= n:
                    continue
                in_row = inter_masks[i, 0]
                for j in range(first, first + per_box):
                    if inter[j, 1] < n:
                        continue
                    in_col = inter_masks[j, 0]
                    if cands & ~(in_row | in_col) or cands & ~in_row == U0 or cands & ~in_col == U0:
                        continue
                    row, col = inter[i, 1], inter[j, 1] - n
                    for kind in range(2):  # links in columns (meeting the row), then in rows
                        _er_links(cand, pos, units, rec, d, box, row, col, rows, cols, kind)


@kernel
def _er_links(cand, pos, units, rec, d, box, row, col, rows, cols, kind):
    """The empty rectangle of ``box`` on (``row``, ``col``) with every strong link in a line of
    ``kind`` (1 rows, 0 columns) crossing the rectangle's other line off the box."""
    n = units.shape[1]
    meet, arm = (col, row) if kind else (row, col)  # the link meets line ``meet``'s kind ...
    own, other = (rows, cols) if kind else (cols, rows)
    base = 0 if kind else n  # ... from lines of this kind
    for line in range(n):
        layer = pos[d, base + line]
        if own & bit(line) or popcount(layer) != 2 or layer & bit(meet) == U0:
            continue
        far = bit_index(layer ^ bit(meet))
        if other & bit(far):
            continue  # the link's far end would see the box's own line
        target = units[arm, far] if kind else units[far, arm]
        if cand[target] & bit(d) == U0:
            continue
        start = mark(rec)
        box_layer = pos[d, 2 * n + box]
        while box_layer:
            low = lowest_bit(box_layer)
            box_layer ^= low
            add_proof(rec, units[2 * n + box, bit_index(low)])
        add_proof(rec, units[base + line, meet])
        add_proof(rec, units[base + line, far])
        eliminate(rec, cand, target, d)
        commit(rec, start, EMPTY_RECTANGLE, box, bit(d))
