"""Chains: X-chains, XY-chains and alternating inference chains (AIC, nice loops).

A candidate Z is false when assuming it true leads, along alternating weak and strong links, to
Z false. Weak link: two candidates that cannot both be true (same cell, or same digit in cells
that see each other). Strong link: two candidates that cannot both be false (a cell with two
candidates, or a unit where a digit has two places). From "Z true" a weak link makes a candidate
false, a strong link from a false candidate makes one true, and so on; a candidate made true that
is weakly linked to Z refutes Z. This covers an AIC whose two ends both see Z, and discontinuous
nice loops.

The search runs on bit sets of candidates: ``weak[x]`` and ``strong[x]`` are the link sets, and
``step[x]`` = the union of ``strong[w]`` over ``w`` in ``weak[x]`` is everything one weak-strong
pair of links makes true from x. From each Z a level-by-level expansion of ``step`` finds the
shortest refutation; its length in links (2 per level, plus the last weak link) goes into the
step's ``extra`` for the rating, and the chain's cells into its proof.

* X-chain: one digit throughout (links between cells only);
* XY-chain: strong links inside bivalue cells, weak links between cells on one digit;
* AIC: any links;
* remote pair: an XY-chain whose cells all hold the same two digits (HoDoKu finds them before
  the single-digit patterns; ``find_remote_pairs``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.jit import kernel
from engine.logic.killer import must_hold
from engine.logic.state import (
    AIC,
    ALS_CHAIN,
    ALS_XY_WING,
    ALS_XZ,
    C_STEPS,
    U0,
    X_CHAIN,
    XY_CHAIN,
    add_proof,
    bit,
    bit_index,
    commit,
    digit_cells,
    eliminate,
    lowest_bit,
    mark,
    popcount,
    same_cells,
    sees,
)

#: Weak-strong pairs of a turbot fish (skyscraper, 2-string kite, empty rectangle and kin): two
#: strong links joined by a weak one, an X-chain that SE rates with the single-digit patterns;
#: the pass loop's rungs for Sukaku Explainer's strong-linked fishes of three and four links ask
#: for one and two pairs more.
TURBOT_LEVELS = 2
#: Sukaku Explainer's strong-linked fishes (its StrongLinks rule, on by default up to four links):
#: an X-chain of k strong links rates by k (two: skyscraper, 2-string kite, turbot fish), a tenth
#: more with a link in a box or with links in both rows and columns, two tenths with both, three
#: tenths where a link lies in no row, column or box (a variant's extra unit or a cage; SE's
#: grouped links). Longer X-chains SE finds as forcing X-chains: x_chain's rating plus SE's
#: length bonus (``se_length_bonus``).
STRONG_LINK_BASES = (0.0, 0.0, 4.0, 5.4, 5.8)  # by the number of strong links
MAX_FISH_LINKS = 4
#: The most chains of one length :func:`_cheapest_walk` compares for one elimination
WALK_BUDGET = 4096
SHAPE_BONUS = 0.1
OTHER_UNIT_BONUS = 0.3


class ChainGraph(NamedTuple):
    """What a chain search runs on: the nodes, their links and the weak-strong steps.

    Node x is digit ``node_digit[x]`` in cell ``node_cell[x]``, or, for a node of several cells
    (``node_cell[x]`` = -1 - its row), in one of the cells of that row of ``group_cells``, a
    bitset over the cells; ``owner[x]`` is the almost locked set node x belongs to (-1 for
    none; empty for chains without ALS). ``weak`` and ``strong`` are the link sets, ``linked``
    the nodes with a strong link and ``step`` their weak-strong steps (:func:`_steps`).
    """

    weak: np.ndarray
    strong: np.ndarray
    linked: np.ndarray
    step: np.ndarray
    node_cell: np.ndarray
    node_digit: np.ndarray
    group_cells: np.ndarray
    owner: np.ndarray


@kernel
def set_bit(rows, x, y):
    rows[x, y >> 6] |= bit(y & 63)


@kernel
def has_bit(rows, x, y):
    return rows[x, y >> 6] & bit(y & 63) != U0


@kernel
def strong_link_rating(cells, cell_units):
    """Sukaku Explainer's rating of an X-chain whose strong links are the pairs of ``cells``
    (see ``STRONG_LINK_BASES``). A pair in a box and a line may count as either, whichever rates
    lower, as SE rates each reading and takes the easiest."""
    links = cells.shape[0] // 2
    all_rows = all_columns = rows_or_columns = rows_or_boxes = columns_or_boxes = True
    for j in range(links):
        a, b = cells[2 * j], cells[2 * j + 1]
        row = cell_units[a, 0] == cell_units[b, 0]
        column = cell_units[a, 1] == cell_units[b, 1]
        box = cell_units[a, 2] == cell_units[b, 2]
        if not (row or column or box):
            return STRONG_LINK_BASES[links] + OTHER_UNIT_BONUS
        all_rows &= row
        all_columns &= column
        rows_or_columns &= row or column
        rows_or_boxes &= row or box
        columns_or_boxes &= column or box
    if all_rows or all_columns:
        return STRONG_LINK_BASES[links]
    if rows_or_columns or rows_or_boxes or columns_or_boxes:
        return STRONG_LINK_BASES[links] + SHAPE_BONUS
    return STRONG_LINK_BASES[links] + 2 * SHAPE_BONUS


@kernel
def chain_links(cand, placed, pos, T, tech, pair, node_cell, node_digit, node_of, weak, strong):
    """Fill the weak and strong link sets of every candidate for a chain kind; a ``pair`` (a
    digit mask, U0 for none) keeps the strong links inside cells that hold exactly it."""
    units, cell_units, unit_pos = T.units, T.cell_units, T.unit_pos
    n = units.shape[1]
    must = cage_musts(cand, placed, T)
    for x in range(node_cell.shape[0]):
        cell, digit = node_cell[x], node_digit[x]
        b = bit(digit)
        if must.shape[0]:  # a Killer
            _cage_links(cand, placed, T, must, x, cell, digit, node_of, weak, strong, tech)
        for k in range(cell_units.shape[1]):  # the digit's other cells in the cell's units
            u = cell_units[cell, k]
            layer = pos[digit, u] & ~bit(unit_pos[cell, k])
            while layer:
                low = lowest_bit(layer)
                layer ^= low
                set_bit(weak, x, node_of[units[u, bit_index(low)] * n + digit])
        m = cand[cell] ^ b
        if tech == AIC:
            others = m
            while others:
                o = lowest_bit(others)
                others ^= o
                set_bit(weak, x, node_of[cell * n + bit_index(o)])
        if tech != X_CHAIN and popcount(m) == 1 and (pair == U0 or cand[cell] == pair):
            set_bit(strong, x, node_of[cell * n + bit_index(m)])
        if tech != XY_CHAIN:
            for k in range(cell_units.shape[1]):
                u = cell_units[cell, k]
                layer = pos[digit, u]
                if popcount(layer) == 2:
                    while layer:
                        low = lowest_bit(layer)
                        layer ^= low
                        c2 = units[u, bit_index(low)]
                        if c2 != cell:
                            set_bit(strong, x, node_of[c2 * n + digit])


@kernel
def cage_musts(cand, placed, T):
    """Per Killer cage, the digits it must still place (``must_hold``); empty on other grids."""
    must = np.zeros(T.cage_total.shape[0], dtype=np.uint64)
    cells = np.empty(max(T.cage_cells.shape[1], 1), dtype=np.int64)
    for c in range(must.shape[0]):
        _, must[c] = must_hold(cand, placed, T, c, cells)
    return must


@kernel
def _two_in_cage(cand, placed, T, c, digit):
    """The two open cells of cage ``c`` that hold ``digit``, or (-1, -1) when it has more or
    fewer."""
    found = np.full(2, -1, dtype=np.int64)
    count = 0
    for i in range(T.cage_cells.shape[1]):
        cell = T.cage_cells[c, i]
        if cell < 0:
            break
        if placed[cell] == 0 and cand[cell] & bit(digit):
            if count == 2:
                return -1, -1
            found[count] = cell
            count += 1
    return (found[0], found[1]) if count == 2 else (-1, -1)


@kernel
def _cage_links(cand, placed, T, must, x, cell, digit, node_of, weak, strong, tech):
    """Candidate x's links through its Killer cage: weak to the digit in the cage mates, and
    strong to its one other place in the cage when the cage must hold the digit."""
    n = T.units.shape[1]
    c = T.cage_of[cell]
    for i in range(T.cage_cells.shape[1]):
        mate = T.cage_cells[c, i]
        if mate < 0:
            break
        if mate != cell and placed[mate] == 0 and cand[mate] & bit(digit):
            set_bit(weak, x, node_of[mate * n + digit])
    if tech != XY_CHAIN and must[c] & bit(digit):
        a, b = _two_in_cage(cand, placed, T, c, digit)
        if b >= 0:
            set_bit(strong, x, node_of[(b if a == cell else a) * n + digit])


@kernel
def _or_rows(members, m_row, within, rows, out, out_row):
    """``out[out_row] |= rows[y]`` for every y in the bitset ``members[m_row] & within`` (rows
    are indexed rather than sliced: a slice is an array, which costs atomic reference counts)."""
    for j in range(members.shape[1]):
        m = members[m_row, j] & within[j]
        while m:
            low = lowest_bit(m)
            m ^= low
            y = j * 64 + bit_index(low)
            for i in range(out.shape[1]):
                out[out_row, i] |= rows[y, i]


@kernel
def _link_between(weak, strong, x, y):
    """A candidate w with a weak link from x and a strong link to y (-1 if none)."""
    return _lowest_with_bit(weak[x], strong, y)


@kernel
def find_chains(cand, placed, pos, T, rec, tech, max_level):
    """Record every candidate that a chain of kind ``tech`` (X_CHAIN, XY_CHAIN, AIC) of at most
    ``max_level`` weak-strong pairs refutes (``TURBOT_LEVELS`` finds the turbot fishes).

    X-chains never leave their digit, so they are searched one digit at a time (small sets).
    """
    if tech == X_CHAIN:
        n, words = T.units.shape[1], T.peer_bits.shape[1]
        unknown = np.zeros((n, words), dtype=np.uint64), np.zeros(n, dtype=np.int64)
        _x_chains(cand, placed, pos, T, rec, max_level, max_level, *unknown)
    else:
        _search(cand, placed, pos, T, rec, tech, max_level, U0)


@kernel
def find_short_x_chains(cand, placed, pos, T, rec, work, max_level, ahead):
    """:func:`find_chains` for X-chains of at most ``max_level`` pairs (the turbot rungs). A
    digit's search depends on its open cells alone (off a Killer), so ``work`` keeps them for
    each digit with the length up to which its chains refute nothing, looking ``ahead`` pairs
    deep: a later search (the longer rungs, the next passes) skips a digit whose cells have not
    changed and whose chains cannot refute anything at its length."""
    depth = max(max_level, ahead)
    _x_chains(cand, placed, pos, T, rec, max_level, depth, work.chain_cells, work.chain_clear)


@kernel
def find_remote_pairs(cand, placed, pos, T, rec):
    """Record every candidate that a remote pair refutes: for each two digits that four or more
    open cells hold alone, the XY-chains through those cells only (recorded as XY-chains)."""
    ncells = cand.shape[0]
    max_level = ncells * T.units.shape[1]
    for cell in range(ncells):
        pair = cand[cell]
        if placed[cell] or popcount(pair) != 2:
            continue
        first, count = True, 0
        for other in range(ncells):
            if placed[other] == 0 and cand[other] == pair:
                first &= other >= cell  # each pair once: from its first cell
                count += 1
        if first and count >= 4:
            _search(cand, placed, pos, T, rec, XY_CHAIN, max_level, pair)


@kernel
def _x_chains(cand, placed, pos, T, rec, max_level, ahead, known_cells, known_clear):
    """The X-chain search, digit by digit, on the digit's cells: records the refutations of at
    most ``max_level`` pairs. Per digit, ``known_cells`` and ``known_clear`` (rows by digit) are
    its cells and the length up to which its chains refuted nothing, at its last search (up to
    ``ahead`` pairs deep): a digit whose cells are the same and whose chains refute nothing at
    ``max_level`` is skipped, off a Killer (whose cages add links that other digits decide).

    A candidate is its cell here (bitsets over the cells, as ``peer_bits``): the weak links of
    a cell are its peers that hold the digit, one AND per word, and its strong links come from
    the units where the digit has two cells (and a Killer's cages that must hold it there), with
    no table from candidates to nodes to build.
    Nodes come in cell order, as in :func:`_search`, so the chains found and their order are the
    same.
    """
    units, peer_bits = T.units, T.peer_bits
    ncells, n, words = cand.shape[0], units.shape[1], peer_bits.shape[1]
    weak = np.empty((ncells, words), dtype=np.uint64)
    strong = np.empty((ncells, words), dtype=np.uint64)
    step = np.empty((ncells, words), dtype=np.uint64)
    levels = np.empty((min(ahead, ncells) + 2, words), dtype=np.uint64)
    reached = np.empty(words, dtype=np.uint64)
    holders = np.empty(words, dtype=np.uint64)
    linked = np.empty(words, dtype=np.uint64)
    node_cell = np.arange(ncells)
    node_digit = np.empty(ncells, dtype=np.int64)
    no_groups = np.zeros((1, 1), dtype=np.uint64)
    no_sets = np.zeros(0, dtype=np.int64)
    graph = ChainGraph(weak, strong, linked, step, node_cell, node_digit, no_groups, no_sets)
    must = cage_musts(cand, placed, T)
    killer = T.cage_total.shape[0] > 0
    for d in range(n):
        digit_cells(pos, units, d, holders)
        if not killer and known_clear[d] >= max_level and same_cells(holders, known_cells[d]):
            continue
        for j in range(words):
            m = holders[j]
            while m:
                low = lowest_bit(m)
                m ^= low
                x = j * 64 + bit_index(low)
                for i in range(words):
                    weak[x, i] = peer_bits[x, i] & holders[i]
                    strong[x, i] = U0
        linked[:] = U0
        for u in range(units.shape[0]):  # units where the digit has two cells
            layer = pos[d, u]
            if popcount(layer) == 2:
                first = lowest_bit(layer)
                a, b = units[u, bit_index(first)], units[u, bit_index(layer ^ first)]
                set_bit(strong, a, b)
                set_bit(strong, b, a)
                linked[a >> 6] |= bit(a & 63)
                linked[b >> 6] |= bit(b & 63)
        for c in range(must.shape[0]):  # none but on a Killer
            if must[c] & bit(d):
                a, b = _two_in_cage(cand, placed, T, c, d)
                if b >= 0:
                    set_bit(strong, a, b)
                    set_bit(strong, b, a)
                    linked[a >> 6] |= bit(a & 63)
                    linked[b >> 6] |= bit(b & 63)
        node_digit[:] = d
        _steps(weak, strong, linked, step)
        shortest = _refute(rec, cand, X_CHAIN, holders, graph, levels, reached, max_level, T, ahead)
        known_cells[d] = holders
        known_clear[d] = shortest - 1 if shortest else ahead


@kernel
def candidate_nodes(cand, placed, n):
    """Every open cell's candidates as chain nodes, in cell order: (node_cell, node_digit,
    node_of), ``node_of[cell * n + digit]`` the node of a candidate (-1 if none)."""
    ncells = cand.shape[0]
    node_of = np.full(ncells * n, -1, dtype=np.int64)
    count = 0
    for cell in range(ncells):
        if placed[cell] == 0:
            count += popcount(cand[cell])
    node_cell = np.zeros(count, dtype=np.int64)
    node_digit = np.zeros(count, dtype=np.int64)
    count = 0
    for cell in range(ncells):
        if placed[cell] == 0:
            m = cand[cell]
            while m:
                low = lowest_bit(m)
                m ^= low
                node_cell[count] = cell
                node_digit[count] = bit_index(low)
                node_of[cell * n + bit_index(low)] = count
                count += 1
    return node_cell, node_digit, node_of


@kernel
def _search(cand, placed, pos, T, rec, tech, max_level, pair):
    """The chain search over every candidate (see the module docstring; ``pair``: see
    :func:`chain_links`)."""
    node_cell, node_digit, node_of = candidate_nodes(cand, placed, T.units.shape[1])
    count = node_cell.shape[0]
    words = (count + 63) // 64
    weak = np.zeros((count, words), dtype=np.uint64)
    strong = np.zeros((count, words), dtype=np.uint64)
    chain_links(cand, placed, pos, T, tech, pair, node_cell, node_digit, node_of, weak, strong)
    no_groups = np.zeros((1, 1), dtype=np.uint64)  # every node is one candidate
    no_sets = np.zeros(0, dtype=np.int64)
    lengths = np.full(1, max_level, dtype=np.int64)
    refute_all(
        rec,
        cand,
        T,
        tech,
        count,
        weak,
        strong,
        node_cell,
        node_digit,
        no_groups,
        no_sets,
        lengths,
        0,
        False,
    )


@kernel
def refute_all(
    rec,
    cand,
    T,
    tech,
    starts,
    weak,
    strong,
    node_cell,
    node_digit,
    group_cells,
    owner,
    lengths,
    since,
    probe,
):
    """Refute every candidate node (the first ``starts`` nodes) by the shortest chain over the
    link sets ``weak`` and ``strong`` (the rest: see :class:`ChainGraph`), of at most ``lengths[0]``
    weak-strong pairs, then of at most ``lengths[1]`` ... while no step has been recorded since
    the record held ``since`` steps (0 skips a length): a rung that climbs from short chains to
    long ones builds the links once. With ``probe`` (nonzero lengths that grow by one), one
    sweep finds the length where the climb stops (:func:`_shortest`) and a second records
    there, where the climb sweeps once per length: worth it where most searches find
    nothing."""
    count, words = weak.shape
    nodes = np.zeros(words, dtype=np.uint64)  # the candidates: where chains start
    linked = np.zeros(words, dtype=np.uint64)  # the nodes with a strong link
    for x in range(count):
        if x < starts:
            nodes[x >> 6] |= bit(x & 63)
        for i in range(words):
            if strong[x, i]:
                linked[x >> 6] |= bit(x & 63)
    step = np.zeros((count, words), dtype=np.uint64)
    _steps(weak, strong, linked, step)
    levels = np.zeros((min(lengths.max(), count) + 2, words), dtype=np.uint64)
    reached = np.zeros(words, dtype=np.uint64)
    graph = ChainGraph(weak, strong, linked, step, node_cell, node_digit, group_cells, owner)
    if probe:
        shortest = _shortest(nodes, graph, levels, reached, lengths)
        if shortest:
            longest = max(lengths[0], shortest)
            _refute(rec, cand, tech, nodes, graph, levels, reached, longest, T, longest)
        return
    for i in range(lengths.shape[0]):
        if i > 0 and rec.counts[C_STEPS] > since:
            return
        if lengths[i] == 0:
            continue
        _refute(rec, cand, tech, nodes, graph, levels, reached, lengths[i], T, lengths[i])


@kernel
def _steps(weak, strong, linked, step):
    """``step[y]`` for every node y of ``linked``: the union of ``strong[w]`` over the linked w
    in ``weak[y]``, everything one weak-strong pair of links makes true from y. Only nodes with
    a strong link get one: every node a level makes true has one (strong links go both ways),
    and few of a node's weak links lead to one."""
    words = weak.shape[1]
    for j in range(words):
        m = linked[j]
        while m:
            low = lowest_bit(m)
            m ^= low
            y = j * 64 + bit_index(low)
            for i in range(words):
                step[y, i] = U0
            _or_rows(weak, y, linked, strong, step, y)


