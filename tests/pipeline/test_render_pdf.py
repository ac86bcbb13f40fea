"""Read rendered PDFs back with real PDF tools and check what a printer and a reader would see.

Every grid is rebuilt from the positions of its characters inside the stroked square that frames
it, and compared with the book's input; page sizes, margins, fonts, page counts, imposition order
and reproducibility are checked on the files themselves.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pdfplumber
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from pypdf import PdfReader
from reportlab.lib.units import inch

import engine
from pipeline.render.book import Book, BookError, BookPuzzle, Section
from pipeline.render.booklet import RenderResult, UnreadableLayout, render_book
from pipeline.render.fonts import UnsupportedText
from pipeline.render.imposition import MARK_LENGTH, MARK_OFFSET, SLUG
from pipeline.render.options import PrintOptions
from pipeline.render.page import (
    BLEED_HEIGHT,
    BLEED_OUTSIDE,
    MIN_OUTER_MARGIN,
    MIN_OUTER_MARGIN_BLEED,
    TRIMS,
    gutter_for,
)
from pipeline.render.sample import SampleSection, sample_book, sample_puzzle
from tests.printed import THIN, TOLERANCE, PrintedGrid, read_grids

INK = 240  # grey level (of 255) below which a pixel carries ink
INKED_FRACTION = 0.001
STANDARD_14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")

MIXED = [
    SampleSection("easy", 9, 1, 2),
    SampleSection("medium", 9, 2, 3),
    SampleSection("hard", 9, 4, 5),
    SampleSection("expert", 9, 6, 7),
    SampleSection("kids", 4, 2, 2),
    SampleSection("junior", 6, 4, 3),
    SampleSection("dozen", 12, 2, 2),
    SampleSection("giant", 16, 1, 2),
    SampleSection("monster", 25, 1, 1),
]


def _check_book_grids(book: Book, path: Path) -> list[PrintedGrid]:
    """The printed puzzles, then the printed answers, equal the book's input in order."""
    puzzles = [puzzle for section in book.sections for puzzle in section.puzzles]
    with pdfplumber.open(path) as pdf:
        grids = read_grids(pdf)
    assert len(grids) == 2 * len(puzzles)
    printed, answers = grids[: len(puzzles)], grids[len(puzzles) :]
    for number, (puzzle, grid, answer) in enumerate(
        zip(puzzles, printed, answers, strict=True), start=1
    ):
        shape = (puzzle.box_rows, puzzle.box_cols)
        assert grid.text == puzzle.givens
        assert grid.box == answer.box == shape
        assert answer.text == puzzle.solution
        given = [symbol != "." for symbol in puzzle.givens]
        assert grid.bold == given  # every given is bold in the puzzle ...
        assert answer.bold == given  # ... and in the answer, where filled cells are regular
        assert f"Puzzle {number}" in grid.label and puzzle.short_id in grid.label
        assert f"Puzzle {number}" in answer.label
        assert answer.page > grid.page
    return grids


@pytest.fixture(scope="module")
def mixed_book() -> Book:
    return sample_book(MIXED, seed=7, title="Mixed", author="Tests", about="Tiers get harder.")


