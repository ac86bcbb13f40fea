"""The kinds of page in a book and how each is drawn inside its :class:`PageFrame`.

A page knows its content (which puzzles, which paragraphs) and draws itself on a canvas whose
origin is the page's media box; the booklet decides the order and the frames. Recipe text is
drawn literally: ``drawString`` takes no markup, and paragraphs escape ``<`` and ``&`` first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph

from pipeline.render.book import Book, BookPuzzle, Section
from pipeline.render.fonts import Fonts
from pipeline.render.grid import PASS_SHADES, THIN_RULE, GridFlowable, pass_shade
from pipeline.render.page import Box, PageFrame
from pipeline.render.slots import arrange

HEADER_BAND = 0.6 * inch  # top of the live area: section title or running head
FOOTER_BAND = 0.3 * inch  # bottom of the live area: the page number
LEGEND_BAND = 0.3 * inch  # above the footer on shaded answer pages
SWATCH_STEP = 1.3  # a legend swatch and the gap before its label, in swatch widths
SECTION_TITLE_SIZE = 18
RUNNING_HEAD_SIZE = 9
FOLIO_SIZE = 9
PUZZLE_LABEL_SIZE = 9
ANSWER_LABEL_SIZE = 8
LABEL_BAND_PER_SIZE = 1.7  # label band height as a multiple of the label font size
SOFT_GREY = 0.4  # running heads, tiers, ids, the page number
NOTE_RULE_GREY = 0.75
NOTE_RULE_SPACING = 0.33 * inch
TITLE_SIZE = 30
AUTHOR_SIZE = 16
BODY_SIZE = 11
HEADING_SIZE = 16
TITLE_DROP = 0.3  # title block starts this fraction of the live height from the top
LABEL_SEPARATOR = " · "
LARGE_PRINT_TEXT = 16 / BODY_SIZE  # large print sets body text at 16 pt, the rest in proportion
DIGITS = 9  # grids of up to 9 symbols use the numbers 1-9; larger ones add letters


def puzzle_label_size(large: bool) -> float:
    """Size of a puzzle's label ("Puzzle 12"), set up with the text in large print."""
    return PUZZLE_LABEL_SIZE * (LARGE_PRINT_TEXT if large else 1.0)


def label_band(size: float) -> float:
    return size * LABEL_BAND_PER_SIZE


def grid_area(frame: PageFrame, legend: bool = False) -> Box:
    """Where grids go: the live area less the header, the footer and any legend."""
    bottom = FOOTER_BAND + (LEGEND_BAND if legend else 0.0)
    return frame.live.inset(0, bottom, 0, HEADER_BAND)


def symbol_word(sizes: Iterable[int]) -> str:
    """What to call the symbols of grids of these sizes: numbers, or symbols once letters join
    them (past 9x9)."""
    return "number" if max(sizes) <= DIGITS else "symbol"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def text_area(frame: PageFrame) -> Box:
    """Where front-matter text goes: the live area less the footer."""
    return frame.live.inset(0, FOOTER_BAND, 0, 0)


def paragraph_text(text: str) -> str:
    """Recipe text as Paragraph markup that prints it literally (line breaks kept)."""
    return escape(text).replace("\n", "<br/>")


def bold_text(text: str, heading: ParagraphStyle) -> str:
    """``text`` as markup in the heading's (bold) font: the book's text fonts are registered one
    by one, so ``<b>`` would not find a bold face."""
    return f'<font name="{heading.fontName}">{escape(text)}</font>'


class Styles:
    """Paragraph styles in the book's text fonts; ``large`` sets every size up for large print."""

    def __init__(self, fonts: Fonts, large: bool = False) -> None:
        scale = LARGE_PRINT_TEXT if large else 1.0

        def style(name: str, font: str, size: float, **extra: object) -> ParagraphStyle:
            size *= scale
            return ParagraphStyle(name, fontName=font, fontSize=size, leading=size * 1.3, **extra)

        self.title = style("title", fonts.text_bold, TITLE_SIZE, alignment=TA_CENTER)
        self.author = style("author", fonts.text, AUTHOR_SIZE, alignment=TA_CENTER)
        self.blurb = style("blurb", fonts.text, BODY_SIZE, alignment=TA_CENTER)
        self.heading = style(
            "heading", fonts.text_bold, HEADING_SIZE, spaceAfter=HEADING_SIZE, keepWithNext=1
        )
        self.body = style("body", fonts.text, BODY_SIZE, spaceAfter=BODY_SIZE / 2)


