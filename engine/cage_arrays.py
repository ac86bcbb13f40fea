"""A Killer's cage arrays and peers from a labelling of its cells, in one kernel.

A Killer's :class:`engine.geometry.Geometry` and the cage layouts a Killer dig grades (which get
no Geometry: a dig tries several a puzzle, and a Geometry costs more than grading one) read their
arrays from here alike, so the two cannot differ.
"""

from __future__ import annotations

import numpy as np

from engine.jit import kernel


@kernel
def cage_arrays(under_peers, labels, totals):
    """(cage_of, cage_cells, cage_total, peers) of the cages that ``labels`` makes (a cage label
    per cell; ``totals[label]`` its sum) over a grid whose peers are ``under_peers``: cages
    numbered by their first cell, as ``engine.cages.checked_cages`` orders them; each cage's
    cells in order, padded with -1 to the largest; each cell's peers, the grid's and its cage
    mates, in order and padded by repeating the first (as ``Geometry.peers``)."""
    ncells = labels.shape[0]
    index = np.full(totals.shape[0], -1, dtype=np.int64)
    cage_of = np.empty(ncells, dtype=np.int32)
    sizes = np.zeros(ncells, dtype=np.int64)
    ncages = 0
    for c in range(ncells):
        label = labels[c]
        if index[label] < 0:
            index[label] = ncages
            ncages += 1
        cage_of[c] = index[label]
        sizes[index[label]] += 1
    largest = sizes[:ncages].max()
    cage_cells = np.full((ncages, largest), -1, dtype=np.int32)
    cage_total = np.empty(ncages, dtype=np.int32)
    for label in range(totals.shape[0]):
        if index[label] >= 0:
            cage_total[index[label]] = totals[label]
    filled = np.zeros(ncages, dtype=np.int64)
    for c in range(ncells):
        k = cage_of[c]
        cage_cells[k, filled[k]] = c
        filled[k] += 1
    same = np.zeros((ncells, ncells), dtype=np.bool_)
    counts = np.zeros(ncells, dtype=np.int64)
    for c in range(ncells):
        for p in under_peers[c]:
            same[c, p] = True
        for p in cage_cells[cage_of[c]]:
            if p >= 0 and p != c:
                same[c, p] = True
        counts[c] = same[c].sum()
    peers = np.empty((ncells, counts.max()), dtype=np.int32)
    for c in range(ncells):
        k = 0
        for p in range(ncells):
            if same[c, p]:
                peers[c, k] = p
                k += 1
        peers[c, k:] = peers[c, 0]
    return cage_of, cage_cells, cage_total, peers


@kernel
def peer_bitsets(peers):
    """Each cell's peers (a padded ``peers`` table) as a bitset over the cells, 64 a word."""
    ncells = peers.shape[0]
    bits = np.zeros((ncells, (ncells + 63) // 64), dtype=np.uint64)
    for c in range(ncells):
        for p in peers[c]:
            bits[c, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    return bits
