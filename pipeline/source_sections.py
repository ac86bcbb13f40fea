"""Sections printed from puzzle files others made (``source`` in a recipe section), not dug.

The file is read and graded as ``pipeline grade`` reads and grades it
(:func:`pipeline.grade.graded_table`: any format it reads, each grid size by the run's bands),
with the section's box shape, so rows of another shape are skipped as invalid, and the
section's variant for rows that do not name theirs, so rows of another variant are skipped as
another variant. The ok puzzles of the section's variant and tier are put in the section's
``order`` by polars, in the graded table's columns;
the run then takes them in that order, a slice at a time, skipping any the catalog or this run
already holds, until it has ``count``: only the slices it looks at become Python rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

import numpy as np
import polars as pl

from pipeline.grade import graded_table
from pipeline.recipe import Recipe, SectionSpec
from pipeline.tasks import OK
from pipeline.variants import is_jigsaw, is_killer

RANKED_COLUMNS = ("puzzle", "solution", "line", "variant", "regions", "cages")


class RankedPuzzles(Sequence[dict[str, Any]]):
    """Ranked puzzles held as columns; an index or a slice gives rows as dicts."""

    def __init__(self, frame: pl.DataFrame) -> None:
        self.frame = frame

    def __len__(self) -> int:
        return self.frame.height

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return self.frame[index].to_dicts()
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self.frame.row(index, named=True)


def ranked_puzzles(
    section: SectionSpec, index: int, recipe: Recipe
) -> tuple[RankedPuzzles, dict[str, int]]:
    """The ok puzzles of ``section.source`` of the section's variant and tier, in its order
    (``puzzle``, ``solution``, ``line``, ``variant``, ``regions``, ``cages``), and counts of the
    file's rows: read, skipped (not ok: invalid, another shape, no or several solutions), of another
    variant and of another tier.

    Orders: ``file`` as written; ``easiest`` / ``hardest`` by score (file order breaks ties);
    ``random`` a shuffle drawn from the run seed and the section's index (``index``).
    Raises :class:`pipeline.grade.UnusableArguments` when the file cannot be read.
    """
    assert section.source is not None and recipe.seed is not None
    # rows that do not name their variant are the section's; a Jigsaw's or Killer's must (their
    # layouts, their cages)
    own = is_jigsaw(section.variant) or is_killer(section.variant)
    plain = None if own else section.variant
    table = graded_table(section.source, recipe.tiers, recipe.parallel.n_jobs, section.box, plain)
    graded = pl.from_arrow(table.select(["status", "tier", "score", *RANKED_COLUMNS]))
    assert isinstance(graded, pl.DataFrame)
    ok = pl.col("status") == OK
    variant = ok & (pl.col("variant") == section.variant)
    matching = variant & (pl.col("tier") == section.tier)
    chosen = graded.lazy().filter(matching)
    if section.order in ("easiest", "hardest"):
        descending = section.order == "hardest"
        chosen = chosen.sort("score", descending=descending, nulls_last=True, maintain_order=True)
    totals = graded.lazy().select(
        pl.len().alias("rows"),
        ok.sum().alias("ok"),
        variant.sum().alias("variant"),
        matching.sum().alias("matching"),
    )
    sums, ranked = pl.collect_all([totals, chosen.select(RANKED_COLUMNS)])
    if section.order == "random":
        seed = np.random.SeedSequence(recipe.seed, spawn_key=(index,))
        ranked = ranked[np.random.default_rng(seed).permutation(ranked.height)]
    rows, ok_rows, variant_rows, matching_rows = sums.row(0)
    counts = {
        "rows": rows,
        "skipped": rows - ok_rows,
        "other_variant": ok_rows - variant_rows,
        "other_tier": variant_rows - matching_rows,
    }
    return RankedPuzzles(ranked), counts
