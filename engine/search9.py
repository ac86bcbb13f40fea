"""Numba kernel: a solution counter specialised for the classic 9x9 grid (3x3 boxes).

The generic counter (:mod:`engine.search`) keeps one candidate mask per cell and a trail of
changes. Here the state is digit-major: for each digit, the cells where it is still possible
or placed, as three 27-bit *band* words (a band is three rows; cell ``27*b + 9*r + c`` is bit
``9*r + c`` of band ``b``), so a row or a box lies inside one word and a column is one bit
per row of each of the three. Three more words hold the unsolved cells: 30 int64 words in all,
small enough to copy whole onto a stack at each branch (no trail). Bands rather than two
64-bit words per digit: then no row or box straddles two words.

* Placing digit d in cell c removes c from the other digits and c's 20 peers from d.
* Naked singles: bit-sliced ones/twos counts over a band's nine digit words find its unsolved
  cells with exactly one candidate (and with none: a contradiction) in a few operations.
* Hidden singles: for a digit whose words changed, each row, box and column with a single
  possible cell gets it placed, to a fix point of that digit; one with none is a contradiction.
* At the fix point, branch on an unsolved cell with two candidates (else one with fewest):
  place its lowest candidate and, when backtracking, exclude it instead.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.search import bit_index, lowest_bit_signed, popcount

N = 9
BANDS = 3
BAND_BITS = 27
BAND_FULL = (1 << BAND_BITS) - 1
ROW_FIELD = 0x1FF  # the first row of a band word
BOX_FIELD = 0x1C0E07  # the first box of a band word (three bits in each row)
COL_FIELD = 0x40201  # the first column of a band word (one bit in each row)
BOX_CORNERS = 0x49  # the first column of each box, in a row field
ALL_DIGITS = (1 << N) - 1
UNSOLVED = N * BANDS  # state index of the first unsolved-cells word
STATE_WORDS = UNSOLVED + BANDS
MAX_DEPTH = 81  # each branch places a cell
PLANE = 16  # _start: a value's four bits go to bits 0, PLANE, 2 * PLANE, 3 * PLANE
HALF = 14  # _start reads a band in two halves, each fitting in PLANE bits
PLANE_MASK = (1 << HALF) - 1
VALUE_PLANES = np.array(
    [sum(((v >> k) & 1) << (PLANE * k) for k in range(4)) for v in range(N + 1)], dtype=np.int64
)


def _peer_masks() -> np.ndarray:
    """PEERS[cell, band]: the cell's 20 peers in each band word."""
    peers = np.zeros((81, BANDS), dtype=np.int64)
    for cell in range(81):
        row, col = divmod(cell, 9)
        for other in range(81):
            orow, ocol = divmod(other, 9)
            same_box = row // 3 == orow // 3 and col // 3 == ocol // 3
            if other != cell and (row == orow or col == ocol or same_box):
                peers[cell, other // BAND_BITS] |= 1 << (other % BAND_BITS)
    return peers


PEERS = _peer_masks()


class Scratch9(NamedTuple):
    """Buffers for :func:`search9` (int64)."""

    state: np.ndarray  # the STATE_WORDS words of the current state
    saved: np.ndarray  # the state saved at each branch
    moves: np.ndarray  # each branch: ``9 * cell + digit``


def scratch9() -> Scratch9:
    """Fresh buffers for :func:`search9`."""
    return Scratch9(
        state=np.zeros(STATE_WORDS, dtype=np.int64),
        saved=np.zeros((MAX_DEPTH + 1, STATE_WORDS), dtype=np.int64),
        moves=np.zeros(MAX_DEPTH + 1, dtype=np.int64),
    )


@njit(cache=True, inline="always")
def _index(bit):
    """Index of a single set bit (of a band word)."""
    return bit_index(np.uint64(bit))


@njit(cache=True, inline="always")
def _place_one(state, digit, cell):
    """Place ``digit`` in ``cell`` (a branch). Returns the digits whose words changed."""
    b = cell // BAND_BITS
    bit = 1 << (cell % BAND_BITS)
    dirty = 0
    for d in range(N):
        i = BANDS * d + b
        dirty |= ((state[i] & bit) != 0) << d
        state[i] &= ~bit
    base = BANDS * digit
    state[base] &= ~PEERS[cell, 0]
    state[base + 1] &= ~PEERS[cell, 1]
    state[base + 2] &= ~PEERS[cell, 2]
    state[base + b] |= bit
    state[UNSOLVED + b] &= ~bit
    return dirty | (1 << digit)


@njit(cache=True, inline="always")
def _naked_singles(state, dirty):
    """Place every unsolved cell with one candidate, band by band (a band's count sees the
    placements made in the bands before it).

    Returns (dirty digits or -1 on a contradiction, whether any cell was placed). Bit planes of
    the digit index (ORs of the words of digits with bit k set) tell each single's digit.
    """
    placed = False
    for b in range(BANDS):
        ones = 0
        twos = 0
        for d in range(N):
            w = state[BANDS * d + b]
            twos |= ones & w
            ones |= w
        unsolved = state[UNSOLVED + b]
        if unsolved & ~ones:
            return -1, False
        single = ones & ~twos & unsolved
        if not single:
            continue
        placed = True
        state[UNSOLVED + b] = unsolved & ~single
        plane0 = state[3 + b] | state[9 + b] | state[15 + b] | state[21 + b]
        plane1 = state[6 + b] | state[9 + b] | state[18 + b] | state[21 + b]
        plane2 = state[12 + b] | state[15 + b] | state[18 + b] | state[21 + b]
        plane3 = state[24 + b]
        while single:
            bit = lowest_bit_signed(single)
            single ^= bit
            d = (
                ((plane0 & bit) != 0)
                | (((plane1 & bit) != 0) << 1)
                | (((plane2 & bit) != 0) << 2)
                | (((plane3 & bit) != 0) << 3)
            )
            base = BANDS * d
            if not state[base + b] & bit:  # an earlier single took it from this digit
                return -1, False
            cell = BAND_BITS * b + _index(bit)
            state[base] &= ~PEERS[cell, 0]
            state[base + 1] &= ~PEERS[cell, 1]
            state[base + 2] &= ~PEERS[cell, 2]
            dirty |= 1 << d
    return dirty, placed


@njit(cache=True, inline="always")
def _kept_if_single(x):
    """``x`` when it has at most one bit set, else 0, without a branch (the test's 0/1 negated is
    an all-zero or all-one mask)."""
    return x & -(x & (x - 1) == 0)


@njit(cache=True, inline="always")
def _band_singles(w):
    """Cells of a band word alone in their row or box, and whether a row or box is empty."""
    found = 0
    empty = False
    for k in range(3):
        row = w & (ROW_FIELD << (9 * k))
        box = w & (BOX_FIELD << (3 * k))
        empty |= (row == 0) | (box == 0)
        found |= _kept_if_single(row)
        found |= _kept_if_single(box)
    return found, empty


@njit(cache=True, inline="always")
def _hidden_singles(state, digit, dirty):
    """Place ``digit`` wherever it has one possible cell in a unit, to a fix point of this
    digit alone; then take the placed cells from the other digits.

    Returns (dirty digits, without ``digit``, or -1 on a contradiction; whether any cell was
    placed). The words live in local variables meanwhile.
    """
    base = BANDS * digit
    w0, w1, w2 = state[base], state[base + 1], state[base + 2]
    u0, u1, u2 = state[UNSOLVED], state[UNSOLVED + 1], state[UNSOLVED + 2]
    placed0 = 0
    placed1 = 0
    placed2 = 0
    while True:
        h0, e0 = _band_singles(w0)
        h1, e1 = _band_singles(w1)
        h2, e2 = _band_singles(w2)
        ones = w0 | w1 | w2  # per position in a band: in one band or more, in two or more
        twos = (w0 & w1) | (w2 & (w0 | w1))
        r0, r1, r2 = ones & ROW_FIELD, (ones >> 9) & ROW_FIELD, ones >> 18
        col_ones = r0 | r1 | r2
        if e0 | e1 | e2 | (col_ones != ROW_FIELD):
            return -1, False
        col_twos = ((twos | (twos >> 9) | (twos >> 18)) & ROW_FIELD) | (r0 & r1) | (r2 & (r0 | r1))
        spread = (col_ones & ~col_twos) * COL_FIELD  # the columns with one possible cell
        h0 = (h0 | (w0 & spread)) & u0
        h1 = (h1 | (w1 & spread)) & u1
        h2 = (h2 | (w2 & spread)) & u2
        if not (h0 | h1 | h2):
            break
        u0 &= ~h0
        u1 &= ~h1
        u2 &= ~h2
        placed0 |= h0
        placed1 |= h1
        placed2 |= h2
        for b in range(BANDS):
            rest = h0 if b == 0 else (h1 if b == 1 else h2)
            while rest:
                bit = lowest_bit_signed(rest)
                rest ^= bit
                w = w0 if b == 0 else (w1 if b == 1 else w2)
                if not w & bit:  # two of the cells share a unit
                    return -1, False
                cell = BAND_BITS * b + _index(bit)
                w0 &= ~PEERS[cell, 0]
                w1 &= ~PEERS[cell, 1]
                w2 &= ~PEERS[cell, 2]
    state[base], state[base + 1], state[base + 2] = w0, w1, w2
    placed = (placed0 | placed1 | placed2) != 0
    if placed:
        state[UNSOLVED], state[UNSOLVED + 1], state[UNSOLVED + 2] = u0, u1, u2
        for d in range(N):
            i = BANDS * d
            hit = (state[i] & placed0) | (state[i + 1] & placed1) | (state[i + 2] & placed2)
            dirty |= (hit != 0) << d
            state[i] &= ~placed0
            state[i + 1] &= ~placed1
            state[i + 2] &= ~placed2
        state[base] = w0
        state[base + 1] = w1
        state[base + 2] = w2
    return dirty & ~(1 << digit), placed


@njit(cache=True, inline="always")
def _propagate(state, dirty):
    """Naked and hidden singles until nothing changes; False on a contradiction.

    Naked singles (cheap: one count over the grid) go first and run again only after hidden
    singles placed something; hidden singles are sought only for digits whose words changed.
    """
    fresh = True  # naked singles may have appeared since their last count
    while True:
        if fresh:
            dirty, placed = _naked_singles(state, dirty)
            if dirty < 0:
                return False
            if placed:
                continue
        if dirty == 0:
            return True
        d = _index(lowest_bit_signed(dirty))
        before = dirty ^ (1 << d)
        dirty, placed = _hidden_singles(state, d, before)
        if dirty < 0:
            return False
        fresh = placed


@njit(cache=True)
def _choose(state):
    """A branch, as ``9 * cell + digit``: an unsolved cell with two candidates if any (else one
    with fewest) and its lowest candidate; -1 when every cell is solved. After propagation every
    unsolved cell has two candidates or more."""
    best = -1
    best_count = N + 1
    for b in range(BANDS):
        unsolved = state[UNSOLVED + b]
        if not unsolved:
            continue
        ones = 0
        twos = 0
        threes = 0
        for d in range(N):
            w = state[BANDS * d + b]
            threes |= twos & w
            twos |= ones & w
            ones |= w
        pair = twos & ~threes & unsolved
        if pair:
            best = BAND_BITS * b + _index(lowest_bit_signed(pair))
            break
    if best < 0:
        for b in range(BANDS):
            rest = state[UNSOLVED + b]
            while rest:
                bit = lowest_bit_signed(rest)
                rest ^= bit
                count = 0
                for d in range(N):
                    count += (state[BANDS * d + b] & bit) != 0
                if count < best_count:
                    best, best_count = BAND_BITS * b + _index(bit), count
    if best < 0:
        return -1
    bit = 1 << (best % BAND_BITS)
    for d in range(N):
        if state[BANDS * d + best // BAND_BITS] & bit:
            return N * best + d
    return -1


@njit(cache=True, inline="always")
def _band_taken(g):
    """The rows and boxes holding a band word's cells (as cells), how many of them there are,
    and the columns holding them (bit c for column c)."""
    smear = g | (g >> 1)  # bit i: the OR of bits i..i+8, which for i = 9k is row k's OR
    smear |= smear >> 2
    smear |= (smear >> 4) | (g >> 8)
    rows = smear & COL_FIELD
    cols = (g | (g >> 9) | (g >> 18)) & ROW_FIELD
    boxes = (cols | (cols >> 1) | (cols >> 2)) & BOX_CORNERS
    taken = rows * ROW_FIELD | boxes * 7 * COL_FIELD
    return taken, popcount(np.uint64(rows | (boxes << 1))), cols


@njit(cache=True)
def _start(values, state):
    """The state of the givens alone; False when two of them clash.

    Branch-free: the values of a band go into four bit planes (bit k of each value), which give
    each digit's givens; a digit is then possible in the blanks outside its givens' units.
    """
    for b in range(BANDS):
        low = 0  # the first HALF cells of the band: bit k of each value at bit PLANE * k + i
        high = 0  # the others
        for i in range(HALF):
            low |= VALUE_PLANES[values[BAND_BITS * b + i]] << i
        for i in range(BAND_BITS - HALF):
            high |= VALUE_PLANES[values[BAND_BITS * b + HALF + i]] << i
        plane0 = (low & PLANE_MASK) | ((high & PLANE_MASK) << HALF)
        plane1 = ((low >> PLANE) & PLANE_MASK) | (((high >> PLANE) & PLANE_MASK) << HALF)
        plane2 = ((low >> 2 * PLANE) & PLANE_MASK) | (((high >> 2 * PLANE) & PLANE_MASK) << HALF)
        plane3 = ((low >> 3 * PLANE) & PLANE_MASK) | (((high >> 3 * PLANE) & PLANE_MASK) << HALF)
        state[UNSOLVED + b] = BAND_FULL & ~(plane0 | plane1 | plane2 | plane3)
        for d in range(N):
            v = d + 1
            given = BAND_FULL
            given &= plane0 if v & 1 else ~plane0
            given &= plane1 if v & 2 else ~plane1
            given &= plane2 if v & 4 else ~plane2
            given &= plane3 if v & 8 else ~plane3
            state[BANDS * d + b] = given
    u0, u1, u2 = state[UNSOLVED], state[UNSOLVED + 1], state[UNSOLVED + 2]
    givens = 81 - popcount(np.uint64(u0)) - popcount(np.uint64(u1)) - popcount(np.uint64(u2))
    units = 0  # (digit, unit) pairs holding a given: three per given unless two givens clash
    for d in range(N):
        base = BANDS * d
        g0, g1, g2 = state[base], state[base + 1], state[base + 2]
        t0, units0, cols0 = _band_taken(g0)
        t1, units1, cols1 = _band_taken(g1)
        t2, units2, cols2 = _band_taken(g2)
        cols = cols0 | cols1 | cols2
        units += units0 + units1 + units2 + popcount(np.uint64(cols))
        spread = cols * COL_FIELD
        state[base] = g0 | (u0 & ~(t0 | spread))
        state[base + 1] = g1 | (u1 & ~(t1 | spread))
        state[base + 2] = g2 | (u2 & ~(t2 | spread))
    return units == 3 * givens


@njit(cache=True)
def _write_solution(state, solution):
    for d in range(N):
        for b in range(BANDS):
            rest = state[BANDS * d + b]
            while rest:
                bit = lowest_bit_signed(rest)
                rest ^= bit
                solution[BAND_BITS * b + _index(bit)] = d + 1


@njit(cache=True)
def search9(values, blank, value, limit, solution, scratch):
    """Count the solutions of ``values`` up to ``limit`` (the first found goes to ``solution``);
    when ``blank`` >= 0, only those that do not put ``value`` in the cell ``blank``.
    ``scratch`` comes from :func:`scratch9`. Clashing givens count 0."""
    state, saved, moves = scratch.state, scratch.saved, scratch.moves
    if not _start(values, state):
        return 0
    if blank >= 0:
        if values[blank] == value:  # (not a blank: every solution has the value there)
            return 0
        state[BANDS * (value - 1) + blank // BAND_BITS] &= ~(1 << (blank % BAND_BITS))
    count = 0
    depth = 0
    dirty = ALL_DIGITS
    while True:
        if _propagate(state, dirty):
            move = _choose(state)
            if move >= 0:  # branch: first place the digit in the cell
                for i in range(STATE_WORDS):  # (a slice copy would check for overlap)
                    saved[depth, i] = state[i]
                moves[depth] = move
                depth += 1
                cell, digit = divmod(move, N)
                dirty = _place_one(state, digit, cell)
                continue
            count += 1
            if count == 1:
                _write_solution(state, solution)
            if count >= limit:
                return count
        if depth == 0:
            return count
        depth -= 1  # then, back at the branch, exclude the digit from the cell
        for i in range(STATE_WORDS):
            state[i] = saved[depth, i]
        cell, digit = divmod(moves[depth], N)
        state[BANDS * digit + cell // BAND_BITS] &= ~(1 << (cell % BAND_BITS))
        dirty = 1 << digit


@njit(cache=True)
def singles9(values, scratch):
    """True when naked and hidden singles alone complete ``values`` (then it has one solution):
    the propagation of :func:`search9` without a branch. ``scratch`` comes from
    :func:`scratch9`."""
    state = scratch.state
    if not _start(values, state) or not _propagate(state, ALL_DIGITS):
        return False
    return state[UNSOLVED] | state[UNSOLVED + 1] | state[UNSOLVED + 2] == 0


@njit(cache=True)
def candidates_state9(cand, placed, state):
    """The state of a logic solver's grid (``engine.logic``): ``cand`` the open cells'
    candidates (bit d for digit d + 1), ``placed`` the placed digits (0: open). The logic solver
    keeps every placed digit out of its peers' candidates, as :func:`_propagate` expects."""
    state[:] = 0
    for cell in range(81):
        b = cell // BAND_BITS
        bit = 1 << (cell % BAND_BITS)
        if placed[cell]:
            state[BANDS * (placed[cell] - 1) + b] |= bit
            continue
        state[UNSOLVED + b] |= bit
        for d in range(N):
            if (cand[cell] >> d) & 1:
                state[BANDS * d + b] |= bit


@njit(cache=True)
def assumption_fails9(state, trial, cell, digit, on):
    """True when ``digit`` (0-based) placed in ``cell`` of ``state`` (:func:`candidates_state9`),
    or with ``on`` False taken from its candidates, and naked and hidden singles after it empty a
    cell or leave a digit no place in a unit: one-level trial by singles, on a copy in ``trial``
    (``STATE_WORDS`` words), which holds what the singles left when they do not fail."""
    for i in range(STATE_WORDS):
        trial[i] = state[i]
    if on:
        dirty = _place_one(trial, digit, cell)
    else:
        trial[BANDS * digit + cell // BAND_BITS] &= ~(1 << (cell % BAND_BITS))
        dirty = 1 << digit
    return not _propagate(trial, dirty)