@dataclass
class Context:
    """What every page may need while drawing: the book, its fonts and styles."""

    book: Book
    fonts: Fonts
    styles: Styles


def draw_folio(canv: Canvas, frame: PageFrame, fonts: Fonts) -> None:
    """The page number in the bottom outside corner of the live area."""
    canv.setFont(fonts.text, FOLIO_SIZE)
    canv.setFillGray(SOFT_GREY)
    y = frame.live.y0
    if frame.recto:
        canv.drawRightString(frame.live.x1, y, str(frame.number))
    else:
        canv.drawString(frame.live.x0, y, str(frame.number))


def draw_head(canv: Canvas, frame: PageFrame, fonts: Fonts, text: str, big: bool) -> None:
    """A section title (first page of a section) or a quiet running head, centred at the top."""
    size = SECTION_TITLE_SIZE if big else RUNNING_HEAD_SIZE
    font = fonts.text_bold if big else fonts.text
    size = min(size, fit_size(text, font, size, frame.live.width))
    canv.setFont(font, size)
    canv.setFillGray(0 if big else SOFT_GREY)
    centre = (frame.live.x0 + frame.live.x1) / 2
    canv.drawCentredString(centre, frame.live.y1 - size, text)


def fit_size(text: str, font: str, size: float, width: float) -> float:
    """The font size at which ``text`` fits ``width`` (``size`` when it already fits)."""
    natural = pdfmetrics.stringWidth(text, font, size)
    return size if natural <= width else size * width / natural


def draw_flowables(canv: Canvas, flowables: Sequence[Flowable], box: Box) -> None:
    """Stack flowables from the top of ``box`` (they were split to fit by the booklet)."""
    y = box.y1
    for flowable in flowables:
        _, height = flowable.wrap(box.width, box.height)
        y -= height
        flowable.drawOn(canv, box.x0, y)
        y -= flowable.getSpaceAfter()


@dataclass
class TitlePage:
    """Page 1: title, author and what is inside. It carries no page number."""

    @staticmethod
    def flowables(book: Book, styles: Styles) -> list[Flowable]:
        puzzles = plural(book.puzzle_count, "puzzle")
        blurb = f"{puzzles} in {plural(len(book.sections), 'section')}, answers at the back"
        flowables = [
            Paragraph(paragraph_text(book.title), styles.title),
            Paragraph(paragraph_text(book.author), styles.author),
            Paragraph(blurb, styles.blurb),
        ]
        for flowable, space in zip(flowables, (TITLE_SIZE, AUTHOR_SIZE * 2, 0), strict=True):
            flowable.spaceAfter = space
        return flowables

    @staticmethod
    def area(frame: PageFrame) -> Box:
        """The title block hangs from a little below the top of the live area."""
        live = frame.live
        return Box(live.x0, live.y0, live.x1, live.y1 - live.height * TITLE_DROP)

    def draw(self, canv: Canvas, frame: PageFrame, ctx: Context) -> None:
        draw_flowables(canv, self.flowables(ctx.book, ctx.styles), self.area(frame))


@dataclass
class TextPage:
    """Front matter (contents, how to play, about the difficulty): flowables split to fit."""

    flowables: list[Flowable]

    def draw(self, canv: Canvas, frame: PageFrame, ctx: Context) -> None:
        draw_flowables(canv, self.flowables, text_area(frame))
        draw_folio(canv, frame, ctx.fonts)


@dataclass
class Entry:
    """A puzzle and its number in the book (answers refer to it by this number)."""

    number: int
    puzzle: BookPuzzle


