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

from engine.geometry import Geometry, per_geometry
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
    its innies, its outies, and where two cages cross its edge, each innie less outie pair of
    one cell each. A group met twice keeps its first, easiest, technique."""
    if not geo.cages:
        cells, signs = np.full((0, 1), -1, dtype=np.int32), np.zeros((0, 1), dtype=np.int32)
        totals, techs, units = (np.zeros(0, dtype=np.int32) for _ in range(3))
        return _fields(cells, signs, totals, techs, units)
    return cage_sum_groups(geo.uncaged, geo.cage_of, geo.cage_cells, geo.cage_total)


def cage_sum_groups(
    under: Geometry, cage_of: np.ndarray, cage_cells: np.ndarray, cage_total: np.ndarray
) -> dict[str, np.ndarray]:
    """:func:`sum_groups` of the cages given as arrays (``engine.cage_arrays``) over the grid
    ``under``. A Killer dig builds one table per cage layout it grades, so the regions come
    from the grid (cached) and the groups from a kernel."""
    cells, signs, totals, techs, units, lengths = _sum_group_rows(
        *_region_table(under), under.n, cage_of, cage_cells, cage_total
    )
    width = max(int(lengths.max(initial=1)), 1)
    return _fields(cells[:, :width].copy(), signs[:, :width].copy(), totals, techs, units)


def _fields(cells, signs, totals, techs, units) -> dict[str, np.ndarray]:
    return {
        "grp_cells": cells,
        "grp_sign": signs,
        "grp_total": totals,
        "grp_tech": techs,
        "grp_unit": units,
    }


@per_geometry
def _region_table(geo: Geometry) -> tuple[np.ndarray, ...]:
    """The regions of the rule of 45 on a grid (:func:`_regions`), as arrays: the cells each
    holds, whether its units are apart (units that overlap, a row and a diagonal ..., do not
    add up), how many units it joins, its ``grp_unit`` (first unit + UNIT_FACTOR * (last -
    first)), and whether it joins several."""
    regions = _regions(geo)
    nunits = len(geo.units)
    picked = np.full((len(regions), MOST_UNITS), nunits)  # past the end: no unit
    for r, units in enumerate(regions):
        picked[r, : len(units)] = units
    unit_cells = np.zeros((nunits + 1, geo.ncells), dtype=np.int64)
    unit_cells[np.arange(nunits)[:, None], geo.units] = 1
    member = unit_cells[picked].sum(axis=1)  # times each region holds each cell
    span = [units[0] + UNIT_FACTOR * (units[-1] - units[0]) for units in regions]
    return (
        member > 0,
        member.max(axis=1) == 1,
        np.array([len(units) for units in regions], dtype=np.int64),
        np.array(span, dtype=np.int32),
        np.array([len(units) > 1 for units in regions]),
    )


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


# ---- kernels ----------------------------------------------------------------------------------


@kernel
def _sum_group_rows(inside, apart, joined, span, several, n, cage_of, cage_cells, cage_total):
    """The sum groups of every region (``_region_table``'s arrays) under the cages, in order,
    each once: (cells, signs, totals, techniques, units, lengths), a row per group.

    A cage crosses a region's edge when some but not all of its cells lie inside; its cells
    inside are innies, the others outies. An innie less an outie of one cell each takes exactly
    two crossing cages: one with one cell inside and the other with one cell outside."""
    nregions, ncells = inside.shape
    ncages = cage_total.shape[0]
    rows = 4 * nregions  # innies, outies and two pairs a region at most
    cells = np.full((rows, MOST_IN_ONE_UNIT), -1, dtype=np.int32)
    signs = np.zeros((rows, MOST_IN_ONE_UNIT), dtype=np.int32)
    totals = np.zeros(rows, dtype=np.int32)
    techs = np.zeros(rows, dtype=np.int32)
    units = np.zeros(rows, dtype=np.int32)
    lengths = np.zeros(rows, dtype=np.int64)
    out = (cells, signs, totals, techs, units, lengths)
    sizes = np.zeros(ncages, dtype=np.int64)
    for c in range(ncells):
        sizes[cage_of[c]] += 1
    held = np.zeros(ncages, dtype=np.int64)
    group = np.empty(MOST_IN_ONE_UNIT, dtype=np.int32)
    ones = np.ones(MOST_IN_ONE_UNIT, dtype=np.int32)
    pair_signs = np.empty(2, dtype=np.int32)
    found = 0
    for r in range(nregions):
        if not apart[r]:
            continue
        held[:] = 0
        for c in range(ncells):
            if inside[r, c]:
                held[cage_of[c]] += 1
        crossing, first, second = 0, -1, -1
        known = joined[r] * (n * (n + 1) // 2)
        outie_total = 0
        for k in range(ncages):
            if held[k] == sizes[k]:
                known -= cage_total[k]
            elif held[k] > 0:
                crossing += 1
                outie_total += cage_total[k]
                if first < 0:
                    first = k
                elif second < 0:
                    second = k
        if crossing == 0:
            continue
        most = MOST_IN_SEVERAL if several[r] else MOST_IN_ONE_UNIT
        for innies in (True, False):
            size = 0
            for c in range(ncells):
                k = cage_of[c]
                if 0 < held[k] < sizes[k] and inside[r, c] == innies:
                    if size < most:
                        group[size] = c
                    size += 1
            if size > most:
                continue
            if several[r]:
                tech = RULE_OF_45
            elif crossing == 1 and size > 1:  # a group inside one cage is a split cage
                tech = CAGE_SPLIT
            else:
                tech = INNIES_OUTIES
            total = known if innies else outie_total - known
            found = _add_group(found, group[:size], ones[:size], total, tech, span[r], out)
        if crossing != 2:
            continue
        for kept, chosen in ((second, first), (first, second)):
            if held[kept] != 1 or sizes[chosen] - held[chosen] != 1:
                continue
            inner = _first_cell(cage_cells[kept], inside[r], True)
            outer = _first_cell(cage_cells[chosen], inside[r], False)
            group[0], group[1] = min(inner, outer), max(inner, outer)
            pair_signs[0], pair_signs[1] = (1, -1) if inner < outer else (-1, 1)
            tech = RULE_OF_45 if several[r] else INNIES_OUTIES
            total = known - cage_total[chosen]
            found = _add_group(found, group[:2], pair_signs, total, tech, span[r], out)
    return (
        cells[:found],
        signs[:found],
        totals[:found],
        techs[:found],
        units[:found],
        lengths[:found],
    )


@kernel(inline="always")
def _first_cell(cage, inside, wanted):
    """The first of a cage's cells (padded with -1) whose ``inside`` is ``wanted``."""
    for cell in cage:
        if cell >= 0 and inside[cell] == wanted:
            return cell
    return -1


@kernel
def _add_group(found, group, sign, total, tech, unit, out):
    """Append a group to ``out`` (``_sum_group_rows``'s rows) unless one with the same cells and
    signs came first; returns the count."""
    cells, signs, totals, techs, units, lengths = out
    size = group.shape[0]
    for g in range(found):
        if lengths[g] != size:
            continue
        same = True
        for i in range(size):
            if cells[g, i] != group[i] or signs[g, i] != sign[i]:
                same = False
                break
        if same:
            return found
    cells[found, :size] = group
    signs[found, :size] = sign
    totals[found], techs[found], units[found], lengths[found] = total, tech, unit, size
    return found + 1


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
