"""Variant grids read back from real PDFs: thick rules exactly on a Jigsaw's region borders, X's
diagonals and Windoku's windows shaded, region tints that part neighbours, the rules text.

What each grid should show is worked out here from the puzzle's own fields (its ``regions``
string, its box shape, the diagonal and window coordinates), never from the renderer's tables.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pdfplumber
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from engine.geometry import VARIANT_RULES, geometry
from engine.solver import count_grid
from engine.text import parse
from pipeline.render.book import Book, BookError, BookPuzzle, Section, puzzle_from_row
from pipeline.render.booklet import render_book
from pipeline.render.cover import CoverOptions, render_cover
from pipeline.render.grid import FILLED_GREY, PASS_SHADES
from pipeline.render.hints import WORKED_HEADING
from pipeline.render.options import PrintOptionError, PrintOptions
from pipeline.render.sample import SampleSection, sample_book, sample_puzzle
from pipeline.render.variants import region_tints
from tests.helpers import invoke
from tests.printed import THIN, TOLERANCE, PrintedMarks, read_grids, read_marks

PLACEMENT = re.compile(r"\br(\d)c(\d)=(\d)")
WINDOW_LINES = {1, 2, 3, 5, 6, 7}  # 0-based rows and columns of Windoku's windows
MIN_CONTRAST = 0.35  # grey answer symbols against the darkest fill under them
SECTIONS = [
    SampleSection("x", 9, 1, 1, "x"),
    SampleSection("even-x", 6, 4, 2, "x"),
    SampleSection("windoku", 9, 2, 2, "windoku"),
    SampleSection("windoku-x", 9, 1, 1, "windoku+x"),
    SampleSection("jigsaw", 9, 2, 2, "jigsaw"),
    SampleSection("jigsaw-x", 9, 1, 1, "jigsaw+x"),
    SampleSection("small-jigsaw", 6, 4, 4, "jigsaw"),
    SampleSection("classic", 9, 4, 2),
]


@pytest.fixture(scope="module")
def book() -> Book:
    return sample_book(SECTIONS, seed=5, title="Variants")


def _render(
    book: Book, folder: Path, options: PrintOptions
) -> list[tuple[BookPuzzle, PrintedMarks]]:
    """Each printed grid (the puzzles, then the answers) with the puzzle it shows, checked to be
    that puzzle by its printed symbols."""
    path = folder / "book.pdf"
    render_book(book, path, options)
    puzzles = [puzzle for section in book.sections for puzzle in section.puzzles]
    with pdfplumber.open(path) as pdf:
        grids, marks = read_grids(pdf), read_marks(pdf)
    assert len(grids) == len(marks) == 2 * len(puzzles)
    for puzzle, grid in zip(puzzles * 2, grids, strict=True):
        assert grid.text in (puzzle.givens, puzzle.solution)
    return list(zip(puzzles * 2, marks, strict=True))


@pytest.fixture(scope="module")
def printed(book: Book, tmp_path_factory: pytest.TempPathFactory):
    return _render(book, tmp_path_factory.mktemp("variants"), PrintOptions())


@pytest.fixture(scope="module")
def tinted(book: Book, tmp_path_factory: pytest.TempPathFactory):
    return _render(book, tmp_path_factory.mktemp("tinted"), PrintOptions(region_tint=True))


def regions_of(puzzle: BookPuzzle) -> np.ndarray:
    """Each cell's region as an n x n array: a Jigsaw's from its layout string, else the box."""
    n = puzzle.box_rows * puzzle.box_cols
    if puzzle.regions is not None:
        return np.array([ord(symbol) for symbol in puzzle.regions]).reshape(n, n)
    rows, cols = np.indices((n, n))
    return (rows // puzzle.box_rows) * n + cols // puzzle.box_cols


def diagonal(n: int) -> np.ndarray:
    rows, cols = np.indices((n, n))
    return ((rows == cols) | (rows + cols == n - 1)).ravel()


def windows(n: int) -> np.ndarray:
    rows, cols = np.indices((n, n))
    inside = np.isin(rows, list(WINDOW_LINES)) & np.isin(cols, list(WINDOW_LINES))
    return inside.ravel()


def parts(puzzle: BookPuzzle) -> set[str]:
    return set(puzzle.variant.split("+"))


def test_thick_rules_lie_exactly_on_region_borders(printed) -> None:
    """Every cell edge is ruled; the rule is thick where the cells on its two sides lie in
    different regions (a Jigsaw's, or a classic grid's boxes) and thin everywhere else."""
    variants = set()
    for puzzle, marks in printed:
        region = regions_of(puzzle)
        vertical_border = region[:, 1:] != region[:, :-1]
        horizontal_border = region[1:, :] != region[:-1, :]
        for widths, border in (
            (marks.vertical, vertical_border),
            (marks.horizontal, horizontal_border),
        ):
            assert (widths >= THIN - TOLERANCE).all(), f"an unruled edge on page {marks.page}"
            assert np.array_equal(widths > THIN + TOLERANCE, border), (puzzle.variant, marks.page)
        variants.add(puzzle.variant)
    assert {"jigsaw", "jigsaw+x", "classic"} <= variants


def test_x_shades_exactly_the_diagonal_cells(printed) -> None:
    """2n-1 cells on an odd grid (the diagonals cross in the centre cell), 2n on an even one;
    puzzles and answers alike, Jigsaw-X too."""
    sizes = set()
    for puzzle, marks in printed:
        if parts(puzzle) & {"x", "windoku"} != {"x"}:
            continue
        n = marks.n
        shaded = marks.greys < 1
        assert shaded.sum() == (2 * n - 1 if n % 2 else 2 * n)
        assert np.array_equal(shaded, diagonal(n)), marks.page
        sizes.add(n)
    assert sizes == {6, 9}


def test_windoku_shades_its_36_window_cells(printed) -> None:
    seen = 0
    for puzzle, marks in printed:
        if puzzle.variant == "windoku":
            shaded = marks.greys < 1
            assert shaded.sum() == 36
            assert np.array_equal(shaded, windows(9)), marks.page
            seen += 1
    assert seen == 4  # two puzzles and their answers


def test_windoku_x_diagonals_run_darker_across_the_windows(printed) -> None:
    """Both parts shaded, told apart: every diagonal cell one grey, every other window cell a
    lighter one."""
    for puzzle, marks in printed:
        if puzzle.variant != "windoku+x":
            continue
        on_diagonal, in_window = diagonal(9), windows(9) & ~diagonal(9)
        assert np.array_equal(marks.greys < 1, diagonal(9) | windows(9))
        assert len(set(marks.greys[on_diagonal])) == len(set(marks.greys[in_window])) == 1
        assert marks.greys[on_diagonal][0] < marks.greys[in_window][0]


def test_jigsaw_and_classic_grids_are_not_filled_unless_asked(printed) -> None:
    for puzzle, marks in printed:
        if puzzle.variant in ("jigsaw", "classic"):
            assert (marks.greys == 1).all(), marks.page


def test_region_tints_part_neighbouring_regions(printed, tinted) -> None:
    """With ``region_tint``, a Jigsaw's regions are each one light grey and no two regions that
    share an edge alike; every other grid prints as without it (one grey means one thing)."""
    tinted_grids = 0
    for (puzzle, marks), (_, plain) in zip(tinted, printed, strict=True):
        if puzzle.variant != "jigsaw":
            assert np.array_equal(marks.greys, plain.greys), marks.page
            continue
        greys = marks.greys.reshape(marks.n, marks.n)
        region = regions_of(puzzle)
        for label in np.unique(region):
            assert len(set(greys[region == label])) == 1
        pairs = [
            (greys[:, 1:], greys[:, :-1], region[:, 1:] != region[:, :-1]),
            (greys[1:, :], greys[:-1, :], region[1:, :] != region[:-1, :]),
        ]
        for one, other, border in pairs:
            assert (one[border] != other[border]).all(), marks.page
        assert greys.min() - FILLED_GREY >= MIN_CONTRAST
        tinted_grids += 1
    assert tinted_grids == 12  # six Jigsaw puzzles and their answers


def test_a_map_gets_the_fewest_tints() -> None:
    """Four 2x2 boxes form a ring of four regions: two tints. A region touching three regions
    that all touch each other needs four."""
    ring = geometry(2, 2, "jigsaw", "1122112233443344")
    assert len(set(region_tints(ring).tolist())) == 2
    touching = geometry(2, 2, "jigsaw", "1112133243324442")
    assert len(set(region_tints(touching).tolist())) == 4


def test_shaded_answers_shade_by_pass_only(book: Book, tmp_path: Path) -> None:
    """An answer key shaded by logic pass keeps that one meaning for its greys: the diagonals
    and windows are not shaded there, the puzzles keep them."""
    shaded = _render(book, tmp_path, PrintOptions(shade_answers=True))
    answers = shaded[len(shaded) // 2 :]
    for puzzle, marks in answers:
        passes = np.asarray(puzzle.passes)
        expected = np.where(
            passes == 0, 1.0, np.take(PASS_SHADES, np.minimum(passes, len(PASS_SHADES)) - 1)
        )
        assert np.allclose(marks.greys, expected), marks.page
    x_puzzle, x_marks = shaded[0]
    assert x_puzzle.variant == "x" and np.array_equal(x_marks.greys < 1, diagonal(9))


def _text(path: Path) -> str:
    with pdfplumber.open(path) as pdf:
        return " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)


def test_how_to_play_states_each_variant_of_the_book_once(tmp_path: Path) -> None:
    """A book of classic, Sudoku-X, Jigsaw and Jigsaw-X puzzles explains the X and Jigsaw rules
    once each (Jigsaw-X adds no third copy) and Windoku's not at all."""
    sections = [
        SampleSection("classic", 9, 4, 1),
        SampleSection("x", 9, 4, 1, "x"),
        SampleSection("jigsaw", 9, 4, 1, "jigsaw"),
        SampleSection("jigsaw-x", 9, 4, 1, "jigsaw+x"),
    ]
    path = tmp_path / "mixed.pdf"
    render_book(sample_book(sections, seed=1), path, PrintOptions())
    text = _text(path)
    for part, count in (("x", 1), ("jigsaw", 1), ("windoku", 0)):
        rule = VARIANT_RULES[part].replace("symbol", "number")
        assert text.count(rule) == count, (part, text[:2000])
    classic_only = tmp_path / "classic.pdf"
    render_book(sample_book(sections[:1], seed=1), classic_only, PrintOptions())
    text = _text(classic_only)
    assert not any(
        VARIANT_RULES[part].replace("symbol", "number") in text for part in ("x", "jigsaw")
    )


