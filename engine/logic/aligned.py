"""Aligned triplet exclusion, as Sudoku Explainer rates it (7.5, between its forcing chains
and its Nishio chains).

Take three open cells and the cells holding two or three digits that see all three of them
(the *common excluders*, at least two). A way of filling the three cells is impossible when two
of them that share a house take the same digit, or when it takes every digit of a common
excluder (which would be left empty). A digit of one of the three cells that no possible filling
gives it is eliminated.

The cells are SE's: a *base* cell holds two digits or more and sees a cell holding two or three
(its excluders); the first two cells are any two base cells, the third an excluder of either
that is a base cell too. Each triplet is taken once, from the first of its pairs (in cell
order) that reaches it.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import (
    ALIGNED_TRIPLET_EXCLUSION,
    U0,
    add_proof,
    bit,
    bit_index,
    commit,
    eliminate_all,
    lowest_bit,
    mark,
    popcount,
    sees,
)

MIN_EXCLUDERS = 2
MAX_EXCLUDER_WIDTH = 3  # an excluder holds two or three digits


@kernel(inline="always")
def _holds(bits, cell):
    """True when the bitset over cells ``bits`` (one row of words) holds ``cell``."""
    return (bits[cell >> 6] >> np.uint64(cell & 63)) & np.uint64(1) != U0


@kernel
def find_aligned_triplets(cand, placed, T, rec):
    """Record every aligned triplet exclusion (see the module docstring)."""
    peers = T.peers
    ncells = cand.shape[0]
    words = T.peer_bits.shape[1]
    width = np.zeros(ncells, dtype=np.int64)
    for cell in range(ncells):
        if placed[cell] == 0:
            width[cell] = popcount(cand[cell])
    excluders = np.zeros((ncells, words), dtype=np.uint64)
    base = np.zeros(words, dtype=np.uint64)
    cells = np.empty(ncells, dtype=np.int64)
    nbase = 0
    for cell in range(ncells):
        if width[cell] < 2:
            continue
        single = False
        for k in range(peers.shape[1]):
            p = peers[cell, k]
            if width[p] == 1:
                single = True
            elif 2 <= width[p] <= MAX_EXCLUDER_WIDTH:
                excluders[cell, p >> 6] |= bit(p & 63)
        if not single and excluders[cell].any():
            base[cell >> 6] |= bit(cell & 63)
            cells[nbase] = cell
            nbase += 1
    common = np.empty(words, dtype=np.uint64)
    pair = np.empty(words, dtype=np.uint64)
    excluder_digits = np.empty(ncells, dtype=np.uint64)  # ``_exclude``'s room
    for i in range(nbase):
        a = cells[i]
        for j in range(i + 1, nbase):
            b = cells[j]
            shared = 0  # a triplet's common excluders are the pair's, and the third's
            for w in range(words):
                pair[w] = excluders[a, w] & excluders[b, w]
                shared += popcount(pair[w])
            if shared < MIN_EXCLUDERS:
                continue
            for w in range(words):
                third = (excluders[a, w] | excluders[b, w]) & base[w]
                while third:
                    low = lowest_bit(third)
                    third ^= low
                    c = w * 64 + bit_index(low)
                    if c in (a, b):
                        continue
                    # once per triplet: skip it where an earlier pair reaches it
                    if c < b and (_holds(excluders[a], b) or _holds(excluders[c], b)):
                        continue
                    if c < a and (_holds(excluders[b], a) or _holds(excluders[c], a)):
                        continue
                    count = 0
                    for v in range(words):
                        common[v] = pair[v] & excluders[c, v]
                        count += popcount(common[v])
                    if count >= MIN_EXCLUDERS:
                        _exclude(cand, T.peer_bits, rec, a, b, c, common, excluder_digits)


@kernel
def _exclude(cand, peer_bits, rec, a, b, c, common, excluder_digits):
    """Record the digits of cells a, b and c that no possible filling of the three gives them,
    against the common excluders ``common`` (a bitset over cells; ``excluder_digits``: room
    for their digits). An excluder holding a digit none of the three holds is never emptied
    and is left out; a filling is tested only when it would give a digit one it lacks, and only
    until every digit of the three has one (most triplets exclude nothing)."""
    union = cand[a] | cand[b] | cand[c]
    nexcl = 0
    for w in range(common.size):
        m = common[w]
        while m:
            low = lowest_bit(m)
            m ^= low
            digits = cand[w * 64 + bit_index(low)]
            if digits & ~union == U0:
                excluder_digits[nexcl] = digits
                nexcl += 1
    ab, ac, bc = sees(a, b, peer_bits), sees(a, c, peer_bits), sees(b, c, peer_bits)
    ok_a = ok_b = ok_c = U0
    ma = cand[a]
    while ma:
        da = lowest_bit(ma)
        ma ^= da
        mb = cand[b]
        while mb:
            db = lowest_bit(mb)
            mb ^= db
            if ab and da == db:
                continue
            known = ok_a & da != U0 and ok_b & db != U0  # a filling adds only its new digits
            if known and ok_c == cand[c]:
                continue
            mc = cand[c]
            while mc:
                dc = lowest_bit(mc)
                mc ^= dc
                if (ac and da == dc) or (bc and db == dc) or (known and ok_c & dc != U0):
                    continue
                taken = da | db | dc
                allowed = True
                for e in range(nexcl):
                    if excluder_digits[e] & ~taken == U0:
                        allowed = False
                        break
                if allowed:
                    ok_a |= da
                    ok_b |= db
                    ok_c |= dc
                    if ok_a == cand[a] and ok_b == cand[b] and ok_c == cand[c]:
                        return
    start = mark(rec)
    for cell in (a, b, c):
        add_proof(rec, cell)
    for w in range(common.size):
        m = common[w]
        while m:
            low = lowest_bit(m)
            m ^= low
            add_proof(rec, w * 64 + bit_index(low))
    eliminate_all(rec, cand, a, cand[a] & ~ok_a)
    eliminate_all(rec, cand, b, cand[b] & ~ok_b)
    eliminate_all(rec, cand, c, cand[c] & ~ok_c)
    commit(rec, start, ALIGNED_TRIPLET_EXCLUSION, 0, cand[a] | cand[b] | cand[c])