@kernel
def _refute(rec, cand, tech, nodes, graph, levels, reached, max_level, T, ahead):
    """Record every candidate of the bitset ``nodes`` (in order) that a chain of at most
    ``max_level`` weak-strong pairs refutes, the shortest one (:func:`_refutation`); returns the
    shortest refutation of at most ``ahead`` pairs (not less than ``max_level``), 0 for none."""
    words = nodes.shape[0]
    shortest = 0
    for j in range(words):
        m = nodes[j]
        while m:
            low = lowest_bit(m)
            m ^= low
            z = j * 64 + bit_index(low)
            # a search deeper than max_level stops where one to max_level would: same chain
            level = _refutation(z, graph, levels, reached, ahead)
            if level and level <= max_level:
                _record(rec, cand, tech, z, level, levels, graph, T)
            if level and (shortest == 0 or level < shortest):
                shortest = level
                ahead = max(level - 1, max_level)  # deeper ones no longer matter
    return shortest


@kernel
def _shortest(nodes, graph, levels, reached, lengths):
    """The weak-strong pairs of the shortest chain that refutes a candidate of ``nodes``, at
    most ``lengths``' last; 0 for none. Each search goes no deeper than the shortest so far,
    and the sweep ends once one is no longer than the first length (the climb stops there)."""
    best = lengths[-1]
    found = False
    for j in range(nodes.shape[0]):
        m = nodes[j]
        while m:
            low = lowest_bit(m)
            m ^= low
            level = _refutation(j * 64 + bit_index(low), graph, levels, reached, best)
            if level:
                best, found = level, True
                if best <= lengths[0]:
                    return best
    return best if found else 0


