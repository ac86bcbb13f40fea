"""The grid flowable: one Sudoku grid of any box shape and variant, as a puzzle or as an answer.

Thin rules separate cells and thick rules separate boxes (a Jigsaw's regions); no rule is thinner
than 0.75 pt, the finest a print service promises to reproduce. In an answer the givens stay bold
black and the filled symbols are regular dark grey, so a reader tells them apart.

Cells carry at most one kind of shading, so every grey on a grid means one thing: the logic pass
that solved the cell (an answer key that asks for it: later passes darker, showing where the
puzzle was hard), else a variant's extra units (:mod:`pipeline.render.variants`), else, when
asked, a tint per Jigsaw region.

A Killer's cages are dashed outlines inset within the cells, each line cut so a dash lies at
both ends (corners meet in ink, never in a gap); the cage's sum is printed small in the top-left
corner of its top-left cell, on the cell's own fill so the outline breaks around it, and leaves
the rest of the cell to the solver's pencil marks. On a Killer the cell rules are grey, so the
cages and the heavy box rules stand out; an answer draws the cages faint and no sums (in its
small cells they would crowd the solution, which shows every sum).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable

from engine.geometry import Geometry
from pipeline.render.book import PuzzleGrids
from pipeline.render.fonts import Fonts
from pipeline.render.variants import (
    WHITE,
    Segment,
    cage_outlines,
    region_tints,
    rule_segments,
    variant_greys,
)

THIN_RULE = 0.75  # pt
THICK_RULE_PER_CELL = 0.08  # box rules scale with the cell, within these bounds
THICK_RULE_MIN = 1.5
THICK_RULE_MAX = 3.0
SYMBOL_PER_CELL = 0.6  # symbol size as a fraction of the cell side
GIVEN_GREY = 0.0  # black
FILLED_GREY = 0.3  # dark grey: reads as "written in", still crisp in print
# Fill for cells solved in pass 1, 2, ...; passes past the end use the last (darkest) shade.
# Steps of 10 % grey stay apart on a laser printer's toner (5 % steps merged); four of them keep
# the darkest shade light enough that grey answer symbols on it still read (contrast 0.35).
PASS_SHADES = (0.95, 0.85, 0.75, 0.65)
#: Killer cages: the outline's inset from the cell edges, its dashes and the sum's size scale with
#: the cell, within bounds that keep two outlines apart and the sum legible on any trim.
CAGE_INSET_PER_CELL = 0.09
CAGE_INSET_MIN = 2.0  # pt
CAGE_INSET_MAX = 5.0
CAGE_LINE = 0.75  # pt: the finest a print service promises to reproduce
CAGE_DASH = 2.0  # pt of ink, then about CAGE_GAP of paper
CAGE_GAP = 1.6
CAGE_SUM_PER_CELL = 0.22
CAGE_SUM_MIN = 5.5  # pt
CAGE_GREY = 0.0  # puzzle: black
CAGE_FAINT = 0.6  # answer: the cages faint behind the solution
KILLER_CELL_RULE_GREY = 0.55  # cell rules on a Killer, lighter than the cages


def symbol_size(cell: float) -> float:
    """Font size of the symbols in a cell of side ``cell`` points."""
    return cell * SYMBOL_PER_CELL


def thick_rule(cell: float) -> float:
    return min(THICK_RULE_MAX, max(THICK_RULE_MIN, cell * THICK_RULE_PER_CELL))


def cage_inset(cell: float) -> float:
    """How far inside the cell edges a cage outline runs, in points."""
    return min(CAGE_INSET_MAX, max(CAGE_INSET_MIN, cell * CAGE_INSET_PER_CELL))


def cage_sum_size(cell: float) -> float:
    """Font size of a cage's sum in a cell of side ``cell`` points."""
    return max(CAGE_SUM_MIN, cell * CAGE_SUM_PER_CELL)


def dash_gap(length: float) -> float:
    """The gap that puts a whole number of CAGE_DASH dashes on a line of ``length``, a dash at
    each end, gaps as near CAGE_GAP as can be (0: too short for a gap, drawn solid)."""
    periods = round((length - CAGE_DASH) / (CAGE_DASH + CAGE_GAP))
    if periods < 1:
        return 0.0
    return (length - CAGE_DASH) / periods - CAGE_DASH


def pass_shade(level: int) -> float:
    """Grey level (1 = white) of a cell solved in logic pass ``level`` (1 or more)."""
    return PASS_SHADES[min(level, len(PASS_SHADES)) - 1]


@cache
def _symbol_widths(font: str, size: float, symbols: str) -> dict[str, float]:
    return {symbol: pdfmetrics.stringWidth(symbol, font, size) for symbol in symbols}


def cell_greys(
    geo: Geometry, passes: tuple[int, ...] | None = None, tint: bool = False
) -> np.ndarray:
    """The grey each cell is filled with (``WHITE``: not filled): by logic pass when ``passes``
    are given, else the variant's shaded cells, else (``tint``) the Jigsaw regions' tints."""
    if passes is not None:
        return np.asarray([pass_shade(level) if level else WHITE for level in passes])
    greys = variant_greys(geo)
    if (greys < WHITE).any():
        return greys
    if tint and "jigsaw" in geo.parts:
        return region_tints(geo)
    return np.full(geo.ncells, WHITE)


