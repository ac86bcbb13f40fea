"""Naked and hidden subsets (pairs, triples, quads) and the closed-set search they share with fish.

A *closed set* is k items whose masks together cover exactly k bits: k cells holding only k
digits (naked), k digits that fit only k cells of a unit (hidden), k lines whose candidates for a
digit lie in only k cross lines (fish, see ``engine.logic.fish``).

The finders gather each unit's items and screen inline: the search is called only for units with
k items or more, and a closed set is recorded only when it eliminates something (most eliminate
nothing, and a step without effect is dropped anyway). A call that takes arrays costs two atomic
reference counts per array, more than the screens, so the hot loops make as few as they can.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import (
    NAKED_PAIR,
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

MAX_SUBSET = 4  # the largest subset and fish (closed_sets has a loop per item)
MAX_CLOSED = 512  # closed sets kept per search (more only on pathological states)
MAX_ITEMS = 64  # items of one search: a unit's cells or digits, a digit's lines (n <= 64)
TWO = np.uint64(2)  # the fewest bits of an item's mask (one bit is a single, not a subset)


@kernel
def closed_scratch():
    """The arrays a finder gathers items into and :func:`closed_sets` writes to, allocated once
    per finder call: masks and item ids, and the sets found."""
    return (
        np.empty(MAX_ITEMS, dtype=np.uint64),
        np.empty(MAX_ITEMS, dtype=np.int64),
        np.empty((MAX_CLOSED, 2), dtype=np.uint64),
    )


@kernel
def closed_sets(masks, count, k, found):
    """All sets of ``k`` (2 to MAX_SUBSET) of the first ``count`` masks whose union has exactly
    k bits.

    Writes each set as a row of ``found``: a bit mask of its item indices, and its union; returns
    how many were found. One nested loop per item of a set, in index order, pruning as soon as a
    partial union exceeds k bits: indices and unions stay in registers. Inlined: it runs for
    about half of all units and lines, and a call would cost reference counts for its arrays.
    """
    size = np.uint64(k)
    total = 0
    for a in range(count - k + 1):  # each loop leaves room for the items after it
        for b in range(a + 1, count - k + 2):
            ab = masks[a] | masks[b]
            if k == 2:
                if popcount(ab) == size:
                    total = _keep(found, total, bit(a) | bit(b), ab)
                continue
            if popcount(ab) > size:
                continue
            for c in range(b + 1, count - k + 3):
                abc = ab | masks[c]
                if k == 3:
                    if popcount(abc) == size:
                        total = _keep(found, total, bit(a) | bit(b) | bit(c), abc)
                    continue
                if popcount(abc) > size:
                    continue
                for e in range(c + 1, count):
                    abce = abc | masks[e]
                    if popcount(abce) == size:
                        total = _keep(found, total, bit(a) | bit(b) | bit(c) | bit(e), abce)
    return total


@kernel
def _keep(found, total, items, union):
    """Append a closed set to ``found`` (while there is room); returns the new count."""
    if total < found.shape[0]:
        found[total, 0] = items
        found[total, 1] = union
        total += 1
    return total


@kernel
def find_subsets(cand, placed, pos, T, rec, k, hidden, locked):
    """Record every naked (or, with ``hidden``, hidden) subset of size ``k`` in every unit;
    ``locked``: only the naked ones that HoDoKu calls locked pairs and triples (:func:`_locked`)
    and takes before locked candidates.

    Items are gathered branch-free (each slot is written, the count moves on only for an item),
    and their bit counts compared as unsigned, like ``popcount``'s (numba compares a signed with
    an unsigned integer as floats). A naked set's digits elsewhere in the unit are read from the
    layers, which hold exactly the open cells' candidates.
    """
    units = T.units
    n = units.shape[1]
    size = np.uint64(k)
    masks, item, found = closed_scratch()
    for u in range(units.shape[0]):
        count = 0
        if hidden:
            for d in range(n):
                layer = pos[d, u]
                ones = popcount(layer)
                masks[count] = layer
                item[count] = d
                count += (ones >= TWO) & (ones <= size)
        else:
            for j in range(n):
                cell = units[u, j]
                m = cand[cell]
                ones = popcount(m)
                masks[count] = m
                item[count] = j
                count += (placed[cell] == 0) & (ones >= TWO) & (ones <= size)
        if count < k:
            continue
        for f in range(closed_sets(masks, count, k, found)):
            chosen, union = found[f, 0], found[f, 1]
            # inline: does the set eliminate anything? (its cells' other digits when hidden;
            # its digits in the unit's other cells when naked)
            inside = U0  # the set's positions in the unit (hidden: its digits)
            while chosen:
                low = lowest_bit(chosen)
                chosen ^= low
                inside |= bit(item[bit_index(low)])
            spare = U0
            rest = union
            while rest:
                low = lowest_bit(rest)
                rest ^= low
                if hidden:
                    spare |= cand[units[u, bit_index(low)]] & ~inside
                else:
                    spare |= pos[bit_index(low), u] & ~inside
            if spare != U0 and (not locked or _locked(pos, T, u, inside, union)):
                _record(cand, placed, pos, T, rec, k, hidden, u, inside, union)


@kernel
def _locked(pos, T, u, positions, digits):
    """Whether the naked set at ``positions`` of unit ``u`` is locked as HoDoKu has it: its
    cells lie in one box and one line, and its ``digits`` leave both the rest of the box and
    the line outside the box."""
    units, cell_units, unit_pos = T.units, T.cell_units, T.unit_pos
    first = units[u, bit_index(lowest_bit(positions))]
    row, column, box = cell_units[first, 0], cell_units[first, 1], cell_units[first, 2]
    in_box = U0  # the set's positions in its box
    rest = positions
    while rest:
        low = lowest_bit(rest)
        rest ^= low
        cell = units[u, bit_index(low)]
        if cell_units[cell, 2] != box:
            return False
        row = row if cell_units[cell, 0] == row else -1
        column = column if cell_units[cell, 1] == column else -1
        in_box |= bit(unit_pos[cell, 2])
    line = row if row >= 0 else column
    if line < 0:
        return False
    line_in_box = U0  # the line's positions inside the box
    for j in range(units.shape[1]):
        if cell_units[units[line, j], 2] == box:
            line_in_box |= bit(j)
    box_spare = line_spare = U0
    rest = digits
    while rest:
        low = lowest_bit(rest)
        rest ^= low
        box_spare |= pos[bit_index(low), box] & ~in_box
        line_spare |= pos[bit_index(low), line] & ~line_in_box
    return box_spare != U0 and line_spare != U0


@kernel
def _record(cand, placed, pos, T, rec, k, hidden, u, inside, union):
    """One subset of unit ``u``: its items ``inside`` (digits when hidden, unit positions when
    naked) cover ``union`` (unit positions when hidden, digits when naked)."""
    units = T.units
    n = units.shape[1]
    tech = NAKED_PAIR + 2 * (k - 2) + (1 if hidden else 0)
    start = mark(rec)
    if hidden:
        digits = inside
        where = union
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
        digits = union
        positions = inside
        while positions:
            low = lowest_bit(positions)
            positions ^= low
            add_proof(rec, units[u, bit_index(low)])
        for j in range(n):
            cell = units[u, j]
            if placed[cell] == 0 and not inside & bit(j):
                hit = cand[cell] & digits
                while hit:
                    low = lowest_bit(hit)
                    hit ^= low
                    eliminate(rec, cand, cell, bit_index(low))
    if commit(rec, start, tech, u, digits) and hidden:
        flag_direct(rec, pos, T, u, False)
