"""Singles: full house, naked single and hidden single (the hidden single via per-digit layers).

All three are found together in one pass, from the state at its start. A cell that several
singles justify is recorded once, under the easiest in ladder order (full house, naked single,
hidden single). ``extra`` of a step is the unit that proves it: the full house's unit, the hidden
single's unit (a box when the cell is hidden in a box, which raters count as easier), and for a
naked single the unit where the same cell is also a hidden single, or -1.
"""

from __future__ import annotations

from engine.jit import kernel
from engine.logic.state import (
    FULL_HOUSE,
    HIDDEN_SINGLE,
    NAKED_SINGLE,
    PLACE,
    U0,
    U1,
    add_effect,
    add_proof,
    bit,
    bit_index,
    commit,
    mark,
    popcount,
)


@kernel
def hidden_singles(pos, units, hidden_unit, hidden_digit):
    """Fill ``hidden_unit``/``hidden_digit`` per cell from the layers: a unit whose layer for a
    digit has exactly one bit places that digit there. Boxes are scanned first, so a cell hidden
    in its box and in a line names the box. Cells that are not hidden singles get -1."""
    hidden_unit[:] = -1
    n = units.shape[1]
    nunits = units.shape[0]
    for step in range(nunits):
        u = (step + 2 * n) % nunits  # boxes, then rows, then columns
        for d in range(n):
            layer = pos[d, u]
            if layer != 0 and popcount(layer) == 1:
                cell = units[u, bit_index(layer)]
                if hidden_unit[cell] < 0:
                    hidden_unit[cell] = u
                    hidden_digit[cell] = d


@kernel
def find_singles(cand, placed, pos, T, enabled, rec, hidden_unit, hidden_digit, house):
    """Record every single of the current state (see the module docstring)."""
    units = T.units
    n = units.shape[1]
    hidden_singles(pos, units, hidden_unit, hidden_digit)
    house[:] = -1
    if enabled[FULL_HOUSE]:
        for u in range(units.shape[0]):
            open_cells = U0  # the layers hold exactly the open cells, each with a candidate
            for d in range(n):
                open_cells |= pos[d, u]
            if open_cells != U0 and open_cells & (open_cells - U1) == U0:
                last = units[u, bit_index(open_cells)]
                if house[last] < 0:
                    house[last] = u
    for cell in range(cand.shape[0]):
        if placed[cell]:
            continue
        m = cand[cell]
        tech = -1
        extra = -1
        digit = -1
        if house[cell] >= 0:
            tech, extra, digit = FULL_HOUSE, house[cell], bit_index(m)
        elif enabled[NAKED_SINGLE] and popcount(m) == 1:
            tech, extra, digit = NAKED_SINGLE, hidden_unit[cell], bit_index(m)
        elif enabled[HIDDEN_SINGLE] and hidden_unit[cell] >= 0:
            tech, extra, digit = HIDDEN_SINGLE, hidden_unit[cell], hidden_digit[cell]
        if tech >= 0:
            start = mark(rec)
            add_proof(rec, cell)
            add_effect(rec, cell, digit, PLACE)
            commit(rec, start, tech, extra, bit(digit))
