"""Book assembly: plan every page, check it is printable, then write the PDF atomically.

Page order: title page, contents and how to play followed by the about text (when the book has
one; it starts a page of its own rather than leave a few lines over), the sections, the hints
(when asked for), the answers, the worked solutions (for the tiers asked for), then ruled notes
pages to reach the page count the binding needs. The gutter depends on the page count and the
page count on the gutter (text reflows), so planning repeats until the two agree. Bytes are
reproducible: reportlab's invariant mode fixes dates and document ids, and fonts are subset in a
fixed order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.units import inch
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from pipeline.formats.writers import atomic_path
from pipeline.render.book import Book, BookError, Section
from pipeline.render.fonts import Fonts, check_text, fonts
from pipeline.render.grid import symbol_size
from pipeline.render.hints import HINTS_HEADING, WORKED_HEADING, hint_flowables, worked_flowables
from pipeline.render.imposition import SLUG, draw_marks, saddle_stitch_sides, sheet_size
from pipeline.render.options import NO_IMPOSITION, PrintOptions
from pipeline.render.page import (
    PAGES_PER_UNIT,
    Box,
    PageFrame,
    gutter_for,
    media_size,
    padded_page_count,
    page_frame,
)
from pipeline.render.pages import (
    ANSWER_LABEL_SIZE,
    DIGITS,
    Context,
    Entry,
    GridPage,
    NotesPage,
    Styles,
    TextPage,
    TitlePage,
    bold_text,
    grid_area,
    label_band,
    paragraph_text,
    puzzle_label_size,
    symbol_word,
    text_area,
)
from pipeline.render.slots import MAX_CELL, best_columns
from pipeline.render.variants import rule_sentences

Page = TitlePage | TextPage | GridPage | NotesPage

MIN_PUZZLE_SYMBOL = 8.0  # pt: smaller symbols in a puzzle are a strain to read and write beside
MIN_ANSWER_SYMBOL = 5.0  # pt: answers are looked up, not worked in
LARGE_PRINT_SYMBOL = 24.0  # pt: the clues of a large-print book
LARGE_PRINT_LAYOUT = 2  # puzzles per page at most in large print
CONTENTS_NUMBER_WIDTH = 0.6 * inch
CONTENTS_ROW_PADDING = 1.5  # pt above and below each line of the contents
CREATOR = "sudoku-pipeline"
FRONT_PAGES = 1  # the title page, before the flowing front matter
IMPOSED_SUFFIX = "-imposed"
ABOUT_HEADING = "About the difficulty"
KEEP_WITH_NEXT_ROOM = 0.6 * inch  # under a heading at a page's foot: about three lines of text


class UnreadableLayout(BookError):
    """A section's layout would print symbols too small to read on this trim."""


@dataclass(frozen=True)
class RenderResult:
    """What was written: counts and sizes (points) for the manifest and the report."""

    path: Path  # the book as single pages
    imposed_path: Path | None  # its imposed sheets, when imposition was asked for
    pages: int  # pages of the book, padding included
    sheets: int  # sheets of paper: leaves of 2 pages (perfect binding), folded 4 (saddle stitch)
    page_size: tuple[float, float]  # trim plus bleed
    sheet_size: tuple[float, float]  # an imposed side with its slug (the page size if none)
    blank_pages: int  # notes pages added for the binding
    puzzles: int
    gutter: float
    contents: tuple[tuple[str, int], ...]  # (heading, first page) as printed in the contents


@dataclass
class Plan:
    pages: list[Page]
    gutter: float
    blank_pages: int
    contents: list[tuple[str, int]]


