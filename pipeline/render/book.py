"""What goes into a book: puzzles, sections and the book itself, checked before any page is drawn.

Puzzles arrive in the engine's text form (one string of n*n symbols, ``.`` for a blank) with their
box shape and variant (a Jigsaw with its regions, a Killer with its cages; rows from files older
than variants have none of these columns and print as classic); :func:`book_from_rows` builds a
book from store rows (plain mappings) grouped by tier.
Every check raises :class:`BookError` naming the puzzle, section or row at fault, because a
half-printed book is worse than none.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import NoReturn

import numpy as np

import engine
from engine.cages import Cage
from engine.geometry import CLASSIC, Geometry, geometry
from pipeline.errors import UserError
from pipeline.variants import row_cages

LAYOUTS = (1, 2, 4, 6)  # puzzles per page a section may ask for
SHORT_ID_LENGTH = 8  # characters of the id printed beside each puzzle
ROW_KEYS = ("id", "givens", "solution", "box_rows", "box_cols", "tier")


class BookError(UserError):
    """The book's content is inconsistent: the message names the puzzle, section or row."""


@dataclass(frozen=True)
class PuzzleGrids:
    """A puzzle's parsed values (0 = blank) and its solution, row-major, read-only."""

    geometry: Geometry
    givens: np.ndarray
    solution: np.ndarray


@dataclass(frozen=True)
class BookPuzzle:
    """One puzzle as printed: its givens, its solution, and what the answer key may shade.

    ``passes`` gives, per cell, the logic pass in which the cell was solved (0 for a given).
    ``variant`` is ``classic`` or a name such as ``jigsaw+x``; ``regions`` a Jigsaw's layout, one
    symbol per cell naming its region, ``cages`` a Killer's cages as
    :func:`engine.cages.checked_cages` gives them (None for other variants).
    """

    id: str
    givens: str
    solution: str
    box_rows: int
    box_cols: int
    tier: str
    score: float | None = None
    passes: tuple[int, ...] | None = None
    variant: str = CLASSIC
    regions: str | None = None
    cages: tuple[Cage, ...] | None = None

    def __post_init__(self) -> None:
        if self.passes is not None:
            object.__setattr__(self, "passes", tuple(int(p) for p in self.passes))
        self.grids  # noqa: B018 -- parse now so a bad puzzle fails at construction

    @property
    def short_id(self) -> str:
        """The id as printed beside the puzzle: short enough for a label, long enough to look up."""
        return self.id[:SHORT_ID_LENGTH]

    @cached_property
    def grids(self) -> PuzzleGrids:
        """Parse and cross-check givens, solution and passes."""
        try:
            geo = geometry(self.box_rows, self.box_cols, self.variant, self.regions, self.cages)
        except ValueError as exc:  # a bad variant name, Jigsaw layout or Killer's cages
            self._fail(str(exc))
        givens = self._parse("givens", geo)
        solution = self._parse("solution", geo)
        blanks = np.flatnonzero(solution.values == 0)
        if blanks.size:
            cell = geo.cell_name(int(blanks[0]))
            self._fail(f"solution has {blanks.size} blank cells (first at {cell})")
        wrong = np.flatnonzero((givens.values != 0) & (givens.values != solution.values))
        if wrong.size:
            cell = int(wrong[0])
            self._fail(
                f"given {geo.symbols[givens.values[cell] - 1]!r} at {geo.cell_name(cell)} "
                f"differs from the solution's {geo.symbols[solution.values[cell] - 1]!r}"
            )
        if self.passes is not None:
            self._check_passes(geo, givens.values)
        return PuzzleGrids(geo, givens.values, solution.values)

    def _parse(self, name: str, box: Geometry) -> engine.Grid:
        text = getattr(self, name)
        if not isinstance(text, str):
            self._fail(f"{name} must be a string, got {type(text).__name__}")
        try:
            return engine.parse(text, box=box)
        except (engine.InvalidPuzzle, ValueError) as exc:
            self._fail(f"{name}: {exc}")

    def _check_passes(self, geo: Geometry, givens: np.ndarray) -> None:
        assert self.passes is not None
        if len(self.passes) != geo.ncells:
            self._fail(f"passes has {len(self.passes)} entries; a {geo} grid has {geo.ncells}")
        passes = np.asarray(self.passes)
        bad = np.flatnonzero(((passes == 0) != (givens != 0)) | (passes < 0))
        if bad.size:
            cell = int(bad[0])
            self._fail(
                f"passes[{cell}] ({geo.cell_name(cell)}) is {passes[cell]}: givens have pass 0 "
                "and every other cell a pass of 1 or more"
            )

    def _fail(self, problem: str) -> NoReturn:
        raise BookError(f"puzzle {self.id!r}: {problem}")


