"""Wings: XY-wing, XYZ-wing and W-wing.

* XY-wing: a pivot {x,y} sees pincers {x,z} and {y,z}; one pincer is z, so z leaves every cell
  that sees both pincers.
* XYZ-wing: a pivot {x,y,z} sees pincers {x,z} and {y,z}; z leaves cells that see all three.
* W-wing: two cells {x,y} that do not see each other, and a strong link on x whose ends see one
  cell each; one of the two cells is y, so y leaves cells that see both.
* WXYZ-wing: a pivot and three of its peers, holding four digits between them, every digit but
  one (z) *restricted* (its cells all see each other: it goes in one of them at most). Three
  restricted digits fill three cells at most, so one of the four is z: z leaves every cell that
  sees all the cells holding it. When z is restricted too, each digit is in exactly one of the
  four, and each leaves the cells that see all of its own. The grade takes only Sukaku
  Explainer's form (a bivalue cell and three cells that see each other) and rates it as SE does,
  a tenth more when the widest of the three holds three digits; the person's ladder any form.
* VWXYZ-, UVWXYZ- and TUVWXYZ-wings (Sukaku Explainer's, by its definition): 4, 5 or 6 open
  cells of one unit holding one digit more than cells (an almost locked set), and a bivalue cell
  {x,z} outside it whose digits the set holds. If every set cell holding x sees the bivalue cell
  (x is *restricted*), x is in the set or in the bivalue cell but not both, so z is in one of
  them: z leaves every cell that sees the bivalue cell and the set's cells holding z. With both
  digits restricted the set keeps its other digits, each once: those leave the cells that see
  all of the set's cells holding them, and x and z as before (an ALS-XZ whose one ALS is a
  single bivalue cell, doubly linked).
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import (
    U0,
    UVWXYZ_WING,
    VWXYZ_WING,
    W_WING,
    WXYZ_WING,
    XY_WING,
    add_proof,
    bit_index,
    commit,
    eliminate,
    eliminate_common,
    eliminate_seeing_holders,
    line_links,
    lowest_bit,
    mark,
    next_als,
    popcount,
    sees,
)


@kernel
def _xy_wings(cand, placed, peers, peer_bits, rec, tech):
    """Every XY-wing (pivot of 2 digits) or XYZ-wing (pivot of 3), pivot by pivot.

    Pincer pairs are taken in the order of the pivot's peers (first pincer outer); the peers
    that cannot be a pincer of this pivot are left out first (a pincer shares one digit with an
    XY-wing's pivot, and has only the pivot's digits in an XYZ-wing), so few pairs remain.
    """
    size = 2 if tech == XY_WING else 3
    pincers = np.zeros(peers.shape[1], dtype=np.int64)
    for pivot in range(cand.shape[0]):
        pm = cand[pivot]
        if placed[pivot] or popcount(pm) != size:
            continue
        count = 0
        for k in range(peers.shape[1]):
            a = peers[pivot, k]
            am = cand[a]
            if placed[a] == 0 and popcount(am) == 2 and _may_pincer(am, pm, tech):
                pincers[count] = a
                count += 1
        for i in range(count):
            a = pincers[i]
            am = cand[a]
            for j in range(count):
                b = pincers[j]
                bm = cand[b]
                z = am & bm
                if popcount(z) != 1 or am <= bm:
                    continue  # one shared digit, and each pair once (the larger mask first)
                if tech == XY_WING:
                    # pincers share z and split the pivot's two digits between them
                    if z & pm or (am | bm) & pm != pm:
                        continue
                elif (am | bm) != pm:
                    continue
                _record(cand, placed, peers, peer_bits, rec, tech, pivot, a, b)


@kernel
def _may_pincer(am, pm, tech):
    """Whether a bivalue cell of mask ``am`` can be a pincer of a pivot of mask ``pm``."""
    if tech == XY_WING:
        return popcount(am & pm) == 1
    return am & ~pm == U0


@kernel
def _record(cand, placed, peers, peer_bits, rec, tech, pivot, a, b):
    """One XY- or XYZ-wing: pivot and pincers a and b, which share the digit z."""
    z = cand[a] & cand[b]
    start = mark(rec)
    add_proof(rec, pivot)
    add_proof(rec, a)
    add_proof(rec, b)
    digit = bit_index(z)
    if tech == XY_WING:
        eliminate_common(rec, cand, placed, peers, peer_bits, a, b, digit)
    else:
        # cells that see all three: peers of the pivot that see both pincers
        for k in range(peers.shape[1]):
            p = peers[pivot, k]
            if placed[p] == 0 and cand[p] & z and sees(p, a, peer_bits) and sees(p, b, peer_bits):
                eliminate(rec, cand, p, digit)
    commit(rec, start, tech, pivot, cand[pivot] | cand[a] | cand[b])


@kernel
def _w_wings(cand, placed, pos, T, rec):
    """Every W-wing: pairs of equal bivalue cells joined by a strong link on one digit."""
    units, peers, peer_bits = T.units, T.peers, T.peer_bits
    n = units.shape[1]
    ncells = cand.shape[0]
    links = np.zeros((3 * n, 3), dtype=np.int64)
    for a in range(ncells):
        am = cand[a]
        if placed[a] or popcount(am) != 2:
            continue
        for b in range(a + 1, ncells):
            if placed[b] or cand[b] != am or sees(a, b, peer_bits):
                continue
            m = am
            while m:
                xb = lowest_bit(m)
                m ^= xb
                x = bit_index(xb)
                y = bit_index(am ^ xb)
                count = _strong_links(pos, units, x, links)
                for li in range(count):
                    for flip in range(2):
                        e1 = links[li, 1 + flip]
                        e2 = links[li, 2 - flip]
                        if e1 in (a, b) or e2 in (a, b):
                            continue
                        if sees(e1, a, peer_bits) and sees(e2, b, peer_bits):
                            start = mark(rec)
                            add_proof(rec, a)
                            add_proof(rec, e1)
                            add_proof(rec, e2)
                            add_proof(rec, b)
                            eliminate_common(rec, cand, placed, peers, peer_bits, a, b, y)
                            commit(rec, start, W_WING, links[li, 0], am)


@kernel
def _strong_links(pos, units, digit, ends):
    """Strong links of a digit in every unit (lines and boxes): (unit, cell, cell) rows."""
    count = line_links(pos, units, digit, ends)
    n = units.shape[1]
    for u in range(2 * n, 3 * n):
        layer = pos[digit, u]
        if layer != U0 and popcount(layer) == 2:
            first = lowest_bit(layer)
            ends[count, 0] = u
            ends[count, 1] = units[u, bit_index(first)]
            ends[count, 2] = units[u, bit_index(layer ^ first)]
            count += 1
    return count


@kernel
def find_wings(cand, placed, pos, T, rec, tech):
    """Record every wing of kind ``tech`` (XY_WING, XYZ_WING or W_WING)."""
    if tech == W_WING:
        _w_wings(cand, placed, pos, T, rec)
    else:
        _xy_wings(cand, placed, T.peers, T.peer_bits, rec, tech)


@kernel
def find_wxyz_wings(cand, placed, T, rec, se_form):
    """Record every WXYZ-wing, pivot by pivot: wings are the pivot's peers of two to four digits
    that keep the union at four digits at most, taken three at a time in peer order. A set of
    four cells where more than one cell sees the other three is kept for its first such pivot.
    ``se_form``: only Sukaku Explainer's, three cells that see each other (an almost locked set)
    and a bivalue cell, the form the grade rates (the person's ladder takes HoDoKu's wider one)."""
    peers, peer_bits = T.peers, T.peer_bits
    four = np.uint64(4)
    wings = np.zeros(peers.shape[1], dtype=np.int64)
    for pivot in range(cand.shape[0]):
        pm = cand[pivot]
        if placed[pivot] or popcount(pm) < 2 or popcount(pm) > four:
            continue
        count = 0
        for k in range(peers.shape[1]):
            a = peers[pivot, k]
            wings[count] = a
            count += (placed[a] == 0) & (popcount(cand[a]) >= 2) & (popcount(cand[a] | pm) <= four)
        for i in range(count):
            a = wings[i]
            ma = pm | cand[a]
            for j in range(i + 1, count):
                b = wings[j]
                mb = ma | cand[b]
                if popcount(mb) > four:
                    continue
                for k in range(j + 1, count):
                    c = wings[k]
                    if popcount(mb | cand[c]) != four:
                        continue
                    if _earlier_pivot(pivot, a, b, c, peer_bits):
                        continue
                    widest = _se_widest(cand, peer_bits, pivot, a, b, c)
                    if widest or not se_form:
                        _wxyz(cand, placed, peers, peer_bits, rec, pivot, a, b, c, widest)


@kernel
def _earlier_pivot(pivot, a, b, c, peer_bits):
    """True when a wing before the pivot in cell order sees the other three (it is the pivot)."""
    if a < pivot and sees(a, b, peer_bits) and sees(a, c, peer_bits):
        return True
    if b < pivot and sees(b, a, peer_bits) and sees(b, c, peer_bits):
        return True
    return c < pivot and sees(c, a, peer_bits) and sees(c, b, peer_bits)


@kernel
def _se_widest(cand, peer_bits, pivot, a, b, c):
    """Sukaku Explainer's reading of four cells as a WXYZ-wing: a cell of two digits and three
    that see each other, whose widest cell holds 2, 3 or 4 digits (SE rates 3 a tenth higher:
    of several readings, the one that rates lowest); 0 when there is none."""
    cells = (pivot, a, b, c)
    best = 0
    for i in range(4):
        if popcount(cand[cells[i]]) != 2:
            continue
        p, q, r = cells[(i + 1) % 4], cells[(i + 2) % 4], cells[(i + 3) % 4]
        if sees(p, q, peer_bits) and sees(p, r, peer_bits) and sees(q, r, peer_bits):
            widest = max(popcount(cand[p]), popcount(cand[q]), popcount(cand[r]))
            if best == 0 or best == 3:
                best = widest
    return best


@kernel
def _wxyz(cand, placed, peers, peer_bits, rec, pivot, a, b, c, widest):
    """One set of four cells: record its eliminations if all its digits but one are restricted
    (``widest``, SE's reading of it, is the step's extra: see :func:`_se_widest`)."""
    cells = (pivot, a, b, c)
    digits = cand[pivot] | cand[a] | cand[b] | cand[c]
    loose = U0  # the digits that are not restricted
    m = digits
    while m:
        x = lowest_bit(m)
        m ^= x
        for i in range(4):
            for j in range(i + 1, 4):
                p, q = cells[i], cells[j]
                if cand[p] & x and cand[q] & x and not sees(p, q, peer_bits):
                    loose |= x
    if popcount(loose) > 1:
        return
    start = mark(rec)
    for cell in cells:
        add_proof(rec, cell)
    m = loose if loose else digits
    while m:
        x = lowest_bit(m)
        m ^= x
        eliminate_seeing_holders(rec, cand, placed, peers, peer_bits, cells, x, -1)
    commit(rec, start, WXYZ_WING, widest, digits)


@kernel
def find_als_wings(cand, placed, T, rec, tech):
    """Record every VWXYZ-, UVWXYZ- or TUVWXYZ-wing (``tech``; see the module docstring): the
    sets of one unit, found by a search over the unit's open cells that drops a branch once its
    digits outnumber the cells it may still hold, each with every bivalue cell it can pair."""
    units, cell_units = T.units, T.cell_units
    size = 4 if tech == VWXYZ_WING else 5 if tech == UVWXYZ_WING else 6
    digits_wanted = size + 1
    n = units.shape[1]
    members = np.empty(n, dtype=np.int64)
    chosen = np.empty(size, dtype=np.int64)
    unions = np.zeros(size + 1, dtype=np.uint64)
    cells = np.empty(size, dtype=np.int64)
    bivalue = np.empty(cand.shape[0], dtype=np.int64)  # the open cells of two digits, in order
    pairs = 0
    for y in range(cand.shape[0]):
        bivalue[pairs] = y
        pairs += (placed[y] == 0) & (popcount(cand[y]) == 2)
    for u in range(units.shape[0]):
        count = 0
        for j in range(n):
            c = units[u, j]
            k = popcount(cand[c])
            if placed[c] == 0 and k >= 2 and k <= digits_wanted:
                members[count] = c
                count += 1
        if count < size:
            continue
        chosen[0] = -1
        union, depth = next_als(cand, members, count, size, chosen, unions, 0)
        while depth >= 0:
            for j in range(size):
                cells[j] = members[chosen[j]]
            if not _in_earlier_unit(cells, u, cell_units):
                _pair_with_bivalue_cells(cand, placed, T, rec, tech, cells, union, bivalue[:pairs])
            union, depth = next_als(cand, members, count, size, chosen, unions, depth)


@kernel
def _in_earlier_unit(cells, u, cell_units):
    """True when all ``cells`` also lie in a unit before ``u`` (the set was found there)."""
    for k in range(cell_units.shape[1]):
        w = cell_units[cells[0], k]
        if w >= u:
            continue
        shared = True
        for j in range(1, cells.shape[0]):
            inside = False
            for i in range(cell_units.shape[1]):
                inside |= cell_units[cells[j], i] == w
            shared &= inside
        if shared:
            return True
    return False


@kernel
def _pair_with_bivalue_cells(cand, placed, T, rec, tech, cells, union, bivalue):
    """One almost locked set ``cells`` (digits ``union``): a wing step for each of the
    ``bivalue`` cells outside it that holds two of its digits, one or both restricted. ``extra``
    is the most digits a set cell holds (SE rates the VWXYZ-wing by it)."""
    peer_bits = T.peer_bits
    most = 0
    for c in cells:
        most = max(most, popcount(cand[c]))
    for y in bivalue:
        pair = cand[y]
        if pair & ~union or y in cells:
            continue
        linked = False
        for c in cells:
            linked |= sees(y, c, peer_bits)
        if not linked:
            continue
        restricted = U0
        m = pair
        while m:
            d = lowest_bit(m)
            m ^= d
            if _all_holders_see(cand, cells, d, y, peer_bits):
                restricted |= d
        if restricted == U0:
            continue
        start = mark(rec)
        for c in cells:
            add_proof(rec, c)
        add_proof(rec, y)
        targets = pair & ~restricted  # one restricted digit: the other is z
        if restricted == pair:  # doubly linked: the set's other digits are locked in it
            targets = pair
            rest = union & ~pair
            while rest:
                w = lowest_bit(rest)
                rest ^= w
                eliminate_seeing_holders(rec, cand, placed, T.peers, T.peer_bits, cells, w, -1)
        while targets:
            d = lowest_bit(targets)
            targets ^= d
            eliminate_seeing_holders(rec, cand, placed, T.peers, T.peer_bits, cells, d, y)
        commit(rec, start, tech, most, union)


@kernel
def _all_holders_see(cand, cells, digit, y, peer_bits):
    """True when every cell of ``cells`` holding ``digit`` (a bit) sees ``y``."""
    for c in cells:  # noqa: SIM110 (a plain loop for numba)
        if cand[c] & digit and not sees(c, y, peer_bits):
            return False
    return True
