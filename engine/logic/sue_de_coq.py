"""Sue de Coq (two-sector disjoint subsets): a box, a line and the cells where they cross.

Take two or more open crossing cells C holding digits V, at least two more digits than cells;
cells L of the line outside the box holding digits VL, and cells B of the box outside the line
holding VB, with VL and VB disjoint and V, VL and VB together holding as many digits as C, L and
B have cells. No digit can then go twice in C, L and B: a digit of VL lies in the line in C or L,
one of VB in the box in C or B, one of V only in C. So each of those digits goes exactly once in
the pattern: VL (and V's digits outside VB) leave the rest of the line, VB (and V's digits
outside VL) the rest of the box.

L and B take up to three cells each, each holding a digit of V, and each side has more cells
than digits outside V (else it adds nothing to C: the pattern would be a plain naked subset).
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import (
    SUE_DE_COQ,
    U0,
    add_proof,
    bit,
    bit_index,
    commit,
    eliminate_all,
    lowest_bit,
    mark,
    popcount,
)

SIDE = 3  # most cells taken from the line's or the box's rest


@kernel
def find_sue_de_coq(cand, placed, T, rec):
    """Record every Sue de Coq: per box/line crossing, per set C of its open cells, per pair of
    line and box sets that fit (see the module docstring)."""
    units, inter, masks = T.units, T.inter, T.inter_masks
    n = units.shape[1]
    room = n + n * (n - 1) // 2 + n * (n - 1) * (n - 2) // 6  # sets of up to three cells
    sets = np.empty((2, room, 2), dtype=np.uint64)  # line and box side: (positions, digits)
    counts = np.zeros(2, dtype=np.int64)
    for i in range(inter.shape[0]):
        box, line = inter[i, 0], inter[i, 1]
        crossing = U0  # open crossing cells, as positions in the line
        for p in range(n):
            if masks[i, 1] & bit(p) and placed[units[line, p]] == 0:
                crossing |= bit(p)
        if popcount(crossing) < 2:
            continue
        sub = crossing
        while sub:  # every subset of the open crossing cells, two or more
            if popcount(sub) >= 2:
                digits = U0
                m = sub
                while m:
                    low = lowest_bit(m)
                    m ^= low
                    digits |= cand[units[line, bit_index(low)]]
                surplus = popcount(digits) - popcount(sub)
                if surplus >= 2:
                    for side in range(2):
                        unit, inside = (line, masks[i, 1]) if side == 0 else (box, masks[i, 0])
                        counts[side] = _sets(cand, placed, units, unit, inside, digits, sets[side])
                    _pairs(cand, placed, T, rec, sets, counts, (box, line), sub, digits, surplus)
            sub = (sub - np.uint64(1)) & crossing


@kernel
def _sets(cand, placed, units, unit, inside, digits, out):
    """Write into ``out`` the sets of one to SIDE open cells of ``unit`` outside the crossing
    (``inside``), each cell holding a digit of ``digits`` (V), with more cells than digits
    outside V: rows (positions, digits). Returns how many."""
    n = units.shape[1]
    usable = U0
    for p in range(n):
        cell = units[unit, p]
        fits = cand[cell] & digits != U0 and popcount(cand[cell] & ~digits) < SIDE
        if not inside & bit(p) and placed[cell] == 0 and fits:
            usable |= bit(p)
    count = 0
    for a in range(n):
        if not usable & bit(a):
            continue
        da = cand[units[unit, a]]
        count = _keep(out, count, bit(a), da, digits, 1)
        for b in range(a + 1, n):
            if not usable & bit(b):
                continue
            db = da | cand[units[unit, b]]
            count = _keep(out, count, bit(a) | bit(b), db, digits, 2)
            for c in range(b + 1, n):
                if usable & bit(c):
                    dc = db | cand[units[unit, c]]
                    count = _keep(out, count, bit(a) | bit(b) | bit(c), dc, digits, 3)
    return count


@kernel
def _keep(out, count, cells, held, digits, size):
    """Append (cells, held) when the set has more cells than digits outside V."""
    if popcount(held & ~digits) < size:
        out[count, 0] = cells
        out[count, 1] = held
        return count + 1
    return count


@kernel
def _pairs(cand, placed, T, rec, sets, counts, units_pair, sub, digits, surplus):
    """Record a step for every line set and box set with disjoint digits whose surpluses (cells
    minus digits outside V) add up to C's (V's digits minus C's cells)."""
    units, cell_units, unit_pos = T.units, T.cell_units, T.unit_pos
    box, line = units_pair
    for x in range(counts[0]):
        lc, ld = sets[0, x, 0], sets[0, x, 1]
        line_surplus = popcount(lc) - popcount(ld & ~digits)
        for y in range(counts[1]):
            bc, bd = sets[1, y, 0], sets[1, y, 1]
            if ld & bd or line_surplus + popcount(bc) - popcount(bd & ~digits) != surplus:
                continue
            start = mark(rec)
            line_out = ld | (digits & ~bd)
            box_out = bd | (digits & ~ld)
            kline = 0 if line < units.shape[1] else 1
            for p in range(units.shape[1]):
                cell = units[line, p]
                if sub & bit(p) or lc & bit(p):
                    add_proof(rec, cell)
                elif placed[cell] == 0:
                    eliminate_all(rec, cand, cell, line_out)
                cell = units[box, p]
                in_c = cell_units[cell, kline] == line and sub & bit(unit_pos[cell, kline]) != U0
                if bc & bit(p):
                    add_proof(rec, cell)
                elif placed[cell] == 0 and not in_c:
                    eliminate_all(rec, cand, cell, box_out)
            commit(rec, start, SUE_DE_COQ, 0, digits | ld | bd)
