"""Paperback covers read back from their PDFs: KDP's size formula, text only in the safe areas
and never in the barcode box, spine text exactly past 79 pages, embedded fonts, CMYK without
transparency; the [cover] recipe table; and a real run whose cover fits its interior."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pdfplumber
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.lib.units import inch

from pipeline.recipe import RecipeError, parse_recipe
from pipeline.render.cover import (
    CoverError,
    CoverGeometry,
    CoverOptionError,
    CoverOptions,
    cmyk,
    default_back_text,
    default_subtitle,
    render_cover,
)
from pipeline.render.fonts import UnsupportedText
from pipeline.render.options import PrintOptions
from pipeline.render.sample import SampleSection, sample_book
from pipeline.store import MANIFEST_FILE
from tests.helpers import invoke, one_error_line, small_recipe

# KDP's published figures, written out here rather than imported: the oracle the cover must meet.
THICKNESS = {"white": 0.002252, "cream": 0.0025, "colour": 0.002347}
BLEED = 0.125
SAFE = 0.125
SPINE_SAFE = 0.0625
BARCODE = (2.0, 1.2)  # inches, its lower right corner 0.25 in from the spine and the bottom
BARCODE_OFFSET = 0.25
TRIMS_IN = {"6x9": (6.0, 9.0), "8.5x11": (8.5, 11.0)}
PAGE_COUNTS = (24, 79, 80, 150, 400)
TOLERANCE = 0.001  # in
LAST_PAGES_WITHOUT_SPINE_TEXT = 79
TITLE = "Cover Test Sudoku"
AUTHOR = "Ada Author"
BOOK = sample_book(
    [SampleSection("easy", 9, 4, 4), SampleSection("hard", 9, 2, 2)],
    seed=3,
    title=TITLE,
    author=AUTHOR,
)
# one worker renders this module's shared covers once (make test: pytest -n auto --dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_cover")


def expected_size(pages: int, paper: str, trim: str) -> tuple[float, float]:
    width, height = TRIMS_IN[trim]
    return (2 * width + pages * THICKNESS[paper] + 2 * BLEED, height + 2 * BLEED)


def zones(pages: int, paper: str, trim: str) -> dict[str, tuple[float, float, float, float]]:
    """Safe areas and the barcode box in inches (x0, y0, x1, y1), from KDP's rules."""
    width, height = TRIMS_IN[trim]
    spine = pages * THICKNESS[paper]
    bottom, top = BLEED + SAFE, BLEED + height - SAFE
    back_x1 = BLEED + width
    front_x0 = back_x1 + spine
    barcode_x1 = back_x1 - BARCODE_OFFSET
    barcode_y0 = BLEED + BARCODE_OFFSET
    return {
        "back": (BLEED + SAFE, bottom, back_x1 - SAFE, top),
        "spine": (back_x1 + SPINE_SAFE, bottom, front_x0 - SPINE_SAFE, top),
        "front": (front_x0 + SAFE, bottom, front_x0 + width - SAFE, top),
        "barcode": (barcode_x1 - BARCODE[0], barcode_y0, barcode_x1, barcode_y0 + BARCODE[1]),
    }


def inside(box: tuple[float, float, float, float], zone: tuple[float, float, float, float]) -> bool:
    slack = 1e-6
    return (
        zone[0] - slack <= box[0]
        and box[2] <= zone[2] + slack
        and zone[1] - slack <= box[1]
        and box[3] <= zone[3] + slack
    )


def overlaps(
    box: tuple[float, float, float, float], zone: tuple[float, float, float, float]
) -> bool:
    return box[0] < zone[2] and zone[0] < box[2] and box[1] < zone[3] and zone[1] < box[3]


def in_inches(item: dict) -> tuple[float, float, float, float]:
    return tuple(item[key] / inch for key in ("x0", "y0", "x1", "y1"))  # type: ignore[return-value]


def write_cover(folder: Path, pages: int, paper: str, trim: str, **options: object) -> Path:
    path = folder / f"cover-{pages}-{paper}-{trim}.pdf"
    render_cover(BOOK, path, pages, PrintOptions(trim=trim), CoverOptions(paper=paper, **options))
    return path


