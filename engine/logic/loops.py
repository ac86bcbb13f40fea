"""Unique loops: the deadly pattern of more than four cells (sound only for puzzles with one
solution; rectangles are ``engine.logic.uniqueness``'s).

Cells holding the same two digits a and b, each unit the loop crosses holding exactly two of its
cells, one at an even place and one at an odd place in the loop, could swap a and b and still
solve the puzzle: a puzzle with one solution never leaves them so. As Sukaku Explainer finds
them (its UniqueLoops): a walk from a cell of exactly {a, b} through cells holding both, each
step along a row, column or box other than the last step's, back to its start after 6 cells or
more; at most two cells may hold digits besides a and b, unless those extra digits are one.

* type 1: one cell holds more: a and b leave it;
* type 2: the cells that hold more hold one extra digit c between them: one of them is c, so c
  leaves every cell that sees all of them;
* type 4: two cells hold more and share a unit where a has no other place: one of them is a, so
  b leaves both.

SE rates a loop of 6 cells 4.6, of 8 cells 4.7, of 10 or more 5.0 (``extra`` = its length).
Longer walks than ``MAX_LOOP`` cells are not searched (a loop of 12 already rates as one of 10),
and a walk from one cell stops after ``STEP_BUDGET`` steps, so that a state where many cells
hold the same pair cannot make the search explode (the same steps every time: deterministic).
Walks start from the cells holding just the two digits and never enter such a cell below their
start, so each loop is found from the lowest of those cells, however the cells are numbered (a
cell holding more digits may be lower: walks once skipped it, and lost that loop).
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import (
    U0,
    UNIQUE_LOOP,
    add_proof,
    bit,
    bit_index,
    commit,
    eliminate,
    eliminate_seeing_holders,
    lowest_bit,
    mark,
    popcount,
)

MAX_LOOP = 12
STEP_BUDGET = 4096
KINDS = 3  # rows, columns, boxes: the units a loop walks (uniqueness is off on variants)


@kernel
def find_unique_loops(cand, placed, T, rec):
    """Record every unique loop of 6 to MAX_LOOP cells (types 1, 2 and 4), each once per way of
    walking it: from its lowest cell of just the two digits, towards its lower neighbour. A walk
    steps only to the cells a loop may pass through (``_loop_cells``), as a mask of positions
    per unit, in unit order and then position order."""
    units, cell_units = T.units, T.cell_units
    path = np.empty(MAX_LOOP, dtype=np.int64)
    last_kind = np.empty(MAX_LOOP, dtype=np.int64)
    kind = np.empty(MAX_LOOP, dtype=np.int64)
    left = np.empty(MAX_LOOP, dtype=np.uint64)  # positions not yet tried in the kind's unit
    extras = np.empty(MAX_LOOP, dtype=np.uint64)
    spare = np.empty(MAX_LOOP, dtype=np.int64)
    held = np.zeros(units.shape[0], dtype=np.int64)  # the path's cells in each unit
    alive = np.zeros(cand.shape[0], dtype=np.bool_)
    alive_in = np.zeros(units.shape[0], dtype=np.uint64)  # per unit, its alive cells' positions
    alive_pair = U0
    for start in range(cand.shape[0]):
        pair = cand[start]
        if placed[start] or popcount(pair) != 2:
            continue
        if pair != alive_pair:
            _loop_cells(cand, placed, T, pair, alive, held)
            _positions(units, alive, alive_in)
            alive_pair = pair
        if not alive[start]:
            continue
        depth = 0
        path[0], last_kind[0], kind[0] = start, -1, 0
        extras[0], spare[0] = U0, 2
        _hold(held, cell_units, start, 1)
        left[0] = _ahead(alive_in, held, T, start, start, 0)
        budget = STEP_BUDGET
        while depth >= 0 and budget > 0:
            cell = path[depth]
            if left[depth] == U0:
                kind[depth] += 1
                if kind[depth] == last_kind[depth]:
                    kind[depth] += 1
                if kind[depth] >= KINDS:
                    _hold(held, cell_units, cell, -1)
                    depth -= 1
                else:
                    left[depth] = _ahead(alive_in, held, T, cell, start, kind[depth])
                continue
            low = lowest_bit(left[depth])
            left[depth] ^= low
            step = units[cell_units[cell, kind[depth]], bit_index(low)]
            if step == start:
                if depth >= 5 and path[1] < path[depth] and _valid(path, depth + 1, cell_units):
                    _loop(cand, placed, T, rec, path[: depth + 1], pair)
                continue
            if depth + 1 == MAX_LOOP:
                continue
            if cand[step] == pair and step < start:  # walked from that cell
                continue
            if _on_path(path, depth, step) or _crowded(held, cell_units, step):
                continue
            more = cand[step] & ~pair
            if more != U0 and popcount(extras[depth] | more) > 1 and spare[depth] == 0:
                continue
            budget -= 1
            depth += 1
            first = 1 if kind[depth - 1] == 0 else 0  # a step changes its unit's kind
            path[depth], last_kind[depth], kind[depth] = step, kind[depth - 1], first
            extras[depth] = extras[depth - 1] | more
            spare[depth] = spare[depth - 1] - (more != U0)
            _hold(held, cell_units, step, 1)
            left[depth] = _ahead(alive_in, held, T, step, start, first)
        for i in range(max(depth, -1) + 1):  # the budget ran out mid-walk
            _hold(held, cell_units, path[i], -1)


@kernel
def _positions(units, alive, alive_in):
    """Per unit, the bits of the positions that hold an ``alive`` cell."""
    for u in range(units.shape[0]):
        mask = U0
        for p in range(units.shape[1]):
            if alive[units[u, p]]:
                mask |= bit(p)
        alive_in[u] = mask


@kernel
def _loop_cells(cand, placed, T, pair, alive, count):
    """Mark the cells a loop of ``pair`` may pass through: open, holding both digits, with
    another such cell in two of its units (a loop cell's two neighbours lie in two units, each
    holding exactly two loop cells). Cells that fail are dropped until none does, which leaves
    most states with no candidate cell at all. ``count`` (per unit) is left zeroed."""
    cell_units = T.cell_units
    for cell in range(cand.shape[0]):
        alive[cell] = not placed[cell] and cand[cell] & pair == pair
        if alive[cell]:
            _hold(count, cell_units, cell, 1)
    dropped = True
    while dropped:
        dropped = False
        for cell in range(cand.shape[0]):
            if not alive[cell]:
                continue
            linked = 0
            for k in range(KINDS):
                linked += count[cell_units[cell, k]] >= 2
            if linked < 2:
                alive[cell] = False
                _hold(count, cell_units, cell, -1)
                dropped = True
    for cell in range(cand.shape[0]):
        if alive[cell]:
            _hold(count, cell_units, cell, -1)


@kernel
def _hold(held, cell_units, cell, change):
    for k in range(KINDS):
        held[cell_units[cell, k]] += change


@kernel
def _ahead(alive_in, held, T, cell, start, kind):
    """The positions a walk at ``cell`` (on the path) tries in its unit of ``kind``: the cells a
    loop may pass through but itself; only the start, if the unit holds it, when the unit holds
    another cell of the path already (any other step would crowd it). The steps left out are
    those the walk would refuse, so it takes the same steps."""
    u = T.cell_units[cell, kind]
    if held[u] == 1:
        return alive_in[u] & ~bit(T.unit_pos[cell, kind])
    if T.cell_units[start, kind] == u:
        return bit(T.unit_pos[start, kind])
    return U0


@kernel
def _crowded(held, cell_units, cell):
    """True when one of the cell's units holds two cells of the path already: a loop holds
    exactly two cells of each unit it crosses, so no loop goes on through this cell."""
    for k in range(KINDS):  # noqa: SIM110 (a plain loop for numba)
        if held[cell_units[cell, k]] >= 2:
            return True
    return False


@kernel
def _on_path(path, depth, cell):
    for i in range(depth + 1):  # noqa: SIM110 (a plain loop for numba)
        if path[i] == cell:
            return True
    return False


@kernel
def _valid(path, length, cell_units):
    """True when each unit the loop's cells lie in holds one cell at an even place and one at an
    odd place (then the two digits can swap)."""
    for i in range(length):
        for k in range(KINDS):
            u = cell_units[path[i], k]
            even = odd = 0
            for j in range(length):
                inside = False
                for m in range(KINDS):
                    inside |= cell_units[path[j], m] == u
                if inside:
                    if j % 2 == 0:
                        even += 1
                    else:
                        odd += 1
            if even != 1 or odd != 1:
                return False
    return True


@kernel
def _loop(cand, placed, T, rec, loop, pair):
    """The steps of one valid loop, by the cells holding more than its two digits."""
    peers, peer_bits = T.peers, T.peer_bits
    more = np.empty(loop.shape[0], dtype=np.int64)
    count = 0
    digits = U0
    for c in loop:
        if cand[c] & ~pair:
            more[count] = c
            count += 1
            digits |= cand[c] & ~pair
    length = loop.shape[0]
    if count == 0:
        return  # a deadly pattern already: the puzzle has no unique solution
    if count == 1:  # type 1
        start = mark(rec)
        _prove(rec, loop)
        m = pair
        while m:
            d = lowest_bit(m)
            m ^= d
            eliminate(rec, cand, more[0], bit_index(d))
        commit(rec, start, UNIQUE_LOOP, length, pair)
        return
    if popcount(digits) == 1:  # type 2: the extra digit leaves cells that see every holder
        start = mark(rec)
        _prove(rec, loop)
        eliminate_seeing_holders(rec, cand, placed, peers, peer_bits, more[:count], digits, -1)
        commit(rec, start, UNIQUE_LOOP, length, pair | digits)
    if count == 2:
        _type_4(cand, placed, T, rec, loop, pair, more[0], more[1])


@kernel
def _type_4(cand, placed, T, rec, loop, pair, first, second):
    """Two cells hold more and share a unit where one of the loop's digits has no other place:
    that digit is in one of them, so the other digit leaves both."""
    units, cell_units = T.units, T.cell_units
    for k in range(KINDS):
        u = cell_units[first, k]
        if cell_units[second, k] != u:
            continue
        m = pair
        while m:
            d = lowest_bit(m)
            m ^= d
            alone = True
            for j in range(units.shape[1]):
                c = units[u, j]
                if c != first and c != second and not placed[c] and cand[c] & d:
                    alone = False
            if alone:
                start = mark(rec)
                _prove(rec, loop)
                other = bit_index(pair & ~d)
                eliminate(rec, cand, first, other)
                eliminate(rec, cand, second, other)
                commit(rec, start, UNIQUE_LOOP, loop.shape[0], pair)
                return


@kernel
def _prove(rec, loop):
    for c in loop:
        add_proof(rec, c)
