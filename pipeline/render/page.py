"""Page geometry: trim sizes, bleed, the gutter by page count, mirrored margins, page-count padding.

Glossary used below:
    trim    the finished page size after the printer cuts the book
    media   the page as it sits in the PDF: trim plus bleed (when asked for)
    bleed   extra paper past the trim on the outside edge (0.125 in) and top and bottom (0.125 in
            each, 0.25 in in all), so a cut that wanders never leaves a white edge
    gutter  the inside margin, next to the binding; thicker books swallow more of the page
    recto   a right-hand page (odd page number, binding on its left)
    verso   a left-hand page (even page number, binding on its right)
    live    the area inside the margins, where everything is drawn

All lengths are points (1/72 in) unless a name says inches.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import inch

from pipeline.errors import UserError

#: Trim sizes by recipe name, (width, height) in points. ``custom`` takes width and height.
TRIMS: dict[str, tuple[float, float]] = {
    "letter": (8.5 * inch, 11 * inch),
    "a4": A4,
    "6x9": (6 * inch, 9 * inch),
    "8.5x11": (8.5 * inch, 11 * inch),
    "5.5x8.5": (5.5 * inch, 8.5 * inch),
}
CUSTOM = "custom"

BLEED_OUTSIDE = 0.125 * inch  # added on the outside edge only
BLEED_HEIGHT = 0.25 * inch  # added in height: 0.125 in at the top and at the bottom

# Inside margin by page count: (last page count of the bracket, gutter). Print services publish
# this table; a book thicker than the last bracket cannot be perfect bound.
GUTTER_TABLE: tuple[tuple[int, float], ...] = (
    (150, 0.375 * inch),
    (300, 0.5 * inch),
    (500, 0.625 * inch),
    (700, 0.75 * inch),
    (828, 0.875 * inch),
)
MAX_PAGES = GUTTER_TABLE[-1][0]

# Outside, top and bottom margins measured from the trim edge. A print service asks for at least
# 0.25 in from the media edge (0.375 in with bleed); 0.5 in from the trim clears both and leaves
# room for a thumb.
OUTER_MARGIN = 0.5 * inch
MIN_OUTER_MARGIN = 0.25 * inch
MIN_OUTER_MARGIN_BLEED = 0.375 * inch

# Page counts each binding accepts: perfect-bound books are whole leaves of two pages and at
# least as thick as the first gutter bracket; saddle-stitched books are folded sheets of four.
PERFECT = "perfect"
SADDLE_STITCH = "saddle-stitch"
BINDINGS = (PERFECT, SADDLE_STITCH)
PAGES_PER_UNIT = {PERFECT: 2, SADDLE_STITCH: 4}
MIN_PAGES = {PERFECT: 24, SADDLE_STITCH: 4}


class PageCountError(UserError):
    """The book has more pages than a binding can hold."""


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in PDF coordinates (origin bottom left)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def as_tuple(self) -> tuple[float, float, float, float]:
        return (self.x0, self.y0, self.x1, self.y1)

    def inset(self, left: float, bottom: float, right: float, top: float) -> Box:
        return Box(self.x0 + left, self.y0 + bottom, self.x1 - right, self.y1 - top)


@dataclass(frozen=True)
class PageFrame:
    """Where one page's trim and live area sit on its media box: what every page drawer needs."""

    number: int  # 1-based page number in the book
    media: Box
    trim: Box
    live: Box

    @property
    def recto(self) -> bool:
        return self.number % 2 == 1

    @property
    def size(self) -> tuple[float, float]:
        return (self.media.width, self.media.height)


def gutter_for(pages: int, binding: str) -> float:
    """The inside margin for a book of ``pages`` pages (small books use the first bracket).

    A saddle-stitched book opens flat: the print service's table is enough. A perfect-bound
    workbook is written in next to its spine, so its gutter starts at the outer margin and grows
    by the table's steps: never narrower than the outside margin."""
    for last, gutter in GUTTER_TABLE:
        if pages <= last:
            if binding == PERFECT:
                return OUTER_MARGIN + gutter - GUTTER_TABLE[0][1]
            return gutter
    raise PageCountError(f"the book has {pages} pages; a bound book holds at most {MAX_PAGES}")


def padded_page_count(pages: int, binding: str) -> int:
    """The page count after blank pages are added to suit the binding."""
    if binding not in BINDINGS:
        raise ValueError(f"binding {binding!r} is not one of {', '.join(BINDINGS)}")
    unit = PAGES_PER_UNIT[binding]
    padded = max(pages, MIN_PAGES[binding])
    return -(-padded // unit) * unit


def media_size(trim: tuple[float, float], bleed: bool) -> tuple[float, float]:
    """Width and height of every page of the PDF."""
    width, height = trim
    if bleed:
        return (width + BLEED_OUTSIDE, height + BLEED_HEIGHT)
    return (width, height)


def page_frame(number: int, trim: tuple[float, float], bleed: bool, gutter: float) -> PageFrame:
    """The frame of page ``number``: the bleed sits on the outside edge and the gutter on the
    inside, so a recto and a verso mirror each other."""
    width, height = media_size(trim, bleed)
    media = Box(0.0, 0.0, width, height)
    recto = number % 2 == 1
    # a verso's outside edge is its left: its bleed pushes the trim to the right
    trim_x0 = BLEED_OUTSIDE if bleed and not recto else 0.0
    trim_y0 = BLEED_HEIGHT / 2 if bleed else 0.0
    trim_box = Box(trim_x0, trim_y0, trim_x0 + trim[0], trim_y0 + trim[1])
    left, right = (gutter, OUTER_MARGIN) if recto else (OUTER_MARGIN, gutter)
    live = trim_box.inset(left, OUTER_MARGIN, right, OUTER_MARGIN)
    return PageFrame(number, media, trim_box, live)