@dataclass(frozen=True)
class Section:
    """Puzzles of one tier printed ``layout`` to a page under one header."""

    title: str
    tier: str
    layout: int
    puzzles: list[BookPuzzle] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.layout not in LAYOUTS:
            choices = ", ".join(map(str, LAYOUTS))
            raise BookError(
                f"section {self.title!r}: layout {self.layout!r} is not one of {choices}"
            )
        if not self.puzzles:
            raise BookError(f"section {self.title!r} has no puzzles")

    @property
    def pages(self) -> int:
        return math.ceil(len(self.puzzles) / self.layout)


@dataclass(frozen=True)
class Book:
    """Title, author, sections in print order, and optional text for an "about" page."""

    title: str
    author: str
    sections: list[Section]
    about: str | None = None

    def __post_init__(self) -> None:
        if not self.title.strip():
            raise BookError("the book has no title")
        if not self.sections:
            raise BookError(f"book {self.title!r} has no sections")

    @property
    def puzzle_count(self) -> int:
        return sum(len(section.puzzles) for section in self.sections)


def book_from_rows(
    rows: Iterable[Mapping],
    title: str,
    author: str,
    layouts: Mapping[str, int],
    about: str | None = None,
) -> Book:
    """A book with one section per tier, in the order of ``layouts`` (tier -> puzzles per page).

    Rows carry ``id, givens, solution, box_rows, box_cols, tier`` and optionally ``score``,
    ``passes``, ``variant`` and ``regions``; a missing or NaN score prints as no score, a missing
    variant as classic.
    """
    by_tier: dict[str, list[BookPuzzle]] = {tier: [] for tier in layouts}
    for index, row in enumerate(rows):
        missing = [key for key in ROW_KEYS if key not in row]
        if missing:
            raise BookError(f"row {index}: missing {', '.join(map(repr, missing))}")
        tier = str(row["tier"])
        if tier not in by_tier:
            raise BookError(
                f"row {index} (id {row['id']!r}): tier {tier!r} has no layout; "
                f"layouts are given for {', '.join(map(repr, layouts))}"
            )
        by_tier[tier].append(puzzle_from_row(row, index))
    for tier, puzzles in by_tier.items():
        if not puzzles:
            raise BookError(f"tier {tier!r} has a layout but no rows")
    sections = [
        Section(tier.capitalize(), tier, layouts[tier], puzzles)
        for tier, puzzles in by_tier.items()
    ]
    return Book(title, author, sections, about)


def puzzle_from_row(row: Mapping, index: int) -> BookPuzzle:
    """A stored puzzle row (``puzzles.parquet`` columns) as a book puzzle; ``index`` names the
    row in errors."""
    score = row.get("score")
    passes: Sequence[int] | None = row.get("passes")
    try:
        try:
            cages = row_cages(row.get("cages"), int(row["box_rows"]) * int(row["box_cols"]))
        except ValueError as exc:  # InvalidCages names the cage
            raise BookError(f"cages: {exc}") from None
        return BookPuzzle(
            id=str(row["id"]),
            givens=row["givens"],
            solution=row["solution"],
            box_rows=int(row["box_rows"]),
            box_cols=int(row["box_cols"]),
            tier=str(row["tier"]),
            score=None if score is None or math.isnan(score) else float(score),
            passes=None if passes is None else tuple(passes),
            variant=str(row.get("variant") or CLASSIC),
            regions=row.get("regions"),
            cages=cages,
        )
    except BookError as exc:
        raise BookError(f"row {index}: {exc}") from None