def test_the_cover_draws_the_variant(book: Book, tmp_path: Path) -> None:
    """The cover's grids come from the same drawing: its front shows the first (Sudoku-X)
    puzzle's shaded diagonals, its back the last section's boxes."""
    path = tmp_path / "cover.pdf"
    render_cover(book, path, 40, PrintOptions(), CoverOptions())
    with pdfplumber.open(path) as pdf:
        marks = read_marks(pdf)
    assert len(marks) == 2
    shaded = [m for m in marks if (m.greys < 1).any()]
    assert len(shaded) == 1 and np.array_equal(shaded[0].greys < 1, diagonal(9))


def test_rows_without_a_variant_print_classic() -> None:
    """Rows from files written before variants have no ``variant`` or ``regions``; nulls read
    the same."""
    puzzle = sample_book([SampleSection("easy", 9, 1, 1)], seed=2).sections[0].puzzles[0]
    row = {
        "id": puzzle.id,
        "givens": puzzle.givens,
        "solution": puzzle.solution,
        "box_rows": 3,
        "box_cols": 3,
        "tier": "easy",
    }
    for extra in ({}, {"variant": None, "regions": None}, {"variant": "classic"}):
        assert puzzle_from_row(row | extra, 0).grids.geometry.classic
    with pytest.raises(BookError, match=r"row 4: .*a jigsaw grid needs its regions"):
        puzzle_from_row(row | {"variant": "jigsaw"}, 4)


