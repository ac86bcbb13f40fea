"""Regenerate the page images in this folder: a sample book for the layouts, a small real run
(dug and graded puzzles) for the hints, worked solutions and report charts, the nightly book's
front pages (contents, how to play, about the difficulty), large print, an imposed sheet, and
two paperback covers (rasterised with pypdfium2), the variants (Sudoku-X, Windoku, Jigsaw and
their combinations) and Killer.

Run: ``.venv/bin/python docs/render/make_pages.py`` (needs ``pdftoppm`` from poppler-utils and
``chromium`` for the report's screenshot); name parts to make only those, e.g.
``make_pages.py variants``.
"""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2

from pipeline.recipe import load_recipe, parse_recipe, with_overrides
from pipeline.render.book import Book
from pipeline.render.booklet import render_book
from pipeline.render.cover import CoverOptions, render_cover
from pipeline.render.hints import HINTS_HEADING, WORKED_HEADING
from pipeline.render.options import PrintOptions
from pipeline.render.sample import SampleSection, sample_book
from pipeline.run import REPORT_HTML_FILE, run_book

HERE = Path(__file__).resolve().parent
NIGHTLY = HERE.parents[1] / "configs" / "nightly.toml"
NIGHTLY_SEED = 7
DPI = 80
SECTIONS = [
    SampleSection("easy", 9, 1, 2),
    SampleSection("medium", 9, 2, 2),
    SampleSection("hard", 9, 4, 4),
    SampleSection("expert", 9, 6, 6),
    SampleSection("giant", 16, 1, 1),
    SampleSection("kids", 6, 4, 4),
]
# image name -> heading of the page to show (the first page under that heading)
IMAGES = {
    "layout-1.png": "Easy",
    "layout-2.png": "Medium",
    "layout-4.png": "Hard",
    "layout-6.png": "Expert",
    "giant-16x16.png": "Giant",
    "kids-6x6.png": "Kids",
    "answers.png": "Answers: Expert",
}


#: A small real run: a few puzzles of each tier, with hints and worked solutions for experts.
RUN = {
    "title": "Sample Run",
    "seed": 17,
    "parallel": {"n_jobs": 1},
    "print": {"shade_answers": True, "hints": True, "worked_solutions": ["expert"]},
    "sections": [
        {"tier": tier, "count": 4, "layout": 4}
        for tier in ("easy", "medium", "hard", "expert", "extreme")
    ],
}
#: Paperback covers on 6x9: image -> (title, the sample book's sections, the [cover] options).
#: The sections give interiors of 24 and 150 pages: a thin book without spine text on the
#: defaults, and a thick one with spine text on cream paper in colours of its own.
COVERS = {
    "cover-24.png": ("Pocket Sudoku", [SampleSection("easy", 9, 4, 12)], CoverOptions()),
    "cover-150.png": (
        "The Big Book of Sudoku",
        [
            SampleSection("easy", 9, 2, 73),
            SampleSection("medium", 9, 2, 73),
            SampleSection("hard", 9, 2, 72),
        ],
        CoverOptions(paper="cream", background="#2b2d42", accent="#ef8354"),
    ),
}
COVER_TRIM = "6x9"
#: Variant sections: (title, the sample section); then image -> heading of its page.
VARIANT_SECTIONS = [
    ("Sudoku-X", SampleSection("medium", 9, 2, 2, "x")),
    ("Windoku", SampleSection("medium", 9, 2, 2, "windoku")),
    ("Jigsaw", SampleSection("medium", 9, 1, 1, "jigsaw")),
    ("Jigsaw-X", SampleSection("hard", 9, 2, 2, "jigsaw+x")),
    ("Windoku-X", SampleSection("hard", 9, 2, 2, "windoku+x")),
    ("Kids' Jigsaw", SampleSection("easy", 6, 4, 4, "jigsaw")),
]
VARIANT_IMAGES = {
    "variant-x.png": "Sudoku-X",
    "variant-windoku.png": "Windoku",
    "variant-jigsaw.png": "Jigsaw",
    "variant-jigsaw-x.png": "Jigsaw-X",
    "variant-windoku-x.png": "Windoku-X",
    "variant-jigsaw-6x6.png": "Kids' Jigsaw",
    "variant-answers.png": "Answers: Jigsaw-X",
}
#: Killer: a 9x9 section on a 6x9 trim, 2 to a page, its answers, and large print on letter.
KILLER_SECTIONS = [
    ("Killer", SampleSection("hard", 9, 2, 4, "killer")),
    ("Killer-X", SampleSection("hard", 9, 2, 2, "killer+x")),
]
KILLER_IMAGES = {"killer-puzzles.png": "Killer", "killer-answers.png": "Answers: Killer"}
POINTS_PER_INCH = 72
REPORT_WINDOW = "1200,1500"
CHROMIUM = [
    "chromium",
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    f"--window-size={REPORT_WINDOW}",
]