@pytest.fixture(scope="module")
def mixed_pdf(mixed_book: Book, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    path = tmp_path_factory.mktemp("mixed") / "book.pdf"
    result = render_book(mixed_book, path, PrintOptions(shade_answers=True))
    return path, result


@pytest.fixture(scope="module")
def mixed_grids(mixed_book: Book, mixed_pdf) -> list[PrintedGrid]:
    path, _ = mixed_pdf
    return _check_book_grids(mixed_book, path)


def test_every_printed_grid_equals_its_puzzle_and_answer(mixed_grids: list[PrintedGrid]) -> None:
    grids = mixed_grids  # the fixture compared each with its puzzle; here: all shapes printed
    sizes = {grid.box: grid.symbol_size for grid in grids}
    assert {(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)} <= set(sizes)


def test_readable_symbols_and_rules(mixed_book: Book, mixed_pdf, mixed_grids) -> None:
    """9x9 1-up symbols are at least 14 pt, and no rule on any page is thinner than 0.75 pt."""
    path, _ = mixed_pdf
    with pdfplumber.open(path) as pdf:
        widths = [
            shape["linewidth"]
            for page in pdf.pages
            for shape in (*page.lines, *page.rects)
            if shape["stroke"]
        ]
    first = mixed_book.sections[0]
    assert first.layout == 1 and first.puzzles[0].grids.geometry.n == 9
    assert mixed_grids[0].symbol_size >= 14
    assert min(widths) >= THIN


def _page_texts(path: Path) -> list[str]:
    with pdfplumber.open(path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def _check_contents(texts: list[str], result: RenderResult) -> None:
    """Each contents line names a heading printed at the top of the page it points to."""
    contents_pages = " ".join(texts[1 : result.contents[0][1] - 1])  # all the front matter
    for title, first in result.contents:
        assert texts[first - 1].startswith(title)
        assert f"{title} {first}" in contents_pages


def test_page_sections_contents_and_padding(mixed_book: Book, mixed_pdf) -> None:
    path, result = mixed_pdf
    texts = _page_texts(path)
    assert len(texts) == result.pages == 2 * result.sheets  # perfect binding: leaves of 2
    assert result.imposed_path is None
    assert result.pages % 2 == 0 and result.pages >= 24
    assert [title for title, _ in result.contents[: len(MIXED)]] == [
        section.title for section in mixed_book.sections
    ]
    _check_contents(texts, result)
    for number, text in enumerate(texts[1:], start=2):
        assert str(number) in text.split()  # every page but the title page is numbered
    notes = [text for text in texts if text.startswith("Notes")]
    assert len(notes) == result.blank_pages
    assert "About the difficulty" in texts[1].splitlines()  # on the how-to-play page


def test_long_front_matter_flows_onto_more_pages(tmp_path: Path) -> None:
    """Two dozen sections overflow the contents page; a long about text fills several pages."""
    sections = [SampleSection(f"tier{k:02d}", 4, 1, 1) for k in range(24)]
    words = [f"w{k}" for k in range(1500)]
    book = sample_book(sections, seed=5)
    book = Book(book.title, book.author, book.sections, about=" ".join(words))
    path = tmp_path / "long.pdf"
    result = render_book(book, path, PrintOptions(trim="5.5x8.5"))
    texts = _page_texts(path)
    _check_contents(texts, result)
    front = texts[: result.contents[0][1] - 1]
    about = [page.split() for page in front if "w0" in page.split() or page.startswith("w")]
    assert len(about) >= 3  # the about text continues over several pages
    printed = [word for page in about for word in page if word.startswith("w")]
    assert printed == words  # every word, once, in order
    _check_book_grids(book, path)


def test_title_too_long_for_its_page_is_refused(tmp_path: Path) -> None:
    book = _one_section_book()
    book = Book("Sudoku " * 400, "A", book.sections)
    with pytest.raises(BookError, match=r"book title and author need .* pt on the title page"):
        render_book(book, tmp_path / "long-title.pdf", PrintOptions())


def test_fonts_are_embedded_truetype(mixed_pdf) -> None:
    path, _ = mixed_pdf
    reader = PdfReader(path)
    seen = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            name = str(font["/BaseFont"])
            seen.add(name)
            assert not any(name.lstrip("/").startswith(base) for base in STANDARD_14)
            assert "/FontFile2" in font["/FontDescriptor"]
    assert len(seen) >= 2


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="pdffonts (poppler-utils) absent")
def test_pdffonts_reports_every_font_embedded(mixed_pdf) -> None:
    path, _ = mixed_pdf
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True)
    rows = out.stdout.splitlines()[2:]
    assert rows
    for row in rows:
        name, kind, *_rest = row.split()
        columns = row.split()
        assert kind == "TrueType", row
        assert columns[-5] == "yes", f"font {name} is not embedded"


