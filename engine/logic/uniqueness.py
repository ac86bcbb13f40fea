"""Uniqueness techniques: unique, hidden and avoidable rectangles and BUG+1. Sound only for puzzles
with one solution.

A *deadly pattern* is a set of open cells that could swap two digits and still solve the puzzle:
four cells at the corners of a rectangle in two rows, two columns and two boxes, all holding only
the same two digits a and b, would give a second solution. A puzzle with one solution never
reaches it, so any candidate whose removal would leave it is true, and any whose placement would
force it is false. The grader therefore checks uniqueness itself whenever one of these was used.

Unique rectangle (``extra`` = the type, as SE and HoDoKu number them); *floor* cells hold exactly
{a, b}, *roof* cells hold more:

* type 1: three floor cells: a and b leave the roof cell;
* types 2 and 5: every roof cell holds {a, b, c} for one extra c: one of them holds c, so c leaves
  every cell that sees all of them (2: roof cells in one line; 5: diagonal, or three of them);
* type 3: two roof cells in one unit: one of them holds an extra digit, so together they act as
  one cell holding their extra digits; with k other cells of the unit they form a naked subset of
  k + 1 digits, which leave the unit's other cells (``extra`` = 3, plus 10 per subset digit beyond
  two: SE rates a pair 0.1 above type 1 and each further digit 0.1 more);
* type 4: two roof cells in one unit where a has no other place: one of them holds a, so b leaves
  both;
* type 6: floor cells diagonal, and a has no other place in either of the rectangle's rows (or
  either of its columns): a in a roof cell would force it into both, so a leaves both.

Hidden rectangle: a floor cell whose diagonal corner holds a and b, where a has no other place in
either of that corner's lines (row and column) than the rectangle: b there would force a into
both its neighbours, and the floor cell to b: the deadly pattern, so b leaves it.

Avoidable rectangle: the deadly pattern needs no candidates, only four cells none of which was
given: swapping a and b in them still fits the givens. Where logic solved corners of such a
rectangle to a and b (opposite corners equal), the open corners must avoid completing it. Type 1:
three solved corners, so the fourth loses the digit that would complete it. Type 2: two solved
corners in one line, and the open ones each hold the digit that would complete the pattern and
the same extra digit c: one of them is c, so c leaves every cell that sees both.

Corners may miss one of a and b (eliminated earlier, not given): swapping a and b in the corners
of a solution still gives a solution, so the reasoning holds (HoDoKu's "missing candidates").

BUG+1 (bivalue universal grave): when every open cell but one holds two candidates and each digit
has two places in every unit but for one digit in the exception's units, the exception holds that
digit (otherwise every cell is bivalue and the grid has zero or two solutions): its other
candidates are eliminated (the naked single follows in the next pass).
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import (
    AVOIDABLE_RECTANGLE,
    BUG_PLUS_ONE,
    HIDDEN_RECTANGLE,
    U0,
    UNIQUE_RECTANGLE,
    add_proof,
    bit,
    commit,
    eliminate,
    eliminate_all,
    eliminate_common,
    lowest_bit,
    mark,
    popcount,
    sees,
)

TYPE_1, TYPE_2, TYPE_3, TYPE_4, TYPE_5, TYPE_6 = 1, 2, 3, 4, 5, 6
SUBSET_STEP = 10  # type 3's extra grows by this per naked-subset digit beyond two
CORNERS = 4  # 0 and 1 share a row, so do 2 and 3; 0 and 2 share a column, so do 1 and 3


@kernel
def find_unique_rectangles(cand, placed, pos, T, rec, tech, se_form):
    """Record every unique rectangle of types 1 to 6 (one step per rectangle, digit pair and
    type), or with ``tech`` HIDDEN_RECTANGLE every hidden rectangle. ``se_form``: SE's
    rectangles only (its UniqueLoops), whose corners each hold both digits, of types 1 to 5.

    Rectangles are taken in row-pair, column-pair order; only columns open in both rows are
    paired, and only pairs with a bivalue corner are tried (every type needs a floor cell). Each
    digit pair that a bivalue corner holds (first corner first) is screened on the corners'
    masks (:func:`_screen`) before :func:`_pair` is called: a call that takes arrays costs
    atomic reference counts, more than the screen, and most pairs fail it.
    """
    units, cell_units = T.units, T.cell_units
    # a call costs per array it takes: one tuple
    tables = (units, cell_units, T.unit_pos, T.peer_bits)
    n = units.shape[1]
    corners = np.zeros(CORNERS, dtype=np.int64)
    open_cols = np.zeros(n, dtype=np.uint64)  # per row: its open columns
    bivalue_cols = np.zeros(n, dtype=np.uint64)  # per row: its open columns with two candidates
    for r in range(n):
        for c in range(n):
            cell = r * n + c
            if placed[cell] == 0:
                open_cols[r] |= bit(c)
                if popcount(cand[cell]) == 2:
                    bivalue_cols[r] |= bit(c)
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            both = open_cols[r1] & open_cols[r2]
            floors = (bivalue_cols[r1] | bivalue_cols[r2]) & both
            if floors == U0:
                continue
            for c1 in range(n):
                if not both & bit(c1):
                    continue
                for c2 in range(c1 + 1, n):
                    if not both & bit(c2) or not floors & (bit(c1) | bit(c2)):
                        continue
                    corners[0], corners[1] = r1 * n + c1, r1 * n + c2
                    corners[2], corners[3] = r2 * n + c1, r2 * n + c2
                    box = cell_units[corners[0], 2]
                    if (box == cell_units[corners[1], 2]) == (box == cell_units[corners[2], 2]):
                        continue  # the corners must lie in exactly two boxes
                    if tech == HIDDEN_RECTANGLE:
                        _hidden(cand, pos, tables, rec, corners)
                        continue
                    masks = (cand[corners[0]], cand[corners[1]], cand[corners[2]], cand[corners[3]])
                    for i in range(CORNERS):
                        ab = masks[i]
                        if popcount(ab) != 2 or _earlier(masks, i, ab):
                            continue
                        floor, extra = _screen(masks, ab, se_form)
                        if floor:
                            a = lowest_bit(ab)
                            _pair(
                                cand,
                                placed,
                                pos,
                                tables,
                                rec,
                                corners,
                                a,
                                ab ^ a,
                                floor,
                                extra,
                                se_form,
                            )


@kernel
def _earlier(masks, i, ab):
    """True when a corner before corner i has the mask ab (its pair is tried once)."""
    for j in range(i):  # noqa: SIM110 (a plain loop for numba)
        if masks[j] == ab:
            return True
    return False


@kernel
def _screen(masks, ab, se_form):
    """The floor of the digit pair ab on a rectangle whose corners hold ``masks`` (bit i set:
    corner i holds exactly {a, b}) and the one extra digit that every roof cell holds (0 if they
    do not share one). The floor is 0 when no type can apply: a corner holds neither digit
    (no deadly pattern) or, in ``se_form``, lacks one of them; every corner is a floor (the
    deadly pattern itself: the state has no unique solution), or there is one floor cell and no
    shared extra digit (types 2 and 5 are all that one floor cell leaves)."""
    floor = 0
    extra = U0
    one_extra = True
    for i in range(CORNERS):
        m = masks[i]
        if m & ab == U0 or (se_form and m & ab != ab):
            return 0, U0
        if m == ab:
            floor |= 1 << i
        else:
            rest = m & ~ab
            if popcount(rest) != 1 or (extra != U0 and rest != extra):
                one_extra = False
            extra = rest
    floors = popcount(np.uint64(floor))
    if floors == CORNERS or (floors == 1 and not one_extra):
        return 0, U0
    return floor, extra if one_extra else U0


@kernel
def _pair(cand, placed, pos, tables, rec, corners, a, b, floor, extra, se_form):
    """The unique-rectangle types on the digit pair {a, b} (bits) of one rectangle, with the
    floor and the roof cells' extra digit that :func:`_screen` found (no type 6 in
    ``se_form``)."""
    units, cell_units, unit_pos, peer_bits = tables
    ab = a | b
    floors = popcount(np.uint64(floor))
    if floors == CORNERS - 1:
        start = _open(rec, corners)
        roof = corners[_lowest_index(CORNERS, ~floor)]
        eliminate(rec, cand, roof, _index(a))
        eliminate(rec, cand, roof, _index(b))
        commit(rec, start, UNIQUE_RECTANGLE, TYPE_1, ab)
        return
    if extra:
        _one_extra(cand, placed, peer_bits, rec, corners, floor, floors, extra)
    if floors == 2:
        diagonal = floor in (0b1001, 0b0110)
        if diagonal and not se_form:
            _type_6(cand, pos, cell_units, unit_pos, rec, corners, a, b, floor)
        else:
            roof1 = corners[_lowest_index(CORNERS, ~floor)]
            roof2 = corners[_lowest_index(CORNERS, ~floor & ~(1 << _lowest_index(CORNERS, ~floor)))]
            for k in range(3):  # types 3 and 4 on a unit of both roofs
                u = cell_units[roof1, k]
                if u == cell_units[roof2, k]:
                    _type_3(cand, placed, units, unit_pos, rec, corners, roof1, roof2, ab, u, k)
                    only = bit(unit_pos[roof1, k]) | bit(unit_pos[roof2, k])
                    if pos[_index(a), u] == only:
                        _type_4(cand, rec, corners, roof1, roof2, a, b)
                    if pos[_index(b), u] == only:
                        _type_4(cand, rec, corners, roof1, roof2, b, a)


@kernel
def _one_extra(cand, placed, peer_bits, rec, corners, floor, floors, extra):
    """Types 2 and 5: every roof cell holds {a, b} and the same one extra digit ``extra``, so
    it leaves every cell that sees all the roof cells."""
    digit = _index(extra)
    start = _open(rec, corners)
    for cell in range(cand.shape[0]):
        if placed[cell] or not cand[cell] & extra:
            continue
        sees_all = True
        for i in range(CORNERS):
            if not floor >> i & 1 and not sees(cell, corners[i], peer_bits):
                sees_all = False
        if sees_all:
            eliminate(rec, cand, cell, digit)
    aligned = floors == 2 and floor not in (0b1001, 0b0110)
    commit(rec, start, UNIQUE_RECTANGLE, TYPE_2 if aligned else TYPE_5, extra)


@kernel
def _type_4(cand, rec, corners, roof1, roof2, keep, drop):
    """Type 4: ``keep`` has no place in a unit of both roof cells but those two cells (the
    caller checks it), so ``drop`` leaves them."""
    start = _open(rec, corners)
    eliminate(rec, cand, roof1, _index(drop))
    eliminate(rec, cand, roof2, _index(drop))
    commit(rec, start, UNIQUE_RECTANGLE, TYPE_4, keep | drop)


@kernel
def _type_3(cand, placed, units, unit_pos, rec, corners, roof1, roof2, ab, u, k):
    """Type 3 in unit u (the roofs' k-th unit): the roofs' extra digits and one to three other
    cells of u whose digits together number one more than those cells (subsets of up to four
    digits, as SE's pair, triple and quad)."""
    extra = (cand[roof1] | cand[roof2]) & ~ab
    roofs = bit(unit_pos[roof1, k]) | bit(unit_pos[roof2, k])
    n = units.shape[1]
    members = U0  # the unit's cells that can join: open, no roof, few enough digits
    for i in range(n):
        cell = units[u, i]
        if placed[cell] == 0 and not roofs & bit(i) and popcount(cand[cell] | extra) <= 4:
            members |= bit(i)
    for i in range(n):
        if not members & bit(i):
            continue
        d1 = extra | cand[units[u, i]]
        _subset(cand, placed, units, rec, corners, u, roofs, bit(i), d1)
        for j in range(i + 1, n):
            if not members & bit(j):
                continue
            d2 = d1 | cand[units[u, j]]
            if popcount(d2) > 4:
                continue
            _subset(cand, placed, units, rec, corners, u, roofs, bit(i) | bit(j), d2)
            for m in range(j + 1, n):
                if members & bit(m):
                    d3 = d2 | cand[units[u, m]]
                    chosen = bit(i) | bit(j) | bit(m)
                    _subset(cand, placed, units, rec, corners, u, roofs, chosen, d3)


@kernel
def _subset(cand, placed, units, rec, corners, u, roofs, chosen, digits):
    """Record a type 3 when the cells of unit u at positions ``chosen`` and the roofs' extra
    digits hold one digit more than those cells: they leave the unit's other cells."""
    size = popcount(chosen)
    if popcount(digits) != size + 1:
        return
    start = _open(rec, corners)
    for i in range(units.shape[1]):
        cell = units[u, i]
        if chosen & bit(i):
            add_proof(rec, cell)
        elif not roofs & bit(i) and placed[cell] == 0:
            eliminate_all(rec, cand, cell, digits)
    commit(rec, start, UNIQUE_RECTANGLE, TYPE_3 + SUBSET_STEP * (size - 1), digits)


@kernel
def _hidden(cand, pos, tables, rec, corners):
    """Hidden rectangles on one rectangle: each bivalue corner {a, b} whose diagonal corner
    holds both, where a has no other place in the diagonal corner's row and column."""
    _, cell_units, unit_pos, _ = tables
    for f in range(CORNERS):
        ab = cand[corners[f]]
        far = corners[3 - f]
        if popcount(ab) != 2 or cand[far] & ab != ab:
            continue
        for keep in (lowest_bit(ab), ab ^ lowest_bit(ab)):
            d = _index(keep)
            confined = True
            for k in range(2):  # the far corner's row (its partner differs in bit 0), column
                partner = corners[(3 - f) ^ (1 << k)]
                only = bit(unit_pos[far, k]) | bit(unit_pos[partner, k])
                if pos[d, cell_units[far, k]] != only:
                    confined = False
            if confined:
                start = _open(rec, corners)
                eliminate(rec, cand, far, _index(ab ^ keep))
                commit(rec, start, HIDDEN_RECTANGLE, 0, ab)


@kernel
def _type_6(cand, pos, cell_units, unit_pos, rec, corners, a, b, floor):
    """Type 6: diagonal floor; a digit confined to the rectangle in both rows (or both columns)
    leaves the roof cells."""
    for digit_bit in (a, b):
        d = _index(digit_bit)
        for k in range(2):  # the rectangle's rows (k = 0) or its columns (k = 1)
            confined = True
            for line in range(2):  # corners 0-1 and 2-3 share rows, 0-2 and 1-3 columns
                x = corners[2 * line] if k == 0 else corners[line]
                y = corners[2 * line + 1] if k == 0 else corners[line + 2]
                only = bit(unit_pos[x, k]) | bit(unit_pos[y, k])
                if pos[d, cell_units[x, k]] != only:
                    confined = False
            if confined:
                start = _open(rec, corners)
                for i in range(CORNERS):
                    if not floor >> i & 1:
                        eliminate(rec, cand, corners[i], d)
                commit(rec, start, UNIQUE_RECTANGLE, TYPE_6, digit_bit)
                break


@kernel
def _open(rec, corners):
    start = mark(rec)
    for i in range(CORNERS):
        add_proof(rec, corners[i])
    return start


@kernel
def _lowest_index(width, mask):
    for i in range(width):
        if mask >> i & 1:
            return i
    return -1


@kernel
def _index(single_bit):
    return popcount(single_bit - np.uint64(1))


@kernel
def find_avoidable_rectangles(cand, placed, given, T, rec):
    """Record every avoidable rectangle of types 1 and 2 (``extra`` = the type).

    Rectangles are taken in row-pair, column-pair order over the cells not given, and kept when
    at least two corners were solved: the solved corners fix the digits x of corners 0 and 3 and
    y of corners 1 and 2 (:func:`_deadly_digits`)."""
    units, cell_units = T.units, T.cell_units
    n = units.shape[1]
    corners = np.zeros(CORNERS, dtype=np.int64)
    free = np.zeros(n, dtype=np.uint64)  # per row: the columns not given
    solved = np.zeros(n, dtype=np.uint64)  # per row: the columns solved by logic
    for r in range(n):
        for c in range(n):
            if not given[r * n + c]:
                free[r] |= bit(c)
                if placed[r * n + c]:
                    solved[r] |= bit(c)
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            both = free[r1] & free[r2]
            if (solved[r1] | solved[r2]) & both == U0:
                continue
            for c1 in range(n):
                if not both & bit(c1):
                    continue
                for c2 in range(c1 + 1, n):
                    pair = bit(c1) | bit(c2)
                    if (
                        not both & bit(c2)
                        or popcount(solved[r1] & pair) + popcount(solved[r2] & pair) < 2
                    ):
                        continue
                    corners[0], corners[1] = r1 * n + c1, r1 * n + c2
                    corners[2], corners[3] = r2 * n + c1, r2 * n + c2
                    box = cell_units[corners[0], 2]
                    if (box == cell_units[corners[1], 2]) == (box == cell_units[corners[2], 2]):
                        continue
                    x, y = _deadly_digits(placed, corners)
                    if x > 0:
                        _avoid(cand, placed, T, rec, corners, x, y)


@kernel
def _deadly_digits(placed, corners):
    """(x, y): the digits (1-based) that the solved corners give corners 0 and 3 and corners 1
    and 2, when two or three corners are solved, opposite ones alike, and two of them share a
    line; (0, 0) otherwise."""
    x = max(placed[corners[0]], placed[corners[3]])
    y = max(placed[corners[1]], placed[corners[2]])
    if x == 0 or y == 0 or x == y:
        return 0, 0
    for i in range(CORNERS):
        v = placed[corners[i]]
        if v and v != (x if i in (0, 3) else y):
            return 0, 0
    if (placed[corners[0]] > 0) + (placed[corners[1]] > 0) + (placed[corners[2]] > 0) + (
        placed[corners[3]] > 0
    ) == CORNERS:
        return 0, 0  # a solved deadly pattern: the state has no unique solution
    return x, y


@kernel
def _avoid(cand, placed, T, rec, corners, x, y):
    """Types 1 and 2 on a rectangle whose solved corners hold x (corners 0, 3) and y (1, 2)."""
    first, second = -1, -1
    for i in range(CORNERS):
        if placed[corners[i]] == 0:
            if first < 0:
                first = i
            else:
                second = i
    need_first = bit((x if first in (0, 3) else y) - 1)
    if second < 0:
        start = _open(rec, corners)
        eliminate(rec, cand, corners[first], _index(need_first))
        commit(rec, start, AVOIDABLE_RECTANGLE, TYPE_1, need_first)
        return
    need_second = bit((x if second in (0, 3) else y) - 1)
    a, b = corners[first], corners[second]
    extra = cand[a] & ~need_first
    held = cand[a] & need_first != U0 and cand[b] == need_second | extra
    if held and popcount(extra) == 1:
        start = _open(rec, corners)
        eliminate_common(rec, cand, placed, T.peers, T.peer_bits, a, b, _index(extra))
        commit(rec, start, AVOIDABLE_RECTANGLE, TYPE_2, extra)


@kernel
def find_bug(cand, placed, pos, T, rec):
    """Record the BUG+1 placement when the state is a bivalue universal grave plus one cell."""
    units, cell_units = T.units, T.cell_units
    n = units.shape[1]
    extra_cell = -1
    for cell in range(cand.shape[0]):
        if placed[cell]:
            continue
        count = popcount(cand[cell])
        if count == 3 and extra_cell < 0:
            extra_cell = cell
        elif count != 2:
            return
    if extra_cell < 0:
        return
    # the extra digit: three places in the extra cell's row; every other count must be 0 or 2
    target = -1
    m = cand[extra_cell]
    while m:
        low = lowest_bit(m)
        m ^= low
        if popcount(pos[_index(low), cell_units[extra_cell, 0]]) == 3:
            target = _index(low)
    if target < 0:
        return
    for u in range(units.shape[0]):
        own = cell_units[extra_cell, 0] == u or cell_units[extra_cell, 1] == u
        own = own or cell_units[extra_cell, 2] == u
        for d in range(n):
            count = popcount(pos[d, u])
            expected = 3 if own and d == target else 2
            if count not in (0, expected):
                return
    start = mark(rec)
    add_proof(rec, extra_cell)
    others = cand[extra_cell] & ~bit(target)
    while others:
        low = lowest_bit(others)
        others ^= low
        eliminate(rec, cand, extra_cell, _index(low))
    commit(rec, start, BUG_PLUS_ONE, 0, bit(target))
