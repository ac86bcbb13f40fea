"""A puzzle's variant as the pipeline stores it: its ``variant`` (``classic``, ``x``,
``jigsaw+x`` ...) and, for a Jigsaw, its ``regions`` (the layout, one region symbol per cell);
the geometry they make with the box shape, and the canonical key a puzzle's id hashes.

Rows and files written before variants existed have neither column: they read as classic.

The key (``engine.canon.Canonical.key``) is the canonical text for a classic puzzle, as before
variants, so classic ids never change, and for a variant a text that starts with the variant's
name (a Jigsaw's with its canonical layout), so an X puzzle and a classic puzzle with the same
givens have two ids while a disguised copy of either has its original's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.canon import canonical_many
from engine.geometry import CLASSIC, Geometry, geometry, variant_name, variant_parts

#: The columns that give a row's rules in every table the pipeline writes or reads: its variant
#: and a Jigsaw's regions. A file without them (written before variants) is classic.
VARIANT_COLUMNS = ("variant", "regions")


def is_jigsaw(variant: str) -> bool:
    """Whether the variant's regions replace the boxes (each puzzle then has a layout)."""
    return "jigsaw" in variant_parts(variant)


def checked_variant(name: str, box_rows: int, box_cols: int) -> str:
    """The variant's one spelling (:func:`engine.geometry.variant_name`), checked against a grid
    of the box shape (windoku is 9x9 only): ValueError saying what is wrong. A Jigsaw's layouts
    are drawn per puzzle, so only the other parts' units are built here."""
    variant = variant_name(name)
    fixed = "+".join(part for part in variant_parts(variant) if part != "jigsaw") or CLASSIC
    geometry(box_rows, box_cols, fixed)
    return variant


def row_variant(row: Mapping[str, Any]) -> str:
    """A stored row's variant: classic for rows written before variants existed (no column) or
    null."""
    return row.get("variant") or CLASSIC


def row_geometry(row: Mapping[str, Any]) -> Geometry:
    """The geometry of a stored row (``box_rows``, ``box_cols``, ``variant``, ``regions``)."""
    return geometry(
        int(row["box_rows"]), int(row["box_cols"]), row_variant(row), row.get("regions")
    )


def variant_columns(geo: Geometry) -> dict[str, str | None]:
    """The ``variant`` and ``regions`` columns of a row of ``geo``."""
    return {"variant": geo.variant, "regions": geo.regions}


def canonical_keys(puzzles: Sequence[tuple[str, Geometry]]) -> list[str]:
    """The canonical key of each ``(puzzle or full grid, geometry)``, in order, one
    :func:`engine.canon.canonical_many` call per geometry (a Jigsaw's: per layout)."""
    keys: list[str] = [""] * len(puzzles)
    by_grid: dict[Geometry, list[int]] = {}
    for index, (_, geo) in enumerate(puzzles):
        by_grid.setdefault(geo, []).append(index)
    for geo, indices in by_grid.items():
        found = canonical_many([puzzles[i][0] for i in indices], geo)
        for index, key in zip(indices, found, strict=True):
            keys[index] = key
    return keys
