"""Sections printed from puzzle files others made (``source`` in a recipe section), not dug.

The file is read and graded as ``pipeline grade`` reads and grades it
(:func:`pipeline.grade.graded_table`: any format it reads, each grid size by the run's bands),
with the section's box shape, so rows of another shape are skipped as invalid. The ok puzzles of
the section's tier are put in the section's ``order``; the run then takes them in that order,
skipping any the catalog or this run already holds, until it has ``count``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.grade import graded_table
from pipeline.recipe import Recipe, SectionSpec
from pipeline.tasks import OK


def ranked_puzzles(
    section: SectionSpec, index: int, recipe: Recipe
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The ok puzzles of ``section.source`` in the section's tier, in its order (``puzzle``,
    ``solution``, ``line``), and counts of the file's rows: read, skipped (not ok: invalid,
    another shape, no or several solutions) and of another tier.

    Orders: ``file`` as written; ``easiest`` / ``hardest`` by score (file order breaks ties);
    ``random`` a shuffle drawn from the run seed and the section's index (``index``).
    Raises :class:`pipeline.grade.UnusableArguments` when the file cannot be read.
    """
    assert section.source is not None and recipe.seed is not None
    table = graded_table(section.source, recipe.tiers, recipe.parallel.n_jobs, section.box)
    ok = pc.equal(table.column("status"), OK)
    graded = table.filter(ok)
    matching = graded.filter(pc.equal(graded.column("tier"), section.tier))
    score = matching.column("score").to_numpy()
    if section.order == "easiest":
        order = np.argsort(score, kind="stable")
    elif section.order == "hardest":
        order = np.argsort(-score, kind="stable")
    elif section.order == "random":
        seed = np.random.SeedSequence(recipe.seed, spawn_key=(index,))
        order = np.random.default_rng(seed).permutation(len(score))
    else:
        order = np.arange(len(score))
    ranked = matching.select(["puzzle", "solution", "line"]).take(pa.array(order, pa.int64()))
    counts = {
        "rows": table.num_rows,
        "skipped": table.num_rows - graded.num_rows,
        "other_tier": graded.num_rows - matching.num_rows,
    }
    return ranked.to_pylist(), counts