def page_png(pdf: Path, page: int, name: str) -> None:
    """Page ``page`` of ``pdf`` as ``name`` in this folder."""
    command = ["pdftoppm", "-png", "-r", str(DPI), "-f", str(page), "-l", str(page), "-singlefile"]
    subprocess.run([*command, str(pdf), str(HERE / Path(name).stem)], check=True)
    print(f"{name}: page {page} of {pdf.name}")


def layouts(folder: Path) -> None:
    book = sample_book(
        SECTIONS,
        seed=2,
        title="Sample Sudoku",
        author="sudoku-pipeline",
        about="Puzzles get harder section by section.",
    )
    pdf = folder / "sample.pdf"
    result = render_book(book, pdf, PrintOptions(shade_answers=True))
    first_pages = dict(result.contents) | {"title": 1, "contents": 2}
    for name, heading in {"title.png": "title", "contents.png": "contents", **IMAGES}.items():
        page_png(pdf, first_pages[heading], name)


def real_run(folder: Path) -> None:
    """Hints, a worked solution and the report's charts, from a run of real puzzles."""
    result = run_book(parse_recipe({**RUN, "output": str(folder / "output")}))
    pdf = result.folder / result.manifest["pdf"]["file"]
    first_pages = {}
    for page, text in enumerate(_page_texts(pdf), start=1):
        heading = text.splitlines()[0] if text else ""
        first_pages.setdefault(heading, page)
    page_png(pdf, first_pages[HINTS_HEADING], "hints.png")
    page_png(pdf, first_pages[WORKED_HEADING], "worked-solution.png")
    if shutil.which(CHROMIUM[0]) is None:
        print(f"report.png: left as it was ({CHROMIUM[0]} is not installed)")
        return
    shot = HERE / "report.png"
    profile = f"--user-data-dir={folder / 'chromium'}"
    report = (result.folder / REPORT_HTML_FILE).as_uri()
    subprocess.run([*CHROMIUM, profile, f"--screenshot={shot}", report], check=True)
    print(f"report.png: {REPORT_HTML_FILE} in headless chromium")


def nightly_front(folder: Path) -> None:
    """Pages 2 and 3 of the nightly book: what a buyer reads before the first puzzle."""
    recipe = with_overrides(
        load_recipe(NIGHTLY), output=folder / "nightly", seed=NIGHTLY_SEED, n_jobs=1
    )
    result = run_book(recipe)
    pdf = result.folder / result.manifest["pdf"]["file"]
    page_png(pdf, 2, "about-1.png")
    page_png(pdf, 3, "about-2.png")


def large_print(folder: Path) -> None:
    book = sample_book([SampleSection("easy", 9, 4, 2)], seed=4, title="Large Print Sudoku")
    pdf = folder / "large.pdf"
    result = render_book(book, pdf, PrintOptions(large_print=True))
    page_png(pdf, dict(result.contents)["Easy"], "large-print.png")


