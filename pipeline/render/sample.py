"""Sample books for previews, tests and the benchmark: random grids with cells blanked at random.

These puzzles are not proper Sudoku (nothing checks uniqueness) and their ``passes`` are made up;
they exercise every printing path without waiting for the digger and the grader. Classic grids
come from the template construction (instant at any size); a variant's from the engine's search
on its geometry, a Jigsaw's on a random layout of its own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

import engine
from engine.geometry import CLASSIC, Geometry, geometry_for, variant_name, variant_parts
from engine.layouts import random_layout
from pipeline.render.book import Book, BookPuzzle, Section

SAMPLE_BLANKS = 0.55  # fraction of cells blanked
SAMPLE_PASSES = 6  # made-up passes run 1..SAMPLE_PASSES
ID_HEX_DIGITS = 16


@dataclass(frozen=True)
class SampleSection:
    """``count`` puzzles of ``size`` x ``size`` and ``variant``, ``layout`` to a page, labelled
    ``tier``."""

    tier: str
    size: int
    layout: int
    count: int
    variant: str = CLASSIC


def sample_geometry(size: int, variant: str, seed: int) -> Geometry:
    """The grid of a sample puzzle: a Jigsaw gets a random layout of its own."""
    variant = variant_name(variant)
    if "jigsaw" in variant_parts(variant):
        return random_layout(size, seed=seed, variant=variant)
    return geometry_for(size).with_variant(variant)


def sample_puzzle(size: int, seed: int, tier: str = "easy", variant: str = CLASSIC) -> BookPuzzle:
    """A random solution grid with cells blanked."""
    geo = sample_geometry(size, variant, seed)
    if geo.classic:
        solution = engine.random_grid(size, seed=seed, method="template")
    else:
        solution = engine.random_grid(seed=seed, box=geo)
    rng = np.random.default_rng([seed, size])
    blank = rng.random(geo.ncells) < SAMPLE_BLANKS
    givens = "".join("." if hole else symbol for symbol, hole in zip(solution, blank, strict=True))
    passes = np.where(blank, rng.integers(1, SAMPLE_PASSES + 1, geo.ncells), 0)
    digest = hashlib.blake2b(givens.encode(), digest_size=ID_HEX_DIGITS // 2).hexdigest()
    return BookPuzzle(
        id=digest,
        givens=givens,
        solution=solution,
        box_rows=geo.box_rows,
        box_cols=geo.box_cols,
        tier=tier,
        score=float(rng.random()),
        passes=tuple(passes.tolist()),
        variant=geo.variant,
        regions=geo.regions,
    )


def sample_book(
    sections: Sequence[SampleSection],
    *,
    seed: int = 0,
    title: str = "Sample Sudoku",
    author: str = "sudoku-pipeline",
    about: str | None = None,
) -> Book:
    """A book with one section per :class:`SampleSection`, reproducible from ``seed``."""
    built = []
    for index, spec in enumerate(sections):
        puzzles = [
            sample_puzzle(
                spec.size,
                seed=seed * 1_000_003 + index * 10_007 + k,
                tier=spec.tier,
                variant=spec.variant,
            )
            for k in range(spec.count)
        ]
        built.append(Section(spec.tier.capitalize(), spec.tier, spec.layout, puzzles))
    return Book(title, author, built, about)
