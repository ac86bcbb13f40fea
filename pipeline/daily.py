"""Daily seeds: a recipe without ``seed`` makes a new book each calendar day.

The day is today in the recipe's ``timezone`` (UTC by default) unless ``pipeline run --date``
pins it. The run seed is a hash of the date and the recipe's content
(:func:`pipeline.recipe.recipe_hash`), so the same recipe on the same day finds the same run
folder again and resumes it, the next day digs a new book (the catalog keeps its puzzles apart
from every earlier book's), and two recipes never share a day's seed.
"""

from __future__ import annotations

import dataclasses
import hashlib
from datetime import date, datetime
from zoneinfo import ZoneInfo

from pipeline.recipe import Recipe, RecipeError, recipe_hash

SEED_BYTES = 8  # of the hash, less its top bit: a seed that fits the store's int64 column


def today(timezone: str) -> date:
    """The calendar day now in ``timezone``."""
    return datetime.now(ZoneInfo(timezone)).date()


def daily_seed(recipe: Recipe, day: date) -> int:
    """The run seed of ``recipe`` (whose seed is left to the run) on ``day``."""
    digest = hashlib.sha256(f"{day.isoformat()}:{recipe_hash(recipe)}".encode()).digest()
    return int.from_bytes(digest[:SEED_BYTES], "big") >> 1


def with_run_seed(recipe: Recipe, day: date | None = None) -> tuple[Recipe, date | None]:
    """The recipe with the seed its run uses, and the day that seed comes from (None when the
    recipe or ``--seed`` fixes it; a ``day`` given then is an error, as it would change nothing).
    """
    if recipe.seed is not None:
        if day is not None:
            raise RecipeError(
                f"{recipe.source}: --date picks a daily seed, but the seed is fixed at "
                f"{recipe.seed}; leave seed out of the recipe (and --seed off) for a daily book"
            )
        return recipe, None
    day = day or today(recipe.timezone)
    return dataclasses.replace(recipe, seed=daily_seed(recipe, day)), day
