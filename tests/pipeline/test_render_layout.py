"""Large print, answer-key shading and headings kept with their text: read back from the PDF
with pdfplumber (font sizes, grids per page) and poppler's ``pdftoppm`` (the grey of each pass)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pdfplumber
import pytest
from PIL import Image
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, Spacer

from pipeline.recipe import RecipeError, parse_recipe
from pipeline.render.booklet import UnreadableLayout, _flow, render_book
from pipeline.render.fonts import fonts
from pipeline.render.grid import FILLED_GREY, PASS_SHADES
from pipeline.render.options import PrintOptions
from pipeline.render.page import Box
from pipeline.render.pages import Styles
from pipeline.render.sample import SampleSection, sample_book

LARGE_CLUES = 24.0  # pt
LARGE_BODY = 16.0  # pt
LARGE_LABEL = 13.0  # pt: "Puzzle 3" above a large-print grid
DPI = 100
MIN_FRAME = 100.0  # pt: a grid frame, not a legend swatch
MIN_STEP = 0.10  # grey between the shades of neighbouring passes
MIN_CONTRAST = 0.3  # grey between the darkest shade and the answer symbols on it
PIXEL_SLACK = 2  # of 255: rounding in rasterising
CORNER = 0.2  # sample a cell this far in from its top-left corner: clear of rules and symbol


def test_large_print_prints_big_clues_one_or_two_to_a_page(tmp_path: Path) -> None:
    book = sample_book([SampleSection("easy", 9, 4, 3), SampleSection("kids", 6, 6, 4)])
    path = tmp_path / "large.pdf"
    result = render_book(book, path, PrintOptions(large_print=True))
    first_answers = dict(result.contents)["Answers: Easy"]
    with pdfplumber.open(path) as pdf:
        body = [c["size"] for c in pdf.pages[1].chars if c["text"].isalpha()]
        assert max(body) >= LARGE_BODY  # how-to-play text set up too
        per_page = []
        for page in pdf.pages[2 : first_answers - 1]:
            text = page.extract_text()
            per_page.append(text.count("Puzzle "))
            clues = [
                c["size"] for c in page.chars if c["text"].isdigit() and c["size"] > LARGE_BODY
            ]
            assert min(clues) >= LARGE_CLUES
            label = [c["size"] for c in page.chars if c["text"] == "P"]  # "Puzzle 3"
            assert min(label) >= LARGE_LABEL
    assert per_page == [1, 1, 1, 2, 2]  # 9x9: one to a page on letter; 6x6: two


def test_large_print_refuses_a_trim_too_small(tmp_path: Path) -> None:
    book = sample_book([SampleSection("giant", 16, 1, 1)])
    with pytest.raises(UnreadableLayout, match="under the 24 pt of large print"):
        render_book(book, tmp_path / "small.pdf", PrintOptions(trim="5.5x8.5", large_print=True))


def test_large_print_recipe_key() -> None:
    recipe = {"title": "T", "seed": 1, "sections": [{"tier": "easy", "count": 1}]}
    assert parse_recipe({**recipe, "print": {"large_print": True}}).print.options.large_print
    with pytest.raises(RecipeError, match=r"print\.large_print"):
        parse_recipe({**recipe, "print": {"large_print": 1}})


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_answer_shades_are_ten_percent_apart_on_paper(tmp_path: Path) -> None:
    book = sample_book([SampleSection("easy", 9, 1, 1)], seed=3)
    puzzle = book.sections[0].puzzles[0]
    path = tmp_path / "shaded.pdf"
    options = PrintOptions(shade_answers=True, answers_per_page=1)
    result = render_book(book, path, options)
    number = dict(result.contents)["Answers: Easy"]
    with pdfplumber.open(path) as pdf:
        frame = max(pdf.pages[number - 1].rects, key=lambda rect: rect["width"])
    assert frame["width"] >= MIN_FRAME
    subprocess.run(
        [
            "pdftoppm",
            "-gray",
            "-r",
            str(DPI),
            "-f",
            str(number),
            "-l",
            str(number),
            path,
            tmp_path / "p",
        ],
        check=True,
    )
    pixels = np.asarray(Image.open(next(tmp_path.glob("p*.pgm"))))
    cell = frame["width"] / 9
    scale = DPI / 72
    levels: dict[int, list[int]] = {}
    for index, passed in enumerate(puzzle.passes or ()):
        if passed == 0:
            continue
        row, col = divmod(index, 9)
        x = (frame["x0"] + (col + CORNER) * cell) * scale
        y = (frame["top"] + (row + CORNER) * cell) * scale
        level = min(passed, len(PASS_SHADES))
        levels.setdefault(level, []).append(int(pixels[round(y), round(x)]))
    assert sorted(levels) == list(range(1, len(PASS_SHADES) + 1))
    greys = [np.median(levels[level]) / 255 for level in sorted(levels)]
    steps = -np.diff(greys)  # later passes darker
    assert min(steps) >= MIN_STEP - PIXEL_SLACK / 255, greys
    assert greys[-1] - FILLED_GREY >= MIN_CONTRAST, greys


def test_a_heading_never_ends_a_page() -> None:
    """A heading whose text would start on the next page moves there with it."""
    styles = Styles(fonts())
    box = Box(0, 0, 4 * inch, 3 * inch)
    heading = Paragraph("Heading", styles.heading)
    body = Paragraph("word " * 60, styles.body)
    _, heading_height = heading.wrap(box.width, box.height)
    filler = Spacer(box.width, box.height - heading_height - styles.heading.spaceAfter - 2)
    pages = _flow([filler, heading, body], box)
    assert [len(page) for page in pages] == [1, 2]
    assert pages[1][0] is heading
