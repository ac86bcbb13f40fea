"""The daily syndication pack: each day's puzzle of each tier as a file of its own, cropped to the
grid with a caption, its solution beside it for the next day's paper, and ``index.json``.

The run digs the pack as sections after the book's (:func:`with_pack`): its puzzles are chosen
new to the catalog, reserved, stored in ``puzzles.parquet`` (a ``section`` past the book's last)
and committed with the book's, so no puzzle is both syndicated and printed, nor syndicated twice.
They are never printed in the book.

Files, under ``<run folder>/syndication/<YYYY-MM-DD>/``: ``<tier>.<format>`` and
``<tier>-solution.<format>``. A PDF draws the grid with the book's own
:class:`pipeline.render.grid.GridFlowable` and embedded fonts; an SVG comes from the small writer
below (plain XML, symbols as ``<text>`` in a generic sans-serif, sizes in the unit the recipe
wrote); a PNG is the PDF rasterised by pypdfium2. Every file is written atomically.
"""

from __future__ import annotations

import dataclasses
import io
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pypdfium2
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pipeline.daily import today
from pipeline.formats.writers import atomic_path
from pipeline.recipe import Recipe, SyndicationSpec
from pipeline.recipe_schema import POINTS_PER_UNIT
from pipeline.render.book import BookPuzzle, puzzle_from_row
from pipeline.render.fonts import fonts
from pipeline.render.grid import (
    FILLED_GREY,
    GIVEN_GREY,
    THIN_RULE,
    GridFlowable,
    symbol_size,
    thick_rule,
)
from pipeline.store import StoreError, make_folder, write_json

FOLDER = "syndication"  # in the run folder
INDEX_FILE = "index.json"
SOLUTION_SUFFIX = "-solution"
POINTS_PER_INCH = POINTS_PER_UNIT["in"]
CAPTION_PER_WIDTH = 0.04  # caption size as a fraction of the width: 7.2 pt at 2.5 in
CAPTION_MIN = 6.0  # pt: the smallest type a paper prints
CAPTION_BAND = 2.0  # the caption's band under the grid, in caption sizes
CAPTION_BASELINE = 1.35  # its baseline below the grid, in caption sizes
CAPTION_GREY = 0.2
SVG_FONT = "sans-serif"  # generic: every browser and editor has one
SVG_DECIMALS = 3


@dataclass(frozen=True)
class Tile:
    """One file: a puzzle, or (``answer``) its solution, and the caption under it."""

    puzzle: BookPuzzle
    caption: str
    answer: bool


@dataclass(frozen=True)
class TileLayout:
    """Where a tile's parts go on a file ``width`` points wide for an ``n`` x ``n`` grid: the
    grid inset by half its border (whose stroke is centred on it), then the caption band."""

    width: float
    n: int

    @property
    def margin(self) -> float:
        return thick_rule(self.width / self.n) / 2

    @property
    def grid(self) -> float:
        return self.width - 2 * self.margin

    @property
    def cell(self) -> float:
        return self.grid / self.n

    @property
    def caption_size(self) -> float:
        return max(CAPTION_MIN, self.width * CAPTION_PER_WIDTH)

    @property
    def height(self) -> float:
        return self.width + CAPTION_BAND * self.caption_size

    @property
    def caption_baseline(self) -> float:
        """From the top."""
        return self.width + CAPTION_BASELINE * self.caption_size

    def caption_fit(self, caption: str) -> float:
        """The caption's size: the band's, or smaller when the text would be wider than the grid
        (measured in the PDF's font; a browser's sans-serif is close)."""
        wide = pdfmetrics.stringWidth(caption, fonts().text, 1.0)
        return min(self.caption_size, self.grid / wide)


def with_pack(recipe: Recipe) -> Recipe:
    """The recipe the run digs by: the book's sections, then the pack's (if any)."""
    if recipe.syndication is None:
        return recipe
    return dataclasses.replace(recipe, sections=recipe.sections + recipe.syndication.sections())


def pack_start(recipe: Recipe, day: date | None) -> date:
    """The pack's first day: the recipe's ``start``, else the run's day (a daily seed's day, or
    today in the recipe's time zone)."""
    assert recipe.syndication is not None
    return recipe.syndication.start or day or today(recipe.timezone)