def imposed(folder: Path) -> None:
    book = sample_book([SampleSection("kids", 6, 4, 8)], seed=6, title="Kids Sudoku")
    options = PrintOptions(trim="5.5x8.5", binding="saddle-stitch", imposition="saddle-stitch")
    result = render_book(book, folder / "kids.pdf", options)
    assert result.imposed_path is not None
    page_png(result.imposed_path, 2, "imposed-sheet.png")  # the back of the outer sheet


def covers(folder: Path) -> None:
    """Each sample book's interior, then its cover from the interior's page count."""
    options = PrintOptions(trim=COVER_TRIM)
    for name, (title, sections, cover) in COVERS.items():
        book = sample_book(sections, seed=1, title=title, author="sudoku-pipeline")
        interior = render_book(book, folder / f"{Path(name).stem}-interior.pdf", options)
        path = folder / f"{Path(name).stem}.pdf"
        written = render_cover(book, path, interior.pages, options, cover)
        document = pypdfium2.PdfDocument(path)
        try:
            document[0].render(scale=DPI / POINTS_PER_INCH).to_pil().save(HERE / name)
        finally:
            document.close()
        print(f"{name}: cover of a {interior.pages}-page interior, {written.manifest()}")


def _page_texts(pdf: Path) -> list[str]:
    pages = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True)
    return [page.strip() for page in pages.stdout.split("\f")]


def _titled_sample(sections: list[tuple[str, SampleSection]], seed: int, title: str) -> Book:
    """A sample book of (section title, SampleSection) pairs, each section under its title."""
    book = sample_book([spec for _, spec in sections], seed=seed, title=title)
    titled = [
        dataclasses.replace(section, title=name)
        for section, (name, _) in zip(book.sections, sections, strict=True)
    ]
    return dataclasses.replace(book, sections=titled)


def _book_pages(book: Book, pdf: Path, options: PrintOptions, images: dict[str, str]) -> None:
    """Print ``book`` to ``pdf`` and save, for each image name, the first page under its
    heading (``rules``: page 2, how to play)."""
    result = render_book(book, pdf, options)
    first_pages = dict(result.contents) | {"rules": 2}
    for name, heading in images.items():
        page_png(pdf, first_pages[heading], name)


def variants(folder: Path) -> None:
    """A page of each variant, an answers page, the how-to-play page stating each variant's
    rule once, and the 6x6 Jigsaw again with its regions tinted."""
    book = _titled_sample(VARIANT_SECTIONS, seed=11, title="Variant Sudoku")
    images = {"variant-rules.png": "rules", **VARIANT_IMAGES}
    _book_pages(book, folder / "variants.pdf", PrintOptions(), images)
    tinted = {"variant-jigsaw-tinted.png": "Kids' Jigsaw"}
    _book_pages(book, folder / "tinted.pdf", PrintOptions(region_tint=True), tinted)


def killer(folder: Path) -> None:
    """Killer pages on a 6x9 trim (puzzles, answers with faint cages, the rules page) and a
    large-print page on letter."""
    book = _titled_sample(KILLER_SECTIONS, seed=5, title="Killer Sudoku")
    images = {"killer-rules.png": "rules", **KILLER_IMAGES}
    _book_pages(book, folder / "killer.pdf", PrintOptions(trim="6x9"), images)
    large = {"killer-large-print.png": "Killer"}
    _book_pages(book, folder / "killer-large.pdf", PrintOptions(large_print=True), large)


PARTS = {
    "layouts": layouts,
    "real_run": real_run,
    "nightly_front": nightly_front,
    "large_print": large_print,
    "imposed": imposed,
    "covers": covers,
    "variants": variants,
    "killer": killer,
}


def main(names: list[str]) -> None:
    unknown = sorted(set(names) - set(PARTS))
    if unknown:
        sys.exit(f"unknown part {', '.join(unknown)}: choose from {', '.join(PARTS)}")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for part, make in PARTS.items():
            if not names or part in names:
                make(folder)


if __name__ == "__main__":
    main(sys.argv[1:])
