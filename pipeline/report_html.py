"""Run and grading reports as one self-contained HTML file: charts drawn here as inline SVG and the
tables beside them, no script and nothing fetched, so the file opens offline in any browser.

A report is a list of :class:`Chart` and :class:`Table` blocks. Each chart is one ``<figure>``
with an ``id`` (``chart-score`` ...) holding one small SVG per group (a tier, a stage ...), so a
reader compares tiers side by side and a test finds every chart by its id.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from engine.logic.names import NAMES
from pipeline.grade import ITERATION_BIN
from pipeline.grade import Summary as GradeSummary
from pipeline.store import write_text
from pipeline.tasks import OK, STATUSES

SCORE_BIN = 0.5  # width of a score histogram's bars, on the SE scale
PLOT_WIDTH = 360  # px of one small chart
PLOT_HEIGHT = 180
MARGIN_LEFT = 40
MARGIN_BOTTOM = 34
MARGIN_TOP = 16
BAR_GAP = 0.15  # of a bar's slot
HBAR_HEIGHT = 22  # px per bar of a horizontal bar chart
HBAR_LABEL = 190  # px for a horizontal bar's label
FONT = 11  # px
BAR_COLOUR = "#4a6fa5"
AXIS_COLOUR = "#555"
STYLE = """
body { font-family: sans-serif; margin: 24px; color: #222; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
figure { margin: 28px 0 12px 0; }
figcaption { font-size: 17px; font-weight: bold; margin-bottom: 10px; }
.charts { display: flex; flex-wrap: wrap; gap: 18px; }
.small { font-size: 12px; color: #555; text-align: center; }
table { border-collapse: collapse; margin: 8px 0 16px 0; }
td, th { border: 1px solid #bbb; padding: 3px 8px; text-align: right; }
th { background: #eee; } td:first-child, th:first-child { text-align: left; }
"""


@dataclass(frozen=True)
class Chart:
    """One figure: a bar chart per group (``vertical`` for distributions, else horizontal for
    categories); each group is a list of (label, value)."""

    id: str
    title: str
    groups: Mapping[str, Sequence[tuple[str, float]]]
    vertical: bool = True
    unit: str = ""


@dataclass(frozen=True)
class Table:
    """One table with a header row."""

    id: str
    title: str
    header: Sequence[str]
    rows: Sequence[Sequence[Any]]


Block = Chart | Table


def html_report(title: str, blocks: Iterable[Block]) -> str:
    """The whole document."""
    body = "\n".join(_chart(b) if isinstance(b, Chart) else _table(b) for b in blocks)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{escape(title)}</h1>\n{body}\n</body>\n</html>\n"
    )


def run_blocks(
    rows: Sequence[Mapping[str, Any]],
    timings: Mapping[str, float],
    counts: Mapping[str, int],
) -> list[Block]:
    """A run's charts and tables: score, iterations, hardest technique and clues per tier, time
    per stage, duplicates rejected."""
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        groups.setdefault(f"{row['size']}x{row['size']} {row.get('tier')}", []).append(row)

    def per_group(figure) -> dict[str, list[tuple[str, float]]]:
        return {name: figure(members) for name, members in groups.items()}

    stages = [(stage, seconds) for stage, seconds in timings.items() if stage != "total"]
    kept = len(rows)
    return [
        Chart("chart-score", "Score distribution per tier", per_group(_score_bins)),
        Chart("chart-iterations", "Iterations (logic passes) per tier", per_group(_iterations)),
        Chart("chart-hardest", "Hardest technique per tier", per_group(_hardest), vertical=False),
        Chart("chart-clues", "Clue counts per tier", per_group(_clues)),
        Chart("chart-time", "Time per stage", {"seconds": stages}, vertical=False, unit=" s"),
        Chart(
            "chart-duplicates",
            "Puzzles kept and duplicates rejected",
            {"puzzles": [("kept", kept), ("duplicates rejected", counts.get("duplicates", 0))]},
            vertical=False,
        ),
        Table(
            "table-tiers",
            "Tiers",
            ("group", "puzzles", "score min", "score median", "score max", "mean clues"),
            [_group_row(name, members) for name, members in groups.items()],
        ),
        Table(
            "table-time",
            "Time per stage",
            ("stage", "seconds"),
            [(stage, f"{seconds:.2f}") for stage, seconds in timings.items()],
        ),
        Table("table-counts", "Counts", ("what", "count"), list(counts.items())),
    ]


def grade_blocks(summary: GradeSummary) -> list[Block]:
    """``pipeline grade``'s charts and tables: statuses, tiers, scores, iterations, and the
    hardest and slowest puzzles."""
    graded = summary.statuses[OK]
    tiers = [(tier, summary.tiers[tier]) for tier in (*summary.tier_order, *summary.tiers)]
    tiers = list(dict(tiers).items())  # each tier once, the bands' order first
    scores = [(f"{low}-{low + 1}", count) for low, count in sorted(summary.score_bins.items())]
    iterations = [
        (f"{b * ITERATION_BIN}-{(b + 1) * ITERATION_BIN - 1}", count)
        for b, count in sorted(summary.iteration_bins.items())
    ]
    mean = summary.score_total / graded if graded else math.nan  # shown only when graded
    # a score is SE's tenths; the mean keeps two decimals
    shown = (f"{summary.score_min:.1f}", f"{mean:.2f}", f"{summary.score_max:.1f}")
    return [
        Chart(
            "chart-status",
            "Rows by status",
            {"rows": [(s, summary.statuses[s]) for s in STATUSES]},
            vertical=False,
        ),
        Chart("chart-tiers", "Puzzles per tier", {"puzzles": tiers}, vertical=False),
        Chart("chart-score", "Score distribution", {"puzzles": scores}),
        Chart("chart-iterations", "Iterations (logic passes)", {"puzzles": iterations}),
        Table(
            "table-summary",
            "Summary",
            ("rows", "ok", "not ok", "score min", "score mean", "score max"),
            [
                (
                    summary.rows,
                    graded,
                    summary.not_ok,
                    *(shown if graded else ("-", "-", "-")),
                )
            ],
        ),
        Table(
            "table-hardest",
            "Hardest puzzles",
            ("score", "puzzle"),
            [(f"{s:.1f}", what) for s, _, what in sorted(summary.hardest, reverse=True)],
        ),
        Table(
            "table-slowest",
            "Slowest puzzles",
            ("seconds", "puzzle"),
            [(f"{s:.3f}", what) for s, _, what in sorted(summary.slowest, reverse=True)],
        ),
        Table("table-problems", "Rows not ok", ("row",), [(p,) for p in summary.problems]),
    ]


def write_html(title: str, blocks: Iterable[Block], path: Path) -> None:
    """Write the report atomically."""
    write_text(html_report(title, blocks), path)


def _score_bins(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, float]]:
    bins = Counter(
        math.floor(float(r["score"]) / SCORE_BIN) for r in rows if r.get("score") is not None
    )
    if not bins:
        return []
    return [(f"{b * SCORE_BIN:g}", bins[b]) for b in range(min(bins), max(bins) + 1)]


def _iterations(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, float]]:
    return _spread(int(r["iterations"]) for r in rows if r.get("iterations") is not None)


def _clues(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, float]]:
    return _spread(int(r["clues"]) for r in rows if r.get("clues") is not None)


def _spread(values: Iterable[int]) -> list[tuple[str, float]]:
    """Counts of every whole value from the least to the greatest (gaps shown as 0)."""
    counts = Counter(values)
    if not counts:
        return []
    return [(str(v), counts[v]) for v in range(min(counts), max(counts) + 1)]


def _hardest(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, float]]:
    counts = Counter(str(r.get("hardest")) for r in rows)
    return [(NAMES.get(name, name), count) for name, count in counts.most_common()]


def _group_row(name: str, rows: Sequence[Mapping[str, Any]]) -> tuple[Any, ...]:
    scores = sorted(float(r["score"]) for r in rows if r.get("score") is not None)
    clues = [int(r["clues"]) for r in rows if r.get("clues") is not None]
    if not scores:
        return (name, len(rows), "-", "-", "-", "-")
    median = scores[len(scores) // 2]
    mean_clues = f"{sum(clues) / len(clues):.1f}" if clues else "-"
    return (name, len(rows), f"{scores[0]:.1f}", f"{median:.1f}", f"{scores[-1]:.1f}", mean_clues)


def _chart(chart: Chart) -> str:
    draw = _vertical_svg if chart.vertical else _horizontal_svg
    parts = [
        f'<div>{draw(values, chart.unit)}<div class="small">{escape(name)}</div></div>'
        for name, values in chart.groups.items()
    ]
    return (
        f'<figure class="chart" id="{chart.id}">'
        f"<figcaption>{escape(chart.title)}</figcaption>"
        f'<div class="charts">{"".join(parts)}</div></figure>'
    )


def _vertical_svg(values: Sequence[tuple[str, float]], unit: str) -> str:
    """A column chart: one bar per value, labelled below."""
    width, height = PLOT_WIDTH, PLOT_HEIGHT
    plot_w = width - MARGIN_LEFT - 8
    plot_h = height - MARGIN_BOTTOM - MARGIN_TOP
    top = max((v for _, v in values), default=0) or 1
    slot = plot_w / max(len(values), 1)
    every = math.ceil(len(values) / 12) or 1  # label at most a dozen bars
    items = [_axes(width, height)]
    for k, (label, value) in enumerate(values):
        bar = plot_h * value / top
        x = MARGIN_LEFT + k * slot + slot * BAR_GAP / 2
        y = MARGIN_TOP + plot_h - bar
        items.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{slot * (1 - BAR_GAP):.1f}" '
            f'height="{bar:.1f}" fill="{BAR_COLOUR}"><title>{escape(label)}: '
            f"{_shown(value)}{unit}</title></rect>"
        )
        if k % every == 0:
            items.append(
                _text(MARGIN_LEFT + (k + 0.5) * slot, height - MARGIN_BOTTOM + 14, label, "middle")
            )
    items.append(_text(MARGIN_LEFT - 4, MARGIN_TOP + 4, _shown(top) + unit, "end"))
    items.append(_text(MARGIN_LEFT - 4, MARGIN_TOP + plot_h, "0", "end"))
    return _svg(width, height, items)


def _horizontal_svg(values: Sequence[tuple[str, float]], unit: str) -> str:
    """A bar chart: one labelled bar per category, its value after it."""
    width = PLOT_WIDTH + HBAR_LABEL
    height = HBAR_HEIGHT * max(len(values), 1) + 8
    top = max((v for _, v in values), default=0) or 1
    room = PLOT_WIDTH - 60  # leave space for the value after the bar
    items = []
    for k, (label, value) in enumerate(values):
        y = 4 + k * HBAR_HEIGHT
        bar = room * value / top
        items.append(_text(HBAR_LABEL - 6, y + HBAR_HEIGHT * 0.65, label, "end"))
        items.append(
            f'<rect x="{HBAR_LABEL}" y="{y + 3}" width="{bar:.1f}" '
            f'height="{HBAR_HEIGHT - 6}" fill="{BAR_COLOUR}"/>'
        )
        items.append(_text(HBAR_LABEL + bar + 4, y + HBAR_HEIGHT * 0.65, _shown(value) + unit))
    return _svg(width, height, items)


def _svg(width: float, height: float, items: list[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">{"".join(items)}</svg>'
    )


def _axes(width: float, height: float) -> str:
    x0, y0 = MARGIN_LEFT, height - MARGIN_BOTTOM
    return (
        f'<line x1="{x0}" y1="{MARGIN_TOP}" x2="{x0}" y2="{y0}" stroke="{AXIS_COLOUR}"/>'
        f'<line x1="{x0}" y1="{y0}" x2="{width - 8}" y2="{y0}" stroke="{AXIS_COLOUR}"/>'
    )


def _text(x: float, y: float, text: str, anchor: str = "start") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{FONT}" text-anchor="{anchor}" '
        f'fill="{AXIS_COLOUR}">{escape(text)}</text>'
    )


def _shown(value: float) -> str:
    return f"{value:g}" if float(value).is_integer() else f"{value:.2f}"


def _table(table: Table) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in table.header)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(cell))}</td>" for cell in row) + "</tr>"
        for row in table.rows
    )
    return (
        f'<h2>{escape(table.title)}</h2>\n<table id="{table.id}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )
