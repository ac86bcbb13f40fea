"""Locked candidates: pointing (a box's candidates for a digit lie in one line) and claiming (a
line's candidates for a digit lie in one box). Works on every box shape through the table of
box/line crossings."""

from __future__ import annotations

from numba import njit

from engine.logic.state import (
    LOCKED_POINTING,
    T_INTER,
    T_INTER_MASKS,
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
)


@njit(cache=True)
def _locked(cand, pos, T, rec, tech, digit, inside, inside_mask, outside, outside_mask):
    """One locked-candidates step: the digit's cells of unit ``inside`` all lie in the crossing
    (``inside_mask``), so it leaves the other unit ``outside`` outside the crossing."""
    units = T[T_UNITS]
    inner = pos[digit, inside]
    outer = pos[digit, outside] & ~outside_mask
    if inner == U0 or inner & ~inside_mask or outer == U0:
        return
    start = mark(rec)
    m = inner
    while m:
        low = lowest_bit(m)
        m ^= low
        add_proof(rec, units[inside, bit_index(low)])
    while outer:
        low = lowest_bit(outer)
        outer ^= low
        eliminate(rec, cand, units[outside, bit_index(low)], digit)
    if commit(rec, start, tech, outside, bit(digit)):
        flag_direct(rec, pos, T)


@njit(cache=True)
def find_locked(cand, pos, T, rec, tech):
    """Record every pointing (``tech`` LOCKED_POINTING) or claiming (LOCKED_CLAIMING) step."""
    units, inter, masks = T[T_UNITS], T[T_INTER], T[T_INTER_MASKS]
    n = units.shape[1]
    for i in range(inter.shape[0]):
        box, line = inter[i, 0], inter[i, 1]
        in_box, in_line = masks[i, 0], masks[i, 1]
        for d in range(n):
            # cheap test first: the helper call costs more than the test
            on_box, on_line = pos[d, box], pos[d, line]
            if tech == LOCKED_POINTING:
                if on_box != U0 and not on_box & ~in_box and on_line & ~in_line:
                    _locked(cand, pos, T, rec, tech, d, box, in_box, line, in_line)
            elif on_line != U0 and not on_line & ~in_line and on_box & ~in_box:
                _locked(cand, pos, T, rec, tech, d, line, in_line, box, in_box)
