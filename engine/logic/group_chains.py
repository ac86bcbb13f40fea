"""Chains whose nodes may hold several cells: grouped chains and almost locked sets (ALS).

A node is a digit and a set of cells, true when the digit is in one of them; the chain search of
``engine.logic.chains`` (:func:`~engine.logic.chains.search_with`) runs over these nodes and the
single candidates, and refutes candidates as it does for plain chains.

* A *group* is a digit's cells in a box that also lie in one row or column (two or more). It is
  weakly linked to the digit's cells that see all of it, and strongly to the rest of the digit's
  cells in its box or line when they are one candidate or one group: grouped X-chains (one digit)
  and grouped AICs, which HoDoKu calls grouped nice loops when they close.
* An *almost locked set* is N open cells of one unit holding N+1 digits between them: at most one
  of its digits can be missing from it (two missing would leave N cells N-1 digits). So within
  an ALS, "digit x is in none of its x-cells" makes "digit z is in one of its z-cells" true, for
  any two of its digits: a strong link between its nodes (a digit and the ALS's cells holding
  it). Two nodes of one digit are weakly linked when every cell of one sees every cell of the
  other (the restricted common candidates of two ALS). A chain through two ALS is an ALS-XZ
  (its doubly linked form is found directly: see :func:`_doubly_linked`), through three an
  ALS-XY-wing, through more an ALS chain; the search names each chain it records so.

ALS enumeration is bounded: ALS of up to ``ALS_MAX_CELLS`` cells (``GROUPED_ALS_MAX_CELLS`` as
nodes of the grouped AIC, which searches far more links), and at most ``ALS_MAX_NODES`` nodes in
all (the first ones, in unit order, so the result is deterministic). Six cells find every
ALS-XY-wing and ALS chain of HoDoKu's regression library (five missed one of each); grading
300 of top1465 took about 4 % more CPU for it.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel
from engine.logic.chains import candidate_nodes, chain_links, refute_all, set_bit
from engine.logic.state import (
    AIC,
    ALS_XZ,
    C_STEPS,
    GROUPED_X_CHAIN,
    U0,
    X_CHAIN,
    add_proof,
    add_unit_cells,
    bit,
    bit_index,
    commit,
    digit_cells,
    eliminate,
    lowest_bit,
    mark,
    next_als,
    popcount,
    same_cells,
)

ALS_MAX_CELLS = 6
GROUPED_ALS_MAX_CELLS = 5
ALS_MAX_NODES = 4096
#: Most weak-strong pairs of links of an ALS-XZ and of an ALS-XY-wing: one pair per ALS.
XZ_LEVELS = 2
XY_WING_LEVELS = 3


@kernel
def find_als(cand, placed, pos, T, rec, enabled):
    """The ALS rung, on one node graph: the ALS-XZs (doubly linked ones too), and where there
    is none the ALS-XY-wings, and where there is none of those either the ALS chains, each
    level only when ``enabled`` (switches per technique id). Each step is named by its ALS (a
    level finds the shorter forms too, as it searches chains of at most so many ALS)."""
    xcells, xdigit, owner = _nodes(cand, placed, pos, T, False, ALS_MAX_CELLS)
    count, weak, strong, cells, digits, sets = node_graph(
        cand, placed, pos, T, -1, xcells, xdigit, owner
    )
    steps = rec.counts[C_STEPS]
    if enabled[ALS_XZ]:
        _doubly_linked(rec, cand, count, weak, cells, digits, xcells, owner)
    lengths = np.zeros(3, dtype=np.int64)  # 0: a level not enabled
    for level in range(3):
        if enabled[ALS_XZ + level]:
            lengths[level] = (XZ_LEVELS, XY_WING_LEVELS, cand.shape[0] * T.units.shape[1])[level]
    refute_all(
        rec,
        cand,
        T,
        ALS_XZ,
        count,
        weak,
        strong,
        cells,
        digits,
        xcells,
        sets,
        lengths,
        steps,
        False,
    )


@kernel
def find_grouped(cand, placed, pos, T, rec, tech, with_als, shortest, longest):
    """Record every candidate that a grouped chain of at most ``shortest`` weak-strong pairs
    refutes, then of at most one pair more ... up to ``longest``, while none is found (one node
    graph for every length): GROUPED_X_CHAIN (one digit, links between cells, group nodes) or
    GROUPED_AIC (any links, group nodes, and ALS nodes ``with_als``: HoDoKu's grouped nice
    loops have none by default)."""
    x_chain = tech == GROUPED_X_CHAIN
    sets = GROUPED_ALS_MAX_CELLS if with_als and not x_chain else 0
    xcells, xdigit, owner = _nodes(cand, placed, pos, T, True, sets)
    base = X_CHAIN if x_chain else AIC
    count, weak, strong, cells, digits, sets = node_graph(
        cand, placed, pos, T, base, xcells, xdigit, owner
    )
    lengths = np.arange(shortest, longest + 1)
    since, probe = rec.counts[C_STEPS], shortest < longest
    refute_all(
        rec, cand, T, tech, count, weak, strong, cells, digits, xcells, sets, lengths, since, probe
    )


@kernel
def find_grouped_x_chains(cand, placed, pos, T, rec, work, shortest, longest):
    """:func:`find_grouped` for grouped X-chains of ``shortest`` to ``longest`` pairs, the
    grader's rungs of SE's short ones. A digit's grouped X-chains depend on its open cells
    alone, so ``work`` keeps, per digit, its cells when they last refuted nothing up to some
    length: a later search (the next passes', or the next puzzle's) leaves out a digit whose
    cells have not changed since and refute nothing at ``longest``. The other digits' nodes and
    links are those of the whole graph, in the same order, so the chains found are the same."""
    units, words = T.units, T.peer_bits.shape[1]
    n = units.shape[1]
    known, clear = work.grouped_cells, work.grouped_clear
    cells = np.empty((n, words), dtype=np.uint64)
    digits = U0
    for d in range(n):
        digit_cells(pos, units, d, cells[d])
        if clear[d] < longest or not same_cells(cells[d], known[d]):
            digits |= bit(d)
    if digits == U0:
        return
    layers = pos.copy()
    for d in range(n):
        if not digits & bit(d):
            layers[d, :] = U0
    since = rec.counts[C_STEPS]
    find_grouped(cand & digits, placed, layers, T, rec, GROUPED_X_CHAIN, False, shortest, longest)
    if rec.counts[C_STEPS] > since:
        return  # the digits of no step may refute something just past the length found
    for d in range(n):
        if digits & bit(d):
            known[d] = cells[d]
            clear[d] = longest


@kernel
def _nodes(cand, placed, pos, T, with_groups, max_cells):
    """The nodes of several cells, groups first then ALS of up to ``max_cells`` cells (0: none):
    (cells bitsets, digits, owners: -1 for a group, else the ALS's number)."""
    cwords = T.peer_bits.shape[1]
    none = np.zeros(0, dtype=np.int64)
    empty = np.zeros((0, cwords), dtype=np.uint64)
    groups = _groups(pos, T, empty, none, 0) if with_groups else 0
    sets = _scan(cand, placed, T, max_cells, empty, none, none, 0) if max_cells else 0
    xcells = np.zeros((groups + sets, cwords), dtype=np.uint64)
    xdigit = np.zeros(groups + sets, dtype=np.int64)
    owner = np.full(groups + sets, -1, dtype=np.int64)
    if with_groups:
        _groups(pos, T, xcells, xdigit, 0)
    if max_cells:
        _scan(cand, placed, T, max_cells, xcells, xdigit, owner, groups)
    return xcells, xdigit, owner


@kernel
def _groups(pos, T, xcells, xdigit, first):
    """Write the groups' nodes from row ``first`` on when there is room; returns how many."""
    units, inter, inter_masks = T.units, T.inter, T.inter_masks
    e = first
    for d in range(units.shape[1]):
        for i in range(inter.shape[0]):
            box = inter[i, 0]
            m = pos[d, box] & inter_masks[i, 0]
            if popcount(m) < 2:
                continue
            if e < xdigit.shape[0]:
                xdigit[e] = d
                while m:
                    low = lowest_bit(m)
                    m ^= low
                    cell = units[box, bit_index(low)]
                    xcells[e, cell >> 6] |= bit(cell & 63)
            e += 1
    return e - first


@kernel
def _scan(cand, placed, T, max_cells, xcells, xdigit, owner, first):
    """Find the ALS of up to ``max_cells`` cells, unit by unit, and write their nodes (digit,
    cells holding it, ALS number) from row ``first`` on when there is room; returns how many
    (up to ALS_MAX_NODES).

    An ALS lying in two units is taken once: one cell from the rows only, and none from a box
    whose cells all lie in one row or column.
    """
    units, cell_units = T.units, T.cell_units
    n = units.shape[1]
    cells = np.empty(n, dtype=np.int64)
    pick = np.empty(max_cells, dtype=np.int64)
    unions = np.zeros(max_cells + 1, dtype=np.uint64)  # digits of the first i picked cells
    nodes, sets = 0, 0
    room = xdigit.shape[0]
    for u in range(3 * n):
        k = 0
        for i in range(n):
            if placed[units[u, i]] == 0:
                cells[k] = units[u, i]
                k += 1
        for size in range(1 if u < n else 2, min(max_cells, k - 1) + 1):
            pick[0] = -1
            digits, depth = next_als(cand, cells, k, size, pick, unions, 0)
            while depth >= 0:
                if not (u >= 2 * n and _in_line(cells, pick, size, cell_units)):
                    if nodes + size + 1 > ALS_MAX_NODES:
                        return nodes
                    if first + nodes + size + 1 <= room:
                        at = first + nodes
                        _write(cand, cells, pick, size, digits, sets, at, xcells, xdigit, owner)
                    nodes += size + 1
                    sets += 1
                digits, depth = next_als(cand, cells, k, size, pick, unions, depth)
    return nodes


@kernel
def _write(cand, cells, pick, size, digits, als, first, xcells, xdigit, owner):
    """Write one ALS's nodes, one per digit, from row ``first`` on."""
    e = first
    while digits:
        low = lowest_bit(digits)
        digits ^= low
        xdigit[e] = bit_index(low)
        owner[e] = als
        for i in range(size):
            cell = cells[pick[i]]
            if cand[cell] & low:
                xcells[e, cell >> 6] |= bit(cell & 63)
        e += 1


@kernel
def _in_line(cells, pick, size, cell_units):
    """True when the picked cells all lie in one row or one column."""
    for k in range(2):
        same = True
        for i in range(1, size):
            if cell_units[cells[pick[i]], k] != cell_units[cells[pick[0]], k]:
                same = False
        if same:
            return True
    return False


@kernel
def node_graph(cand, placed, pos, T, base, xcells, xdigit, owner):
    """The links of the candidates and further nodes: node e is digit ``xdigit[e]`` in one of
    the cells of the bitset ``xcells[e]``; ``owner[e]`` is -1 for a group, else the almost
    locked set it belongs to (each ALS's nodes in a row, ALS numbered from 0). Candidates link
    among themselves as in chains of kind ``base`` (X_CHAIN or AIC; -1: not at all).

    Returns (candidates, weak, strong, cell of each node, digit of each node, ALS of each
    node): the candidates come first, in the order of ``candidate_nodes``, then the others.
    """
    n = T.units.shape[1]
    node_cell, node_digit, node_of = candidate_nodes(cand, placed, n)
    count, extra = node_cell.shape[0], xdigit.shape[0]
    total = count + extra
    words = (total + 63) // 64
    weak = np.zeros((total, words), dtype=np.uint64)
    strong = np.zeros((total, words), dtype=np.uint64)
    if base >= 0:
        chain_links(cand, placed, pos, T, base, U0, node_cell, node_digit, node_of, weak, strong)
    _node_links(pos, T, count, node_of, xcells, xdigit, owner, weak, strong)
    cells = np.empty(total, dtype=np.int64)
    digits = np.empty(total, dtype=np.int64)
    sets = np.full(total, -1, dtype=np.int64)
    cells[:count] = node_cell
    digits[:count] = node_digit
    for e in range(extra):
        digits[count + e] = xdigit[e]
        sets[count + e] = owner[e]
        size, last = 0, -1
        for j in range(xcells.shape[1]):
            size += popcount(xcells[e, j])
            if xcells[e, j]:
                last = j * 64 + bit_index(lowest_bit(xcells[e, j]))
        cells[count + e] = last if size == 1 else -1 - e  # see chains._add_node
    return count, weak, strong, cells, digits, sets


@kernel
def _node_links(pos, T, count, node_of, xcells, xdigit, owner, weak, strong):
    """The links of the nodes of several cells (node ``count + e`` for row e of ``xcells``).

    Weak: with the digit's candidates and nodes whose cells all see all of the node's cells.
    Strong: within an almost locked set, between any two of its digits (both missing would
    leave its cells one digit short); for a group, with the rest of the digit's cells in a
    unit that holds the group, when they are one candidate or one group.
    """
    units, peer_bits = T.units, T.peer_bits
    n, cwords, ncells = units.shape[1], peer_bits.shape[1], peer_bits.shape[0]
    holders = np.zeros((n, cwords), dtype=np.uint64)
    for d in range(n):
        digit_cells(pos, units, d, holders[d])
    # the nodes bucketed by digit and first cell (a counting sort that keeps node order), so a
    # node meets only the nodes that may lie in the cells it sees, not all of its digit's
    extra = xdigit.shape[0]
    start = np.zeros(n * ncells + 1, dtype=np.int64)
    key = np.empty(extra, dtype=np.int64)
    for e in range(extra):
        key[e] = xdigit[e] * ncells + _first_cell(xcells[e])
        start[key[e] + 1] += 1
    for k in range(n * ncells):
        start[k + 1] += start[k]
    order = np.empty(extra, dtype=np.int64)
    filled = start[:-1].copy()
    for e in range(extra):
        order[filled[key[e]]] = e
        filled[key[e]] += 1
    seen = np.empty(cwords, dtype=np.uint64)
    for e in range(extra):
        d, x = xdigit[e], count + e
        seen[:] = ~U0
        for j in range(cwords):
            m = xcells[e, j]
            while m:
                low = lowest_bit(m)
                m ^= low
                for i in range(cwords):
                    seen[i] &= peer_bits[j * 64 + bit_index(low), i]
        for j in range(cwords):
            m = seen[j] & holders[d, j]
            while m:
                low = lowest_bit(m)
                m ^= low
                cell = j * 64 + bit_index(low)
                y = node_of[cell * n + d]
                set_bit(weak, x, y)
                set_bit(weak, y, x)
                for r in range(start[d * ncells + cell], start[d * ncells + cell + 1]):
                    f = order[r]  # a later node of the digit that starts in a cell e sees
                    if f <= e:
                        continue
                    inside = True
                    for i in range(cwords):
                        if xcells[f, i] & ~seen[i]:
                            inside = False
                    if inside:
                        set_bit(weak, x, count + f)
                        set_bit(weak, count + f, x)
        if owner[e] < 0:
            _group_strong(pos, T, count, node_of, xcells, xdigit, owner, e, start, order, strong)
        f = e + 1
        while owner[e] >= 0 and f < extra and owner[f] == owner[e]:  # its ALS's other nodes
            set_bit(strong, x, count + f)
            set_bit(strong, count + f, x)
            f += 1


@kernel
def _first_cell(cells):
    """The lowest cell of the bitset ``cells`` (-1 for none)."""
    for j in range(cells.shape[0]):
        if cells[j]:
            return j * 64 + bit_index(lowest_bit(cells[j]))
    return -1


@kernel
def _group_strong(pos, T, count, node_of, xcells, xdigit, owner, e, start, order, strong):
    """Group e's strong links: in each unit holding it, to the digit's other cells there when
    they are one candidate or exactly another group (found in the bucket of its digit and first
    cell: ``start`` and ``order`` as :func:`_node_links` makes them)."""
    units, cell_units, cwords = T.units, T.cell_units, T.peer_bits.shape[1]
    n, d, x = units.shape[1], xdigit[e], count + e
    rest = np.empty(cwords, dtype=np.uint64)
    first = _first_cell(xcells[e])
    for k in range(3):
        u = cell_units[first, k]
        within = True  # does unit u hold every cell of the group?
        for j in range(cwords):
            m = xcells[e, j]
            while m:
                low = lowest_bit(m)
                m ^= low
                if cell_units[j * 64 + bit_index(low), k] != u:
                    within = False
        if not within:
            continue
        rest[:] = U0
        add_unit_cells(pos, units, d, u, rest)
        size, last = 0, -1
        for j in range(cwords):
            rest[j] &= ~xcells[e, j]
            size += popcount(rest[j])
            if rest[j]:
                last = j * 64 + bit_index(lowest_bit(rest[j]))
        if size == 1:
            y = node_of[last * n + d]
            set_bit(strong, x, y)
            set_bit(strong, y, x)
        elif size > 1:
            bucket = d * cell_units.shape[0] + _first_cell(rest)
            for r in range(start[bucket], start[bucket + 1]):
                f = order[r]
                if owner[f] < 0:
                    same = True
                    for j in range(cwords):
                        if xcells[f, j] != rest[j]:
                            same = False
                    if same:
                        set_bit(strong, x, count + f)
                        set_bit(strong, count + f, x)


@kernel
def _doubly_linked(rec, cand, count, weak, cells, digits, xcells, owner):
    """Doubly linked ALS-XZ: two ALS with two restricted common digits x and y (each in at most
    one of them) hold every other digit of theirs: one missing from A would leave A both x and
    y, so B neither. Those digits leave the cells that see all their cells in the ALS (the
    chain search would need a third pair of links, back into the first ALS)."""
    extra = owner.shape[0]
    first = np.zeros(owner[extra - 1] + 2 if extra else 1, dtype=np.int64)  # ALS -> first node
    for e in range(extra):
        first[owner[e] + 1] = e + 1
    union = np.empty(xcells.shape[1], dtype=np.uint64)
    common = np.zeros(first.shape[0], dtype=np.uint64)  # per later ALS: restricted commons
    for a in range(first.shape[0] - 1):
        common[:] = U0
        for x in range(count + first[a], count + first[a + 1]):
            for j in range(weak.shape[1]):
                m = weak[x, j]
                while m:
                    low = lowest_bit(m)
                    m ^= low
                    y = j * 64 + bit_index(low)
                    if y >= count and owner[y - count] > a:
                        common[owner[y - count]] |= bit(digits[x])
        for b in range(a + 1, first.shape[0] - 1):
            if popcount(common[b]) < 2:
                continue
            start = mark(rec)
            found = U0
            union[:] = U0
            for e in range(first[a], first[b + 1]):
                if first[a + 1] <= e < first[b]:
                    continue  # the ALS between a and b
                found |= bit(digits[count + e])
                for j in range(xcells.shape[1]):
                    union[j] |= xcells[e, j]
                if common[b] & bit(digits[count + e]):
                    continue
                for j in range(weak.shape[1]):
                    m = weak[count + e, j]
                    while m:
                        low = lowest_bit(m)
                        m ^= low
                        y = j * 64 + bit_index(low)
                        if y < count:
                            eliminate(rec, cand, cells[y], digits[y])
            for j in range(union.shape[0]):
                m = union[j]
                while m:
                    low = lowest_bit(m)
                    m ^= low
                    add_proof(rec, j * 64 + bit_index(low))
            commit(rec, start, ALS_XZ, 2 * XY_WING_LEVELS + 1, found)
