"""The hints section, the worked-solutions appendix and the front matter, read back from the PDF
with pdfplumber: real dug puzzles, so every hint and placement can be checked against the grader
and the solution."""

from __future__ import annotations

import re
from itertools import groupby
from pathlib import Path

import pdfplumber
import pytest

import engine
from engine.path import PathStep
from pipeline.explain import Explanation, explain, first_hint
from pipeline.recipe import RecipeError, parse_recipe
from pipeline.render.book import Book, BookPuzzle, Section
from pipeline.render.booklet import render_book
from pipeline.render.hints import HINTS_HEADING, SINGLES_ONLY, WORKED_HEADING, worked_lines
from pipeline.render.options import PrintOptions
from pipeline.render.sample import SampleSection, sample_book

PLACEMENT = re.compile(r"\br(\d)c(\d)=(\d)")
#: A dug hard puzzle whose path takes a Hidden Rectangle, named "hidden_" as hidden subsets are.
HIDDEN_RECTANGLE = (
    "7...431..6.1....2..3...18..9.....23..1..5..9..73.....4..61...7..5....3.1..843...6"
)
ABOUT = "Easy puzzles need only singles.\n\nExpert puzzles need chains."


def dug(tier: str, count: int, seed: int) -> list[BookPuzzle]:
    puzzles = []
    for k in range(count):
        found = engine.dig(engine.random_grid(9, seed=seed + k), tier, seed=seed + k)
        puzzles.append(
            BookPuzzle(
                id=f"{tier}-{seed + k:04d}",
                givens=found.puzzle,
                solution=found.solution,
                box_rows=3,
                box_cols=3,
                tier=tier,
                score=found.grade.score,
                passes=tuple(found.grade.cell_passes.tolist()),
            )
        )
    return puzzles


@pytest.fixture(scope="module")
def book() -> Book:
    sections = [
        Section("Easy", "easy", 4, dug("easy", 4, 100)),
        Section("Expert", "expert", 2, dug("expert", 3, 200)),
    ]
    return Book("Hints and solutions", "Test", sections, about=ABOUT)


@pytest.fixture(scope="module")
def pages(book: Book, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = tmp_path_factory.mktemp("hints") / "book.pdf"
    options = PrintOptions(hints=True, worked_solutions=("expert",))
    result = render_book(book, path, options)
    headings = dict(result.contents)
    assert headings[HINTS_HEADING] < headings["Answers: Easy"] < headings[WORKED_HEADING]
    with pdfplumber.open(path) as pdf:
        texts = [page.extract_text() or "" for page in pdf.pages]
    for heading, number in result.contents:  # the contents point at the pages
        assert heading in texts[number - 1].splitlines()
    return texts


def section_text(pages: list[str], heading: str, stop: str) -> str:
    start = next(k for k, text in enumerate(pages) if text.splitlines()[:1] == [heading])
    end = next(k for k in range(start + 1, len(pages)) if stop in pages[k])
    return "\n".join(pages[start:end])


def test_hints_name_the_first_step_beyond_singles(book: Book, pages: list[str]) -> None:
    text = " ".join(section_text(pages, HINTS_HEADING, "Answers: Easy").split())
    puzzles = [p for section in book.sections for p in section.puzzles]
    for number, puzzle in enumerate(puzzles, start=1):
        hint = first_hint(explain(puzzle.givens))
        expected = f"{number}. {hint}." if hint else f"{number}. {SINGLES_ONLY}"
        assert expected in text
    assert "Look at" in text  # expert puzzles need more than singles


def test_worked_solutions_walk_every_pass(book: Book, pages: list[str]) -> None:
    text = section_text(pages, WORKED_HEADING, "Notes")
    flat = " ".join(text.split())
    experts = book.sections[1].puzzles
    first_expert = len(book.sections[0].puzzles) + 1
    chunks = re.split(r"Puzzle (\d+) \(expert\)", flat)[1:]
    assert [int(n) for n in chunks[::2]] == list(range(first_expert, first_expert + len(experts)))
    assert "(easy)" not in flat  # only the tiers asked for
    for puzzle, chunk in zip(experts, chunks[1::2], strict=True):
        passes = [int(p) for p in re.findall(r"Pass (\d+)\.", chunk)]
        assert passes == list(range(1, explain(puzzle.givens).passes + 1))
        placed = PLACEMENT.findall(chunk)
        assert len(placed) == puzzle.givens.count(".")
        for row, col, value in placed:
            assert puzzle.solution[(int(row) - 1) * 9 + int(col) - 1] == value


def test_worked_lines_read_as_print(book: Book, pages: list[str]) -> None:
    """Removals print as r1c2≠4, and a pass names its technique once (a chain's sentence already
    names it); the intro says how cells are named."""
    text = section_text(pages, WORKED_HEADING, "Notes")
    flat = " ".join(text.split())
    assert "<>" not in flat and re.search(r"r\dc\d≠\d", flat)
    assert "r1c2≠4 crosses out the 4" in flat
    for puzzle in book.sections[1].puzzles:
        explained = explain(puzzle.givens)
        for (_, line), step in zip(worked_lines(explained), first_steps(explained), strict=True):
            assert line.count(step.name) <= 1, line


def first_steps(explained: Explanation) -> list[PathStep]:
    return [next(group) for _, group in groupby(explained.steps, key=lambda s: s.pass_no)]


def test_hidden_rectangle_is_not_worded_as_a_hidden_pair() -> None:
    explained = explain(HIDDEN_RECTANGLE)
    step = next(s for s in explained.steps if s.technique == "hidden_rectangle")
    line = dict(worked_lines(explained))[f"Pass {step.pass_no}. "]
    assert line.startswith("Look for a Hidden Rectangle on ")
    assert "everything else" not in line


def test_hints_say_how_cells_are_named(pages: list[str]) -> None:
    text = " ".join(section_text(pages, HINTS_HEADING, "Answers: Easy").split())
    assert "r2c6 is row 2, column 6" in text and "only one number fits" in text


def test_about_shares_the_how_to_play_page(tmp_path: Path) -> None:
    book = sample_book([SampleSection("easy", 9, 4, 4)], about=ABOUT)
    path = tmp_path / "book.pdf"
    result = render_book(book, path, PrintOptions())
    with pdfplumber.open(path) as pdf:
        second = pdf.pages[1].extract_text()
    assert "How to play" in second and "About the difficulty" in second
    assert "Expert puzzles need chains." in second
    assert result.contents[0][1] == 3  # the puzzles start on page 3, not 4


def test_no_hints_by_default(book: Book, tmp_path: Path) -> None:
    result = render_book(book, tmp_path / "plain.pdf", PrintOptions())
    assert HINTS_HEADING not in dict(result.contents)
    assert WORKED_HEADING not in dict(result.contents)


RECIPE = {
    "title": "T",
    "seed": 1,
    "sections": [{"tier": "easy", "count": 1}],
}


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ({"hints": "yes"}, "print.hints"),
        ({"worked_solutions": "expert"}, "print.worked_solutions"),
        ({"worked_solutions": ["expert", "fiendish"]}, "print.worked_solutions"),
    ],
)
def test_recipe_keys_are_checked(table: dict, key: str) -> None:
    with pytest.raises(RecipeError, match=re.escape(key)):
        parse_recipe({**RECIPE, "print": table})


def test_recipe_keys_reach_the_renderer() -> None:
    recipe = parse_recipe({**RECIPE, "print": {"hints": True, "worked_solutions": ["expert"]}})
    assert recipe.print.options.hints
    assert recipe.print.options.worked_solutions == ("expert",)
