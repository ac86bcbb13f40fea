"""The syndication pack of a real ``pipeline run``: a week of three tiers beside a small book, each
file checked as its reader sees it (pypdf, pdfplumber, xml.etree, headless Chromium, Pillow), its
digits against the stored puzzles, and its puzzles against the catalog; then the recipe keys."""

from __future__ import annotations

import json
import shutil
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pdfplumber
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image
from pypdf import PdfReader

from pipeline.catalog import Catalog
from pipeline.recipe import RecipeError, load_recipe, parse_recipe, parse_width
from pipeline.run import run_book
from pipeline.store import MANIFEST_FILE, PUZZLES_FILE, read_rows
from tests.helpers import chromium_screenshot, invoke
from tests.printed import read_grids

RECIPE = """
title = "Pack Test"
seed = {seed}
output = "{output}"
[parallel]
n_jobs = {n_jobs}
chunk_size = 7
[print]
about = false
[[sections]]
tier = "easy"
count = 3
layout = 4
[syndication]
days = 7
start = 2025-06-02
tiers = ["easy", "medium", "hard"]
{look}
"""
FIRST_LOOK = 'width = "2.5in"\nformats = ["pdf", "svg", "png"]\ndpi = 100'
SECOND_LOOK = 'width = "180pt"\nformats = ["svg"]'
START = date(2025, 6, 2)
DAYS = 7
TIERS = ("easy", "medium", "hard")
WIDTH_PT = 180.0  # 2.5 in, and 180 pt
DPI = 100
N = 9
SVG = "{http://www.w3.org/2000/svg}"
WHITE = 128  # a pixel darker than this in every channel is ink
MIN_INKED = 0.05  # a drawn grid inks more of its box than any broken-image icon
TILE_PX = 120  # each SVG's width on the Chromium test page
PITCH_PX = (130, 140)


@dataclass(frozen=True)
class Run:
    """A finished run folder, read back."""

    folder: Path
    manifest: dict[str, Any]
    index: dict[str, Any]
    rows: dict[str, dict[str, Any]]  # puzzles.parquet by id
    book_ids: set[str]

    @property
    def pack(self) -> Path:
        return self.folder / "syndication"

    @property
    def pack_ids(self) -> set[str]:
        return {entry["puzzle_id"] for entry in self.index["files"]}


def write_recipe(folder: Path, seed: int, look: str, n_jobs: int = 1) -> Path:
    path = folder / f"pack-{seed}.toml"
    output = folder / "output"
    path.write_text(RECIPE.format(seed=seed, output=output, n_jobs=n_jobs, look=look))
    return path


def read_run(folder: Path) -> Run:
    manifest = json.loads((folder / MANIFEST_FILE).read_text())
    index = json.loads((folder / "syndication" / "index.json").read_text())
    rows = read_rows(folder / PUZZLES_FILE)
    book = {row["id"] for row in rows if row["section"] == 0}
    return Run(folder, manifest, index, {row["id"]: row for row in rows}, book)


def cli_run(recipe: Path) -> Run:
    result = invoke("run", recipe, "-q")
    assert result.code == 0, result.stderr
    run = read_run(Path(result.stdout.split(" in ")[1].split(" (")[0]))
    told = f"syndication: {run.manifest['syndication']['files']} files in {run.pack}"
    assert result.stdout.splitlines()[-1] == told
    return run


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Run, Run]:
    """Two runs into one output: a week in PDF, SVG and PNG at 2.5in, then another in SVG at
    180pt (another seed, the same days)."""
    folder = tmp_path_factory.mktemp("pack")
    return cli_run(write_recipe(folder, 5, FIRST_LOOK)), cli_run(
        write_recipe(folder, 6, SECOND_LOOK)
    )


@pytest.fixture(scope="module")
def run(runs: tuple[Run, Run]) -> Run:
    return runs[0]