@pytest.fixture(scope="module")
def covers(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, str, str], Path]:
    """One cover per page count, paper and trim of the matrix, written once for the tests."""
    folder = tmp_path_factory.mktemp("covers")
    return {
        (pages, paper, trim): write_cover(folder, pages, paper, trim)
        for pages in PAGE_COUNTS
        for paper in ("white", "cream")
        for trim in TRIMS_IN
    }


def test_page_size_is_kdps_formula(covers: dict[tuple[int, str, str], Path]) -> None:
    for (pages, paper, trim), path in covers.items():
        (page,) = PdfReader(path).pages
        width, height = float(page.mediabox.width) / inch, float(page.mediabox.height) / inch
        want_width, want_height = expected_size(pages, paper, trim)
        assert abs(width - want_width) <= TOLERANCE, (pages, paper, trim, width)
        assert abs(height - want_height) <= TOLERANCE, (pages, paper, trim, height)
        trim_box = [float(v) / inch for v in page.trimbox]
        assert trim_box == pytest.approx(
            [BLEED, BLEED, want_width - BLEED, want_height - BLEED], abs=TOLERANCE
        )


def test_text_only_in_safe_areas_and_nothing_in_the_barcode_box(
    covers: dict[tuple[int, str, str], Path],
) -> None:
    for (pages, paper, trim), path in covers.items():
        areas = zones(pages, paper, trim)
        with pdfplumber.open(path) as pdf:
            (page,) = pdf.pages
            assert page.chars
            for char in page.chars:
                box = in_inches(char)
                where = [name for name in ("back", "spine", "front") if inside(box, areas[name])]
                assert where, (path.name, char["text"], box)
            page_size = (0, 0, page.width / inch, page.height / inch)
            drawn = [
                in_inches(item)
                for item in (*page.chars, *page.lines, *page.rects, *page.curves)
                if in_inches(item) != pytest.approx(page_size)  # the ground under everything
            ]
            assert drawn and not [box for box in drawn if overlaps(box, areas["barcode"])]


def spine_text(path: Path, pages: int, paper: str, trim: str) -> str:
    spine = zones(pages, paper, trim)["spine"]
    with pdfplumber.open(path) as pdf:
        chars = [c for c in pdf.pages[0].chars if inside(in_inches(c), spine)]
    return "".join(c["text"] for c in sorted(chars, key=lambda c: c["top"]))


def test_spine_carries_title_and_author_exactly_past_79_pages(
    covers: dict[tuple[int, str, str], Path],
) -> None:
    for (pages, paper, trim), path in covers.items():
        text = spine_text(path, pages, paper, trim)
        if pages > LAST_PAGES_WITHOUT_SPINE_TEXT:
            assert text.replace(" ", "") == (TITLE + AUTHOR).replace(" ", ""), (pages, text)
        else:
            assert text == "", (pages, text)


def test_fonts_are_embedded(covers: dict[tuple[int, str, str], Path]) -> None:
    for path in covers.values():
        fonts = PdfReader(path).pages[0]["/Resources"]["/Font"]
        assert len(fonts) >= 2
        for font in fonts.values():
            font = font.get_object()
            descriptor = font["/FontDescriptor"].get_object()
            assert {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor), font["/BaseFont"]


def colour_operations(path: Path) -> list[tuple[list[float], str]]:
    reader = PdfReader(path)
    stream = ContentStream(reader.pages[0].get_contents(), reader)
    colour_ops = {"k", "K", "rg", "RG", "g", "G", "sc", "SC", "scn", "SCN", "cs", "CS"}
    return [
        ([float(v) for v in operands if isinstance(v, int | float)], operator.decode())
        for operands, operator in stream.operations
        if operator.decode() in colour_ops
    ]


def test_colours_are_cmyk_or_grey_and_nothing_is_transparent(
    covers: dict[tuple[int, str, str], Path],
) -> None:
    for path in covers.values():
        operators = {operator for _, operator in colour_operations(path)}
        assert {"k", "K"} <= operators <= {"k", "K", "g", "G"}, operators
        raw = path.read_bytes()
        assert b"/SMask" not in raw
        resources = PdfReader(path).pages[0]["/Resources"]
        for state in resources.get("/ExtGState", {}).values():
            state = state.get_object()
            assert float(state.get("/CA", 1)) == 1 and float(state.get("/ca", 1)) == 1


