"""KDP paperback covers: one PDF page holding back, spine and front, sized from the interior.

Glossary used below:
    panel    the back, the spine or the front, as each is left after the cut
    spine    its width is the interior's page count times the paper's thickness
    bleed    0.125 in of background past the trim on every outside edge
    safe     where text and grids may go: 0.125 in inside a panel's edges (the spine: 0.0625 in
             each side), because the cut and the folds wander
    barcode  a 2 x 1.2 in box at the lower right of the back that KDP fills; nothing is drawn in
             it but the background

KDP's sizes: ``width = 2 x trim width + spine + 0.25 in``, ``height = trim height + 0.25 in``,
``spine = pages x 0.002252 in`` on white paper (0.0025 cream, 0.002347 colour). It prints spine
text only on books of more than 79 pages. Colours are CMYK (the canvas refuses RGB), the grids
greyscale; fonts are the book's embedded TrueType subsets; nothing is transparent.

Text that would overflow its area is set smaller (and wrapped) until it fits; text that would
need to be smaller than a floor is refused with :class:`CoverError` naming it. Spine text is
shrunk to the spine's width and length, never placed outside it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from reportlab.lib.colors import CMYKColor
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from pipeline.errors import UserError
from pipeline.formats.writers import atomic_path
from pipeline.render.book import Book, BookPuzzle
from pipeline.render.fonts import Fonts, check_text, fonts
from pipeline.render.grid import GridFlowable
from pipeline.render.options import (
    DEFAULT_ACCENT,
    DEFAULT_BACKGROUND,
    PAPER_INCHES,
    PAPERS,
    PrintOptions,
)
from pipeline.render.page import MAX_PAGES, MIN_PAGES, PERFECT, Box
from pipeline.render.pages import paragraph_text, plural

COVER_BLEED = 0.125 * inch  # on every outside edge
SAFE_MARGIN = 0.125 * inch  # inside the trim and the folds, front and back
SPINE_MARGIN = 0.0625 * inch  # inside each fold, on the spine
SPINE_TEXT_PAGES = 80  # KDP allows spine text from this many pages (more than 79)
MIN_COVER_PAGES = MIN_PAGES[PERFECT]  # KDP's paperback range
MAX_COVER_PAGES = MAX_PAGES
BARCODE_WIDTH = 2 * inch
BARCODE_HEIGHT = 1.2 * inch
BARCODE_OFFSET = 0.25 * inch  # of the barcode box from the back's bottom edge and the spine
COVER_SUFFIX = "-cover"

LAYOUT_MARGIN = 0.5 * inch  # where the design sits: well inside the safe areas
CARD_PADDING = 0.15 * inch  # white around a grid, inside its accent frame
CARD_FRAME = 3.0  # pt: the accent frame around a grid's card
SPINE_TEXT_SIZE, MIN_SPINE_TEXT_SIZE = 16.0, 3.0  # an 80-page spine on white paper holds 4 pt
SPINE_GAP = 1.5  # between spine title and author, in font sizes
LEADING = 1.2  # line height as a multiple of the font size
SHRINK_STEP = 0.92  # each try at fitting text sets it this much smaller
FRONT_GRID_SHARE = 0.85  # widest a grid's card may be, as a share of the design's width
BACK_GRID_SHARE = 0.8
GAP = 0.25 * inch  # between blocks

WHITE = CMYKColor(0, 0, 0, 0, alpha=None)
BLACK = CMYKColor(0, 0, 0, 1, alpha=None)
LIGHT_GROUND = 0.55  # on a ground lighter than this (0 black .. 1 white) text is black
HEX_COLOUR = re.compile(r"#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})")  # ASCII only
BYTE = 255
PERCENT = 100.0
INKS = 4  # cyan, magenta, yellow, black
#: Weights of red, green and blue in perceived lightness (ITU-R BT.601).
LUMA = (0.299, 0.587, 0.114)

Colour = tuple[float, float, float, float]  # CMYK percentages, 0-100


class CoverError(UserError):
    """The cover cannot be made for this book: the message names the text, size or setting."""


class CoverOptionError(CoverError):
    """A cover option is out of range; the message names the field (``field``, ``problem``)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"cover option {field!r}: {problem}")
        self.field = field
        self.problem = problem


