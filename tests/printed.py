"""Reading printed grids back from a PDF (pdfplumber): what a reader sees in each frame, so tests
compare the printed puzzles with the puzzles that were meant to be printed."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pdfplumber

MIN_FRAME = 30.0  # pt: stroked squares at least this wide are grid frames (legend swatches are not)
THIN = 0.75  # pt: rules thicker than this are box borders
TOLERANCE = 0.01


@dataclass
class PrintedGrid:
    """A grid as read back: its text form, box shape, bold cells and the label above it."""

    text: str
    box: tuple[int, int]
    bold: list[bool]
    label: str
    page: int
    symbol_size: float


def _lines_inside(page: pdfplumber.page.Page, frame: dict) -> tuple[list[dict], list[dict]]:
    """Vertical and horizontal rules strictly inside a frame."""
    vertical, horizontal = [], []
    for line in page.lines:
        inside_x = frame["x0"] - TOLERANCE <= line["x0"] <= frame["x1"] + TOLERANCE
        inside_y = frame["top"] - TOLERANCE <= line["top"] <= frame["bottom"] + TOLERANCE
        if not (inside_x and inside_y):
            continue
        if abs(line["x0"] - line["x1"]) < TOLERANCE:
            vertical.append(line)
        elif abs(line["top"] - line["bottom"]) < TOLERANCE:
            horizontal.append(line)
    return vertical, horizontal


def grid_frames(page: pdfplumber.page.Page) -> list[dict]:
    """The page's grid frames in reading order: stroked squares that hold no smaller one (a
    cover's card frames the grid's frame)."""
    squares = [
        rect
        for rect in page.rects
        if rect["stroke"]
        and rect["width"] > MIN_FRAME
        and abs(rect["width"] - rect["height"]) < TOLERANCE
    ]
    frames = [frame for frame in squares if not any(_holds(frame, other) for other in squares)]
    return sorted(frames, key=lambda rect: (round(rect["top"]), rect["x0"]))


def _holds(outer: dict, inner: dict) -> bool:
    """``inner`` lies strictly inside ``outer``."""
    return (
        outer["x0"] < inner["x0"]
        and outer["top"] < inner["top"]
        and inner["x1"] < outer["x1"]
        and inner["bottom"] < outer["bottom"]
    )


def _grown(rect: dict) -> dict:
    """``rect`` grown by the tolerance on every side."""
    return {
        "x0": rect["x0"] - TOLERANCE,
        "top": rect["top"] - TOLERANCE,
        "x1": rect["x1"] + TOLERANCE,
        "bottom": rect["bottom"] + TOLERANCE,
    }


def read_grids(pdf: pdfplumber.PDF) -> list[PrintedGrid]:
    """Every grid of every page, in reading order (page, then top to bottom, left to right)."""
    return [_read_grid(page, frame) for page in pdf.pages for frame in grid_frames(page)]


def _read_grid(page: pdfplumber.page.Page, frame: dict) -> PrintedGrid:
    vertical, horizontal = _lines_inside(page, frame)
    n = len({round(line["x0"], 2) for line in vertical}) + 1
    assert len({round(line["top"], 2) for line in horizontal}) + 1 == n
    thick_columns = {round(line["x0"], 2) for line in vertical if line["linewidth"] > THIN}
    thick_rows = {round(line["top"], 2) for line in horizontal if line["linewidth"] > THIN}
    box = (n // (len(thick_rows) + 1), n // (len(thick_columns) + 1))
    cell = frame["width"] / n
    cells = ["."] * (n * n)
    bold = [False] * (n * n)
    sizes = []
    for char in page.chars:
        x = (char["x0"] + char["x1"]) / 2
        y = (char["top"] + char["bottom"]) / 2
        if not (frame["x0"] < x < frame["x1"] and frame["top"] < y < frame["bottom"]):
            continue
        index = int((y - frame["top"]) // cell) * n + int((x - frame["x0"]) // cell)
        assert cells[index] == ".", f"two symbols in one cell on page {page.page_number}"
        cells[index] = char["text"]
        bold[index] = "Bold" in char["fontname"]
        sizes.append(char["size"])
    label_band = page.crop((frame["x0"], frame["top"] - 16, frame["x1"], frame["top"]))
    return PrintedGrid(
        text="".join(cells),
        box=box,
        bold=bold,
        label=label_band.extract_text() or "",
        page=page.page_number,
        symbol_size=min(sizes, default=0.0),
    )


@dataclass
class PrintedMarks:
    """What a grid's rules and fills show, cell edge by cell edge and cell by cell.

    ``vertical[r, c - 1]`` is the width of the heaviest rule on the edge between columns c-1 and
    c in row r, ``horizontal[r - 1, c]`` the same between rows r-1 and r in column c (0: no rule
    there); ``greys`` is the fill grey at each cell's centre (1: white), row-major."""

    n: int
    vertical: np.ndarray
    horizontal: np.ndarray
    greys: np.ndarray
    page: int


def read_marks(pdf: pdfplumber.PDF) -> list[PrintedMarks]:
    """The rules and fills of every grid, in :func:`read_grids` order."""
    return [_read_marks(page, frame) for page in pdf.pages for frame in grid_frames(page)]


def _read_marks(page: pdfplumber.page.Page, frame: dict) -> PrintedMarks:
    vertical_lines, horizontal_lines = _lines_inside(page, frame)
    n = len({round(line["x0"], 2) for line in vertical_lines}) + 1
    cell = frame["width"] / n
    vertical = np.zeros((n, n - 1))
    horizontal = np.zeros((n - 1, n))
    centres = (np.arange(n) + 0.5) * cell
    xs, ys = frame["x0"] + centres, frame["top"] + centres  # cell centres across and down
    for line in vertical_lines:
        k = _rule_index(line["x0"] - frame["x0"], cell, n)
        covered = (line["top"] <= ys) & (ys <= line["bottom"])
        vertical[covered, k - 1] = np.maximum(vertical[covered, k - 1], line["linewidth"])
    for line in horizontal_lines:
        k = _rule_index(line["top"] - frame["top"], cell, n)
        covered = (line["x0"] <= xs) & (xs <= line["x1"])
        horizontal[k - 1, covered] = np.maximum(horizontal[k - 1, covered], line["linewidth"])
    greys = np.ones(n * n)
    fills = [  # cell fills: unstroked, inside the frame (a cover's ground lies under it all)
        rect
        for rect in page.rects
        if rect["fill"] and not rect["stroke"] and _holds(_grown(frame), rect)
    ]
    for index in range(n * n):
        x, y = xs[index % n], ys[index // n]
        for rect in fills:  # in drawing order: the last one on top
            if rect["x0"] < x < rect["x1"] and rect["top"] < y < rect["bottom"]:
                greys[index] = _grey(rect["non_stroking_color"])
    return PrintedMarks(n, vertical, horizontal, greys, page.page_number)


def _rule_index(offset: float, cell: float, n: int) -> int:
    """Which inner rule (1 .. n-1) lies ``offset`` points into the frame; it must lie on one."""
    k = round(offset / cell)
    assert abs(offset - k * cell) < TOLERANCE and 0 < k < n, f"a rule {offset} pt in, off the cells"
    return k


def _grey(colour: float | tuple[float, ...]) -> float:
    """A fill's grey level: the project fills cells with greys only."""
    values = colour if isinstance(colour, tuple | list) else (colour,)
    assert len(values) == 1, f"a cell filled in colour {colour}"
    return float(values[0])