def render_book(book: Book, path: Path, options: PrintOptions) -> RenderResult:
    """Write ``book`` to ``path`` as a print-ready PDF of single pages and, when imposition is
    asked for, the imposed sheets beside it (:func:`imposed_path`); files appear only when
    complete."""
    chosen = fonts()
    check_book_text(book)
    plan = plan_book(book, options, chosen)
    context = Context(book, chosen, Styles(chosen, large=options.large_print))
    trim, bleed = options.trim_size, options.bleed
    frames = [page_frame(k + 1, trim, bleed, plan.gutter) for k in range(len(plan.pages))]
    page_size = media_size(trim, bleed)
    path = Path(path)
    with _canvas(path, page_size, book, chosen) as canv:
        _write_pages(canv, plan.pages, frames, context)
    imposed, side_size = None, page_size
    if options.imposition != NO_IMPOSITION:
        imposed, side_size = imposed_path(path), sheet_size(page_size)
        with _canvas(imposed, side_size, book, chosen) as canv:
            _write_sheets(canv, plan.pages, frames, context)
    return RenderResult(
        path=path,
        imposed_path=imposed,
        pages=len(plan.pages),
        sheets=len(plan.pages) // PAGES_PER_UNIT[options.binding],
        page_size=page_size,
        sheet_size=side_size,
        blank_pages=plan.blank_pages,
        puzzles=book.puzzle_count,
        gutter=plan.gutter,
        contents=tuple(plan.contents),
    )


def imposed_path(path: Path) -> Path:
    """Where the imposed sheets of the book at ``path`` go: ``book.pdf`` -> ``book-imposed.pdf``."""
    return path.with_name(f"{path.stem}{IMPOSED_SUFFIX}{path.suffix}")


@contextmanager
def _canvas(path: Path, size: tuple[float, float], book: Book, chosen: Fonts) -> Iterator[Canvas]:
    """A canvas writing to a temporary file that replaces ``path`` once saved."""
    with atomic_path(path) as temporary, temporary.open("wb") as handle:
        canv = Canvas(
            handle, pagesize=size, invariant=1, pageCompression=1, initialFontName=chosen.text
        )
        canv.setTitle(book.title)
        canv.setAuthor(book.author)
        canv.setCreator(CREATOR)
        yield canv
        canv.save()


def check_book_text(book: Book) -> None:
    """Every piece of recipe text must be printable in the embedded text fonts."""
    check_text(book.title, "book title")
    check_text(book.author, "book author")
    if book.about:
        check_text(book.about, "book about text")
    for section in book.sections:
        check_text(section.title, f"section {section.title!r} title")
        for tier in {puzzle.tier for puzzle in section.puzzles}:
            check_text(tier, f"section {section.title!r} tier")


def plan_book(book: Book, options: PrintOptions, chosen: Fonts) -> Plan:
    """All pages in order, with the gutter that suits their count."""
    styles = Styles(chosen, large=options.large_print)
    gutter = gutter_for(0, options.binding)
    while True:  # a wider gutter never removes pages, so this climbs the table and stops
        pages, contents = _plan_pages(book, options, gutter, styles)
        total = padded_page_count(len(pages), options.binding)
        needed = gutter_for(total, options.binding)
        if needed <= gutter:
            break
        gutter = needed
    blank = total - len(pages)
    pages.extend(NotesPage() for _ in range(blank))
    return Plan(pages, gutter, blank, contents)


def _plan_pages(
    book: Book, options: PrintOptions, gutter: float, styles: Styles
) -> tuple[list[Page], list[tuple[str, int]]]:
    frame = page_frame(1, options.trim_size, options.bleed, gutter)
    text_box = text_area(frame)
    answers_per_page = [_answers_per_page(section, frame, options) for section in book.sections]
    per_page = [_puzzles_per_page(section, frame, options) for section in book.sections]
    _check_title_fits(book, styles, frame)

    body = _body_pages(book, options, (per_page, answers_per_page), styles, text_box)
    headings = [heading for heading, _ in body if heading]

    def front_for(numbers: Sequence[int]) -> list[list[Flowable]]:
        contents = list(zip(headings, numbers, strict=True))
        front = _front_flowables(book, options, styles, contents, text_box)
        if not book.about:
            return _flow(front, text_box)
        return _kept_together(_flow(front, text_box), _about_flowables(book, styles), text_box)

    # the contents' length does not depend on the numbers in it: lay it out once to count it
    before_grids = FRONT_PAGES + len(front_for([0] * len(headings)))
    numbers = [before_grids + k + 1 for k, (heading, _) in enumerate(body) if heading]
    front = front_for(numbers)
    assert before_grids == FRONT_PAGES + len(front)
    pages: list[Page] = [TitlePage()]
    pages.extend(TextPage(flowables) for flowables in front)
    pages.extend(page for _, page in body)
    contents = list(zip(headings, numbers, strict=True))
    return pages, contents


