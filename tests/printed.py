"""Reading printed grids back from a PDF (pdfplumber): what a reader sees in each frame, so tests
compare the printed puzzles with the puzzles that were meant to be printed."""

from __future__ import annotations

from dataclasses import dataclass

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


def read_grids(pdf: pdfplumber.PDF) -> list[PrintedGrid]:
    """Every grid of every page, in reading order (page, then top to bottom, left to right)."""
    grids = []
    for page in pdf.pages:
        frames = [
            rect
            for rect in page.rects
            if rect["stroke"]
            and rect["width"] > MIN_FRAME
            and abs(rect["width"] - rect["height"]) < TOLERANCE
        ]
        frames.sort(key=lambda rect: (round(rect["top"]), rect["x0"]))
        for frame in frames:
            grids.append(_read_grid(page, frame))
    return grids


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
