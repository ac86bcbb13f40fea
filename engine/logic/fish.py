"""Fish: X-wing (2), swordfish (3), jellyfish (4), by rows and by columns, basic and finned.

For a digit, k base lines whose candidates lie in only k cover lines: the digit goes in those
crossings, so it leaves the rest of the cover lines. The layer of a row is already a mask of
columns (a row's k-th cell is in column k), and a column's layer a mask of rows, so a fish is a
closed set of layers (``engine.logic.subsets.closed_sets``). As for subsets, the search is called
only with k candidate base lines or more, and a fish is recorded only when it eliminates
something: the screens run inline, cheaper than a call that takes arrays.

A *finned* fish (``find_finned_fish``) has k base lines whose candidates lie in k cover lines
except for *fins*, all in one box: either a fin holds the digit or the basic fish does, so the
digit leaves the cover lines' cells in the fin box outside the base lines (they see every fin).
It is *sashimi* (HoDoKu's name) when a base line keeps one candidate or none in the covers.
Two finned fish on the same base lines are HoDoKu's "Siamese" fish: both are recorded.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import (
    FINNED_X_WING,
    SASHIMI_X_WING,
    U0,
    U1,
    X_WING,
    add_proof,
    bit,
    bit_index,
    commit,
    eliminate,
    lowest_bit,
    mark,
    popcount,
)
from engine.logic.subsets import TWO, closed_scratch, closed_sets


@kernel
def find_fish(cand, pos, T, rec, k):
    """Record every basic fish of size ``k`` (2 = X-wing) for every digit and orientation."""
    units = T.units
    n = units.shape[1]
    size = np.uint64(k)
    masks, line, found = closed_scratch()
    for d in range(n):
        for base0 in (0, n):  # rows as base (columns cover), then columns as base
            cover0 = n - base0
            count = 0
            for b in range(n):
                layer = pos[d, base0 + b]
                ones = popcount(layer)
                masks[count] = layer
                line[count] = b
                count += (ones >= TWO) & (ones <= size)  # branch-free, as in find_subsets
            if count < k:
                continue
            for f in range(closed_sets(masks, count, k, found)):
                chosen = found[f, 0]
                bases = U0
                while chosen:
                    low = lowest_bit(chosen)
                    chosen ^= low
                    bases |= bit(line[bit_index(low)])
                outside = U0  # inline: does the digit have a place in a cover outside the bases?
                covers = found[f, 1]
                while covers:
                    low = lowest_bit(covers)
                    covers ^= low
                    outside |= pos[d, cover0 + bit_index(low)] & ~bases
                if outside != U0:
                    tech, kind = X_WING + k - 2, base0 // n
                    _record(cand, pos, units, rec, tech, d, kind, bases, found[f, 1], ~U0)


@kernel
def _prove_bases(pos, units, rec, d, base0, bases):
    """Every candidate of digit ``d`` in the base lines ``bases`` (from ``base0``) is proof."""
    while bases:
        low = lowest_bit(bases)
        bases ^= low
        b = bit_index(low)
        layer = pos[d, base0 + b]
        while layer:
            low2 = lowest_bit(layer)
            layer ^= low2
            add_proof(rec, units[base0 + b, bit_index(low2)])


MAX_FISH = 4  # the largest finned fish (jellyfish)


@kernel
def find_finned_fish(cand, pos, T, rec, k, finned, sashimi):
    """Record every finned (with ``finned``) and sashimi (with ``sashimi``) fish of size ``k``.

    Base lines are chosen depth first in line order, a set being pruned as soon as its lines'
    candidates span more than k cover lines outside every band of boxes (the cover lines that
    cross one box: the fins lie in one box); then each box that crosses a base line is tried as
    the fin box, and each choice of the cover lines inside it that leaves at least one fin.
    """
    units, inter = T.units, T.inter
    n = units.shape[1]
    size = np.uint64(k)
    cross = np.zeros((n, 2), dtype=np.uint64)  # per box: the rows, the columns that cross it
    for i in range(inter.shape[0]):
        kind = 0 if inter[i, 1] < n else 1
        cross[inter[i, 0] - 2 * n, kind] |= bit(inter[i, 1] - kind * n)
    bands = np.zeros((2, n), dtype=np.uint64)  # per cover kind: each band's cover lines, once
    nbands = np.zeros(2, dtype=np.int64)
    for kind in range(2):
        for box in range(n):
            band = cross[box, kind]
            if band not in bands[kind, : nbands[kind]]:
                bands[kind, nbands[kind]] = band
                nbands[kind] += 1
    masks = np.empty(n, dtype=np.uint64)
    line = np.empty(n, dtype=np.int64)
    choice = np.zeros(MAX_FISH, dtype=np.int64)
    unions = np.zeros(MAX_FISH, dtype=np.uint64)
    for d in range(n):
        for base0 in (0, n):
            kind = base0 // n
            cover_bands = bands[1 - kind, : nbands[1 - kind]]
            count = 0
            for b in range(n):
                layer = pos[d, base0 + b]
                masks[count] = layer
                line[count] = b
                count += layer != U0
            depth = 0
            choice[0] = 0
            while depth >= 0:  # depth-first over k-sets of candidate base lines
                i = choice[depth]
                if i > count - (k - depth):
                    depth -= 1
                    if depth >= 0:
                        choice[depth] += 1
                    continue
                union = masks[i] | (unions[depth - 1] if depth else U0)
                fits = False
                for band in cover_bands:
                    fits |= popcount(union & ~band) <= size
                if not fits:
                    choice[depth] += 1
                    continue
                unions[depth] = union
                if depth < k - 1:
                    depth += 1
                    choice[depth] = i + 1
                    continue
                if popcount(union) > size:  # else a basic fish (or less): no fin
                    bases = U0
                    for j in range(k):
                        bases |= bit(line[choice[j]])
                    _fin_boxes(
                        cand, pos, units, rec, cross, k, d, kind, bases, union, finned, sashimi
                    )
                choice[depth] += 1


@kernel
def _fin_boxes(cand, pos, units, rec, cross, k, d, kind, bases, union, finned, sashimi):
    """Every finned fish on the base lines ``bases`` (of ``kind``: 0 rows, 1 columns), whose
    candidates lie in the cover lines ``union``."""
    n = units.shape[1]
    base0, cover0 = kind * n, (1 - kind) * n
    for box in range(n):
        base_in, cover_in = cross[box, kind], cross[box, 1 - kind]
        if base_in & bases == U0 or popcount(union & ~cover_in) > np.uint64(k):
            continue
        outside = U0  # cover positions of the candidates outside the fin box: all covers
        inside = U0  # cover positions of the candidates in the fin box: covers or fins
        rest = bases
        while rest:
            low = lowest_bit(rest)
            rest ^= low
            layer = pos[d, base0 + bit_index(low)]
            if low & base_in:
                outside |= layer & ~cover_in
                inside |= layer & cover_in
            else:
                outside |= layer
        inside &= ~outside
        free = k - popcount(outside)
        if free < 0 or popcount(inside) <= free:
            continue
        chosen = inside  # every subset of the in-box positions with ``free`` of them as covers
        while True:
            if popcount(chosen) == free:
                covers = outside | chosen
                # inline: does the digit have a place in a cover inside the box, off the bases?
                targets = U0
                rest = covers & cover_in
                while rest:
                    low = lowest_bit(rest)
                    rest ^= low
                    targets |= pos[d, cover0 + bit_index(low)] & base_in & ~bases
                if targets != U0:
                    thin = _sashimi(pos, d, base0, bases, covers)
                    if (sashimi and thin) or (finned and not thin):
                        tech = (SASHIMI_X_WING if thin else FINNED_X_WING) + k - 2
                        in_box = covers & cover_in
                        _record(cand, pos, units, rec, tech, d, kind, bases, in_box, base_in)
            if chosen == U0:
                break
            chosen = (chosen - U1) & inside


@kernel
def _sashimi(pos, d, base0, bases, covers):
    """True when a base line keeps at most one candidate in the cover lines."""
    while bases:
        low = lowest_bit(bases)
        bases ^= low
        if popcount(pos[d, base0 + bit_index(low)] & covers) <= U1:
            return True
    return False


@kernel
def _record(cand, pos, units, rec, tech, d, kind, bases, covers, base_in):
    """One fish on digit ``d``: its base lines' candidates prove it; the digit leaves the cells
    of the cover lines ``covers`` that lie on base-kind lines of ``base_in``, off the base lines
    (a plain fish: every line; a finned fish: the cover lines that cross the fin box, in that
    box)."""
    n = units.shape[1]
    base0, cover0 = kind * n, (1 - kind) * n
    start = mark(rec)
    _prove_bases(pos, units, rec, d, base0, bases)
    while covers:
        low = lowest_bit(covers)
        covers ^= low
        cover = cover0 + bit_index(low)
        layer = pos[d, cover] & base_in & ~bases  # a cover's positions are base-kind lines
        while layer:
            low2 = lowest_bit(layer)
            layer ^= low2
            eliminate(rec, cand, units[cover, bit_index(low2)], d)
    commit(rec, start, tech, base0, bit(d))
