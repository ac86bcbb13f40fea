"""Locked candidates: pointing (a box's candidates for a digit lie in one line) and claiming (a
line's candidates for a digit lie in one box). Works on every box shape through the table of
crossings (``T.cross``); on a variant it also holds each extra unit's crossings (a diagonal
with a box, a window with a row ...), the extra unit taking the box's side."""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import (
    LOCKED_POINTING,
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


@kernel
def find_locked(cand, pos, T, rec, tech):
    """Record every pointing (``tech`` LOCKED_POINTING) or claiming (LOCKED_CLAIMING) step.

    Per crossing, the digits whose candidates in the inside unit (the box when pointing, the
    line when claiming) all lie in the crossing are gathered into a mask branch-free (few do,
    unpredictably: a mispredicted branch costs more than the test); only for those is the
    outside unit read, and a step recorded where the digit has other places there. The layers
    are first copied unit by unit, so that a unit's digits lie side by side and the test runs on
    several at once (each unit is the inside of several crossings).
    """
    units, inter, masks = T.units, T.cross, T.cross_masks
    n = units.shape[1]
    pointing = tech == LOCKED_POINTING
    by_unit = np.empty((units.shape[0], n), dtype=np.uint64)  # the layers, unit by unit
    for d in range(n):
        for u in range(units.shape[0]):
            by_unit[u, d] = pos[d, u]
    for i in range(inter.shape[0]):
        if pointing:
            inside, outside = inter[i, 0], inter[i, 1]
            inside_mask, outside_mask = masks[i, 0], masks[i, 1]
        else:
            inside, outside = inter[i, 1], inter[i, 0]
            inside_mask, outside_mask = masks[i, 1], masks[i, 0]
        locked = U0
        for d in range(n):
            inner = by_unit[inside, d]
            locked |= np.uint64((inner != U0) & (inner & ~inside_mask == U0)) << np.uint64(d)
        while locked:
            low = lowest_bit(locked)
            locked ^= low
            d = bit_index(low)
            if pos[d, outside] & ~outside_mask:
                _locked(cand, pos, T, rec, tech, d, inside, outside, outside_mask)


@kernel
def _locked(cand, pos, T, rec, tech, digit, inside, outside, outside_mask):
    """One locked-candidates step: the digit's cells of unit ``inside`` all lie in the crossing,
    so it leaves the other unit ``outside`` outside the crossing (``outside_mask``). Inlined:
    a call would cost reference counts for its arrays, more than a step's recording."""
    units = T.units
    start = mark(rec)
    m = pos[digit, inside]
    while m:
        low = lowest_bit(m)
        m ^= low
        add_proof(rec, units[inside, bit_index(low)])
    outer = pos[digit, outside] & ~outside_mask
    while outer:
        low = lowest_bit(outer)
        outer ^= low
        eliminate(rec, cand, units[outside, bit_index(low)], digit)
    if commit(rec, start, tech, outside, bit(digit)):
        flag_direct(rec, pos, T, inside, True)