@kernel
def _refutation(z, graph, levels, reached, max_level):
    """The weak-strong pairs of the shortest chain of at most ``max_level`` that refutes node
    z, following only the ``linked`` nodes of ``graph``; 0 for none. ``levels`` and
    ``reached`` are the search's buffers: ``levels`` holds what each level makes true, for
    :func:`_record` to trace the chain back."""
    weak, strong, linked, step = graph.weak, graph.strong, graph.linked, graph.step
    words = weak.shape[1]
    # level 1: what one weak-strong pair makes true from z
    for i in range(words):
        levels[1, i] = U0
    _or_rows(weak, z, linked, strong, levels, 1)
    hit = False
    grew = False
    for i in range(words):
        reached[i] = levels[1, i]
        if levels[1, i]:
            grew = True
        if levels[1, i] & weak[z, i]:
            hit = True
    level = 1
    while grew and not hit and level < max_level:
        grew = False
        for i in range(words):
            levels[level + 1, i] = U0
        _or_rows(levels, level, linked, step, levels, level + 1)
        level += 1
        for i in range(words):
            fresh = levels[level, i] & ~reached[i]
            levels[level, i] = fresh
            reached[i] |= fresh
            if fresh:
                grew = True
            if fresh & weak[z, i]:
                hit = True
    return level if hit else 0