def caption(tier: str, day: date, number: int, answer: bool) -> str:
    """``2025-06-02 · Hard · No. 12``, or ``Solution to No. 12 · Hard · 2025-06-02``."""
    name = tier.replace("_", " ").capitalize()
    if answer:
        return f"Solution to No. {number} · {name} · {day.isoformat()}"
    return f"{day.isoformat()} · {name} · No. {number}"


def tile_pdf(tile: Tile, layout: TileLayout) -> bytes:
    """A one-page PDF of the tile, ``layout.width`` by ``layout.height`` points."""
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer,
        pagesize=(layout.width, layout.height),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts().text,  # never an unembedded standard font
    )
    canvas.setTitle(tile.caption)
    grid = GridFlowable(tile.puzzle.grids, layout.grid, fonts(), answer=tile.answer)
    grid.drawOn(canvas, layout.margin, layout.height - layout.margin - layout.grid)
    canvas.setFont(fonts().text, layout.caption_fit(tile.caption))
    canvas.setFillGray(CAPTION_GREY)
    canvas.drawCentredString(
        layout.width / 2, layout.height - layout.caption_baseline, tile.caption
    )
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def tile_png(pdf: bytes, dpi: int) -> bytes:
    """The one-page ``pdf`` rasterised at ``dpi`` (recorded in the PNG for print)."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        image = document[0].render(scale=dpi / POINTS_PER_INCH).to_pil()
    finally:
        document.close()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi))
    return buffer.getvalue()


def _n(value: float) -> str:
    """A coordinate as SVG text: at most :data:`SVG_DECIMALS` decimals, no trailing zeros."""
    return f"{value:.{SVG_DECIMALS}f}".rstrip("0").rstrip(".")


def _grey(level: float) -> str:
    return "#" + f"{round(level * 255):02x}" * 3


def tile_svg(tile: Tile, layout: TileLayout, unit: str) -> str:
    """The tile as SVG: user units are points, ``width``/``height`` in ``unit`` (``in``,
    ``pt``). Rules as the PDF's (:mod:`pipeline.render.grid`), symbols as ``<text>``."""
    grids = tile.puzzle.grids
    geo, cell, side = grids.geometry, layout.cell, layout.grid
    thin, thick = [], []
    for k in range(1, geo.n):
        at = _n(k * cell)
        (thick if k % geo.box_cols == 0 else thin).append(f"M{at},0V{_n(side)}")
        (thick if k % geo.box_rows == 0 else thin).append(f"M0,{at}H{_n(side)}")
    font_size = symbol_size(cell)
    rise = fonts().cap_height(fonts().grid_bold) * font_size / 2
    given: list[str] = []
    filled: list[str] = []
    for index, value in enumerate(grids.solution.tolist()):
        is_given = bool(grids.givens[index])
        if not (is_given or tile.answer):
            continue
        row, col = divmod(index, geo.n)
        x, y = _n((col + 0.5) * cell), _n((row + 0.5) * cell + rise)
        name = "given" if is_given else "filled"
        text = f'<text class="{name}" x="{x}" y="{y}">{escape(geo.symbols[value - 1])}</text>'
        (given if is_given else filled).append(text)
    per_unit = POINTS_PER_UNIT[unit]
    border = _n(thick_rule(cell))
    return "\n".join(
        [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
            f'width="{_n(layout.width / per_unit)}{unit}" '
            f'height="{_n(layout.height / per_unit)}{unit}" '
            f'viewBox="0 0 {_n(layout.width)} {_n(layout.height)}">',
            f"<title>{escape(tile.caption)}</title>",
            f'<rect width="{_n(layout.width)}" height="{_n(layout.height)}" fill="#ffffff"/>',
            f'<g transform="translate({_n(layout.margin)} {_n(layout.margin)})">',
            f'<path d="{"".join(thin)}" stroke="#000000" stroke-width="{_n(THIN_RULE)}"/>',
            f'<path d="{"".join(thick)}" stroke="#000000" stroke-width="{border}"/>',
            f'<rect width="{_n(side)}" height="{_n(side)}" fill="none" stroke="#000000" '
            f'stroke-width="{border}"/>',
            f'<g font-family="{SVG_FONT}" font-size="{_n(font_size)}" text-anchor="middle">',
            f'<g font-weight="bold" fill="{_grey(GIVEN_GREY)}">',
            *given,
            "</g>",
            f'<g fill="{_grey(FILLED_GREY)}">',
            *filled,
            "</g>",
            "</g>",
            "</g>",
            f'<text class="caption" x="{_n(layout.width / 2)}" '
            f'y="{_n(layout.caption_baseline)}" font-family="{SVG_FONT}" '
            f'font-size="{_n(layout.caption_fit(tile.caption))}" text-anchor="middle" '
            f'fill="{_grey(CAPTION_GREY)}">{escape(tile.caption)}</text>',
            "</svg>",
            "",
        ]
    )


