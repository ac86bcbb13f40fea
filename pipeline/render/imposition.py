"""Saddle-stitch imposition: which two pages share each side of each printed sheet.

A saddle-stitched booklet is a stack of sheets folded once and stapled on the fold. Each sheet
carries four pages: on its front the last unprinted page on the left and the first on the right,
on its back the next two inwards. Printing the sides in order, stacking and folding gives the
pages in reading order.

An imposed side is the two-page spread with a slug around it for the printer's marks: crop marks
at the spread's corners, set off from the trim by the bleed so that they never print on the page,
and dashed fold marks above and below the spine. Such sides go on stock larger than the spread
(12x18 in or SRA3 for letter pages), as a print shop expects of marked sheets.
"""

from __future__ import annotations

from reportlab.lib.units import inch
from reportlab.pdfgen.canvas import Canvas

from pipeline.errors import UserError
from pipeline.render.page import BLEED_OUTSIDE, Box

PAGES_PER_SHEET = 4
SLUG = 0.5 * inch  # paper around the spread, for the marks
MARK_OFFSET = BLEED_OUTSIDE  # gap between the trim and a mark: the bleed stays clean
MARK_LENGTH = 0.25 * inch
MARK_WIDTH = 0.5  # pt: hairline registration marks
FOLD_DASH = (3, 2)  # pt on, pt off


class ImpositionError(UserError):
    """The page count cannot be folded into a booklet."""


def saddle_stitch_sides(pages: int) -> list[tuple[int, int]]:
    """(left, right) page numbers of each sheet side: sheet 1 front, sheet 1 back, sheet 2 ..."""
    if pages <= 0 or pages % PAGES_PER_SHEET:
        raise ImpositionError(
            f"a saddle-stitched booklet needs a positive multiple of {PAGES_PER_SHEET} pages, "
            f"got {pages}"
        )
    sides = []
    for sheet in range(pages // PAGES_PER_SHEET):
        first, last = 2 * sheet + 1, pages - 2 * sheet
        sides.append((last, first))
        sides.append((first + 1, last - 1))
    return sides


def sheet_size(page_size: tuple[float, float]) -> tuple[float, float]:
    """An imposed side: two pages side by side and the slug around them."""
    width, height = page_size
    return (2 * width + 2 * SLUG, height + 2 * SLUG)


def draw_marks(canv: Canvas, trim: Box, fold_x: float) -> None:
    """Crop marks at the corners of the spread's ``trim`` and fold marks at ``fold_x``, all in
    the slug (black: marks are cut away with it)."""
    canv.saveState()
    canv.setStrokeGray(0)
    canv.setLineWidth(MARK_WIDTH)
    near, far = MARK_OFFSET, MARK_OFFSET + MARK_LENGTH
    crops = []
    for x, out_x in ((trim.x0, -1), (trim.x1, 1)):
        for y, out_y in ((trim.y0, -1), (trim.y1, 1)):
            crops.append((x + out_x * near, y, x + out_x * far, y))  # horizontal
            crops.append((x, y + out_y * near, x, y + out_y * far))  # vertical
    canv.lines(crops)
    canv.setDash(*FOLD_DASH)
    canv.lines(
        [
            (fold_x, trim.y1 + near, fold_x, trim.y1 + far),
            (fold_x, trim.y0 - near, fold_x, trim.y0 - far),
        ]
    )
    canv.restoreState()