@kernel
def _record(rec, cand, tech, z, level, levels, graph, T):
    """Trace a shortest chain that refutes z and record the elimination.

    Of several shortest chains, an X-, XY- or ALS chain takes the one that rates lowest, as a
    rater takes the easiest hint (:func:`_easiest_chain`); which one the scan reaches first
    depends on how the grid is drawn, and the rating must not. A chain over almost locked sets
    (``owner[x]``: the ALS of node x, -1 for none; an empty ``owner`` for chains without ALS) is
    named by how many ALS it passes through: two make an ALS-XZ (doubly linked when it goes back
    to the first), three an ALS-XY-wing, more a chain.
    """
    owner, node_cell, node_digit = graph.owner, graph.node_cell, graph.node_digit
    start = mark(rec)
    path = np.empty(2 * level + 1, dtype=np.int64)  # z, w1, x1, ..., wL, xL: weak, strong ...
    path[0] = z
    if tech in (X_CHAIN, XY_CHAIN) or ALS_XZ <= tech <= ALS_CHAIN:
        _easiest_chain(path, tech, level, levels, graph, T)
    else:
        _first_chain(path, level, levels, graph)
    digits = bit(node_digit[z])
    sets = np.full(2 * level, -1, dtype=np.int64) if owner.shape[0] else np.zeros(0, np.int64)
    for k in range(2 * level, 0, -2):  # the proof from the last true candidate back
        y, w = path[k], path[k - 1]
        _add_node(rec, node_cell, graph.group_cells, y)
        _add_node(rec, node_cell, graph.group_cells, w)
        digits |= bit(node_digit[y]) | bit(node_digit[w])
        if sets.shape[0]:
            _note_set(sets, owner[y])
            _note_set(sets, owner[w])
    eliminate(rec, cand, node_cell[z], node_digit[z])
    if ALS_XZ <= tech <= ALS_CHAIN:
        distinct = 0
        for s in sets:
            distinct += s >= 0
        tech = ALS_XZ if distinct <= 2 else ALS_XY_WING if distinct == 3 else ALS_CHAIN
    commit(rec, start, tech, 2 * level + 1, digits)