def _body_pages(
    book: Book,
    options: PrintOptions,
    per_page: tuple[list[int], list[int]],
    styles: Styles,
    box: Box,
) -> list[tuple[str | None, Page]]:
    """Puzzles, hints, answers and worked solutions in print order, each page with the heading
    the contents lists it under (None for a section's later pages)."""
    grid = [
        (page.heading if page.first else None, page)
        for page in _grid_pages(book, *per_page, options)
    ]
    hints = hint_flowables(book, styles.heading, styles.body) if options.hints else []
    worked = worked_flowables(book, options.worked_solutions, styles.heading, styles.body)
    return [
        *(item for item in grid if not item[1].answer),
        *_text_section(hints, HINTS_HEADING, box),
        *(item for item in grid if item[1].answer),
        *_text_section(worked, WORKED_HEADING, box),
    ]


def _text_section(
    flowables: list[Flowable], heading: str, box: Box
) -> list[tuple[str | None, Page]]:
    pages = _flow(flowables, box)
    return [(heading if k == 0 else None, TextPage(page)) for k, page in enumerate(pages)]


def _grid_pages(
    book: Book, puzzles_per_page: list[int], answers_per_page: list[int], options: PrintOptions
) -> Iterator[GridPage]:
    """Every section's puzzle pages, then every section's answer pages."""
    numbered: list[list[Entry]] = []
    number = 1
    for section in book.sections:
        numbered.append([Entry(number + k, puzzle) for k, puzzle in enumerate(section.puzzles)])
        number += len(section.puzzles)
    for section, entries, count in zip(book.sections, numbered, puzzles_per_page, strict=True):
        yield from _chunked(section, entries, count, options, answer=False)
    for section, entries, per_page in zip(book.sections, numbered, answers_per_page, strict=True):
        yield from _chunked(section, entries, per_page, options, answer=True)


def _chunked(
    section: Section, entries: list[Entry], per_page: int, options: PrintOptions, *, answer: bool
) -> Iterator[GridPage]:
    """A section's puzzle pages, or its answer pages (shaded by pass when asked for); large
    print sets its puzzle labels up."""
    shade = answer and options.shade_answers
    large = not answer and options.large_print
    for start in range(0, len(entries), per_page):
        chunk = entries[start : start + per_page]
        first = start == 0
        yield GridPage(section, chunk, per_page, answer, first, shade, large, options.region_tint)


def _largest_symbol(count: int, area: Box, band: float, n: int) -> float:
    _, side = best_columns(count, area, band)
    return symbol_size(min(side, n * MAX_CELL) / n)


def _check_title_fits(book: Book, styles: Styles, frame: PageFrame) -> None:
    area = TitlePage.area(frame)
    flowables = TitlePage.flowables(book, styles)
    height = sum(f.wrap(area.width, area.height)[1] + f.getSpaceAfter() for f in flowables)
    if height > area.height:
        raise BookError(
            f"book title and author need {height:.0f} pt on the title page, which has "
            f"{area.height:.0f} pt: shorten them"
        )


def _puzzles_per_page(section: Section, frame: PageFrame, options: PrintOptions) -> int:
    """The section's puzzles per page, checked readable. Large print takes the most, up to
    ``LARGE_PRINT_LAYOUT`` and the section's own, whose symbols print at least
    ``LARGE_PRINT_SYMBOL`` high."""
    area = grid_area(frame)
    n = max(puzzle.grids.geometry.n for puzzle in section.puzzles)
    band = label_band(puzzle_label_size(options.large_print))
    if options.large_print:
        for count in range(min(section.layout, LARGE_PRINT_LAYOUT), 0, -1):
            if _largest_symbol(count, area, band, n) >= LARGE_PRINT_SYMBOL:
                return count
        raise UnreadableLayout(
            f"section {section.title!r}: even one {n}x{n} grid per page on trim "
            f"{options.trim!r} prints symbols under the {LARGE_PRINT_SYMBOL:g} pt of large "
            "print; choose a larger trim"
        )
    size = _largest_symbol(section.layout, area, band, n)
    if size < MIN_PUZZLE_SYMBOL:
        raise UnreadableLayout(
            f"section {section.title!r}: {n}x{n} grids {section.layout} to a page on trim "
            f"{options.trim!r} print symbols {size:.1f} pt high, below the {MIN_PUZZLE_SYMBOL:g} "
            "pt a reader needs; choose fewer puzzles per page"
        )
    return section.layout


