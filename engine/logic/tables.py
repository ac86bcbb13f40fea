"""The finders' tables for a geometry (:class:`engine.logic.state.Tables`): unit positions,
crossings of units, peer bitsets and a Killer's cage tables and sum groups. Built once per
geometry (a Jigsaw book builds them once per puzzle, a Killer dig once per cage layout); the
finders only read them.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from engine.cage_arrays import cage_arrays, peer_bitsets
from engine.cages import combinations
from engine.geometry import Geometry, per_geometry
from engine.logic.killer import cage_sum_groups, sum_groups
from engine.logic.state import Tables


@per_geometry
def tables(geo: Geometry) -> Tables:
    """The finders' tables for a geometry (cached: geometries are shared). A Killer's units are
    its grid's without the cages, and so are their tables: only the peers and the cage tables
    are built for each layout (:func:`layout_tables`)."""
    n = geo.n
    if n > 64:
        raise ValueError(f"the logic solver handles grids up to 64x64, not {n}x{n}")
    if geo.cages:
        return _caged(geo.uncaged, geo.cage_of, geo.cage_cells, geo.cage_total, geo.peers)
    units = np.ascontiguousarray(geo.units)
    cell_units = np.ascontiguousarray(geo.cell_units)
    where = np.zeros((len(units), geo.ncells), dtype=np.int64)  # position of a cell in a unit
    for u, cells in enumerate(units):
        where[u, cells] = np.arange(n)
    unit_pos = where[cell_units, np.arange(geo.ncells)[:, None]].astype(np.int32)
    inter = [(box, line) for box in range(2 * n, 3 * n) for line in range(2 * n)]
    extra = [(e, u) for e in range(3 * n, len(units)) for u in range(len(units)) if u != e]
    inter, inter_masks = _crossings(units, where, inter)
    cross, cross_masks = _crossings(units, where, extra, least=2)
    combos, counts = _combination_tables(0)
    return Tables(
        units=units,
        cell_units=cell_units,
        peers=np.ascontiguousarray(geo.peers),
        unit_pos=unit_pos,
        inter=inter,
        inter_masks=inter_masks,
        cross=np.concatenate([inter, cross]) if len(cross) else inter,
        cross_masks=np.concatenate([inter_masks, cross_masks]) if len(cross) else inter_masks,
        peer_bits=peer_bitsets(geo.peers),
        cage_of=np.ascontiguousarray(geo.cage_of),
        cage_cells=np.ascontiguousarray(geo.cage_cells),
        cage_total=np.ascontiguousarray(geo.cage_total),
        combos=combos,
        combo_count=counts,
        **sum_groups(geo),
    )


def layout_tables(under: Geometry, labels: np.ndarray, totals: np.ndarray) -> Tables:
    """The tables of the Killer whose cages ``labels`` draws over the grid ``under`` (a cage
    label per cell, int64; ``totals[label]`` its sum): what :func:`tables` gives that Killer's
    Geometry, without making one (a Killer dig grades several layouts a puzzle, and a Geometry
    costs more than a grading)."""
    arrays = cage_arrays(under.peers, labels, totals)
    for array in arrays:  # read-only, as a Geometry's: the kernels are typed on it
        array.setflags(write=False)
    return _caged(under, *arrays)


def _caged(
    under: Geometry,
    cage_of: np.ndarray,
    cage_cells: np.ndarray,
    cage_total: np.ndarray,
    peers: np.ndarray,
) -> Tables:
    """The grid's tables with a Killer's cages (``engine.cage_arrays``) and the peers they make
    (``engine.logic.killer`` builds the sum groups)."""
    if under.n > 9:
        raise ValueError(f"the logic solver handles Killers up to 9x9, not {under.n}x{under.n}")
    combos, counts = _combination_tables(under.n)
    return tables(under)._replace(
        peers=peers,
        peer_bits=peer_bitsets(peers),
        cage_of=cage_of,
        cage_cells=cage_cells,
        cage_total=cage_total,
        combos=combos,
        combo_count=counts,
        **cage_sum_groups(under, cage_of, cage_cells, cage_total),
    )


@cache
def _combination_tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``combos[size, total]``, the digit sets of ``size`` digits 1..n adding up to ``total``
    (padded with 0), and ``counts[size, total]`` how many (1x1 tables of nothing for n = 0).
    One pair per grid size, shared by every Killer of that size: the kernels only read them."""
    top = n * (n + 1) // 2
    combos = np.zeros((n + 1, top + 1, 12 if n else 1), dtype=np.uint64)
    counts = np.zeros(combos.shape[:2], dtype=np.int32)
    for size in range(1, n + 1):
        for total in range(top + 1):
            sets = combinations(size, total, n)
            combos[size, total, : len(sets)] = sets
            counts[size, total] = len(sets)
    return combos, counts


def _crossings(
    units: np.ndarray, where: np.ndarray, pairs: list[tuple[int, int]], least: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of units sharing at least ``least`` cells, with the shared cells as positions
    in each unit (rows of ``inter`` and ``inter_masks``). Vectorised: a Jigsaw book builds these
    tables once per puzzle."""
    if not pairs:
        return np.zeros((0, 2), dtype=np.int32), np.zeros((0, 2), dtype=np.uint64)
    member = np.zeros(where.shape, dtype=bool)
    member[np.arange(len(units))[:, None], units] = True
    # bit of each cell's position in each unit (0 outside it): shared cells' bits add up to a mask
    position_bit = np.where(member, np.left_shift(np.uint64(1), where.astype(np.uint64)), 0)
    first, second = np.array(pairs, dtype=np.int64).T
    shared = member[first] & member[second]
    kept = shared.sum(axis=1) >= least
    first, second, shared = first[kept], second[kept], shared[kept]
    masks = np.stack(
        [(shared * position_bit[first]).sum(axis=1), (shared * position_bit[second]).sum(axis=1)],
        axis=1,
    ).astype(np.uint64)
    return np.stack([first, second], axis=1).astype(np.int32), masks