def test_recipe_colours_are_the_inks_printed(tmp_path: Path) -> None:
    path = write_cover(tmp_path, 120, "white", "6x9", background=[10, 20, 30, 40], accent="#ff0000")
    fills = [tuple(operands) for operands, operator in colour_operations(path) if operator == "k"]
    strokes = [tuple(operands) for operands, operator in colour_operations(path) if operator == "K"]
    assert fills[0] == pytest.approx((0.1, 0.2, 0.3, 0.4))  # the ground, drawn first
    assert (0.0, 1.0, 1.0, 0.0) in [pytest.approx(s) for s in strokes]  # red: magenta + yellow


def test_the_same_book_gives_the_same_bytes(tmp_path: Path) -> None:
    first, second = (tmp_path / "one", tmp_path / "two")
    for folder in (first, second):
        folder.mkdir()
        write_cover(folder, 150, "cream", "6x9")
    name = "cover-150-cream-6x9.pdf"
    assert (first / name).read_bytes() == (second / name).read_bytes()


def test_default_texts_are_written_from_the_book(tmp_path: Path) -> None:
    sections = [SampleSection("kids", 6, 4, 2), SampleSection("easy", 9, 4, 3)]
    book = sample_book([*sections, SampleSection("giant", 16, 1, 1)], title="Mixed")
    path = tmp_path / "mixed.pdf"
    render_cover(book, path, 100, PrintOptions(), CoverOptions())
    areas = zones(100, "white", "8.5x11")
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        back = " ".join(page.crop([v * inch for v in areas["back"]]).extract_text().split())
        front = " ".join(page.crop([v * inch for v in areas["front"]]).extract_text().split())
    assert "Mixed holds 6 puzzles in 3 sections (Kids, Easy and Giant)" in back
    assert "The grids are 6x6, 9x9 and 16x16; every answer is at the back" in back
    assert "A puzzle from the Giant section" in back
    assert "6 puzzles, Kids to Giant" in front
    single = sample_book([SampleSection("easy", 9, 4, 1)], title="One")
    assert default_subtitle(single) == "1 Easy puzzle"
    assert default_back_text(single).startswith("One holds 1 Easy puzzle, every puzzle graded")


def test_long_texts_shrink_and_wrap_inside_the_safe_areas(tmp_path: Path) -> None:
    long_title = "The Enormous Weekend Collection of Thoroughly Unreasonable Sudoku Grids"
    book = sample_book([SampleSection("expert", 9, 4, 4)], seed=5, title=long_title, author="Bo")
    options = CoverOptions(subtitle="An evening of logic " * 6, back_text="Cells and boxes. " * 40)
    path = tmp_path / "long.pdf"
    render_cover(book, path, 400, PrintOptions(trim="6x9"), options)
    areas = zones(400, "white", "6x9")
    with pdfplumber.open(path) as pdf:
        chars = pdf.pages[0].chars
    for char in chars:
        box = in_inches(char)
        assert any(inside(box, areas[name]) for name in ("back", "spine", "front")), char["text"]
        assert not overlaps(box, areas["barcode"])
    spine = [c for c in chars if inside(in_inches(c), areas["spine"])]
    assert "".join(c["text"] for c in spine).replace(" ", "") == (long_title + "Bo").replace(
        " ", ""
    )
    assert all(not c["upright"] for c in spine)
    assert max(c["x1"] - c["x0"] for c in spine) < 16  # 1 em across: shrunk to the spine's length


def test_text_that_cannot_fit_is_refused_naming_it(tmp_path: Path) -> None:
    options = CoverOptions(back_text="Far too many words for one back cover. " * 200)
    with pytest.raises(CoverError, match=r"cover back_text 'Far too many words.*shorten it"):
        render_cover(BOOK, tmp_path / "c.pdf", 100, PrintOptions(trim="6x9"), options)
    assert not (tmp_path / "c.pdf").exists()
    with pytest.raises(UnsupportedText, match="cover subtitle"):
        render_cover(BOOK, tmp_path / "c.pdf", 100, PrintOptions(), CoverOptions(subtitle="数独"))