def _answers_per_page(section: Section, frame: PageFrame, options: PrintOptions) -> int:
    """The most answers per page, up to the option, that stay legible for this section."""
    area = grid_area(frame, legend=options.shade_answers)
    n = max(puzzle.grids.geometry.n for puzzle in section.puzzles)
    band = label_band(ANSWER_LABEL_SIZE)
    for count in range(options.answers_per_page, 0, -1):
        if _largest_symbol(count, area, band, n) >= MIN_ANSWER_SYMBOL:
            return count
    raise UnreadableLayout(
        f"section {section.title!r}: even one {n}x{n} answer per page on trim {options.trim!r} "
        f"prints symbols under {MIN_ANSWER_SYMBOL:g} pt"
    )


def _front_flowables(
    book: Book,
    options: PrintOptions,
    styles: Styles,
    contents: Sequence[tuple[str, int]],
    box: Box,
) -> list[Flowable]:
    rows = [
        [Paragraph(paragraph_text(title), styles.body), str(number)] for title, number in contents
    ]
    table = Table(
        rows,
        colWidths=[box.width - CONTENTS_NUMBER_WIDTH, CONTENTS_NUMBER_WIDTH],
        style=TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), styles.body.fontName),
                ("FONTSIZE", (0, 0), (-1, -1), styles.body.fontSize),
                ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (0, -1), 0),
                ("RIGHTPADDING", (-1, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), CONTENTS_ROW_PADDING),
                ("BOTTOMPADDING", (0, 0), (-1, -1), CONTENTS_ROW_PADDING),
            ]
        ),
        hAlign="LEFT",
    )
    rules = [Paragraph(text, styles.body) for text in _how_to_play(book, options)]
    table.spaceAfter = rules[-1].spaceAfter = styles.heading.fontSize  # room above a heading
    return [
        Paragraph("Contents", styles.heading),
        table,
        Paragraph("How to play", styles.heading),
        *rules,
    ]


def _how_to_play(book: Book, options: PrintOptions) -> list[str]:
    """The rules: the grid sizes' symbols, each variant's extra rule once, how answers read."""
    geometries = {puzzle.grids.geometry for section in book.sections for puzzle in section.puzzles}
    symbols = {g.n: g.symbols for g in sorted(geometries, key=lambda g: g.n)}  # one per size
    symbol = symbol_word(symbols)
    if len(symbols) == 1:
        held = f"each {symbol} {_symbol_range(*symbols.values())} exactly once"
    else:
        ranges = ", ".join(f"{_symbol_range(s)} in a {n}x{n} grid" for n, s in symbols.items())
        held = f"each {symbol} exactly once: {ranges}"
    rules = [
        f"Fill every empty cell so that each row, each column and each outlined box holds {held}.",
        *rule_sentences({g.variant for g in geometries}, symbol),
        f"In the answers at the back, the clues are bold and the {symbol}s you fill in grey.",
    ]
    if options.shade_answers:
        rules.append(
            "The answers are also shaded by round: round 1 is what the starting grid gives "
            "away, round 2 what round 1 opens up, and so on; the darker the cell, the later it "
            "falls."
        )
    return rules


def _symbol_range(symbols: str) -> str:
    """``1 to 9``, or ``1 to 9 and A to G`` for a grid with letters."""
    digits, letters = symbols[:DIGITS], symbols[DIGITS:]
    text = f"{digits[0]} to {digits[-1]}"
    return f"{text} and {letters[0]} to {letters[-1]}" if letters else text


def _about_flowables(book: Book, styles: Styles) -> list[Flowable]:
    """The about text's paragraphs; one that opens with a section's title and a full stop (as
    the generated text does) sets them in bold, as a run-in head."""
    assert book.about is not None
    titles = {section.title for section in book.sections}
    body = []
    for part in (part.strip() for part in book.about.split("\n\n") if part.strip()):
        head, _, rest = part.partition(". ")
        if rest and head.split(" (")[0] in titles:
            markup = f"{bold_text(head + '.', styles.heading)} {paragraph_text(rest)}"
        else:
            markup = paragraph_text(part)
        body.append(Paragraph(markup, styles.body))
    return [Paragraph(ABOUT_HEADING, styles.heading), *body]


