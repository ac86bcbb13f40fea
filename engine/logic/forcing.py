"""Trial and error, one level deep: a candidate whose placement leads, by singles alone, to a
contradiction (a cell with no candidate, a digit with no place in a unit, or a digit twice in a
unit) is false. On a Killer the last open cell of a cage is a single too (its value is what the
cage's total leaves), and a cage whose cells cannot make its total is a contradiction.

This is the rung beyond the ladder: it keeps the solve deterministic and its iteration count
meaningful where no technique applies. Each refuted candidate is one step; its ``extra`` is the
number of placements the trial made before the contradiction (how far the reader must follow it,
counted in synchronous rounds so that it does not depend on scan order), which the rating uses
like a chain's length.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import (
    TRIAL_AND_ERROR,
    U0,
    add_proof,
    bit,
    bit_index,
    commit,
    eliminate,
    lowest_bit,
    mark,
    popcount,
)


@kernel
def trial(cand, placed, T, cell, digit, scratch, limit):
    """Place ``digit`` at ``cell`` in the given (scratch) state and propagate singles.

    Propagation runs in synchronous rounds, like passes (all singles of the state at the start of
    a round, then all their peer eliminations), so the outcome and the count do not depend on
    scan order. Returns the number of placements made, negated when they end in a contradiction;
    gives up (a positive count) once more than ``limit`` placements are made without one.
    The state it starts from has no single (the trial rung comes after the singles rung), so
    a round looks for singles only in the cells and units its eliminations touched.
    ``scratch``: (fresh, found, touched cells, touched units, stamps), see ``find_forcing``.
    """
    fresh, found, cells, touched, stamp = scratch
    peers, units, cell_units = T.peers, T.units, T.cell_units
    n = units.shape[1]
    full = U0
    for d in range(n):
        full |= bit(d)
    placed[cell] = digit + 1
    cand[cell] = bit(digit)
    fresh[0] = cell
    count = 1
    made = 1
    while True:
        stamp[0] += 1
        mark_cells = stamp[0]
        changed = 0
        units_touched = 0
        # eliminations from this round's placements
        for i in range(count):
            c = fresh[i]
            b = cand[c]
            units_touched = _touch_units(cell_units, c, stamp, mark_cells, touched, units_touched)
            for k in range(peers.shape[1]):
                p = peers[c, k]
                if placed[p] == placed[c]:
                    return -made
                if placed[p] == 0 and cand[p] & b:
                    cand[p] ^= b
                    if cand[p] == U0:
                        return -made
                    if stamp[1 + p] != mark_cells:
                        stamp[1 + p] = mark_cells
                        cells[changed] = p
                        changed += 1
                        units_touched = _touch_units(
                            cell_units, p, stamp, mark_cells, touched, units_touched
                        )
        # the singles of the resulting state: naked ones among the changed cells ...
        count = 0
        for i in range(changed):
            c = cells[i]
            found[c] = 0
            if popcount(cand[c]) == 1:
                found[c] = bit_index(cand[c]) + 1
                fresh[count] = c
                count += 1
        # ... and hidden ones in the touched units
        for i in range(units_touched):
            u = units[touched[i]]
            once = U0
            twice = U0
            done = U0
            for k in range(n):
                c = u[k]
                if placed[c]:
                    done |= bit(placed[c] - 1)
                else:
                    twice |= once & cand[c]
                    once |= cand[c]
            if (once | done) != full:
                return -made  # a digit has no place left in the unit
            lone = once & ~twice & ~done
            while lone:
                low = lowest_bit(lone)
                lone ^= low
                d = bit_index(low)
                for k in range(n):
                    c = u[k]
                    if placed[c] == 0 and cand[c] & low:
                        break
                if stamp[1 + c] != mark_cells or found[c] == 0:
                    if stamp[1 + c] != mark_cells:
                        stamp[1 + c] = mark_cells
                    found[c] = d + 1
                    fresh[count] = c
                    count += 1
                elif found[c] != d + 1:
                    return -made  # one cell would take two digits
        if T.cage_total.shape[0]:  # a Killer: its cages' sums
            count = _cage_singles(cand, placed, T, stamp, mark_cells, found, fresh, count)
            if count < 0:
                return -made
        if count == 0 or made + count > limit:
            return made + count
        for i in range(count):
            c = fresh[i]
            placed[c] = found[c]
            cand[c] = bit(found[c] - 1)
        made += count


@kernel
def _cage_singles(cand, placed, T, stamp, mark_cells, found, fresh, count):
    """Add to this round's singles the last open cell of each Killer cage (its value is the
    cage's total less the digits placed); returns the new count, or -1 on a contradiction (a
    full cage off its total, or a last cell that cannot take what the total leaves)."""
    n = T.units.shape[1]
    for g in range(T.cage_total.shape[0]):
        rest, last, open_cells = T.cage_total[g], -1, 0
        for i in range(T.cage_cells.shape[1]):
            c = T.cage_cells[g, i]
            if c < 0:
                break
            if placed[c]:
                rest -= placed[c]
            else:
                last = c
                open_cells += 1
        if open_cells == 0 and rest != 0:
            return -1
        if open_cells != 1:
            continue
        if not 1 <= rest <= n or cand[last] & bit(rest - 1) == U0:
            return -1
        if stamp[1 + last] != mark_cells or found[last] == 0:
            stamp[1 + last] = mark_cells
            found[last] = rest
            fresh[count] = last
            count += 1
        elif found[last] != rest:
            return -1  # one cell would take two digits
    return count


@kernel(inline="always")
def _touch_units(cell_units, cell, stamp, mark_cells, touched, units_touched):
    """Add the cell's units (row, column, box or region, and a variant's windows and diagonals)
    to this round's ``touched`` units (those not stamped yet; unit stamps follow the cells' in
    ``stamp``; a padded row's repeats are stamped already); returns the new count."""
    ncells = cell_units.shape[0]
    for k in range(cell_units.shape[1]):
        u = cell_units[cell, k]
        if stamp[1 + ncells + u] != mark_cells:
            stamp[1 + ncells + u] = mark_cells
            touched[units_touched] = u
            units_touched += 1
    return units_touched


