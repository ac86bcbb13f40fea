"""Killer techniques: what a cage's total, and the rule of 45, say about its cells.

* cage combination: a cage holds one of the digit sets of its size and total
  (``T.combos``); a set stays possible while every cell has a candidate in it and the cells'
  candidates cover it. A digit no possible set holds leaves every cell of the cage.
* innies and outies (the rule of 45): a unit holds 1..n, adding up to n(n+1)/2; take away
  the cages wholly inside and what is left, the cells of the cages that cross its edge (the
  innies), has a known sum; so has the rest of those cages (the outies). A group down to one
  open cell gives its value; two cells of a known sum or difference leave only the digits
  that pair up; more cells keep the digits within the sums the others can make.
* cage split: the part of one cage inside a unit, or outside it, with its sum known so.
* rule of 45 on 2 to 3 adjacent rows, columns or boxes, alike.
* cage confined: a digit every possible set of a cage holds, whose cells in the cage lie in one
  unit, leaves the rest of that unit; and the reverse, a unit's digit whose cells all lie in one
  cage leaves the rest of the cage.
* subsets inside a cage: k cells of a cage holding only k digits between them (naked); k digits
  the cage must hold with only k cells of the cage to go in (hidden; k = 1 places the digit).

The cells of a cage differ, so they are peers (``engine.geometry``), but a cage is no unit: it
never takes part in hidden singles, locked candidates or fish. The sum groups are built once per
geometry (:func:`sum_groups`), the finders are kernels over ``engine.logic.state.Tables``.
"""

from __future__ import annotations

import numpy as np

from engine.geometry import Geometry
from engine.jit import kernel
from engine.logic.state import (
    CAGE_COMBINATION,
    CAGE_CONFINED,
    CAGE_HIDDEN_SUBSET,
    CAGE_NAKED_SUBSET,
    CAGE_SPLIT,
    INNIES_OUTIES,
    PLACE,
    RULE_OF_45,
    U0,
    add_effect,
    add_proof,
    bit,
    bit_index,
    commit,
    eliminate,
    eliminate_all,
    lowest_bit,
    mark,
    popcount,
    sees,
)

#: The Killer techniques (ids of ``TECHNIQUES``): they find nothing on a grid without cages.
KILLER_TECHNIQUES = (
    "cage_combination",
    "innies_outies",
    "cage_split",
    "cage_confined",
    "cage_naked_subset",
    "cage_hidden_subset",
    "rule_of_45",
)
#: Largest group of innies or outies a person adds up (more cells: the rule gives little).
MOST_IN_ONE_UNIT = 5
MOST_IN_SEVERAL = 4
#: Units per region for the rule of 45 beyond one unit (adjacent rows, columns or boxes).
MOST_UNITS = 3
#: ``S_EXTRA`` of a cage-confined step: cage + UNIT_FACTOR * unit; a sum group's ``grp_unit``:
#: its first unit + UNIT_FACTOR * (last unit - first unit).
UNIT_FACTOR = 128


def sum_groups(geo: Geometry) -> dict[str, np.ndarray]:
    """The rule of 45's groups of a Killer geometry as :class:`Tables` fields (empty tables
    otherwise): per region (one unit; 2-3 adjacent rows, columns, or boxes of one band or stack)
    its innies, its outies, and where two or three cages cross its edge, each innie less outie
    pair of one cell each. A group met twice keeps its first, easiest, technique."""
    found: dict[tuple, tuple[int, int, int]] = {}
    if geo.cages:
        for units, cells, signs, total, tech in _groups(geo):
            key = (cells, signs)
            found.setdefault(key, (total, tech, units[0] + UNIT_FACTOR * (units[-1] - units[0])))
    width = max((len(cells) for cells, _ in found), default=1)
    table = {
        "grp_cells": np.full((len(found), width), -1, dtype=np.int32),
        "grp_sign": np.zeros((len(found), width), dtype=np.int32),
        "grp_total": np.zeros(len(found), dtype=np.int32),
        "grp_tech": np.zeros(len(found), dtype=np.int32),
        "grp_unit": np.zeros(len(found), dtype=np.int32),
    }
    for g, ((cells, signs), (total, tech, unit)) in enumerate(found.items()):
        table["grp_cells"][g, : len(cells)] = cells
        table["grp_sign"][g, : len(cells)] = signs
        table["grp_total"][g], table["grp_tech"][g], table["grp_unit"][g] = total, tech, unit
    return table


