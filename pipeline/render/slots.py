"""Where grids go on a page: the arrangement of k equal slots that gives the largest grids.

Each slot holds a label line above a square grid. The same rule places puzzles (1, 2, 4 or 6 to a
page) and answers (up to 16), so a portrait page gets 2-up as two grids stacked, 4-up as 2x2 and
6-up as 2 columns of 3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.units import inch

from pipeline.render.page import Box

SLOT_GAP = 0.3 * inch  # between neighbouring slots
MAX_CELL = 1.0 * inch  # kids' 4x4 and 6x6 grids grow big and friendly, but no bigger


@dataclass(frozen=True)
class Slot:
    """One grid's place: the square it fills and the label baseline above it."""

    grid: Box
    label_y: float


def best_columns(count: int, area: Box, label_band: float) -> tuple[int, float]:
    """The column count giving the largest grid side for ``count`` slots, and that side."""
    best = (1, 0.0)
    for columns in range(1, count + 1):
        rows = math.ceil(count / columns)
        width = (area.width - (columns - 1) * SLOT_GAP) / columns
        height = (area.height - (rows - 1) * SLOT_GAP) / rows - label_band
        side = min(width, height)
        if side > best[1]:
            best = (columns, side)
    return best


def arrange(count: int, area: Box, label_band: float, n: int) -> list[Slot]:
    """``count`` slots in reading order, grids for an n x n puzzle centred in equal cells."""
    columns, side = best_columns(count, area, label_band)
    side = min(side, n * MAX_CELL)
    rows = math.ceil(count / columns)
    cell_width = (area.width - (columns - 1) * SLOT_GAP) / columns
    cell_height = (area.height - (rows - 1) * SLOT_GAP) / rows
    slots = []
    for index in range(count):
        row, column = divmod(index, columns)
        x0 = area.x0 + column * (cell_width + SLOT_GAP) + (cell_width - side) / 2
        top = area.y1 - row * (cell_height + SLOT_GAP)
        # centre label and grid together in the cell's height
        y1 = top - (cell_height - side - label_band) / 2 - label_band
        slots.append(Slot(Box(x0, y1 - side, x0 + side, y1), y1 + label_band / 3))
    return slots