def test_no_annotations_and_boxes_set(mixed_pdf) -> None:
    path, _ = mixed_pdf
    for page in PdfReader(path).pages:
        assert "/Annots" not in page
        assert [float(v) for v in page.trimbox] == [float(v) for v in page.mediabox]


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) absent")
def test_pages_render_to_non_blank_images(mixed_pdf, tmp_path: Path) -> None:
    path, result = mixed_pdf
    subprocess.run(["pdftoppm", "-r", "20", "-png", str(path), str(tmp_path / "page")], check=True)
    images = sorted(tmp_path.glob("page-*.png"))
    assert len(images) == result.pages
    for image in images:
        pixels = np.asarray(Image.open(image))
        assert (pixels < INK).mean() > INKED_FRACTION, f"{image.name} is blank"


def test_same_input_gives_same_bytes(mixed_book: Book, mixed_pdf, tmp_path: Path) -> None:
    path, _ = mixed_pdf
    again = tmp_path / "again.pdf"
    render_book(mixed_book, again, PrintOptions(shade_answers=True))
    assert again.read_bytes() == path.read_bytes()


def _one_section_book(layout: int = 1, count: int = 2, size: int = 9) -> Book:
    return sample_book([SampleSection("easy", size, layout, count)], seed=3)


@pytest.mark.parametrize("bleed", [False, True])
@pytest.mark.parametrize("trim", [*TRIMS, "custom"])
def test_page_size_margins_and_mirroring(trim: str, bleed: bool, tmp_path: Path) -> None:
    """Every page is trim (+ bleed); nothing is drawn inside the margins; the gutter alternates."""
    custom = {"width": 7.0, "height": 10.0} if trim == "custom" else {}
    options = PrintOptions(trim=trim, bleed=bleed, **custom)
    width, height = options.trim_size
    if bleed:
        width, height = width + BLEED_OUTSIDE, height + BLEED_HEIGHT
    book = _one_section_book()
    path = tmp_path / "book.pdf"
    result = render_book(book, path, options)
    assert result.page_size == pytest.approx((width, height))
    outer = MIN_OUTER_MARGIN_BLEED if bleed else MIN_OUTER_MARGIN
    gutter = gutter_for(result.pages, options.binding)
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            assert (float(page.width), float(page.height)) == pytest.approx((width, height))
            marks = [*page.chars, *page.lines, *page.rects]
            if not marks:
                continue
            left = min(mark["x0"] for mark in marks)
            right = width - max(mark["x1"] for mark in marks)
            recto = page.page_number % 2 == 1
            inside, outside = (left, right) if recto else (right, left)
            assert inside >= gutter - TOLERANCE  # the bleed is never on the inside
            assert outside >= outer
            assert min(mark["top"] for mark in marks) >= outer
            assert height - max(mark["bottom"] for mark in marks) >= outer
        grids = read_grids(pdf)
    assert grids[0].symbol_size >= 14  # 9x9, one to a page, on every trim
    trim_boxes = [[float(v) for v in page.trimbox] for page in PdfReader(path).pages]
    if bleed:
        verso_x0, recto_x0 = trim_boxes[1][0], trim_boxes[0][0]
        assert (recto_x0, verso_x0) == pytest.approx((0, BLEED_OUTSIDE))


def test_gutter_grows_with_page_count(tmp_path: Path) -> None:
    book = _one_section_book(layout=1, count=130)
    result = render_book(book, tmp_path / "thick.pdf", PrintOptions(trim="6x9"))
    assert 151 <= result.pages <= 300
    # perfect binding: the outer margin plus the print service's step past 150 pages
    assert result.gutter == pytest.approx(0.625 * inch)
    with pdfplumber.open(tmp_path / "thick.pdf") as pdf:
        page = pdf.pages[10]  # a recto: binding on the left
        assert page.page_number % 2 == 1
        assert min(rect["x0"] for rect in page.rects) >= 0.625 * inch