@kernel
def find_forcing(cand, placed, T, rec):
    """Record the shortest refutations: every candidate that one trial (singles only) refutes
    in the fewest placements. A rater takes the easiest forcing chain on offer, then looks for
    simpler steps again, so a pass holds only those; trials stop once they run longer."""
    units = T.units
    n = units.shape[1]
    ncells = cand.shape[0]
    scratch_cand = np.empty_like(cand)
    scratch_placed = np.empty_like(placed)
    scratch = (
        np.zeros(ncells, dtype=np.int64),  # this round's singles
        np.zeros(ncells, dtype=np.int64),  # the digit each takes (valid where stamped)
        np.zeros(ncells, dtype=np.int64),  # the cells this round's eliminations touched
        np.zeros(units.shape[0], dtype=np.int64),  # ... and their units
        np.zeros(1 + ncells + units.shape[0], dtype=np.int64),  # round stamps: cells, units
    )
    refuted = np.zeros(ncells * n, dtype=np.int64)  # cell * n + digit of each shortest refutation
    count = 0
    best = ncells + 1
    for cell in range(ncells):
        if placed[cell]:
            continue
        m = cand[cell]
        while m:
            low = lowest_bit(m)
            m ^= low
            digit = bit_index(low)
            scratch_cand[:] = cand
            scratch_placed[:] = placed
            made = trial(scratch_cand, scratch_placed, T, cell, digit, scratch, best)
            if made < 0:
                if -made < best:
                    best = -made
                    count = 0
                refuted[count] = cell * n + digit
                count += 1
    for i in range(count):
        cell, digit = refuted[i] // n, refuted[i] % n
        start = mark(rec)
        add_proof(rec, cell)
        eliminate(rec, cand, cell, digit)
        commit(rec, start, TRIAL_AND_ERROR, best, bit(digit))