@kernel
def _first_chain(path, level, levels, graph):
    """The chain the backward trace meets first: the lowest last candidate weakly linked to z,
    and at each level up the lowest node that makes the next one true."""
    weak, step = graph.weak, graph.step
    z, words = path[0], weak.shape[1]
    y = -1
    for j in range(words):
        m = levels[level, j] & weak[z, j]
        if m:
            y = j * 64 + bit_index(lowest_bit(m))
            break
    for lv in range(level - 1, -1, -1):
        x = z if lv == 0 else _lowest_with_bit(levels[lv], step, y)
        path[2 * lv + 2] = y
        path[2 * lv + 1] = _link_between(weak, graph.strong, x, y)
        y = x


@kernel
def _lowest_with_bit(members, rows, y):
    """The lowest node x of the bitset ``members`` whose row ``rows[x]`` holds y (-1 if none)."""
    for j in range(members.shape[0]):
        m = members[j]
        while m:
            low = lowest_bit(m)
            m ^= low
            x = j * 64 + bit_index(low)
            if has_bit(rows, x, y):
                return x
    return -1


@kernel
def _easiest_chain(path, tech, level, levels, graph, T):
    """Fill ``path`` with the shortest chain refuting ``path[0]`` that rates lowest.

    An X-chain of up to ``MAX_FISH_LINKS`` strong links rates by its links' units and a chain
    over almost locked sets by how many it passes through: :func:`_cheapest_walk` compares the
    shortest chains. A longer X-chain and any XY-chain rate as a cycle where their two ends see
    each other and as a forcing chain otherwise: the first chain whose ends do, else the first.
    """
    weak, step = graph.weak, graph.step
    z, words = path[0], weak.shape[1]
    # on_path[lv]: the level-lv nodes of some shortest chain (they lead on to one refuting z)
    on_path = np.zeros((level + 1, words), dtype=np.uint64)
    for j in range(words):
        on_path[level, j] = levels[level, j] & weak[z, j]
    _lead_back(on_path, level, levels, step)
    if tech != XY_CHAIN and (tech != X_CHAIN or level <= MAX_FISH_LINKS):
        _cheapest_walk(path, level, on_path, graph, T.cell_units, tech == X_CHAIN)
    elif not _cycle(path, level, on_path, levels, graph, T.peer_bits):
        _first_chain(path, level, levels, graph)