@pytest.mark.parametrize(
    ("binding", "unit", "minimum"), [("perfect", 2, 24), ("saddle-stitch", 4, 4)]
)
def test_page_count_padded_for_the_binding(binding: str, unit: int, minimum: int, tmp_path):
    for count in (1, 5, 14):
        book = _one_section_book(layout=1, count=count)
        result = render_book(book, tmp_path / "b.pdf", PrintOptions(binding=binding))
        content = 2 + count + -(-count // 6)  # title, contents, puzzles, answers (6 a page)
        assert result.pages % unit == 0 and result.pages >= minimum
        assert result.pages - result.blank_pages == content
        assert result.blank_pages < max(unit, minimum - content + 1)
        assert len(PdfReader(tmp_path / "b.pdf").pages) == result.pages


def _folio(page: pdfplumber.page.Page, left: bool) -> int | None:
    """The page number printed at the foot of one half of an imposed sheet."""
    half = page.width / 2
    foot = page.height - SLUG - 60
    box = (0, foot, half, page.height) if left else (half, foot, page.width, page.height)
    words = page.crop(box).extract_words()
    numbers = [int(word["text"]) for word in words if word["text"].isdigit()]
    return numbers[-1] if numbers else None


@pytest.mark.parametrize("bleed", [False, True])
def test_saddle_stitch_sheets_fold_into_reading_order(bleed: bool, tmp_path: Path) -> None:
    book = _one_section_book(layout=2, count=7)
    options = PrintOptions(binding="saddle-stitch", imposition="saddle-stitch", bleed=bleed)
    result = render_book(book, tmp_path / "book.pdf", options)
    path = result.imposed_path
    assert path == tmp_path / "book-imposed.pdf"
    assert len(PdfReader(result.path).pages) == result.pages  # single pages beside the sheets
    pages = result.pages
    assert pages % 4 == 0 and result.sheets == pages // 4
    width, height = result.page_size
    assert result.sheet_size == pytest.approx((2 * width + 2 * SLUG, height + 2 * SLUG))
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == 2 * result.sheets
        sides = [(_folio(page, True), _folio(page, False)) for page in pdf.pages]
        assert len(read_grids(pdf)) == 2 * 7
    # the title page carries no number: it is the one page never read
    sides = [tuple(1 if number is None else number for number in side) for side in sides]
    assert sorted(number for side in sides for number in side) == list(range(1, pages + 1))
    for sheet in range(pages // 4):
        (front_left, front_right), (back_left, back_right) = sides[2 * sheet : 2 * sheet + 2]
        assert front_left + front_right == back_left + back_right == pages + 1
        assert front_right == 2 * sheet + 1  # sheets stack from the outside in
        assert back_left == front_right + 1  # turning the leaf shows the next page
        assert front_right % 2 == 1 and back_left % 2 == 0  # rectos on the right


@pytest.mark.parametrize("bleed", [False, True])
def test_imposed_sheets_carry_crop_and_fold_marks(bleed: bool, tmp_path: Path) -> None:
    """Eight crop marks off the spread's corners and two fold marks off the spine, all in the
    slug, clear of the trim by the bleed; nothing else outside the bleed box."""
    options = PrintOptions(binding="saddle-stitch", imposition="saddle-stitch", bleed=bleed)
    result = render_book(_one_section_book(layout=2, count=3), tmp_path / "b.pdf", options)
    assert result.imposed_path is not None
    reader = PdfReader(result.imposed_path)
    with pdfplumber.open(result.imposed_path) as pdf:
        for side, page in zip(reader.pages, pdf.pages, strict=True):
            x0, y0, x1, y1 = (float(v) for v in side.trimbox)
            bx0, by0, bx1, by1 = (float(v) for v in side.bleedbox)
            assert (bx0, by0) == pytest.approx((SLUG, SLUG))
            assert x1 - x0 == pytest.approx(2 * TRIMS["letter"][0])
            height = float(page.height)
            outside = [
                line
                for line in page.lines
                if line["x1"] <= bx0 + TOLERANCE
                or line["x0"] >= bx1 - TOLERANCE
                or height - line["top"] <= by0 + TOLERANCE
                or height - line["bottom"] >= by1 - TOLERANCE
            ]
            crops = [line for line in outside if line["width"] > 0 or line["x0"] in (x0, x1)]
            fold = (x0 + x1) / 2
            folds = [line for line in outside if line["x0"] == pytest.approx(fold)]
            assert len(folds) == 2 and len(crops) == 8, outside
            for line in crops:
                length = max(line["width"], line["height"])
                assert length == pytest.approx(MARK_LENGTH)
                near = min(
                    abs(line["x0"] - x0),
                    abs(line["x1"] - x1),
                    abs(height - line["top"] - y1),
                    abs(height - line["bottom"] - y0),
                )
                assert near == pytest.approx(MARK_OFFSET) or near == pytest.approx(0)
            # every mark starts at least the bleed away from the trim
            for line in outside:
                assert (
                    line["x1"] <= x0 - MARK_OFFSET + TOLERANCE
                    or line["x0"] >= x1 + MARK_OFFSET - TOLERANCE
                    or height - line["top"] >= y1 + MARK_OFFSET - TOLERANCE
                    or height - line["bottom"] <= y0 - MARK_OFFSET + TOLERANCE
                )


def test_recipe_text_is_printed_literally(tmp_path: Path) -> None:
    title = "Puzzles <b>bold</b> & more, café"
    book = Book(title, "Ann & <Bob>", _one_section_book().sections, about="x < y & z")
    path = tmp_path / "literal.pdf"
    render_book(book, path, PrintOptions())
    with pdfplumber.open(path) as pdf:
        first = " ".join(pdf.pages[0].extract_text().split())  # the title may wrap
        about = pdf.pages[1].extract_text()  # about shares the how-to-play page
    assert title in first and "Ann & <Bob>" in first
    assert "x < y & z" in about


def test_non_latin_text_prints(tmp_path: Path) -> None:
    title = "Судоку Ελληνικά"
    book = Book(title, "Автор", _one_section_book().sections)
    path = tmp_path / "cyrillic.pdf"
    render_book(book, path, PrintOptions())
    with pdfplumber.open(path) as pdf:
        assert title in pdf.pages[0].extract_text()


def test_text_no_font_covers_is_refused(tmp_path: Path) -> None:
    book = Book("数独", "A", _one_section_book().sections)
    with pytest.raises(UnsupportedText, match=r"book title: '数' \(U\+6570"):
        render_book(book, tmp_path / "cjk.pdf", PrintOptions())


def test_unreadable_layout_is_refused_naming_the_section(tmp_path: Path) -> None:
    book = sample_book([SampleSection("monster", 25, 6, 6)], seed=1)
    with pytest.raises(UnreadableLayout, match="section 'Monster': 25x25 grids 6 to a page"):
        render_book(book, tmp_path / "small.pdf", PrintOptions(trim="5.5x8.5"))


def test_failed_render_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "book.pdf"
    path.write_bytes(b"old")

    def broken(*_args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("pipeline.render.pages.NotesPage.draw", broken)
    with pytest.raises(RuntimeError, match="disk on fire"):
        render_book(_one_section_book(), path, PrintOptions())
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["book.pdf"]


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    size=st.sampled_from([4, 6, 8, 9, 12]),
    layout=st.sampled_from([1, 2, 4, 6]),
    seed=st.integers(0, 2**32 - 1),
    blanks=st.floats(0.0, 1.0),
)
def test_any_puzzle_reads_back(size: int, layout: int, seed: int, blanks: float, tmp_path) -> None:
    solution = engine.random_grid(size, seed=seed)
    rng = np.random.default_rng(seed)
    givens = "".join("." if rng.random() < blanks else s for s in solution)
    geo = engine.geometry_for(size)
    puzzle = BookPuzzle(f"p{seed}", givens, solution, geo.box_rows, geo.box_cols, "any")
    book = Book(
        "Property", "Tests", [Section("Any", "any", layout, [puzzle, sample_puzzle(9, seed)])]
    )
    path = tmp_path / f"any-{seed}.pdf"
    render_book(book, path, PrintOptions())
    _check_book_grids(book, path)