def cmyk(value: object, field: str) -> Colour:
    """A colour as CMYK percentages from ``"#rrggbb"`` (converted naively: give CMYK for an
    exact ink mix) or ``[c, m, y, k]`` percentages."""
    if isinstance(value, str):
        channels = HEX_COLOUR.fullmatch(value)
        if channels is None:
            _fail(field, f"{value!r} is not a hex colour '#rrggbb'")
        red, green, blue = (int(channel, 16) / BYTE for channel in channels.groups())
        black = 1 - max(red, green, blue)
        if black == 1:
            return (0.0, 0.0, 0.0, PERCENT)
        inks = [(1 - part - black) / (1 - black) for part in (red, green, blue)]
        return tuple(round(ink * PERCENT, 2) for ink in (*inks, black))  # type: ignore[return-value]
    if (
        isinstance(value, list | tuple)
        and len(value) == INKS
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        if not all(0 <= v <= PERCENT for v in value):
            _fail(field, f"every percentage must be from 0 to 100, got {list(value)}")
        return tuple(float(v) for v in value)  # type: ignore[return-value]
    _fail(field, f"expected '#rrggbb' or [c, m, y, k] percentages, got {value!r}")


def _fail(field: str, problem: str) -> NoReturn:
    raise CoverOptionError(field, problem)


def _check_paper(paper: str) -> None:
    if paper not in PAPERS:
        _fail("paper", f"{paper!r} is not one of {', '.join(PAPERS)}")


@dataclass(frozen=True)
class CoverOptions:
    """What a recipe's ``[cover]`` table says; None texts are written from the book."""

    paper: str = "white"
    subtitle: str | None = None
    back_text: str | None = None
    background: Colour | str = DEFAULT_BACKGROUND  # CMYK percentages once created
    accent: Colour | str = DEFAULT_ACCENT

    def __post_init__(self) -> None:
        """The one check of cover options; the recipe reports its error under its own key."""
        _check_paper(self.paper)
        for field in ("subtitle", "back_text"):
            text = getattr(self, field)
            if text is not None and (not isinstance(text, str) or not text.strip()):
                _fail(field, f"expected a non-empty string, got {text!r}")
        for field in ("background", "accent"):
            object.__setattr__(self, field, cmyk(getattr(self, field), field))


@dataclass(frozen=True)
class CoverGeometry:
    """Where everything sits on a cover for ``pages`` pages of ``paper`` at ``trim`` (points).

    Boxes are PDF coordinates in points, origin at the bottom left of the bleed."""

    trim: tuple[float, float]
    pages: int
    paper: str

    def __post_init__(self) -> None:
        _check_paper(self.paper)
        if not MIN_COVER_PAGES <= self.pages <= MAX_COVER_PAGES:
            raise CoverError(
                f"a paperback cover wraps {MIN_COVER_PAGES}-{MAX_COVER_PAGES} pages; "
                f"the book has {self.pages}"
            )

    @property
    def spine(self) -> float:
        return self.pages * PAPER_INCHES[self.paper] * inch

    @property
    def size(self) -> tuple[float, float]:
        width, height = self.trim
        return (2 * width + self.spine + 2 * COVER_BLEED, height + 2 * COVER_BLEED)

    @property
    def trim_box(self) -> Box:
        width, height = self.size
        return Box(COVER_BLEED, COVER_BLEED, width - COVER_BLEED, height - COVER_BLEED)

    @property
    def back(self) -> Box:
        trim = self.trim_box
        return Box(trim.x0, trim.y0, trim.x0 + self.trim[0], trim.y1)

    @property
    def spine_box(self) -> Box:
        back = self.back
        return Box(back.x1, back.y0, back.x1 + self.spine, back.y1)

    @property
    def front(self) -> Box:
        spine = self.spine_box
        return Box(spine.x1, spine.y0, spine.x1 + self.trim[0], spine.y1)

    @property
    def back_safe(self) -> Box:
        return self.back.inset(SAFE_MARGIN, SAFE_MARGIN, SAFE_MARGIN, SAFE_MARGIN)

    @property
    def front_safe(self) -> Box:
        return self.front.inset(SAFE_MARGIN, SAFE_MARGIN, SAFE_MARGIN, SAFE_MARGIN)

    @property
    def spine_safe(self) -> Box:
        return self.spine_box.inset(SPINE_MARGIN, SAFE_MARGIN, SPINE_MARGIN, SAFE_MARGIN)

    @property
    def barcode(self) -> Box:
        back = self.back
        x1, y0 = back.x1 - BARCODE_OFFSET, back.y0 + BARCODE_OFFSET
        return Box(x1 - BARCODE_WIDTH, y0, x1, y0 + BARCODE_HEIGHT)

    @property
    def spine_text(self) -> bool:
        return self.pages >= SPINE_TEXT_PAGES


@dataclass(frozen=True)
class CoverResult:
    """What was written, for the manifest and the CLI."""

    path: Path
    geometry: CoverGeometry

    def manifest(self) -> dict[str, object]:
        """The manifest's ``cover`` entry; lengths in inches."""
        width, height = self.geometry.size
        return {
            "file": self.path.name,
            "width_in": round(width / inch, 4),
            "height_in": round(height / inch, 4),
            "spine_in": round(self.geometry.spine / inch, 4),
            "paper": self.geometry.paper,
            "spine_text": self.geometry.spine_text,
        }


def cover_path(path: Path) -> Path:
    """Where the cover of the book at ``path`` goes: ``book.pdf`` -> ``book-cover.pdf``."""
    return path.with_name(f"{path.stem}{COVER_SUFFIX}{path.suffix}")


def render_cover(
    book: Book, path: Path, pages: int, print_options: PrintOptions, options: CoverOptions
) -> CoverResult:
    """Write the cover of ``book`` (``pages`` pages as printed, at ``print_options``' trim) to
    ``path``; the file appears only when complete."""
    check_binding(print_options)
    for field in ("subtitle", "back_text"):
        text = getattr(options, field)
        if text is not None:
            check_text(text, f"cover {field}")
    geometry = CoverGeometry(print_options.trim_size, pages, options.paper)
    design = _Design(book, geometry, options, fonts(), print_options.region_tint)
    path = Path(path)
    with atomic_path(path) as temporary, temporary.open("wb") as handle:
        canv = Canvas(
            handle,
            pagesize=geometry.size,
            invariant=1,
            pageCompression=1,
            initialFontName=design.fonts.text,
            enforceColorSpace="cmyk",
        )
        canv.setTitle(f"{book.title}: cover")
        canv.setAuthor(book.author)
        canv.setTrimBox(geometry.trim_box.as_tuple())
        canv.setBleedBox((0, 0, *geometry.size))
        design.draw(canv)
        canv.showPage()
        canv.save()
    return CoverResult(path, geometry)


def check_binding(options: PrintOptions) -> None:
    """A paperback cover wraps a perfect-bound book; a saddle-stitched one has no spine."""
    if options.binding != PERFECT:
        raise CoverError(f"a paperback cover needs binding {PERFECT!r}, not {options.binding!r}")


def default_subtitle(book: Book) -> str:
    """``200 puzzles, Easy to Extreme``, or ``40 Easy puzzles`` for a book of one section."""
    sections = book.sections
    if len(sections) == 1:
        return plural(book.puzzle_count, f"{sections[0].title} puzzle")
    return f"{plural(book.puzzle_count, 'puzzle')}, {sections[0].title} to {sections[-1].title}"


def default_back_text(book: Book) -> str:
    """What the book holds, in two paragraphs: its puzzles and sections, then grids and answers."""
    sections = book.sections
    if len(sections) == 1:
        held = plural(book.puzzle_count, f"{sections[0].title} puzzle")
    else:
        titles = _listed([section.title for section in sections])
        held = f"{plural(book.puzzle_count, 'puzzle')} in {len(sections)} sections ({titles})"
    sizes = sorted({p.grids.geometry.n for s in sections for p in s.puzzles})
    grids = _listed([f"{n}x{n}" for n in sizes])
    shapes = f"Every grid is {grids}" if len(sizes) == 1 else f"The grids are {grids}"
    return (
        f"{book.title} holds {held}, every puzzle graded by the logic it needs.\n\n"
        f"{shapes}; every answer is at the back of the book."
    )


def _listed(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _ground_is_light(colour: Colour) -> bool:
    cyan, magenta, yellow, black = (part / PERCENT for part in colour)
    rgb = ((1 - ink) * (1 - black) for ink in (cyan, magenta, yellow))
    return sum(weight * part for weight, part in zip(LUMA, rgb, strict=True)) > LIGHT_GROUND


def _colour(colour: Colour) -> CMYKColor:
    return CMYKColor(*(part / PERCENT for part in colour), alpha=None)


@dataclass(frozen=True)
class _Role:
    """How a block of cover text is set: its font, its largest and smallest size, and the most
    of its panel's height it may take."""

    bold: bool
    size: float
    smallest: float
    share: float
    align: int = TA_CENTER


TITLE = _Role(bold=True, size=40, smallest=14, share=0.3)
SUBTITLE = _Role(bold=False, size=18, smallest=9, share=0.12)
AUTHOR = _Role(bold=False, size=16, smallest=9, share=0.08)
BACK_TITLE = _Role(bold=True, size=22, smallest=12, share=0.15, align=TA_LEFT)
BACK_TEXT = _Role(bold=False, size=13, smallest=7, share=0.35, align=TA_LEFT)
CAPTION = _Role(bold=False, size=11, smallest=7, share=0.06)


class _Design:
    """The cover's content laid out on its geometry: text fitted before anything is drawn, so
    a text that cannot fit fails before the file is opened."""

    def __init__(
        self,
        book: Book,
        geometry: CoverGeometry,
        options: CoverOptions,
        chosen: Fonts,
        tint: bool,
    ) -> None:
        self.geometry, self.fonts, self.tint = geometry, chosen, tint
        self.ground = _colour(options.background)
        self.accent = _colour(options.accent)
        self.ink = BLACK if _ground_is_light(options.background) else WHITE
        self.front_area = geometry.front.inset(*(LAYOUT_MARGIN,) * 4)
        self.back_area = geometry.back.inset(*(LAYOUT_MARGIN,) * 4)
        # the front shows the book's first puzzle; the back its hardest section's last one,
        # so a one-section book does not show the same grid twice
        first, last = book.sections[0], book.sections[-1]
        self.front_puzzle, self.back_puzzle = first.puzzles[0], last.puzzles[-1]
        front, back = self.front_area, self.back_area
        self.front_top = [
            self._fit("book title", book.title, TITLE, front),
            self._fit(
                "cover subtitle", options.subtitle or default_subtitle(book), SUBTITLE, front
            ),
        ]
        self.author = (
            self._fit("book author", book.author, AUTHOR, front) if book.author.strip() else None
        )
        self.back_top = [
            self._fit("book title", book.title, BACK_TITLE, back),
            self._fit(
                "cover back_text", options.back_text or default_back_text(book), BACK_TEXT, back
            ),
        ]
        caption = f"A puzzle from the {last.title} section"
        self.caption = self._fit("section title", caption, CAPTION, back)
        self.spine = (
            _SpineText.fit(book, geometry.spine_safe, chosen) if geometry.spine_text else None
        )

    def _fit(self, where: str, text: str, role: _Role, area: Box) -> Paragraph:
        """``text`` wrapped to ``area``'s width at the largest size from the role's down whose
        words all fit the width and whose block fits the role's share of the height."""
        font = self.fonts.text_bold if role.bold else self.fonts.text
        width, height = area.width, area.height * role.share
        words = text.split()
        size = role.size
        while size >= role.smallest:
            style = ParagraphStyle(
                where,
                fontName=font,
                fontSize=size,
                leading=size * LEADING,
                alignment=role.align,
                textColor=self.ink,
                spaceAfter=GAP / 2,
            )
            paragraph = Paragraph(paragraph_text(text), style)
            widest = max(pdfmetrics.stringWidth(word, font, size) for word in words)
            if widest <= width and paragraph.wrap(width, height)[1] <= height:
                return paragraph
            size *= SHRINK_STEP
        raise CoverError(
            f"{where} {_shown(text)} does not fit {width / inch:.2f} x {height / inch:.2f} in "
            f"on the cover even at {role.smallest:g} pt: shorten it"
        )

    def draw(self, canv: Canvas) -> None:
        width, height = self.geometry.size
        canv.setFillColor(self.ground)
        canv.rect(0, 0, width, height, stroke=0, fill=1)
        self._draw_front(canv)
        self._draw_back(canv)
        if self.spine is not None:
            self.spine.draw(canv, self.geometry.spine_safe, self.ink)

    def _draw_front(self, canv: Canvas) -> None:
        """Title and subtitle over an accent rule, the grid, the author at the foot."""
        area = self.front_area
        top = _stack(canv, self.front_top, area, area.y1)
        canv.setStrokeColor(self.accent)
        canv.setLineWidth(CARD_FRAME)
        rule = area.width / 4
        centre = (area.x0 + area.x1) / 2
        canv.line(centre - rule, top, centre + rule, top)
        bottom = area.y0
        if self.author is not None:
            _, height = self.author.wrap(area.width, area.height)
            self.author.drawOn(canv, area.x0, area.y0)
            bottom += height + GAP
        room = Box(area.x0, bottom, area.x1, top - GAP)
        self._card(canv, self.front_puzzle, room, area.width * FRONT_GRID_SHARE, centred=True)

    def _draw_back(self, canv: Canvas) -> None:
        """Title, description, a captioned sample puzzle; the barcode box's band left empty."""
        area = self.back_area
        top = _stack(canv, [*self.back_top, self.caption], area, area.y1)
        bottom = max(area.y0, self.geometry.barcode.y1 + GAP)
        room = Box(area.x0, bottom, area.x1, top)
        self._card(canv, self.back_puzzle, room, area.width * BACK_GRID_SHARE, centred=False)

    def _card(
        self, canv: Canvas, puzzle: BookPuzzle, room: Box, widest: float, *, centred: bool
    ) -> None:
        """The puzzle's givens on a white card framed in the accent, as large as ``room`` and
        ``widest`` allow, centred across the room and centred in its height or at its top."""
        side = min(room.width, room.height, widest)
        margin = CARD_FRAME + CARD_PADDING
        if side <= 2 * margin:
            raise CoverError(
                f"no room for a grid on the cover ({room.width / inch:.2f} x "
                f"{room.height / inch:.2f} in left): shorten the texts"
            )
        x = room.x0 + (room.width - side) / 2
        y = room.y0 + (room.height - side) / 2 if centred else room.y1 - side
        canv.setFillColor(WHITE)
        canv.setStrokeColor(self.accent)
        canv.setLineWidth(CARD_FRAME)
        inset = CARD_FRAME / 2  # the frame's stroke stays inside the card
        canv.rect(x + inset, y + inset, side - CARD_FRAME, side - CARD_FRAME, stroke=1, fill=1)
        grid = GridFlowable(puzzle.grids, side - 2 * margin, self.fonts, tint=self.tint)
        grid.drawOn(canv, x + margin, y + margin)


def _stack(canv: Canvas, paragraphs: Sequence[Paragraph], area: Box, top: float) -> float:
    """Draw ``paragraphs`` (already fitted) one under another from ``top`` in ``area``'s width;
    return where the next block may start, below the last one's space after."""
    for paragraph in paragraphs:
        _, height = paragraph.wrap(area.width, area.height)
        top -= height
        paragraph.drawOn(canv, area.x0, top)
        top -= paragraph.style.spaceAfter
    return top


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


@dataclass(frozen=True)
class _SpineText:
    """Title (bold) and author running down the spine at one size, centred both ways."""

    title: str
    author: str
    size: float
    fonts: Fonts

    @classmethod
    def fit(cls, book: Book, safe: Box, chosen: Fonts) -> _SpineText:
        """The largest size up to ``SPINE_TEXT_SIZE`` whose glyphs (ascent to descent) fit the
        spine's safe width and whose line fits its safe length."""
        face = pdfmetrics.getFont(chosen.text_bold).face
        extent = (face.ascent - face.descent) / 1000
        size = min(SPINE_TEXT_SIZE, safe.width / extent)
        spine = cls(book.title, book.author.strip(), size, chosen)
        length = spine.length(size)
        if length > safe.height:
            spine = cls(book.title, spine.author, size * safe.height / length, chosen)
        if spine.size < MIN_SPINE_TEXT_SIZE:
            raise CoverError(
                f"book title and author {_shown(f'{book.title} {book.author}')} need "
                f"{spine.size:.1f} pt type to fit the spine's {safe.height / inch:.2f} in, under "
                f"the {MIN_SPINE_TEXT_SIZE:g} pt a reader can make out: shorten them"
            )
        return spine

    def length(self, size: float) -> float:
        title = pdfmetrics.stringWidth(self.title, self.fonts.text_bold, size)
        if not self.author:
            return title
        return title + SPINE_GAP * size + pdfmetrics.stringWidth(self.author, self.fonts.text, size)

    def draw(self, canv: Canvas, safe: Box, ink: CMYKColor) -> None:
        """Text reads top to bottom, its letters' tops toward the front (as on a US shelf)."""
        face = pdfmetrics.getFont(self.fonts.text_bold).face
        middle = (face.ascent + face.descent) / 2000 * self.size
        baseline_x = (safe.x0 + safe.x1) / 2 - middle
        start = (safe.y0 + safe.y1) / 2 + self.length(self.size) / 2
        canv.saveState()
        canv.translate(baseline_x, start)
        canv.rotate(-90)
        canv.setFillColor(ink)
        canv.setFont(self.fonts.text_bold, self.size)
        canv.drawString(0, 0, self.title)
        if self.author:
            author_width = pdfmetrics.stringWidth(self.author, self.fonts.text, self.size)
            canv.setFont(self.fonts.text, self.size)
            canv.drawString(self.length(self.size) - author_width, 0, self.author)
        canv.restoreState()