def test_jigsaw_rows_carry_their_regions() -> None:
    jigsaw = sample_book([SampleSection("j", 6, 1, 1, "jigsaw")], seed=3).sections[0].puzzles[0]
    row = {
        key: getattr(jigsaw, key)
        for key in ("id", "givens", "solution", "box_rows", "box_cols", "tier", "variant")
    }
    geo = puzzle_from_row(row | {"regions": jigsaw.regions}, 0).grids.geometry
    assert geo.regions == jigsaw.regions and geo.parts == ("jigsaw",)


def test_region_tint_is_a_true_or_false_option() -> None:
    with pytest.raises(PrintOptionError, match="region_tint"):
        PrintOptions(region_tint="yes")  # type: ignore[arg-type]


def test_pipeline_render_prints_a_files_variants(tmp_path: Path) -> None:
    """``pipeline render`` reads ``variant`` and ``regions`` from a puzzle file: its Jigsaw
    prints on its regions, its X with shaded diagonals."""
    sections = [SampleSection("easy", 9, 1, 1, "jigsaw"), SampleSection("easy", 9, 1, 1, "x")]
    puzzles = [s.puzzles[0] for s in sample_book(sections, seed=4).sections]
    rows = [
        {
            "id": puzzle.id,
            "givens": puzzle.givens,
            "solution": puzzle.solution,
            "size": 9,
            "box_rows": 3,
            "box_cols": 3,
            "clues": sum(symbol != "." for symbol in puzzle.givens),
            "tier": "easy",
            "score": 1.0,
            "iterations": 1,
            "hardest": "single",
            "variant": puzzle.variant,
            "regions": puzzle.regions,
        }
        for puzzle in puzzles
    ]
    source, book = tmp_path / "puzzles.parquet", tmp_path / "book.pdf"
    pq.write_table(pa.Table.from_pylist(rows), source)
    code, _, err = invoke("render", source, "-o", book, "--layout", "1")
    assert code == 0, err
    with pdfplumber.open(book) as pdf:
        marks = read_marks(pdf)
    jigsaw, x = marks[:2]
    region = regions_of(puzzles[0])
    assert np.array_equal(jigsaw.vertical > THIN + TOLERANCE, region[:, 1:] != region[:, :-1])
    assert np.array_equal(x.greys < 1, diagonal(9))


def test_hints_and_worked_solutions_solve_a_jigsaw_on_its_regions(tmp_path: Path) -> None:
    """Every placement the worked solutions print is the Jigsaw's own solution (solved on the
    boxes, its givens would clash and the book would be refused)."""
    candidates = (sample_puzzle(9, seed, variant="jigsaw") for seed in range(20))
    unique = [p for p in candidates if count_grid(parse(p.givens, p.grids.geometry))[0] == 1]
    section = Section("Jigsaw", "easy", 4, unique[:2])
    path = tmp_path / "hints.pdf"
    options = PrintOptions(hints=True, worked_solutions=("easy",))
    render_book(Book("Hints", "Test", [section]), path, options)
    text = _text(path)
    worked = text[text.rindex(WORKED_HEADING) :]
    for number, puzzle in enumerate(section.puzzles, start=1):
        start = worked.index(f"Puzzle {number} (easy)")
        end = worked.find(f"Puzzle {number + 1} (easy)", start)
        placements = PLACEMENT.findall(worked[start : end if end > 0 else None])
        assert placements
        for row, col, value in placements:
            assert puzzle.solution[(int(row) - 1) * 9 + int(col) - 1] == value
