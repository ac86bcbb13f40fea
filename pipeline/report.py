"""Run statistics: puzzles per size and tier, with score, iteration and clue distributions.

``pipeline stats`` prints :func:`format_summary`; a run writes the same text as ``report.md``.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from engine import TECHNIQUE_NAMES
from pipeline.store import write_text

QUANTILES = 4  # quartiles of the score
NO_TIER = "(none)"


@dataclass(frozen=True)
class Group:
    """Figures of one (size, tier) group of puzzles."""

    size: int
    tier: str
    count: int
    score_min: float | None
    score_quartiles: tuple[float, ...]
    score_max: float | None
    iterations: dict[int, int]  # iteration count -> puzzles
    clues_mean: float | None
    hardest: dict[str, int]  # hardest technique -> puzzles


@dataclass(frozen=True)
class Summary:
    """All groups, sorted by size and then by tier name order of first appearance."""

    total: int
    groups: tuple[Group, ...]


def _has(row: Mapping[str, Any], key: str) -> bool:
    """True when the row has a value for ``key`` (a grid file has no grade columns; a row that
    could not be graded has them empty)."""
    return row.get(key) is not None


def _group(size: int, tier: str, rows: list[Mapping[str, Any]]) -> Group:
    scores = sorted(float(r["score"]) for r in rows if _has(r, "score"))
    clues = [int(r["clues"]) for r in rows if _has(r, "clues")]
    quartiles = tuple(statistics.quantiles(scores, n=QUANTILES)) if len(scores) > 1 else ()
    return Group(
        size=size,
        tier=tier,
        count=len(rows),
        score_min=scores[0] if scores else None,
        score_quartiles=quartiles,
        score_max=scores[-1] if scores else None,
        iterations=dict(
            sorted(Counter(int(r["iterations"]) for r in rows if _has(r, "iterations")).items())
        ),
        clues_mean=statistics.fmean(clues) if clues else None,
        hardest=dict(Counter(str(r["hardest"]) for r in rows if _has(r, "hardest")).most_common()),
    )


def summarize(rows: Iterable[Mapping[str, Any]]) -> Summary:
    """Group rows of a puzzle file by (size, tier); works on grid files too (counts only)."""
    groups: dict[tuple[int, str], list[Mapping[str, Any]]] = {}
    total = 0
    for row in rows:
        total += 1
        tier = row.get("tier") or NO_TIER
        groups.setdefault((int(row["size"]), str(tier)), []).append(row)
    ordered = sorted(groups.items(), key=lambda item: item[0][0])
    return Summary(total, tuple(_group(size, tier, rows) for (size, tier), rows in ordered))


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def format_summary(summary: Summary) -> str:
    """Markdown: one table of groups, then each group's iteration and technique counts."""
    lines = [
        f"{summary.total} puzzles",
        "",
        "| size | tier | puzzles | score min | quartiles | score max | mean clues |",
        "|---|---|---|---|---|---|---|",
    ]
    for g in summary.groups:
        quartiles = " / ".join(f"{q:.2f}" for q in g.score_quartiles) or "-"
        lines.append(
            f"| {g.size}x{g.size} | {g.tier} | {g.count} | {_number(g.score_min)} | "
            f"{quartiles} | {_number(g.score_max)} | {_number(g.clues_mean)} |"
        )
    for g in summary.groups:
        if g.iterations:
            lines += ["", f"{g.size}x{g.size} {g.tier}:"]
            spread = ", ".join(f"{k}: {v}" for k, v in g.iterations.items())
            lines.append(f"- iterations (passes: puzzles): {spread}")
            hardest = ", ".join(f"{TECHNIQUE_NAMES.get(k, k)} {v}" for k, v in g.hardest.items())
            lines.append(f"- hardest technique: {hardest}")
    return "\n".join(lines) + "\n"


def write_report(summary: Summary, path: Path, title: str, run: str) -> None:
    """The run report: a heading and the summary, written atomically."""
    write_text(f"# {title}: run {run}\n\n{format_summary(summary)}", path)


@dataclass(frozen=True)
class Problem:
    """One puzzle that fails verification."""

    row: int
    id: str
    problem: str


def verify_rows(rows: Iterable[Mapping[str, Any]]) -> tuple[int, list[Problem]]:
    """Re-check every puzzle with the solution counter: exactly one solution, equal to the stored
    one. Returns the rows checked and the problems found."""
    by_shape: dict[tuple[int, int], list[tuple[int, Mapping[str, Any]]]] = {}
    checked = 0
    for index, row in enumerate(rows):
        checked += 1
        by_shape.setdefault((int(row["box_rows"]), int(row["box_cols"])), []).append((index, row))
    problems = []
    for (rows_, cols_), group in by_shape.items():
        valid = []
        for index, row in group:  # malformed givens are problems of their own row
            try:
                engine.parse(str(row["givens"]), (rows_, cols_))
                valid.append((index, row))
            except ValueError as exc:
                problems.append(Problem(index, str(row.get("id")), str(exc)))
        counts, found = engine.count_many(
            [row["givens"] for _, row in valid], 2, (rows_, cols_), solutions=True
        )
        for (index, row), count, solution in zip(valid, counts, found, strict=True):
            if count != 1:
                what = "no solution" if count == 0 else "more than one solution"
                problems.append(Problem(index, str(row.get("id")), what))
            elif row.get("solution") and solution != row["solution"]:
                problems.append(Problem(index, str(row.get("id")), "stored solution is wrong"))
    return checked, sorted(problems, key=lambda p: p.row)