@kernel
def _lead_back(on_path, level, levels, step):
    """Fill ``on_path[lv]`` for lv below ``level`` with the nodes of ``levels[lv]`` whose step
    reaches ``on_path[lv + 1]``."""
    words = on_path.shape[1]
    for lv in range(level - 1, 0, -1):
        for j in range(words):
            on_path[lv, j] = U0
            m = levels[lv, j]
            while m:
                low = lowest_bit(m)
                m ^= low
                x = j * 64 + bit_index(low)
                for i in range(words):
                    if step[x, i] & on_path[lv + 1, i]:
                        on_path[lv, j] |= low
                        break


@kernel
def _cycle(path, level, on_path, levels, graph, peer_bits):
    """Fill ``path`` with a shortest chain whose two ends (the last true candidate and the first
    false one) are in one cell or see each other, and say whether there is one."""
    weak, strong, linked, step = graph.weak, graph.strong, graph.linked, graph.step
    node_cell = graph.node_cell
    z, words = path[0], weak.shape[1]
    ending = np.zeros((level + 1, words), dtype=np.uint64)  # on_path, for chains ending at y
    for j in range(words):
        m = on_path[level, j]
        while m:
            low = lowest_bit(m)
            m ^= low
            y = j * 64 + bit_index(low)
            ending[level, :] = U0
            ending[level, j] = low
            _lead_back(ending, level, on_path, step)
            # the first false candidates: weakly linked to z, strongly to a first true one
            for i in range(words):
                first = weak[z, i] & linked[i]
                while first:
                    b = lowest_bit(first)
                    first ^= b
                    w = i * 64 + bit_index(b)
                    a, c = node_cell[w], node_cell[y]
                    if a != c and not sees(a, c, peer_bits):
                        continue
                    for k in range(words):
                        firsts = ending[1, k] & strong[w, k]
                        if firsts:
                            x = k * 64 + bit_index(lowest_bit(firsts))
                            _forward(path, w, x, level, ending, graph)
                            return True
    return False