def write_bytes(data: bytes, path: Path) -> None:
    """Write a file atomically (a killed run leaves no half file under its name)."""
    with atomic_path(path) as temporary:
        temporary.write_bytes(data)


def write_tile(tile: Tile, layout: TileLayout, spec: SyndicationSpec, stem: Path) -> list[str]:
    """Write the tile in each of the pack's formats as ``stem.<format>``; their names."""
    pdf = tile_pdf(tile, layout)
    made = {
        "pdf": lambda: pdf,
        "svg": lambda: tile_svg(tile, layout, spec.width.unit).encode(),
        "png": lambda: tile_png(pdf, spec.dpi),
    }
    names = []
    for kind in spec.formats:
        path = stem.with_name(f"{stem.name}.{kind}")
        write_bytes(made[kind](), path)
        names.append(path.name)
    return names


def fresh_folder(path: Path) -> Path:
    """``path``, empty: an earlier try of this run may have written other days there."""
    make_folder(path)  # refuses a symbolic link in its place
    try:
        shutil.rmtree(path)
    except OSError as exc:
        raise StoreError(f"{path}: cannot clear the old pack: {exc.strerror or exc}") from None
    return make_folder(path)


def index_entry(
    name: str, when: date, answer: bool, tier: str, number: int, row: Mapping[str, Any]
) -> dict[str, Any]:
    """What ``index.json`` says of one file: its day, the day it is printed (a solution the
    next day), its puzzle and that puzzle's grade."""
    return {
        "file": f"{when.isoformat()}/{name}",
        "date": when.isoformat(),
        "publish": (when + timedelta(days=1 if answer else 0)).isoformat(),
        "solution": answer,
        "tier": tier,
        "number": number,
        "puzzle_id": row["id"],
        "score": row["score"],
        "hardest": row["hardest"],
        "clues": row["clues"],
    }


def write_pack(
    recipe: Recipe,
    pack: Sequence[Sequence[Mapping[str, Any]]],
    folder: Path,
    day: date | None,
) -> dict[str, Any] | None:
    """Write the pack of ``recipe`` (None without one) into ``folder/syndication``, from
    ``pack``: the rows of its sections, one per tier in recipe order, a row per day. Return what
    the manifest records of it."""
    spec = recipe.syndication
    if spec is None:
        return None
    start = pack_start(recipe, day)
    root = fresh_folder(folder / FOLDER)
    layout = TileLayout(spec.width.points, spec.size)
    entries = []
    for offset in range(spec.days):
        when = start + timedelta(days=offset)
        day_folder = make_folder(root / when.isoformat())
        for position, (tier, rows) in enumerate(zip(spec.tiers, pack, strict=True)):
            number = offset * len(spec.tiers) + position + 1
            puzzle = puzzle_from_row(rows[offset], offset)
            for answer in (False, True):
                tile = Tile(puzzle, caption(tier, when, number, answer), answer)
                stem = day_folder / (f"{tier}{SOLUTION_SUFFIX}" if answer else tier)
                entries += [
                    index_entry(name, when, answer, tier, number, rows[offset])
                    for name in write_tile(tile, layout, spec, stem)
                ]
    pack_days = {"start": start.isoformat(), "days": spec.days, "tiers": list(spec.tiers)}
    size = {"width": str(spec.width), "width_pt": layout.width, "height_pt": layout.height}
    write_json(pack_days | {"size": size, "files": entries}, root / INDEX_FILE)
    return {"folder": FOLDER} | pack_days | {"files": len(entries)}