def expected_files(formats: tuple[str, ...]) -> set[str]:
    return {
        f"{(START + timedelta(days)).isoformat()}/{tier}{suffix}.{kind}"
        for days in range(DAYS)
        for tier in TIERS
        for suffix in ("", "-solution")
        for kind in formats
    }


def entries(run: Run, kind: str) -> Iterator[dict[str, Any]]:
    return (entry for entry in run.index["files"] if entry["file"].endswith(f".{kind}"))


def cells(positions: list[tuple[float, float, str]]) -> str:
    """Symbols placed at (x, y) points inside a grid WIDTH_PT wide, as an 81-character grid
    ('.' for an empty cell); a cell written twice fails."""
    grid = ["."] * N * N
    for x, y, symbol in positions:
        cell = int(y // (WIDTH_PT / N)) * N + int(x // (WIDTH_PT / N))
        assert grid[cell] == ".", f"cell {cell} written twice"
        grid[cell] = symbol
    return "".join(grid)


def pdf_grid(path: Path) -> tuple[str, str]:
    """The digits in the grid of a one-page PDF, and the caption under it."""
    with pdfplumber.open(path) as pdf:
        chars = pdf.pages[0].chars
    grid = [c for c in chars if (c["top"] + c["bottom"]) / 2 < WIDTH_PT]
    caption = "".join(c["text"] for c in chars if c not in grid)
    centres = [((c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2, c["text"]) for c in grid]
    return cells(centres), caption


def svg_grid(path: Path) -> tuple[str, str]:
    """The digits in an SVG's grid (``<text>`` by position), and its caption."""
    root = ET.parse(path).getroot()
    texts = list(root.iter(f"{SVG}text"))
    symbols = [t for t in texts if t.get("class") in ("given", "filled")]
    caption = "".join(t.text or "" for t in texts if t.get("class") == "caption")
    return cells([(float(t.get("x")), float(t.get("y")), t.text) for t in symbols]), caption


def stored(run: Run, entry: dict[str, Any]) -> str:
    row = run.rows[entry["puzzle_id"]]
    return row["solution"] if entry["solution"] else row["givens"]


def test_every_file_is_present_and_listed(runs: tuple[Run, Run]) -> None:
    for run, formats in zip(runs, (("pdf", "svg", "png"), ("svg",)), strict=True):
        on_disk = {p.relative_to(run.pack).as_posix() for p in run.pack.rglob("*") if p.is_file()}
        listed = {entry["file"] for entry in run.index["files"]}
        assert on_disk - {"index.json"} == listed == expected_files(formats)
        assert run.manifest["syndication"] == {
            "folder": "syndication",
            "start": START.isoformat(),
            "days": DAYS,
            "tiers": list(TIERS),
            "files": len(listed),
        }


def test_index_names_each_day_and_tier_puzzle_and_when_it_is_published(run: Run) -> None:
    by_slot: dict[tuple[str, str], set[str]] = {}
    numbers: dict[tuple[str, str], set[int]] = {}
    for entry in run.index["files"]:
        row = run.rows[entry["puzzle_id"]]
        assert row["section"] >= 1  # stored after the book's one section, not in it
        assert (row["tier"], row["score"], row["hardest"], row["clues"]) == (
            entry["tier"],
            entry["score"],
            entry["hardest"],
            entry["clues"],
        )
        day = date.fromisoformat(entry["date"])
        assert date.fromisoformat(entry["publish"]) == day + timedelta(days=entry["solution"])
        name = entry["file"].rsplit("/", 1)[1].split(".")[0]
        assert name == entry["tier"] + ("-solution" if entry["solution"] else "")
        by_slot.setdefault((entry["date"], entry["tier"]), set()).add(entry["puzzle_id"])
        numbers.setdefault((entry["date"], entry["tier"]), set()).add(entry["number"])
    assert len(by_slot) == DAYS * len(TIERS)
    assert all(len(ids) == 1 for ids in by_slot.values())
    assert len(run.pack_ids) == DAYS * len(TIERS)  # a new puzzle every day and tier
    assert sorted(n for ns in numbers.values() for n in ns) == list(range(1, 22))


def test_each_pdf_is_one_page_the_size_asked_its_fonts_embedded(run: Run) -> None:
    height = run.index["size"]["height_pt"]
    assert run.index["size"]["width_pt"] == WIDTH_PT and height > WIDTH_PT
    for entry in entries(run, "pdf"):
        reader = PdfReader(run.pack / entry["file"])
        assert len(reader.pages) == 1
        box = reader.pages[0].mediabox
        assert float(box.width) == pytest.approx(WIDTH_PT, abs=0.01)
        assert float(box.height) == pytest.approx(height, abs=0.01)
        fonts = [font.get_object() for font in reader.pages[0]["/Resources"]["/Font"].values()]
        assert fonts and all("/FontFile2" in font["/FontDescriptor"] for font in fonts)


def test_each_pdf_holds_the_stored_digits_and_its_caption(run: Run) -> None:
    for entry in entries(run, "pdf"):
        digits, caption = pdf_grid(run.pack / entry["file"])
        assert digits == stored(run, entry), entry["file"]
        assert entry["date"] in caption and f"No. {entry['number']}" in caption
        assert entry["tier"].capitalize() in caption
        assert caption.startswith("Solution") == entry["solution"]


def test_each_svg_is_xml_in_the_unit_asked_holding_the_stored_digits(
    runs: tuple[Run, Run],
) -> None:
    for run, width in zip(runs, ("2.5in", "180pt"), strict=True):
        for entry in entries(run, "svg"):
            root = ET.parse(run.pack / entry["file"]).getroot()
            assert root.tag == f"{SVG}svg" and root.get("width") == width
            viewbox = [float(v) for v in root.get("viewBox").split()]
            assert viewbox[:3] == [0, 0, WIDTH_PT]
            assert viewbox[3] == pytest.approx(run.index["size"]["height_pt"], abs=0.01)
            digits, caption = svg_grid(run.pack / entry["file"])
            assert digits == stored(run, entry), entry["file"]
            assert entry["date"] in caption and f"No. {entry['number']}" in caption


def test_each_png_is_the_pdf_at_the_dpi_asked(run: Run) -> None:
    height = run.index["size"]["height_pt"]
    for entry in entries(run, "png"):
        with Image.open(run.pack / entry["file"]) as image:
            assert image.size[0] == pytest.approx(WIDTH_PT * DPI / 72, abs=1)
            assert image.size[1] == pytest.approx(height * DPI / 72, abs=1)
            assert image.info["dpi"] == pytest.approx((DPI, DPI), abs=0.01)
            pixels = np.asarray(image.convert("L"))
        assert 0.03 < (pixels < WHITE).mean() < 0.5  # a grid with digits, not blank nor black


@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed (Debian)")
def test_each_svg_renders_in_headless_chromium(run: Run, tmp_path: Path) -> None:
    """All the week's SVGs on one page, each in a box of its own: every box is inked, and each
    solution more than its puzzle (the browser drew the symbols, not only the rules)."""
    svgs = sorted(entries(run, "svg"), key=lambda e: (e["date"], e["tier"], e["solution"]))
    boxes = {}
    tags = []
    for position, entry in enumerate(svgs):
        column, row = divmod(position, 2 * len(TIERS))
        left, top = column * PITCH_PX[0], row * PITCH_PX[1]
        boxes[entry["file"]] = (left, top)
        uri = (run.pack / entry["file"]).as_uri()
        style = f"position:absolute;left:{left}px;top:{top}px;width:{TILE_PX}px"
        tags.append(f'<img src="{uri}" style="{style}">')
    page = tmp_path / "pack.html"
    page.write_text("<!doctype html><body style='margin:0'>" + "".join(tags) + "</body>")
    window = (DAYS * PITCH_PX[0], 2 * len(TIERS) * PITCH_PX[1])
    shot = tmp_path / "pack.png"
    chromium_screenshot(page, shot, window, tmp_path / "profile")
    pixels = np.asarray(Image.open(shot).convert("RGB")).min(axis=2)
    ink = {
        name: (pixels[top : top + TILE_PX, left : left + TILE_PX] < WHITE).mean()
        for name, (left, top) in boxes.items()
    }
    assert min(ink.values()) >= MIN_INKED, ink
    for name, inked in ink.items():
        if name.split("/")[1].split(".")[0] in TIERS:
            assert ink[name.replace(".svg", "-solution.svg")] > inked, name


def test_no_puzzle_is_shared_with_a_book_or_a_later_pack(
    runs: tuple[Run, Run], tmp_path: Path
) -> None:
    first, second = runs
    ids = [first.book_ids, first.pack_ids, second.book_ids, second.pack_ids]
    assert sum(map(len, ids)) == len(set().union(*ids)) == 2 * (3 + DAYS * len(TIERS))
    output = first.folder.parents[1]
    assert Catalog(output).known_ids() == set().union(*ids)
    copy = tmp_path / "output"  # rebuilt from the run folders alone, the packs are found again
    shutil.copytree(output, copy, ignore=shutil.ignore_patterns("catalog.*"))
    rebuilt = invoke("catalog", "rebuild", "-o", copy)
    assert rebuilt.code == 0, rebuilt.stderr
    assert Catalog(copy).known_ids() == set().union(*ids)
    checked = invoke("catalog", "check", "-o", copy)
    assert checked.code == 0, checked.stderr


def test_render_of_the_run_folder_prints_the_book_not_the_pack(run: Run, tmp_path: Path) -> None:
    """The pack's puzzles are sold by the day: a book rendered again from the run folder holds
    the book's puzzles only."""
    pdf = tmp_path / "again.pdf"
    result = invoke("render", run.folder, "-o", pdf)
    assert result.code == 0, result.stderr
    with pdfplumber.open(pdf) as opened:
        printed = {grid.text for grid in read_grids(opened)}
    book = {row["givens"] for id_, row in run.rows.items() if id_ in run.book_ids}
    pack = {row["givens"] for id_, row in run.rows.items() if id_ not in run.book_ids}
    assert book <= printed and not pack & printed


def test_the_pack_is_the_same_with_two_workers(tmp_path: Path, monkeypatch, run: Run) -> None:
    monkeypatch.setattr("pipeline.parallel.WORKER_START", 0.0)  # workers even for a small run
    two = run_book(load_recipe(write_recipe(tmp_path, 5, FIRST_LOOK, n_jobs=2)))
    index = json.loads((two.folder / "syndication" / "index.json").read_text())
    assert index == run.index


def test_the_shipped_example_is_a_week_of_three_tiers() -> None:
    recipe = load_recipe(Path(__file__).resolve().parents[2] / "configs" / "syndication.toml")
    pack = recipe.syndication
    assert pack is not None and pack.days == 7 and len(pack.tiers) == 3
    assert set(pack.formats) == {"svg", "pdf"}


def valid_mapping() -> dict[str, Any]:
    return tomllib.loads(RECIPE.format(seed=1, output="out", n_jobs=1, look=FIRST_LOOK))


BAD = {
    "tiers": (["easy", "nightmare"], "a list of tier names"),
    "days": (367, "an integer from 1 to 366"),
    "start": ("2025-13-01", "a date"),
    "width": ("3cm", "a length such as"),
    "formats": (["pdf", "gif"], "a non-empty list of pdf, svg, png"),
    "dpi": (10, "an integer from 72 to 1200"),
    "size": (11, "got 11"),
    "box": ("9", "got '9'"),
    "symmetry": ("spiral", "one of none, rotate180"),
}


@pytest.mark.parametrize("key", sorted(BAD))
def test_a_bad_value_names_its_key(key: str) -> None:
    value, allowed = BAD[key]
    mapping = valid_mapping()
    mapping["syndication"][key] = value
    with pytest.raises(RecipeError, match=rf"^<recipe>: syndication\.{key}: ") as caught:
        parse_recipe(mapping)
    assert allowed in str(caught.value)


@pytest.mark.parametrize(
    ("change", "key", "problem"),
    [
        ({"tiers": []}, "tiers", "got []"),
        ({"tiers": ["easy", "easy"]}, "tiers", "each once"),
        ({"formats": ["svg"]}, "dpi", "applies only with png in formats"),
        ({"width": "0.5in"}, "width", "(36pt)"),
        ({"start": 20250602}, "start", "a date"),
    ],
)
def test_values_wrong_together_name_the_key(change: dict, key: str, problem: str) -> None:
    mapping = valid_mapping()
    mapping["syndication"] |= change
    with pytest.raises(RecipeError, match=rf"syndication\.{key}: ") as caught:
        parse_recipe(mapping)
    assert problem in str(caught.value)


def test_the_cli_refuses_a_bad_width_in_one_line(tmp_path: Path) -> None:
    recipe = write_recipe(tmp_path, 1, 'width = "wide"')
    result = invoke("run", recipe, "-q")
    assert result.code == 2
    assert result.stderr.strip().splitlines() == [
        f"Error: {recipe}: syndication.width: got 'wide'; allowed: a length such as \"2.5in\" "
        'or "180pt", from 108pt to 864pt'
    ]
    assert not (tmp_path / "output").exists()


@given(inches=st.floats(1.5, 12), space=st.sampled_from(["", " "]))
def test_a_width_in_inches_is_read_as_points(inches: float, space: str) -> None:
    width = parse_width(f"{inches:.4f}{space}in")
    assert width.unit == "in" and width.points == pytest.approx(round(inches, 4) * 72)


@given(points=st.integers(108, 864))
def test_a_width_in_points_keeps_its_unit(points: int) -> None:
    width = parse_width(f"{points}pt")
    assert (width.points, width.unit, str(width)) == (points, "pt", f"{points}pt")


def test_an_easy_pack_on_16x16_names_the_grid_and_loads_when_not_minimal() -> None:
    mapping = valid_mapping()
    mapping["syndication"].update(size=16, tiers=["easy"])
    with pytest.raises(RecipeError, match=r"^<recipe>: syndication\.tiers: ") as caught:
        parse_recipe(mapping)
    assert "syndication.size" in str(caught.value) and "minimal" in str(caught.value)
    mapping["syndication"]["minimal"] = False
    (section,) = parse_recipe(mapping).syndication.sections()
    assert section.size == 16 and not section.minimal


@given(
    text=st.one_of(st.text(max_size=12), st.from_regex(r"-?[0-9.]{1,6}(in|pt|mm|)", fullmatch=True))
)
def test_any_width_text_is_a_length_in_range_or_refused(text: str) -> None:
    try:
        width = parse_width(text)
    except ValueError as exc:
        assert str(exc).startswith("got ") and "allowed: a length such as" in str(exc)
        return
    assert 108 <= width.points <= 864 and width.unit in ("in", "pt")


@given(
    key=st.sampled_from(sorted(BAD)),
    value=st.one_of(
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=True),
        st.text(max_size=10),
        st.lists(st.one_of(st.integers(), st.text(max_size=6)), max_size=3),
        st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    ),
)
def test_any_value_of_a_pack_key_loads_or_names_that_key(key: str, value: object) -> None:
    mapping = valid_mapping()
    mapping["syndication"][key] = value
    try:
        parse_recipe(mapping)
    except RecipeError as exc:
        assert str(exc).startswith("<recipe>: syndication.")
        # the key itself, or dpi when the value leaves png out of formats
        assert f"syndication.{key}" in str(exc) or "syndication.dpi" in str(exc), str(exc)