def _kept_together(
    pages: list[list[Flowable]], block: list[Flowable], box: Box
) -> list[list[Flowable]]:
    """``block`` under the last of ``pages`` if it fits in the room left there, else from a
    new page: a page that holds only the last lines of a text looks like a printing fault."""
    if not pages:
        return _flow(block, box)
    if _height([*pages[-1], *block], box) <= box.height:
        return [*pages[:-1], [*pages[-1], *block]]
    return [*pages, *_flow(block, box)]


def _height(flowables: list[Flowable], box: Box) -> float:
    """The height ``flowables`` take stacked in ``box``, as :func:`_flow` stacks them."""
    stacked = sum(f.wrap(box.width, box.height)[1] + f.getSpaceAfter() for f in flowables)
    return stacked - flowables[-1].getSpaceAfter()


def _flow(flowables: list[Flowable], box: Box) -> list[list[Flowable]]:
    """Split flowables into pages of ``box``'s height."""
    height = box.height
    pages: list[list[Flowable]] = []
    current: list[Flowable] = []
    room = height
    queue = list(flowables)
    while queue:
        flowable = queue.pop(0)
        _, needed = flowable.wrap(box.width, room)
        stranded = bool(current) and _stranded(flowable, room - needed, queue, box)
        if needed <= room and not stranded:
            current.append(flowable)
            room -= needed + flowable.getSpaceAfter()
            continue
        if needed <= room:  # a heading that would end the page starts the next one
            queue.insert(0, flowable)
            pages.append(current)
            current, room = [], height
            continue
        parts = flowable.split(box.width, room)
        if len(parts) > 1:
            current.append(parts[0])
            queue[:0] = parts[1:]
        elif not current:
            raise BookError(f"a block of text is too tall for a page ({needed:.0f} pt)")
        else:
            queue.insert(0, flowable)
        pages.append(current)
        current, room = [], height
    if current:
        pages.append(current)
    return pages


def _stranded(flowable: Flowable, left: float, queue: list[Flowable], box: Box) -> bool:
    """True for a heading (``keepWithNext``) that would leave too little room under it for the
    start of what it heads."""
    if not flowable.getKeepWithNext() or not queue:
        return False
    _, following = queue[0].wrap(box.width, box.height)
    return left - flowable.getSpaceAfter() < min(following, KEEP_WITH_NEXT_ROOM)


def _write_pages(canv: Canvas, pages: list[Page], frames: list[PageFrame], ctx: Context) -> None:
    for page, frame in zip(pages, frames, strict=True):
        canv.setPageSize(frame.size)
        _set_boxes(canv, frame.media, frame.trim)
        page.draw(canv, frame, ctx)
        canv.showPage()


def _write_sheets(canv: Canvas, pages: list[Page], frames: list[PageFrame], ctx: Context) -> None:
    """2-up sides in folded-booklet order, a verso on the left and a recto on the right, with
    crop and fold marks in the slug around them."""
    width, height = frames[0].size
    for left, right in saddle_stitch_sides(len(pages)):
        canv.setPageSize(sheet_size((width, height)))
        left_frame, right_frame = frames[left - 1], frames[right - 1]
        trim = Box(
            SLUG + left_frame.trim.x0,
            SLUG + left_frame.trim.y0,
            SLUG + width + right_frame.trim.x1,
            SLUG + left_frame.trim.y1,
        )
        _set_boxes(canv, Box(SLUG, SLUG, SLUG + 2 * width, SLUG + height), trim)
        for offset, number in ((SLUG, left), (SLUG + width, right)):
            canv.saveState()
            canv.translate(offset, SLUG)
            clip = canv.beginPath()
            clip.rect(0, 0, width, height)
            canv.clipPath(clip, stroke=0, fill=0)
            pages[number - 1].draw(canv, frames[number - 1], ctx)
            canv.restoreState()
        draw_marks(canv, trim, fold_x=SLUG + width)
        canv.showPage()


def _set_boxes(canv: Canvas, media: Box, trim: Box) -> None:
    """Trim and bleed boxes tell the printer where to cut (they equal the media without bleed)."""
    canv.setTrimBox(trim.as_tuple())
    canv.setBleedBox(media.as_tuple())