def test_cover_needs_a_perfect_bound_book_of_kdps_page_range(tmp_path: Path) -> None:
    stitched = PrintOptions(binding="saddle-stitch")
    with pytest.raises(CoverError, match="needs binding 'perfect', not 'saddle-stitch'"):
        render_cover(BOOK, tmp_path / "c.pdf", 40, stitched, CoverOptions())
    for pages in (23, 829):
        with pytest.raises(CoverError, match=f"24-828 pages; the book has {pages}"):
            render_cover(BOOK, tmp_path / "c.pdf", pages, PrintOptions(), CoverOptions())


@given(
    pages=st.integers(24, 828),
    paper=st.sampled_from(sorted(THICKNESS)),
    width=st.floats(4, 12),
    height=st.floats(4, 14),
)
def test_geometry_follows_the_formula_for_any_trim(
    pages: int, paper: str, width: float, height: float
) -> None:
    geometry = CoverGeometry((width * inch, height * inch), pages, paper)
    cover_width, cover_height = (side / inch for side in geometry.size)
    spine = pages * THICKNESS[paper]
    assert cover_width == pytest.approx(2 * width + spine + 2 * BLEED, abs=1e-9)
    assert cover_height == pytest.approx(height + 2 * BLEED, abs=1e-9)
    back, spine_box, front = geometry.back, geometry.spine_box, geometry.front
    assert back.x0 == pytest.approx(BLEED * inch) and front.x1 == pytest.approx(
        (cover_width - BLEED) * inch
    )
    assert back.x1 == spine_box.x0 and spine_box.x1 == front.x0
    assert spine_box.width / inch == pytest.approx(spine, abs=1e-9)
    assert inside(geometry.back_safe.as_tuple(), back.as_tuple())
    assert inside(geometry.front_safe.as_tuple(), front.as_tuple())
    assert (spine_box.width - geometry.spine_safe.width) / inch == pytest.approx(2 * SPINE_SAFE)
    barcode = geometry.barcode
    assert (barcode.width / inch, barcode.height / inch) == pytest.approx(BARCODE)
    assert inside(barcode.as_tuple(), geometry.back_safe.as_tuple())
    assert geometry.spine_text == (pages > LAST_PAGES_WITHOUT_SPINE_TEXT)


@given(st.tuples(*[st.integers(0, 255)] * 3))
def test_hex_colours_convert_to_cmyk_that_prints_the_same_rgb(rgb: tuple[int, int, int]) -> None:
    c, m, y, k = (part / 100 for part in cmyk("#{:02x}{:02X}{:02x}".format(*rgb), "accent"))
    assert all(0 <= part <= 1 for part in (c, m, y, k))
    back = [255 * (1 - ink) * (1 - k) for ink in (c, m, y)]
    assert back == pytest.approx(list(rgb), abs=0.1)


NEAR_HEX = st.text(alphabet="0123456789abcdefABCDEFg +-_\uff11\u0663", min_size=6, max_size=6)


@given(
    st.one_of(st.text(max_size=12), NEAR_HEX.map("#{}".format)).filter(
        lambda text: not re.fullmatch(r"#[0-9a-fA-F]{6}", text, flags=re.ASCII)
    )
)
def test_anything_but_a_hex_colour_string_is_refused_naming_the_key(text: str) -> None:
    """Signs, spaces and non-ASCII digits, which ``int(x, 16)`` would take, are refused too."""
    with pytest.raises(CoverOptionError, match="cover option 'background'"):
        CoverOptions(background=text)


RECIPE = {"title": "Cover Recipe", "seed": 1, "sections": [{"tier": "easy", "count": 4}]}