def _regions(geo: Geometry) -> list[tuple[int, ...]]:
    """Single units, then runs of 2-3 adjacent rows, columns, and boxes side by side."""
    n = geo.n
    regions = [(u,) for u in range(len(geo.units))]
    for size in range(2, MOST_UNITS + 1):
        for first in range(n - size + 1):
            regions.append(tuple(range(first, first + size)))  # rows
            regions.append(tuple(range(n + first, n + first + size)))  # columns
    if geo.regions is None:
        across, down = geo.n // geo.box_cols, geo.n // geo.box_rows  # boxes per band, per stack
        for size in range(2, MOST_UNITS + 1):
            for band in range(down):
                for left in range(across - size + 1):
                    regions.append(tuple(2 * n + band * across + left + i for i in range(size)))
            for stack in range(across):
                for top in range(down - size + 1):
                    regions.append(tuple(2 * n + (top + i) * across + stack for i in range(size)))
    return regions


def _groups(geo: Geometry):
    """(units, cells, signs, total, technique) of each sum group of each region, in order.

    A cage crosses a region's edge when some but not all of its cells lie inside; its cells
    inside are innies, the others outies. All regions at once in numpy: per region and cage
    the cells inside (``held``), so only the groups themselves are built in Python."""
    n, cages, ncells = geo.n, geo.cages, geo.ncells
    regions = _regions(geo)
    picked = np.full((len(regions), MOST_UNITS), len(geo.units))  # past the end: no unit
    for r, units in enumerate(regions):
        picked[r, : len(units)] = units
    unit_cells = np.zeros((len(geo.units) + 1, ncells), dtype=np.int64)
    unit_cells[np.arange(len(geo.units))[:, None], geo.units] = 1
    member = unit_cells[picked].sum(axis=1)  # times each region holds each cell
    inside = member > 0
    # units that overlap (a row and a diagonal ...): their sums do not add up
    fits = (member.max(axis=1) == 1).tolist()
    sizes = [len(cage.cells) for cage in cages]
    totals = np.array([cage.total for cage in cages])
    in_cage = geo.cage_of[:, None] == np.arange(len(cages))  # cell x cage
    held = (inside.astype(np.float64) @ in_cage).astype(np.int64)  # exact: sums of 0 and 1
    whole = held == np.array(sizes)
    crossing = (held > 0) & ~whole
    counts = (picked < len(geo.units)).sum(axis=1)
    known = (counts * (n * (n + 1) // 2) - whole @ totals).tolist()
    outie_total = (crossing @ totals).tolist()
    crossing_cell = crossing[:, geo.cage_of]
    innies, outies = _cells_by_row(crossing_cell & inside), _cells_by_row(crossing_cell & ~inside)
    crossing_cages = _cells_by_row(crossing)
    held_rows, inside_rows = held.tolist(), inside.tolist()
    for r, units in enumerate(regions):
        ks = crossing_cages[r]
        if not fits[r] or not ks:
            continue
        most = MOST_IN_ONE_UNIT if len(units) == 1 else MOST_IN_SEVERAL
        several = RULE_OF_45 if len(units) > 1 else None
        for cells, total in ((innies[r], known[r]), (outies[r], outie_total[r] - known[r])):
            if len(cells) <= most:
                # a group inside one cage (one cage crosses the edge) is a split cage
                tech = several or (CAGE_SPLIT if len(ks) == 1 and len(cells) > 1 else INNIES_OUTIES)
                yield units, tuple(cells), (1,) * len(cells), total, tech
        # an innie less an outie of one cell each: a crossing cage has cells on both sides, so
        # that takes exactly two, one with one cell inside and the other one outside
        if len(ks) != 2:
            continue
        held_here, here = held_rows[r], inside_rows[r]
        for kept, chosen in ((ks[1], ks[0]), (ks[0], ks[1])):
            if held_here[kept] != 1 or sizes[chosen] - held_here[chosen] != 1:
                continue
            inner = next(c for c in cages[kept].cells if here[c])
            outer = next(c for c in cages[chosen].cells if not here[c])
            pair = (inner, outer)
            order = sorted(range(2), key=lambda i: pair[i])
            yield (
                units,
                tuple(pair[i] for i in order),
                tuple((1, -1)[i] for i in order),
                known[r] - cages[chosen].total,
                several or INNIES_OUTIES,
            )


def _cells_by_row(matrix: np.ndarray) -> list[list[int]]:
    """The True columns of each row of a boolean matrix, in order."""
    columns = np.nonzero(matrix)[1].tolist()  # row by row
    ends = np.cumsum(np.count_nonzero(matrix, axis=1)).tolist()
    return [columns[start:end] for start, end in zip([0, *ends[:-1]], ends, strict=True)]


# ---- kernels ----------------------------------------------------------------------------------


@kernel
def _possible_sets(cand, T, cells, size, total):
    """(union, intersection) of the digit sets of ``size`` digits adding up to ``total`` that
    fit ``cells``' candidates (each cell has a candidate in the set, their candidates cover it);
    (0, 0) when none does."""
    union, common = U0, U0
    if total < 0 or total >= T.combos.shape[1] or size >= T.combos.shape[0]:
        return union, common
    covered = U0
    for i in range(size):
        covered |= cand[cells[i]]
    first = True
    for j in range(T.combo_count[size, total]):
        digits = T.combos[size, total, j]
        if digits & ~covered:
            continue
        fits = True
        for i in range(size):
            if cand[cells[i]] & digits == U0:
                fits = False
                break
        if fits:
            union |= digits
            common = digits if first else common & digits
            first = False
    return union, common


@kernel(inline="always")
def _cage(T, c, cells):
    """Write cage ``c``'s cells into ``cells``; returns how many."""
    size = 0
    for i in range(T.cage_cells.shape[1]):
        cell = T.cage_cells[c, i]
        if cell < 0:
            break
        cells[size] = cell
        size += 1
    return size


@kernel
def must_hold(cand, placed, T, c, cells):
    """(size, digits) of cage ``c``, its cells written into ``cells``: the digits every
    possible set of the cage holds that none of its cells has placed yet."""
    size = _cage(T, c, cells)
    _, must = _possible_sets(cand, T, cells, size, T.cage_total[c])
    for i in range(size):
        if placed[cells[i]]:
            must &= ~bit(placed[cells[i]] - 1)
    return size, must


@kernel
def find_cage_combinations(cand, placed, T, rec):
    """Record, per cage, the digits no possible set holds leaving its open cells."""
    cells = np.empty(max(T.cage_cells.shape[1], 1), dtype=np.int64)
    for c in range(T.cage_total.shape[0]):  # none on other grids
        size = _cage(T, c, cells)
        union, _ = _possible_sets(cand, T, cells, size, T.cage_total[c])
        start = mark(rec)
        for i in range(size):
            add_proof(rec, cells[i])
            if placed[cells[i]] == 0:
                eliminate_all(rec, cand, cells[i], ~union)
        commit(rec, start, CAGE_COMBINATION, c, union)


@kernel
def find_sum_groups(cand, placed, T, rec, tech):
    """Record the steps of the sum groups (``T.grp_*``) of technique ``tech`` (innies and
    outies, cage splits, the rule of 45 on several units): see the module docstring."""
    n = T.units.shape[1]
    width = T.grp_cells.shape[1]
    cells = np.empty(width, dtype=np.int64)
    signs = np.empty(width, dtype=np.int64)
    for g in range(T.grp_total.shape[0]):
        if T.grp_tech[g] != tech:
            continue
        rest = T.grp_total[g]
        m = 0
        for i in range(width):
            cell = T.grp_cells[g, i]
            if cell < 0:
                break
            if placed[cell]:
                rest -= T.grp_sign[g, i] * placed[cell]
            else:
                cells[m] = cell
                signs[m] = T.grp_sign[g, i]
                m += 1
        if m == 0:
            continue
        start = mark(rec)
        for i in range(width):
            if T.grp_cells[g, i] < 0:
                break
            add_proof(rec, T.grp_cells[g, i])
        if m == 1:
            value = signs[0] * rest
            if 1 <= value <= n and cand[cells[0]] & bit(value - 1):
                add_effect(rec, cells[0], value - 1, PLACE)
            else:
                eliminate_all(rec, cand, cells[0], cand[cells[0]])
        elif m == 2:
            _pair(cand, T, rec, cells, signs, rest, n)
        else:
            _many(cand, T, rec, cells, signs, m, rest, n)
        commit(rec, start, tech, g, U0)


@kernel
def _pair(cand, T, rec, cells, signs, rest, n):
    """Two open cells, s0*x + s1*y = rest: each keeps the digits the other can pair up with."""
    apart = not sees(cells[0], cells[1], T.peer_bits)
    for i in range(2):
        x, y = cells[i], cells[1 - i]
        m = cand[x]
        while m:
            low = lowest_bit(m)
            m ^= low
            d = bit_index(low) + 1
            other = signs[1 - i] * (rest - signs[i] * d)
            if not (1 <= other <= n and cand[y] & bit(other - 1) and (apart or other != d)):
                eliminate(rec, cand, x, d - 1)


@kernel
def _many(cand, T, rec, cells, signs, m, rest, n):
    """Three or more open cells: by the digit sets when they are innies that see each other,
    else each keeps the digits the sums of the others' smallest and largest can make up."""
    distinct = True
    for i in range(m):
        distinct = distinct and signs[i] == 1
        for j in range(i):
            distinct = distinct and sees(cells[i], cells[j], T.peer_bits)
    if distinct:
        union, _ = _possible_sets(cand, T, cells, m, rest)
        for i in range(m):
            eliminate_all(rec, cand, cells[i], ~union)
        return
    low_sum, high_sum = 0, 0
    for i in range(m):
        low = bit_index(lowest_bit(cand[cells[i]])) + 1
        high = 64 - _leading_zeros(cand[cells[i]])
        if signs[i] > 0:
            low_sum += low
            high_sum += high
        else:
            low_sum -= high
            high_sum -= low
    for i in range(m):
        low = bit_index(lowest_bit(cand[cells[i]])) + 1
        high = 64 - _leading_zeros(cand[cells[i]])
        own_low, own_high = (low, high) if signs[i] > 0 else (-high, -low)
        others_low, others_high = low_sum - own_low, high_sum - own_high
        mask = cand[cells[i]]
        while mask:
            b = lowest_bit(mask)
            mask ^= b
            d = bit_index(b) + 1
            if not others_low <= rest - signs[i] * d <= others_high:
                eliminate(rec, cand, cells[i], d - 1)


@kernel(inline="always")
def _leading_zeros(x):
    count = 0
    probe = np.uint64(1) << np.uint64(63)
    while count < 64 and x & probe == U0:
        probe >>= np.uint64(1)
        count += 1
    return count


@kernel
def find_cage_confined(cand, placed, pos, T, rec):
    """Record each digit a cage must hold whose cells there lie in one unit (it leaves the rest
    of the unit), and each unit's digit whose cells all lie in one cage (it leaves the rest of
    the cage). ``S_EXTRA`` is cage + UNIT_FACTOR * unit."""
    if T.cage_total.shape[0] == 0:
        return  # not a Killer
    units, cell_units = T.units, T.cell_units
    cells = np.empty(max(T.cage_cells.shape[1], 1), dtype=np.int64)
    for c in range(T.cage_total.shape[0]):
        size, must = must_hold(cand, placed, T, c, cells)
        while must:
            low = lowest_bit(must)
            must ^= low
            d = bit_index(low)
            first = -1
            for i in range(size):
                if cand[cells[i]] & low and first < 0:
                    first = cells[i]
            if first < 0:
                continue
            for k in range(cell_units.shape[1]):
                u = cell_units[first, k]
                if k and u == cell_units[first, 0]:
                    break  # padding
                inside = True
                for i in range(size):
                    if cand[cells[i]] & low and not _in_unit(cell_units, cells[i], u):
                        inside = False
                if not inside:
                    continue
                start = mark(rec)
                for i in range(size):
                    if cand[cells[i]] & low:
                        add_proof(rec, cells[i])
                layer = pos[d, u]
                while layer:
                    b = lowest_bit(layer)
                    layer ^= b
                    cell = units[u, bit_index(b)]
                    if T.cage_of[cell] != c:
                        eliminate(rec, cand, cell, d)
                commit(rec, start, CAGE_CONFINED, c + UNIT_FACTOR * u, low)
    for u in range(units.shape[0]):
        for d in range(units.shape[1]):
            layer = pos[d, u]
            if layer == U0:
                continue
            c = -2
            m = layer
            while m:
                b = lowest_bit(m)
                m ^= b
                owner = T.cage_of[units[u, bit_index(b)]]
                c = owner if c == -2 or c == owner else -1
            if c < 0:
                continue
            start = mark(rec)
            m = layer
            while m:
                b = lowest_bit(m)
                m ^= b
                add_proof(rec, units[u, bit_index(b)])
            size = _cage(T, c, cells)
            for i in range(size):
                if placed[cells[i]] == 0 and not _in_unit(cell_units, cells[i], u):
                    eliminate(rec, cand, cells[i], d)
            commit(rec, start, CAGE_CONFINED, c + UNIT_FACTOR * u, bit(d))


@kernel(inline="always")
def _in_unit(cell_units, cell, u):
    for k in range(cell_units.shape[1]):  # noqa: SIM110 (a plain loop for numba)
        if cell_units[cell, k] == u:
            return True
    return False


@kernel
def find_cage_subsets(cand, placed, T, rec, hidden):
    """Record naked (``hidden`` False) or hidden subsets of 1 to 3 inside each cage: see the
    module docstring. Naked subsets of one cell are naked singles, left to them."""
    cells = np.empty(max(T.cage_cells.shape[1], 1), dtype=np.int64)
    opened = np.empty(max(T.cage_cells.shape[1], 1), dtype=np.int64)
    for c in range(T.cage_total.shape[0]):
        size = _cage(T, c, cells)
        m = 0
        for i in range(size):
            if placed[cells[i]] == 0:
                opened[m] = cells[i]
                m += 1
        if m < 2:
            continue
        if hidden:
            _, must = must_hold(cand, placed, T, c, cells)
            _hidden_in_cage(cand, rec, opened, m, must, c)
        else:
            _naked_in_cage(cand, rec, opened, m, c)


@kernel
def _naked_in_cage(cand, rec, opened, m, c):
    """k = 2, 3 open cells of a cage with k digits between them: the digits leave its others."""
    for k in range(2, min(3, m - 1) + 1):
        pick = np.arange(k)
        while True:
            union = U0
            for i in range(k):
                union |= cand[opened[pick[i]]]
            if popcount(union) == k:
                start = mark(rec)
                for i in range(k):
                    add_proof(rec, opened[pick[i]])
                for j in range(m):
                    chosen = False
                    for i in range(k):
                        chosen = chosen or pick[i] == j
                    if not chosen:
                        eliminate_all(rec, cand, opened[j], union)
                commit(rec, start, CAGE_NAKED_SUBSET, c, union)
            if not _next_pick(pick, k, m):
                break


@kernel
def _hidden_in_cage(cand, rec, opened, m, must, c):
    """k = 1 to 3 digits the cage must hold with k cells to go in: the cells keep only them."""
    digits = np.empty(64, dtype=np.int64)
    count = 0
    mask = must
    while mask:
        low = lowest_bit(mask)
        mask ^= low
        digits[count] = bit_index(low)
        count += 1
    for k in range(1, min(3, count) + 1):
        if k >= m:
            break
        pick = np.arange(k)
        while True:
            chosen = U0
            for i in range(k):
                chosen |= bit(digits[pick[i]])
            where = 0
            for j in range(m):
                if cand[opened[j]] & chosen:
                    where += 1
            if where == k:
                start = mark(rec)
                for j in range(m):
                    if cand[opened[j]] & chosen:
                        add_proof(rec, opened[j])
                        if k == 1:
                            if cand[opened[j]] != chosen:
                                add_effect(rec, opened[j], digits[pick[0]], PLACE)
                        else:
                            eliminate_all(rec, cand, opened[j], ~chosen)
                commit(rec, start, CAGE_HIDDEN_SUBSET, c, chosen)
            if not _next_pick(pick, k, count):
                break


@kernel(inline="always")
def _next_pick(pick, k, m):
    """Advance ``pick`` to the next k-subset of range(m), in order; False after the last."""
    i = k - 1
    while i >= 0 and pick[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    pick[i] += 1
    for j in range(i + 1, k):
        pick[j] = pick[j - 1] + 1
    return True