@kernel
def _forward(path, w, x, level, ending, graph):
    """Fill ``path`` from z's weak link to ``w`` and its strong link to ``x``, then at each level
    the lowest node of ``ending`` that the last one's step reaches, joined by the lowest link."""
    path[1], path[2] = w, x
    words = ending.shape[1]
    for lv in range(2, level + 1):
        nxt = -1
        for j in range(words):
            m = ending[lv, j] & graph.step[x, j]
            if m:
                nxt = j * 64 + bit_index(lowest_bit(m))
                break
        path[2 * lv - 1] = _link_between(graph.weak, graph.strong, x, nxt)
        path[2 * lv] = nxt
        x = nxt


@kernel
def _cheapest_walk(path, level, on_path, graph, cell_units, fish):
    """Fill ``path`` with the shortest chain that costs least, trying each (depth first, at
    most ``WALK_BUDGET``: short chains have few). A ``fish`` (an X-chain of at most
    ``MAX_FISH_LINKS`` strong links) costs its :func:`strong_link_rating`, a chain over almost
    locked sets the number of sets it passes through (which names it)."""
    weak, strong, linked, node_cell = graph.weak, graph.strong, graph.linked, graph.node_cell
    words = weak.shape[1]
    trial = path.copy()
    cells = np.empty(2 * level, dtype=np.int64)
    sets = np.empty(2 * level, dtype=np.int64)
    best = np.inf
    floor = STRONG_LINK_BASES[level] if fish else 2.0  # two sets: an ALS-XZ
    # at depth lv the (weak, strong) pair tried is the ordinal pick[lv] among the nodes' links
    pick = np.zeros(level + 1, dtype=np.int64)
    lv, budget = 1, WALK_BUDGET
    while lv >= 1 and budget:
        w, x = _nth_pair(weak, strong, linked, on_path[lv], trial[2 * lv - 2], pick[lv], words)
        if w < 0:  # no more pairs at this depth: back up
            pick[lv] = 0
            lv -= 1
            pick[lv] += 1
            continue
        trial[2 * lv - 1], trial[2 * lv] = w, x
        if lv < level:
            lv += 1
            continue
        budget -= 1
        if fish:
            for k in range(2 * level):
                cells[k] = node_cell[trial[k + 1]]
            cost = strong_link_rating(cells, cell_units)
        else:
            sets[:] = -1
            for k in range(2 * level):
                _note_set(sets, graph.owner[trial[k + 1]])
            cost = 0.0
            for k in range(2 * level):
                cost += sets[k] >= 0
        if cost < best:
            best = cost
            path[:] = trial
            if cost <= floor:
                return
        pick[lv] += 1