class GridFlowable(Flowable):
    """A square grid ``size`` points wide: the puzzle's givens, or (``answer``) its solution;
    ``passes`` shades an answer by logic pass, ``tint`` a Jigsaw's regions."""

    def __init__(
        self,
        grids: PuzzleGrids,
        size: float,
        fonts: Fonts,
        *,
        answer: bool = False,
        passes: tuple[int, ...] | None = None,
        tint: bool = False,
    ) -> None:
        super().__init__()
        self.grids = grids
        self.size = size
        self.fonts = fonts
        self.answer = answer
        self.passes = passes
        self.tint = tint

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return (self.size, self.size)

    def draw(self) -> None:
        geo = self.grids.geometry
        cell = self.size / geo.n
        greys = cell_greys(geo, self.passes, self.tint)
        self._shade(cell, greys)
        if geo.cages is not None:
            self._cages(cell, greys, CAGE_FAINT if self.answer else CAGE_GREY)
        self._rules(cell)
        given = self.grids.givens != 0
        self._symbols(cell, self.grids.givens, given, self.fonts.grid_bold, GIVEN_GREY)
        if self.answer:
            self._symbols(cell, self.grids.solution, ~given, self.fonts.grid, FILLED_GREY)

    def _cell_origin(self, cells: np.ndarray, cell: float) -> tuple[np.ndarray, np.ndarray]:
        """Bottom-left corners of cells (row 0 is the top row)."""
        n = self.grids.geometry.n
        return (cells % n) * cell, self.size - (cells // n + 1) * cell

    def _shade(self, cell: float, greys: np.ndarray) -> None:
        """Filled cells, lightest grey first."""
        canv = self.canv
        for grey in np.unique(greys[greys < WHITE])[::-1].tolist():
            xs, ys = self._cell_origin(np.flatnonzero(greys == grey), cell)
            canv.setFillGray(grey)
            for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
                canv.rect(x, y, cell, cell, stroke=0, fill=1)

    def _rules(self, cell: float) -> None:
        canv, size = self.canv, self.size
        thin, thick = rule_segments(self.grids.geometry)
        width = thick_rule(cell)
        killer = self.grids.geometry.cages is not None
        canv.setStrokeGray(KILLER_CELL_RULE_GREY if killer else 0)
        canv.setLineWidth(THIN_RULE)
        canv.lines(self._points(thin, cell, 0.0))
        canv.setStrokeGray(0)
        canv.setLineWidth(width)
        canv.lines(self._points(thick, cell, width / 2))
        canv.rect(0, 0, size, size, stroke=1, fill=0)

    def _cages(self, cell: float, greys: np.ndarray, grey: float) -> None:
        """Each cage's dashed outline, then its sum on the corner cell's fill."""
        canv, geo, size = self.canv, self.grids.geometry, self.size
        inset = cage_inset(cell)

        def at(offset: tuple[int, int]) -> float:
            return offset[0] * cell + offset[1] * inset

        canv.saveState()
        canv.setStrokeGray(grey)
        canv.setLineWidth(CAGE_LINE)
        for x0, y0, x1, y1 in cage_outlines(geo):
            ax, ay, bx, by = at(x0), size - at(y0), at(x1), size - at(y1)
            gap = dash_gap(abs(bx - ax) + abs(by - ay))
            canv.setDash([CAGE_DASH, gap] if gap else [])
            canv.line(ax, ay, bx, by)
        canv.restoreState()
        if self.answer:
            return
        font, font_size = self.fonts.grid, cage_sum_size(cell)
        rise = self.fonts.cap_height(font) * font_size
        pad = inset / 2
        for cage in geo.cages or ():
            first = cage.cells[0]
            left, bottom = (first % geo.n) * cell, size - (first // geo.n + 1) * cell
            label = str(cage.total)
            width = pdfmetrics.stringWidth(label, font, font_size)
            canv.setFillGray(float(greys[first]))
            canv.rect(
                left + pad,
                bottom + cell - 2 * pad - rise - pad,
                width + 2 * pad,
                rise + 2 * pad,
                stroke=0,
                fill=1,
            )
            canv.setFillGray(GIVEN_GREY)
            canv.setFont(font, font_size)
            canv.drawString(left + 2 * pad, bottom + cell - 2 * pad - rise, label)

    def _points(
        self, segments: tuple[Segment, ...], cell: float, reach: float
    ) -> list[tuple[float, float, float, float]]:
        """Segments in cells as lines in points. An end inside the grid reaches ``reach`` on
        (half a thick rule), so where a region's border turns a corner its two rules meet without
        a notch; ends on the frame stay, and a classic grid's whole lines come out as before."""
        n, size = self.grids.geometry.n, self.size
        at = [k * cell for k in range(n)] + [size]  # the last rule is the frame, exactly
        lines = []
        for x0, y0, x1, y1 in segments:
            if x0 == x1:  # vertical, drawn upwards: y0 is its lower end's row line
                bottom = size - at[y0] - (reach if y0 < n else 0.0)
                top = size - at[y1] + (reach if y1 > 0 else 0.0)
                lines.append((at[x0], bottom, at[x0], top))
            else:
                left = at[x0] - (reach if x0 > 0 else 0.0)
                right = at[x1] + (reach if x1 < n else 0.0)
                lines.append((left, size - at[y0], right, size - at[y0]))
        return lines

    def _symbols(
        self, cell: float, values: np.ndarray, mask: np.ndarray, font: str, grey: float
    ) -> None:
        symbols = self.grids.geometry.symbols
        font_size = symbol_size(cell)
        widths = _symbol_widths(font, font_size, symbols)
        cells = np.flatnonzero(mask)
        xs, ys = self._cell_origin(cells, cell)
        rise = (cell - self.fonts.cap_height(font) * font_size) / 2
        text = self.canv.beginText()
        text.setFont(font, font_size)
        text.setFillGray(grey)
        for value, x, y in zip(values[cells].tolist(), xs.tolist(), ys.tolist(), strict=True):
            symbol = symbols[value - 1]
            text.setTextOrigin(x + (cell - widths[symbol]) / 2, y + rise)
            text.textOut(symbol)
        self.canv.drawText(text)
