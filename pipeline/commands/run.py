"""``pipeline run``: a whole book from a recipe."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import numpy as np
import typer

import engine
from pipeline.app import app, fail
from pipeline.recipe import RecipeError, load_recipe


@app.command()
def run(
    recipe: Annotated[
        Path,
        typer.Argument(exists=True, dir_okay=False, help="Run recipe, e.g. configs/nightly.toml."),
    ],
    count: Annotated[int, typer.Option(min=1, help="Grids to generate per section.")] = 3,
) -> None:
    """Run a book recipe. For now: generate and print a few solution grids per section."""
    try:
        book = load_recipe(recipe)
    except RecipeError as exc:
        fail(str(exc))
    for index, section in enumerate(book.sections):
        typer.echo(f"# {section.title}: {section.size}x{section.size} ({section.box} boxes)")
        seed = np.random.SeedSequence([book.seed, index])
        for grid in engine.random_grids(count, section.size, seed=seed, box=section.box):
            typer.echo(grid)
