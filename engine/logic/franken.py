"""Franken and mutant fish: fish whose base and cover sets may hold boxes, and mix rows and columns.

For a digit, k *base* units that share no candidate cell need k placements of it; when every
one of their candidates lies in k *cover* units (none of them a base unit), those k placements
fill the covers, so the digit leaves the covers' other cells. A candidate that lies in two covers
goes too ("cannibalism": it would fill two covers with one placement). Base candidates outside
the covers are *fins*: either one of them holds the digit or the fish does, so only the cells
that see every fin lose it. As HoDoKu names them: a *Franken* fish has boxes among its units,
its lines all rows in the base and columns in the cover (or the other way round); a *mutant*
fish is any other one that is not a basic fish (which ``engine.logic.fish`` finds). Base units
may overlap in up to two cells when fins are allowed: such an *endo fin* is a fin too (holding
the digit, it would serve two base units).

The search runs on bit sets of cells (any grid size): base sets depth first in unit order, pruned
when their units share more candidates than endo fins allow; for each, the covers cell by cell.
The first base candidate not yet covered either gets a cover (one of its units of a cover kind)
or becomes a fin, while some candidate still sees every fin. A cover set can be reached in more
than one order; it is kept only where each cell's cover is the first of that cell's units in the
set, so each fish is recorded once.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.state import (
    C_OVERFLOW,
    C_STEPS,
    FRANKEN_FISH,
    MAX_FRANKEN,
    MUTANT_FISH,
    U0,
    add_proof,
    bit,
    bit_index,
    commit,
    eliminate,
    lowest_bit,
    mark,
    popcount,
    same_cells,
)

MAX_FINS = 4
MAX_ENDO_FINS = 2
#: A step's detail: its size, plus FINNED when it has fins (for its display name).
FINNED = 8
ROWS, COLUMNS, BOXES = 1, 2, 4  # unit kinds as bits (a unit's kind is its index // n)
ALL_KINDS = ROWS | COLUMNS | BOXES


@kernel
def search_index(k, mutant, finned):
    """The row of ``WorkArrays.fish_cells`` that the search for these fish keeps."""
    return (2 * mutant + finned) * (MAX_FRANKEN - 1) + k - 2


@kernel
def find_franken_fish(cand, pos, T, rec, k, mutant, finned, fruitless):
    """Record every Franken (or, with ``mutant``, mutant) fish of size ``k``: with ``finned``
    those with fins, else those without (HoDoKu takes every size of the basic ones first).

    A digit's fish depend on its own open cells alone (and the grid's units), so the search
    skips a digit whose cells equal ``fruitless[d]``, the cells with which this search last
    found nothing for it, and keeps them there when it finds nothing again (the pass loop's
    ``WorkArrays.fish_cells[search_index(k, mutant, finned)]``; zeros: nothing known)."""
    units, peer_bits = T.units, T.peer_bits
    n = units.shape[1]
    nunits, words = units.shape[0], peer_bits.shape[1]
    cells = np.zeros((nunits, words), dtype=np.uint64)  # per unit: the digit's candidate cells
    base_units = np.empty(nunits, dtype=np.int64)
    choice = np.zeros(k, dtype=np.int64)
    unions = np.zeros((k, words), dtype=np.uint64)
    overlaps = np.zeros((k, words), dtype=np.uint64)  # endo fins so far
    bases = np.zeros(k, dtype=np.int64)
    levels = k + MAX_FINS + 1
    scratch = (
        np.zeros((levels, words), dtype=np.uint64),  # covered base candidates
        np.zeros((levels, words), dtype=np.uint64),  # fins
        np.zeros((levels, words), dtype=np.uint64),  # the cells that see every fin so far
        np.zeros((levels, 4), dtype=np.int64),  # cell, next option, unit taken, covers so far
        np.zeros(words, dtype=np.uint64),  # every candidate of the digit
        np.zeros(k, dtype=np.int64),  # a fish's covers
    )
    endo_limit = MAX_ENDO_FINS if finned else 0
    for d in range(n):
        anywhere = scratch[4]
        anywhere[:] = U0
        for u in range(nunits):
            cells[u, :] = U0
            layer = pos[d, u]
            while layer:
                low = lowest_bit(layer)
                layer ^= low
                cell = units[u, bit_index(low)]
                cells[u, cell >> 6] |= bit(cell & 63)
            for w in range(words):
                anywhere[w] |= cells[u, w]
        if same_cells(anywhere, fruitless[d]):
            continue
        steps = rec.counts[C_STEPS]
        for orientation in range(1 if mutant else 2):
            # Franken: rows and boxes covered by columns and boxes, or the other way round
            base_kinds = ALL_KINDS if mutant else (ROWS << orientation) | BOXES
            cover_kinds = ALL_KINDS if mutant else (COLUMNS >> orientation) | BOXES
            count = 0
            for u in range(nunits):
                if base_kinds & (1 << (u // n)) and pos[d, u] != U0:
                    base_units[count] = u
                    count += 1
            depth = 0
            choice[0] = 0
            while depth >= 0:  # depth-first over k-sets of base units, few cells in common
                i = choice[depth]
                if i > count - (k - depth):
                    depth -= 1
                    if depth >= 0:
                        choice[depth] += 1
                    continue
                u = base_units[i]
                endo = 0
                for w in range(words):
                    below = unions[depth - 1, w] if depth else U0
                    overlap = overlaps[depth - 1, w] if depth else U0
                    overlaps[depth, w] = overlap | (below & cells[u, w])
                    unions[depth, w] = below | cells[u, w]
                    endo += popcount(overlaps[depth, w])
                if endo > endo_limit:
                    choice[depth] += 1
                    continue
                if depth < k - 1:
                    depth += 1
                    choice[depth] = i + 1
                    continue
                for j in range(k):
                    bases[j] = base_units[choice[j]]
                top = k - 1
                _covers(
                    cand,
                    T,
                    rec,
                    cells,
                    unions[top],
                    overlaps[top],
                    bases,
                    d,
                    cover_kinds,
                    mutant,
                    finned,
                    scratch,
                )
                choice[depth] += 1
        if rec.counts[C_STEPS] == steps and rec.counts[C_OVERFLOW] == 0:
            fruitless[d, :] = anywhere


@kernel
def _covers(cand, T, rec, cells, base, endo, bases, d, cover_kinds, mutant, finned, scratch):
    """Every cover set (and fin set) of the base units ``bases``, whose candidates are ``base``
    and whose endo fins are ``endo``: the search of the module docstring, one level per base
    candidate decided (``scratch``: see :func:`find_franken_fish`)."""
    covered, fins, seen, stack, anywhere, covers = scratch
    cell_units, peer_bits = T.cell_units, T.peer_bits
    k = bases.shape[0]
    words = base.shape[0]
    max_fins = MAX_FINS if finned else 0
    covered[0, :] = U0
    fins[0, :] = endo
    seen[0, :] = ~U0
    for w in range(words):
        rest = endo[w]
        while rest:
            low = lowest_bit(rest)
            rest ^= low
            for w2 in range(words):
                seen[0, w2] &= peer_bits[w * 64 + bit_index(low), w2]
    stack[0, 0] = _first_free(base, covered[0], fins[0])
    stack[0, 1] = 0
    stack[0, 3] = 0
    level = 0
    while level >= 0:
        x, option, ncovers = stack[level, 0], stack[level, 1], stack[level, 3]
        if x < 0 or option > 3:
            if x < 0 and ncovers == k:
                _fish(
                    cand,
                    T,
                    rec,
                    cells,
                    base,
                    bases,
                    covers,
                    d,
                    mutant,
                    finned,
                    fins[level],
                    seen[level],
                    stack,
                    level,
                )
            level -= 1
            continue
        stack[level, 1] = option + 1
        if ncovers == k and option == 0:  # the rest are fins: are there few enough?
            left = 0
            for w in range(words):
                left += popcount(base[w] & ~covered[level, w] & ~fins[level, w])
            if left > max_fins - (level - ncovers):
                stack[level, 1] = 4
                continue
        if option < 3:  # a cover: x's unit of this kind
            if not cover_kinds & (1 << option) or ncovers == k:
                continue
            v = cell_units[x, option]
            usable = True
            for j in range(k):
                usable &= bases[j] != v
            for w in range(words):  # no exo fin in a cover (an endo fin may be)
                usable &= cells[v, w] & fins[level, w] & ~endo[w] == U0
            if not usable:
                continue
            stack[level, 2] = v
            for w in range(words):
                covered[level + 1, w] = covered[level, w] | cells[v, w]
                fins[level + 1, w] = fins[level, w]
                seen[level + 1, w] = seen[level, w]
            stack[level + 1, 3] = ncovers + 1
        else:  # x a fin, while some candidate of the digit sees every fin
            if level - ncovers == max_fins:
                continue
            targets = U0
            for w in range(words):
                seen[level + 1, w] = seen[level, w] & peer_bits[x, w]
                targets |= seen[level + 1, w] & anywhere[w]
            if targets == U0:
                continue
            stack[level, 2] = -1
            for w in range(words):
                covered[level + 1, w] = covered[level, w]
                fins[level + 1, w] = fins[level, w]
            fins[level + 1, x >> 6] |= bit(x & 63)
            stack[level + 1, 3] = ncovers
        level += 1
        stack[level, 0] = _first_free(base, covered[level], fins[level])
        stack[level, 1] = 0


@kernel
def _first_free(base, covered, fins):
    """The first base candidate neither covered nor a fin (-1 if none)."""
    for w in range(base.shape[0]):
        free = base[w] & ~covered[w] & ~fins[w]
        if free:
            return w * 64 + bit_index(lowest_bit(free))
    return -1


@kernel
def _fish(cand, T, rec, cells, base, bases, covers, d, mutant, finned, fins, seen, stack, level):
    """Record the fish whose covers and fins the stack holds (up to ``level``; ``covers`` is
    scratch for them), if it is of the kind searched, met for the first time, and eliminates
    something."""
    n = T.units.shape[1]
    cell_units = T.cell_units
    words = base.shape[0]
    k = bases.shape[0]
    has_fins = False
    for w in range(words):
        has_fins |= fins[w] != U0
    if has_fins != finned:
        return
    count = 0
    for j in range(level):
        if stack[j, 2] >= 0:
            covers[count] = stack[j, 2]
            count += 1
    # each cover set once: a cell's cover is the first of its kinds in the set
    for j in range(level):
        v = stack[j, 2]
        if v < 0:
            continue
        for c in range(k):
            kind = covers[c] // n
            if kind < v // n and cell_units[stack[j, 0], kind] == covers[c]:
                return
    base_kinds = cover_kinds = 0
    for j in range(k):
        base_kinds |= 1 << (bases[j] // n)
        cover_kinds |= 1 << (covers[j] // n)
    boxes = (base_kinds | cover_kinds) & BOXES != 0
    if not boxes and cover_kinds == base_kinds ^ (ROWS | COLUMNS):
        return  # rows covered by columns or the other way round: a basic fish
    franken = boxes and (
        (base_kinds & ~(ROWS | BOXES) == 0 and cover_kinds & ~(COLUMNS | BOXES) == 0)
        or (base_kinds & ~(COLUMNS | BOXES) == 0 and cover_kinds & ~(ROWS | BOXES) == 0)
    )
    if mutant == franken:
        return  # not of the kind searched
    start = mark(rec)
    for w in range(words):
        targets = U0
        for c in range(k):
            targets |= cells[covers[c], w] & ~base[w]
            for c2 in range(c + 1, k):  # cannibalism
                targets |= cells[covers[c], w] & cells[covers[c2], w]
        if finned:
            targets &= seen[w]
        while targets:
            low = lowest_bit(targets)
            targets ^= low
            eliminate(rec, cand, w * 64 + bit_index(low), d)
        proof = base[w]
        while proof:
            low = lowest_bit(proof)
            proof ^= low
            add_proof(rec, w * 64 + bit_index(low))
    tech = MUTANT_FISH if mutant else FRANKEN_FISH
    commit(rec, start, tech, k + (FINNED if finned else 0), bit(d))
