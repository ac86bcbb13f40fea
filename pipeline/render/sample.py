"""Sample books for previews, tests and the benchmark: random grids with cells blanked at random.

These puzzles are not proper Sudoku (nothing checks uniqueness) and their ``passes`` are made up;
they exercise every printing path without waiting for the digger and the grader.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

import engine
from engine.geometry import geometry_for
from pipeline.render.book import Book, BookPuzzle, Section

SAMPLE_BLANKS = 0.55  # fraction of cells blanked
SAMPLE_PASSES = 6  # made-up passes run 1..SAMPLE_PASSES
ID_HEX_DIGITS = 16


@dataclass(frozen=True)
class SampleSection:
    """``count`` puzzles of ``size`` x ``size``, ``layout`` to a page, labelled ``tier``."""

    tier: str
    size: int
    layout: int
    count: int


def sample_puzzle(size: int, seed: int, tier: str = "easy") -> BookPuzzle:
    """A random solution grid (template construction: instant at any size) with cells blanked."""
    geo = geometry_for(size)
    solution = engine.random_grid(size, seed=seed, method="template")
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
            sample_puzzle(spec.size, seed=seed * 1_000_003 + index * 10_007 + k, tier=spec.tier)
            for k in range(spec.count)
        ]
        built.append(Section(spec.tier.capitalize(), spec.tier, spec.layout, puzzles))
    return Book(title, author, built, about)
