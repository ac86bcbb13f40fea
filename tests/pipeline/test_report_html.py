"""``report.html`` from a run and from ``pipeline grade --report``: parsed (every chart and table
there, drawn as inline SVG, nothing fetched) and rendered in headless Chromium to a screenshot
that must not be blank."""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.recipe import parse_recipe
from pipeline.report_html import BAR_COLOUR
from pipeline.run import REPORT_HTML_FILE, run_book
from tests.helpers import chromium_screenshot

TEST_DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
RUN_CHARTS = ("score", "iterations", "hardest", "clues", "time", "duplicates")
RUN_TABLES = ("tiers", "time", "counts")
GRADE_CHARTS = ("status", "tiers", "score", "iterations")
GRADE_TABLES = ("summary", "hardest", "slowest", "problems")
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
WINDOW = (1200, 1600)
WHITE = 250  # of 255: lighter counts as background
MIN_INKED = 0.02  # of the screenshot's pixels
MIN_BAR_PIXELS = 2000


class Parsed(HTMLParser):
    """Figures with their SVGs and bars, tables with their rows, and anything fetched."""

    def __init__(self) -> None:
        super().__init__()
        self.figures: dict[str, dict[str, int]] = {}
        self.tables: dict[str, int] = {}
        self.fetched: list[str] = []
        self.scripts = 0
        self._figure: str | None = None
        self._table: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "figure":
            self._figure = found["id"]
            self.figures[self._figure] = {"svg": 0, "rect": 0}
        elif tag in ("svg", "rect") and self._figure:
            self.figures[self._figure][tag] += 1
        elif tag == "table":
            self._table = found["id"]
            self.tables[self._table] = 0
        elif tag == "tr" and self._table:
            self.tables[self._table] += 1
        elif tag == "script":
            self.scripts += 1
        for name in ("src", "href"):
            if found.get(name):
                self.fetched.append(str(found[name]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "figure":
            self._figure = None
        elif tag == "table":
            self._table = None


def parse(path: Path) -> Parsed:
    parsed = Parsed()
    parsed.feed(path.read_text(encoding="utf-8"))
    assert parsed.scripts == 0 and parsed.fetched == []
    text = path.read_text(encoding="utf-8").replace(SVG_NAMESPACE, "")
    assert "http" not in text  # self-contained: opens offline
    return parsed


def check(parsed: Parsed, charts: tuple[str, ...], tables: tuple[str, ...]) -> None:
    assert set(parsed.figures) == {f"chart-{name}" for name in charts}
    for name, figure in parsed.figures.items():
        assert figure["svg"] >= 1 and figure["rect"] >= 1, name
    assert set(parsed.tables) == {f"table-{name}" for name in tables}


@pytest.fixture(scope="module")
def run_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("run")
    recipe = parse_recipe(
        {
            "title": "Report Test",
            "seed": 11,
            "output": str(folder),
            "parallel": {"n_jobs": 1},
            "sections": [
                {"size": 4, "tier": "easy", "count": 6, "minimal": False},
                {"size": 9, "tier": "medium", "count": 4},
            ],
        }
    )
    return run_book(recipe).folder / REPORT_HTML_FILE


def test_run_writes_every_chart_and_table(run_report: Path) -> None:
    parsed = parse(run_report)
    check(parsed, RUN_CHARTS, RUN_TABLES)
    assert parsed.figures["chart-score"]["svg"] == 2  # one per tier group
    assert parsed.tables["table-tiers"] == 3  # header and two groups
    assert (run_report.parent / "report.md").exists()


def test_grade_report(tmp_path: Path) -> None:
    out = tmp_path / "grade.html"
    result = CliRunner().invoke(
        app, ["grade", str(TEST_DATA / "mixed.txt"), "--report", str(out), "-q", "-j", "1"]
    )
    assert result.exit_code in (0, 1), result.output  # the sample has bad rows on purpose
    check(parse(out), GRADE_CHARTS, GRADE_TABLES)


@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed (Debian)")
def test_report_renders_in_headless_chromium(run_report: Path, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    chromium_screenshot(run_report, shot, WINDOW, tmp_path / "profile")
    pixels = np.asarray(Image.open(shot).convert("RGB"))
    assert pixels.shape[:2] == (WINDOW[1], WINDOW[0])
    inked = (pixels.min(axis=2) < WHITE).mean()
    assert inked >= MIN_INKED
    bar = np.array([int(BAR_COLOUR[k : k + 2], 16) for k in (1, 3, 5)])
    bars = (np.abs(pixels.astype(int) - bar).sum(axis=2) < 10).sum()
    assert bars >= MIN_BAR_PIXELS  # the charts' bars were drawn, not just the text