@dataclass
class GridPage:
    """Up to ``per_page`` puzzles of one section, or their answers."""

    section: Section
    entries: list[Entry]
    per_page: int
    answer: bool = False
    first: bool = False  # first page of the section (puzzles) or of its answers
    shade: bool = False
    large: bool = False  # large print: bigger puzzle labels
    tint: bool = False  # Jigsaw regions tinted

    @property
    def heading(self) -> str:
        """The title at the top of the page, and of its line in the contents."""
        return f"Answers: {self.section.title}" if self.answer else self.section.title

    def draw(self, canv: Canvas, frame: PageFrame, ctx: Context) -> None:
        fonts = ctx.fonts
        draw_head(canv, frame, fonts, self.heading, self.first)
        area = grid_area(frame, legend=self.shade)  # as planned, so every page has equal grids
        shaded = self.shade and any(entry.puzzle.passes for entry in self.entries)
        size = ANSWER_LABEL_SIZE if self.answer else puzzle_label_size(self.large)
        n = max(entry.puzzle.grids.geometry.n for entry in self.entries)
        slots = arrange(self.per_page, area, label_band(size), n)
        for entry, slot in zip(self.entries, slots, strict=False):
            self._label(canv, entry, slot.grid, slot.label_y, size, fonts)
            passes = entry.puzzle.passes if shaded else None
            grid = GridFlowable(
                entry.puzzle.grids,
                slot.grid.width,
                fonts,
                answer=self.answer,
                passes=passes,
                tint=self.tint,
            )
            grid.drawOn(canv, slot.grid.x0, slot.grid.y0)
        if shaded:
            self._legend(canv, frame, fonts)
        draw_folio(canv, frame, fonts)

    def _label(
        self, canv: Canvas, entry: Entry, grid: Box, y: float, size: float, fonts: Fonts
    ) -> None:
        """``Puzzle 12`` on the left; tier and short id on the right, the tier dropped if the
        slot is too narrow for both."""
        left = f"Puzzle {entry.number}"
        right = f"{entry.puzzle.tier}{LABEL_SEPARATOR}{entry.puzzle.short_id}"
        room = grid.width - pdfmetrics.stringWidth(left + "  ", fonts.text_bold, size)
        if pdfmetrics.stringWidth(right, fonts.text, size) > room:
            right = entry.puzzle.short_id
        canv.setFillGray(0)
        canv.setFont(fonts.text_bold, size)
        canv.drawString(grid.x0, y, left)
        canv.setFillGray(SOFT_GREY)
        canv.setFont(fonts.text, size)
        canv.drawRightString(grid.x1, y, right)

    def _legend(self, canv: Canvas, frame: PageFrame, fonts: Fonts) -> None:
        """Swatches explaining the shading, one per logic pass."""
        levels = max(max(entry.puzzle.passes or (0,)) for entry in self.entries)
        levels = min(levels, len(PASS_SHADES))
        y = frame.live.y0 + FOOTER_BAND
        swatch = ANSWER_LABEL_SIZE
        x = frame.live.x0
        canv.setFont(fonts.text, ANSWER_LABEL_SIZE)
        canv.setFillGray(SOFT_GREY)
        caption = "Shading: the round in which the cell is found"
        canv.drawString(x, y, caption)
        x += pdfmetrics.stringWidth(caption + "  ", fonts.text, ANSWER_LABEL_SIZE)
        canv.setStrokeGray(SOFT_GREY)
        canv.setLineWidth(THIN_RULE)
        for level in range(1, levels + 1):
            canv.setFillGray(pass_shade(level))
            canv.rect(x, y - 1, swatch, swatch, stroke=1, fill=1)
            canv.setFillGray(SOFT_GREY)
            label = f"{level}+" if level == len(PASS_SHADES) else str(level)
            canv.drawString(x + swatch * SWATCH_STEP, y, label)
            x += swatch * SWATCH_STEP + pdfmetrics.stringWidth(label + "  ", fonts.text, swatch)


@dataclass
class NotesPage:
    """A ruled page for notes: how blank pages added for the binding look useful."""

    def draw(self, canv: Canvas, frame: PageFrame, ctx: Context) -> None:
        draw_head(canv, frame, ctx.fonts, "Notes", big=True)
        area = grid_area(frame)
        canv.setStrokeGray(NOTE_RULE_GREY)
        canv.setLineWidth(THIN_RULE)
        y = area.y1 - NOTE_RULE_SPACING
        rules = []
        while y >= area.y0:
            rules.append((area.x0, y, area.x1, y))
            y -= NOTE_RULE_SPACING
        canv.lines(rules)
        draw_folio(canv, frame, ctx.fonts)
