"""Saddle-stitch imposition: which two pages share each side of each printed sheet.

A saddle-stitched booklet is a stack of sheets folded once and stapled on the fold. Each sheet
carries four pages: on its front the last unprinted page on the left and the first on the right,
on its back the next two inwards. Printing the sides in order, stacking and folding gives the
pages in reading order.
"""

from __future__ import annotations

PAGES_PER_SHEET = 4


class ImpositionError(ValueError):
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