@kernel
def _nth_pair(weak, strong, linked, targets, x, nth, words):
    """The ``nth`` (from 0) pair (w, y): w weakly linked to x and linked, y strongly linked to w
    and in ``targets``; (-1, -1) past the last."""
    for j in range(words):
        m = weak[x, j] & linked[j]
        while m:
            low = lowest_bit(m)
            m ^= low
            w = j * 64 + bit_index(low)
            for i in range(words):
                ys = strong[w, i] & targets[i]
                count = popcount(ys)
                if nth < count:
                    while nth:
                        ys ^= lowest_bit(ys)
                        nth -= 1
                    return w, i * 64 + bit_index(lowest_bit(ys))
                nth -= count
    return -1, -1


@kernel
def _note_set(sets, als):
    """Add an ALS number to the distinct ones in ``sets`` (-1 marks free slots)."""
    if als < 0:
        return
    for i in range(sets.shape[0]):
        if sets[i] == als:
            return
        if sets[i] < 0:
            sets[i] = als
            return


@kernel
def _add_node(rec, node_cell, group_cells, x):
    """Add a node's cells to the proof: its cell, or for a node of several cells (a group or an
    almost locked set's cells of a digit; ``node_cell`` = -1 - its row) its row of
    ``group_cells``, a bitset over the cells."""
    if node_cell[x] >= 0:
        add_proof(rec, node_cell[x])
        return
    row = -1 - node_cell[x]
    for j in range(group_cells.shape[1]):
        m = group_cells[row, j]
        while m:
            low = lowest_bit(m)
            m ^= low
            add_proof(rec, j * 64 + bit_index(low))
