"""Killer grids read back from a PDF: every dashed line is a piece of a cage outline, inset
within the cells, and every piece is drawn; each cage's sum is printed in its top-left cell; the
answers draw the same outlines faint and no sums; how to play states the rule once."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from pipeline.render.booklet import render_book
from pipeline.render.grid import CAGE_FAINT, cage_inset
from pipeline.render.options import PrintOptions
from pipeline.render.sample import SampleSection, sample_book
from pipeline.render.variants import cage_outlines
from tests.printed import grid_frames

TOLERANCE = 0.05  # pt


def drawn_pieces(page: pdfplumber.page.Page, frame: dict) -> list[tuple[float, ...]]:
    """The dashed lines inside a grid frame, in points from its top-left corner, sorted."""
    return sorted(
        (
            round(line["x0"] - frame["x0"], 1),
            round(line["top"] - frame["top"], 1),
            round(line["x1"] - frame["x0"], 1),
            round(line["bottom"] - frame["top"], 1),
        )
        for line in page.lines
        if line["dash"] is not None
        and line["dash"][0]
        and frame["x0"] <= line["x0"] <= frame["x1"]
        and frame["top"] <= line["top"] <= frame["bottom"]
    )


def grey(line: dict) -> float:
    """A line's stroke grey (pdfplumber gives a number or a one-number tuple)."""
    colour = line["stroking_color"]
    return round(float(colour[0] if isinstance(colour, tuple | list) else colour), 3)


def outline_pieces(geo, cell: float) -> list[tuple[float, ...]]:
    inset = cage_inset(cell)

    def at(offset: tuple[int, int]) -> float:
        return round(offset[0] * cell + offset[1] * inset, 1)

    return sorted((at(x0), at(y0), at(x1), at(y1)) for x0, y0, x1, y1 in cage_outlines(geo))


@pytest.mark.parametrize(("trim", "large"), [("6x9", False), ("letter", True)])
def test_cages_and_sums_are_drawn_where_the_cages_are(
    tmp_path: Path, trim: str, large: bool
) -> None:
    book = sample_book([SampleSection("hard", 9, 2, 2, "killer+x")], seed=8, title="Killer")
    pdf = tmp_path / "killer.pdf"
    render_book(book, pdf, PrintOptions(trim=trim, large_print=large))
    puzzles = book.sections[0].puzzles
    with pdfplumber.open(pdf) as printed:
        rules = printed.pages[1].extract_text()
        assert rules.count("In Killer puzzles, the digits in each dashed cage add up to") == 1
        grids = [(page, frame) for page in printed.pages for frame in grid_frames(page)]
        assert len(grids) == 4  # the puzzles, then their answers
        for index, (page, frame) in enumerate(grids):
            puzzle = puzzles[index % 2]
            geo = puzzle.grids.geometry
            cell = frame["width"] / geo.n
            assert drawn_pieces(page, frame) == outline_pieces(geo, cell)
            answer = index >= 2
            greys = {grey(line) for line in page.lines if line["dash"] and line["dash"][0]}
            assert greys == ({CAGE_FAINT} if answer else {0.0})
            words = [
                word
                for word in page.extract_words(extra_attrs=["size"])
                if frame["x0"] < word["x0"] < frame["x1"]
                and frame["top"] < word["top"] < frame["bottom"]
                and word["size"] < cell * 0.4
            ]
            sums = sorted(
                (
                    int((word["top"] - frame["top"]) // cell) * geo.n
                    + int((word["x0"] - frame["x0"]) // cell),
                    int(word["text"]),
                )
                for word in words
            )
            expected = [] if answer else sorted((c.cells[0], c.total) for c in geo.cages)
            assert sums == expected
