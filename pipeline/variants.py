"""A puzzle's variant as the pipeline stores it: its ``variant`` (``classic``, ``x``,
``jigsaw+x``, ``killer`` ...), for a Jigsaw its ``regions`` (the layout, one region symbol per
cell) and for a Killer its ``cages`` (each ``{"sum": total, "cells": [row-major indices from
0]}``); the geometry they make with the box shape, and the canonical key a puzzle's id hashes.

Rows and files written before variants existed have none of these columns: they read as
classic; files written before Killer have no ``cages`` column: they read as null.

The key (``engine.canon.Canonical.key``) is the canonical text for a classic puzzle, as before
variants, so classic ids never change, and for a variant a text that starts with the variant's
name (a Jigsaw's with its canonical layout), so an X puzzle and a classic puzzle with the same
givens have two ids while a disguised copy of either has its original's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from engine.cages import Cage, cage_name, checked_cages
from engine.canon import canonical_many
from engine.geometry import CLASSIC, Geometry, geometry, variant_name, variant_parts

#: The columns that give a row's rules in every table the pipeline writes or reads: its variant,
#: a Jigsaw's regions and a Killer's cages. A file without them (written before variants) is
#: classic.
VARIANT_COLUMNS = ("variant", "regions", "cages")
#: A cage as a column value: ``{"sum": 23, "cells": [0, 1, 9, 10]}`` (Parquet: a struct).
CageRow = dict[str, Any]


def is_jigsaw(variant: str) -> bool:
    """Whether the variant's regions replace the boxes (each puzzle then has a layout)."""
    return "jigsaw" in variant_parts(variant)


def is_killer(variant: str) -> bool:
    """Whether the variant's grid is split into cages (each puzzle then has its own)."""
    return "killer" in variant_parts(variant)


def checked_variant(name: str, box_rows: int, box_cols: int) -> str:
    """The variant's one spelling (:func:`engine.geometry.variant_name`), checked against a grid
    of the box shape (windoku is 9x9 only): ValueError saying what is wrong. A Jigsaw's layouts
    and a Killer's cages are drawn per puzzle, so only the other parts' units are built here."""
    variant = variant_name(name)
    own = ("jigsaw", "killer")  # drawn per puzzle
    fixed = "+".join(part for part in variant_parts(variant) if part not in own) or CLASSIC
    geometry(box_rows, box_cols, fixed)
    return variant


def row_variant(row: Mapping[str, Any]) -> str:
    """A stored row's variant: classic for rows written before variants existed (no column) or
    null."""
    return row.get("variant") or CLASSIC


def row_geometry(row: Mapping[str, Any]) -> Geometry:
    """The geometry of a stored row (``box_rows``, ``box_cols``, ``variant``, ``regions``,
    ``cages``); ValueError (``engine.cages.InvalidCages`` naming the cage) when its rules do not
    make a grid."""
    box_rows, box_cols = int(row["box_rows"]), int(row["box_cols"])
    cages = row_cages(row.get("cages"), box_rows * box_cols)
    return geometry(box_rows, box_cols, row_variant(row), row.get("regions"), cages)


def row_cages(value: Sequence[Mapping[str, Any]] | None, n: int) -> tuple[Cage, ...] | None:
    """A ``cages`` column value (None for other variants) as the engine's checked cages of an
    n x n grid; ``engine.cages.InvalidCages`` names the cage at fault."""
    if value is None:
        return None
    return checked_cages([(cage["sum"], cage["cells"]) for cage in value], n)


def cages_value(cages: Sequence[Cage] | None) -> list[CageRow] | None:
    """The ``cages`` column value of a geometry's cages (None: not a Killer)."""
    if cages is None:
        return None
    return [{"sum": cage.total, "cells": list(cage.cells)} for cage in cages]


def broken_cage(solution: str, geo: Geometry) -> str | None:
    """The first of a Killer's cages (named as solvers write it) whose cells in the full grid
    ``solution`` do not hold different digits adding up to its sum; None when every cage holds
    (and for other variants). A check apart from the engine's counter."""
    for cage in geo.cages or ():
        digits = [geo.symbols.index(solution[cell]) + 1 for cell in cage.cells]
        if sum(digits) != cage.total or len(set(digits)) != len(digits):
            return cage_name(cage, geo.n)
    return None


def variant_columns(geo: Geometry) -> dict[str, Any]:
    """The ``variant``, ``regions`` and ``cages`` columns of a row of ``geo``."""
    return {"variant": geo.variant, "regions": geo.regions, "cages": cages_value(geo.cages)}


def canonical_keys(puzzles: Sequence[tuple[str, Geometry]]) -> list[str]:
    """The canonical key of each ``(puzzle or full grid, geometry)``, in order, one
    :func:`engine.canon.canonical_many` call per geometry (a Jigsaw's: per layout)."""
    keys: list[str] = [""] * len(puzzles)
    by_grid: dict[Geometry, list[int]] = {}
    for index, (_, geo) in enumerate(puzzles):
        by_grid.setdefault(geo, []).append(index)
    for geo, indices in by_grid.items():
        if is_killer(geo.variant):
            for index in indices:
                keys[index] = killer_key(puzzles[index][0], geo)
            continue
        found = canonical_many([puzzles[i][0] for i in indices], geo)
        for index, key in zip(indices, found, strict=True):
            keys[index] = key
    return keys


def killer_key(puzzle: str, geo: Geometry) -> str:
    """A Killer's canonical key: ``<variant>:<cages>:<layout>:<givens>`` least over the turns and
    mirrors that map the boxes onto boxes (all eight for square boxes, else the four that keep
    rows rows), cages written as ``total=cell.cell...`` in order of their first cell, a Jigsaw's
    layout relabelled by first appearance. Equal for a Killer and its turned or mirrored copy."""
    n = geo.n
    index = np.arange(n * n).reshape(n, n)
    moves = [index, index[::-1], index[:, ::-1], index[::-1, ::-1]]
    if geo.box_rows == geo.box_cols:
        moves += [move.T for move in moves]
    assert geo.cages is not None
    forms = []
    for move in moves:
        where = np.empty(n * n, dtype=np.int64)
        where[move.ravel()] = np.arange(n * n)  # old cell -> new cell
        moved_cages = sorted(
            (sorted(int(where[c]) for c in cage.cells), cage.total) for cage in geo.cages
        )
        text = " ".join(f"{total}={'.'.join(map(str, cells))}" for cells, total in moved_cages)
        givens = "".join(puzzle[c] for c in move.ravel())
        layout = ""
        if geo.regions is not None:
            seen: dict[str, str] = {}
            moved = [geo.regions[c] for c in move.ravel()]
            layout = "".join(seen.setdefault(r, geo.symbols[len(seen)]) for r in moved)
        forms.append(f"{geo.variant}:{text}:{layout}:{givens}")
    return min(forms)
