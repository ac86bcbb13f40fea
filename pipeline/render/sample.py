"""Sample books for previews, tests and the benchmark: random grids with cells blanked at random.

These puzzles are not proper Sudoku (nothing checks uniqueness) and their ``passes`` are made up;
they exercise every printing path without waiting for the digger and the grader. Classic grids
come from the template construction (instant at any size); a variant's from the engine's search
on its geometry, a Jigsaw's on a random layout of its own, a Killer's with random cages over its
solution (:func:`sample_cages`) and no givens.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

import engine
from engine.cages import Cage
from engine.geometry import CLASSIC, Geometry, geometry_for, variant_name, without_cages
from engine.killer import random_cages
from engine.layouts import random_layout
from pipeline.render.book import Book, BookPuzzle, Section
from pipeline.variants import is_jigsaw, is_killer

SAMPLE_BLANKS = 0.55  # fraction of cells blanked
SAMPLE_CAGE_LARGEST = 5  # a sample Killer's cages have 1 to this many cells
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
    """The grid of a sample puzzle, without a Killer's cages (they need its solution): a
    Jigsaw gets a random layout of its own."""
    plain = without_cages(variant_name(variant))
    if is_jigsaw(plain):
        return random_layout(size, seed=seed, variant=plain)
    return geometry_for(size).with_variant(plain)


def sample_cages(solution: str, geo: Geometry, seed: int) -> tuple[Cage, ...]:
    """Random cages over a full grid (``engine.killer.random_cages``), of 1 to
    SAMPLE_CAGE_LARGEST cells each, sizes drawn alike."""
    sizes = dict.fromkeys(range(1, SAMPLE_CAGE_LARGEST + 1), 1.0)
    return random_cages(solution, seed=[seed, geo.n, 1], box=geo, sizes=sizes)


def sample_puzzle(size: int, seed: int, tier: str = "easy", variant: str = CLASSIC) -> BookPuzzle:
    """A random solution grid with cells blanked (a Killer's all, its cages drawn over it)."""
    geo = sample_geometry(size, variant, seed)
    if geo.classic:
        solution = engine.random_grid(size, seed=seed, method="template")
    else:
        solution = engine.random_grid(seed=seed, box=geo)
    if is_killer(variant_name(variant)):
        geo = geo.with_variant(variant, geo.regions, sample_cages(solution, geo, seed))
    rng = np.random.default_rng([seed, size])
    blank = rng.random(geo.ncells) < (1.0 if geo.cages else SAMPLE_BLANKS)
    givens = "".join("." if hole else symbol for symbol, hole in zip(solution, blank, strict=True))
    passes = np.where(blank, rng.integers(1, SAMPLE_PASSES + 1, geo.ncells), 0)
    drawn = f"{givens}{geo.cages or ''}".encode()  # a Killer's givens are all blank
    digest = hashlib.blake2b(drawn, digest_size=ID_HEX_DIGITS // 2).hexdigest()
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
        cages=geo.cages,
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