@pytest.mark.parametrize(
    ("cover", "key", "problem"),
    [
        ({"paper": "glossy"}, "cover.paper", "one of white, cream, colour"),
        ({"paper": 3}, "cover.paper", "got 3"),
        ({"subtitle": 12}, "cover.subtitle", "a non-empty string"),
        ({"back_text": "  "}, "cover.back_text", "expected a non-empty string"),
        ({"background": [0, 0, 0]}, "cover.background", "[c, m, y, k] percentages"),
        ({"background": [0, 0, float("nan"), 0]}, "cover.background", "from 0 to 100"),
        ({"accent": [0, 0, 120, 0]}, "cover.accent", "from 0 to 100"),
        ({"accent": "#12345g"}, "cover.accent", "not a hex colour"),
        ({"colour": "red"}, "cover.colour", "unknown key"),
    ],
)
def test_bad_cover_keys_are_named(cover: dict, key: str, problem: str) -> None:
    with pytest.raises(RecipeError, match=rf"book.toml: {re.escape(key)}: .*{re.escape(problem)}"):
        parse_recipe({**RECIPE, "cover": cover}, "book.toml")


def test_cover_table_presence_asks_for_a_cover() -> None:
    assert parse_recipe(RECIPE).cover is None
    assert parse_recipe({**RECIPE, "cover": {}}).cover == CoverOptions()
    read = parse_recipe({**RECIPE, "cover": {"paper": "cream", "background": "#000000"}}).cover
    assert read is not None and read.paper == "cream" and read.background == (0, 0, 0, 100)
    stitched = {**RECIPE, "print": {"binding": "saddle-stitch"}, "cover": {}}
    with pytest.raises(RecipeError, match=r"book.toml: cover: .*needs binding 'perfect'"):
        parse_recipe(stitched, "book.toml")


def test_a_run_writes_the_cover_of_its_real_page_count(tmp_path: Path) -> None:
    recipe = small_recipe(tmp_path)
    recipe.write_text(recipe.read_text() + '[cover]\npaper = "cream"\n')
    code, told, err = invoke("run", recipe, "--quiet", "--jobs", 1)
    assert code == 0, err
    (manifest_path,) = (tmp_path / "output").glob(f"*/*/{MANIFEST_FILE}")
    folder = manifest_path.parent
    manifest = json.loads(manifest_path.read_text())
    pages = len(PdfReader(folder / manifest["pdf"]["file"]).pages)
    assert pages == manifest["pdf"]["pages"]
    cover = manifest["cover"]
    want_width, want_height = expected_size(pages, "cream", "8.5x11")  # the default trim, letter
    assert cover == {
        "file": "small-test-cover.pdf",
        "width_in": pytest.approx(want_width, abs=TOLERANCE),
        "height_in": pytest.approx(want_height, abs=TOLERANCE),
        "spine_in": pytest.approx(pages * THICKNESS["cream"], abs=TOLERANCE),
        "paper": "cream",
        "spine_text": pages > LAST_PAGES_WITHOUT_SPINE_TEXT,
    }
    assert told.splitlines()[-1] == (
        f"cover: {cover['file']} ({cover['width_in']} x {cover['height_in']} in, "
        f"spine {cover['spine_in']} in)"
    )
    box = PdfReader(folder / cover["file"]).pages[0].mediabox
    assert float(box.width) / inch == pytest.approx(want_width, abs=TOLERANCE)
    assert float(box.height) / inch == pytest.approx(want_height, abs=TOLERANCE)

    pdf = tmp_path / "again.pdf"
    code, out, err = invoke("render", folder, "-o", pdf, "--trim", "6x9", "--cover")
    assert code == 0, err
    again = len(PdfReader(pdf).pages)
    box = PdfReader(tmp_path / "again-cover.pdf").pages[0].mediabox
    assert float(box.width) / inch == pytest.approx(
        expected_size(again, "white", "6x9")[0], abs=TOLERANCE
    )
    assert f"written to {tmp_path / 'again-cover.pdf'}" in out


def test_render_cover_refuses_a_saddle_stitched_book(tmp_path: Path) -> None:
    code, _, err = invoke(
        "render", tmp_path, "-o", tmp_path / "b.pdf", "--cover", "--imposition", "saddle-stitch"
    )
    assert code == 2
    assert (
        one_error_line(err)
        == "Error: a paperback cover needs binding 'perfect', not 'saddle-stitch'"
    )
