"""Run statistics: puzzles per size and tier, with score, iteration and clue distributions.

``pipeline stats`` prints :func:`format_summary`; a run writes the same text as ``report.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import polars as pl

import engine
from engine import TECHNIQUE_NAMES, Geometry
from engine.geometry import CLASSIC, geometry
from pipeline.errors import UserError
from pipeline.puzzle_files import CAGES_DTYPE
from pipeline.store import puzzle_id, write_text
from pipeline.variants import broken_cage, canonical_keys, row_cages

QUANTILES = 4  # quartiles of the score
NO_TIER = "(none)"
UNKNOWN_ID = "unknown"  # a problem row with no stored id and no givens to compute one from
#: What the solution counter needs of each row.
VERIFY_COLUMNS = {
    "id": pl.String,
    "givens": pl.String,
    "solution": pl.String,
    "box_rows": pl.Int64,
    "box_cols": pl.Int64,
    "variant": pl.String,
    "regions": pl.String,
    "cages": CAGES_DTYPE,
}
#: The columns a summary reads, and the types it reads them as.
SUMMARY_COLUMNS = {
    "size": pl.Int64,
    "tier": pl.String,
    "score": pl.Float64,
    "clues": pl.Int64,
    "iterations": pl.Int64,
    "hardest": pl.String,
}


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


def summarize(rows: Iterable[Mapping[str, Any]]) -> Summary:
    """Group rows of a puzzle file by (size, tier); rows without grade values (a grid file's) are
    counted only."""
    rows = list(rows)
    columns = {name: [row.get(name) for row in rows] for name in SUMMARY_COLUMNS}
    return summarize_frame(pl.LazyFrame(columns, schema=SUMMARY_COLUMNS))


def summarize_frame(frame: pl.LazyFrame) -> Summary:
    """:func:`summarize` of a lazy frame with the :data:`SUMMARY_COLUMNS`, computed by polars'
    streaming engine from those columns alone, so a million-row file is never turned into
    Python rows nor held whole in memory.

    Groups keep the order of their first row within a size; techniques that are hardest equally
    often keep the order of their first row too. Raises :class:`UserError` when a row has no
    size."""
    puzzles = frame.select(
        pl.col("size").cast(pl.Int64),
        pl.when(pl.col("tier").cast(pl.String).fill_null("") == "")
        .then(pl.lit(NO_TIER))
        .otherwise(pl.col("tier").cast(pl.String))
        .alias("tier"),
        pl.col("score").cast(pl.Float64).fill_nan(None),
        pl.col("clues").cast(pl.Int64),
        pl.col("iterations").cast(pl.Int64),
        pl.col("hardest").cast(pl.String),
    ).with_row_index("row")
    keys = ("size", "tier")
    groups_query = puzzles.group_by(keys).agg(
        pl.len().alias("count"),
        pl.col("row").min().alias("first"),
        pl.col("score").count().alias("scores"),
        pl.col("score").min().alias("score_min"),
        pl.col("score").max().alias("score_max"),
        pl.col("clues").mean().alias("clues_mean"),
    )
    spreads = [
        puzzles.drop_nulls(column)
        .group_by(*keys, column)
        .agg(pl.len().alias("count"), pl.col("row").min().alias("first"))
        for column in ("iterations", "hardest")
    ]
    groups, iterations, hardest = pl.collect_all([groups_query, *spreads], engine="streaming")
    if groups["size"].has_nulls():
        missing = groups.filter(pl.col("size").is_null())["count"].sum()
        raise UserError(f"{missing} puzzles have no size")
    ordered = groups.sort(["size", "first"]).to_dicts()
    quartiles = _quartiles(puzzles, [(g["size"], g["tier"], g["scores"]) for g in ordered])
    iterations_of = _spread(iterations.sort("iterations"), "iterations")
    hardest_of = _spread(hardest.sort(["count", "first"], descending=[True, False]), "hardest")
    return Summary(
        total=int(groups["count"].sum()),
        groups=tuple(
            Group(
                size=g["size"],
                tier=g["tier"],
                count=g["count"],
                score_min=g["score_min"],
                score_quartiles=quartiles[g["size"], g["tier"]],
                score_max=g["score_max"],
                iterations=iterations_of.get((g["size"], g["tier"]), {}),
                clues_mean=g["clues_mean"],
                hardest=hardest_of.get((g["size"], g["tier"]), {}),
            )
            for g in ordered
        ),
    )


def cut_points(count: int) -> list[tuple[int, int]]:
    """Where the quartiles of ``count`` sorted values fall, as :func:`statistics.quantiles`
    places them (its default, exclusive method): for each, ``(j, delta)`` such that the quartile
    is ``(values[j - 1] * (QUANTILES - delta) + values[j] * delta) / QUANTILES``. Needs two or
    more values."""
    points = []
    for i in range(1, QUANTILES):
        j = min(max(i * (count + 1) // QUANTILES, 1), count - 1)
        points.append((j, i * (count + 1) - j * QUANTILES))
    return points


def _quartiles(
    puzzles: pl.LazyFrame, groups: list[tuple[int, str, int]]
) -> dict[tuple[int, str], tuple[float, ...]]:
    """Score quartiles of each (size, tier, scores) group; none with fewer than two scores. Only
    the order statistics they are made of leave polars, each group's scores sorted apart (a
    sort of all rows with their keys would hold far more memory)."""
    points = {(size, tier): cut_points(count) for size, tier, count in groups if count > 1}
    ranks = {
        key: sorted({rank for j, _ in cuts for rank in (j - 1, j)}) for key, cuts in points.items()
    }
    queries = [
        puzzles.filter((pl.col("size") == size) & (pl.col("tier") == tier)).select(
            pl.col("score").drop_nulls().sort().gather(ranks[size, tier])
        )
        for size, tier in points
    ]
    found = pl.collect_all(queries, engine="streaming")
    quartiles: dict[tuple[int, str], tuple[float, ...]] = {
        (size, tier): () for size, tier, _ in groups
    }
    for (key, cuts), values in zip(points.items(), found, strict=True):
        at = dict(zip(ranks[key], values["score"], strict=True))
        quartiles[key] = tuple(
            (at[j - 1] * (QUANTILES - delta) + at[j] * delta) / QUANTILES for j, delta in cuts
        )
    return quartiles


def _spread(counts: pl.DataFrame, column: str) -> dict[tuple[int, str], dict[Any, int]]:
    """Per (size, tier): ``column``'s value -> puzzles, in the order of ``counts``' rows."""
    spread: dict[tuple[int, str], dict[Any, int]] = {}
    for size, tier, value, count in counts.select("size", "tier", column, "count").iter_rows():
        spread.setdefault((size, tier), {})[value] = count
    return spread


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
    """Re-check every puzzle with the solution counter, under its variant's rules: exactly one
    solution, equal to the stored one. Returns the rows checked and the problems found."""
    rows = list(rows)
    columns = {name: [row.get(name) for row in rows] for name in VERIFY_COLUMNS}
    return len(rows), verify_batch(pl.DataFrame(columns, schema=VERIFY_COLUMNS))


def verify_batch(batch: pl.DataFrame, first_row: int = 0) -> list[Problem]:
    """:func:`verify_rows` of a frame of :data:`VERIFY_COLUMNS` (``id`` may be absent, as in
    grade output: it is computed for the rows with a problem only), its rows numbered from
    ``first_row``. One counter call per grid (box shape, variant, a Jigsaw's layout, a Killer's
    cages); the givens are parsed one by one only when that call finds a malformed puzzle, to
    name it. A Killer's stored solution must also fill each cage with its sum, no digit twice."""
    if "id" not in batch.columns:
        batch = batch.with_columns(pl.lit(None, pl.String).alias("id"))
    numbered = batch.with_row_index("row", offset=first_row)
    problems: list[Problem] = []
    if "cages" not in batch.columns:
        numbered = numbered.with_columns(pl.lit(None, CAGES_DTYPE).alias("cages"))
    grids = ("box_rows", "box_cols", "variant", "regions", "cages")
    for (box_rows, box_cols, variant, regions, cages), group in numbered.group_by(grids):
        rows = [_Row(*row) for row in group.select(_Row._fields).iter_rows()]
        try:
            ruled = row_cages(cages, int(box_rows) * int(box_cols))
            geo = geometry(int(box_rows), int(box_cols), variant or CLASSIC, regions, ruled)
        except (TypeError, ValueError) as exc:  # no box shape, an unknown variant, a bad layout
            problem = "no box shape" if box_rows is None or box_cols is None else str(exc)
            problems += [Problem(row.row, _id_of(row, None), problem) for row in rows]
        else:
            problems += _problems_of_shape(rows, geo)
    return sorted(problems, key=lambda problem: problem.row)


class _Row(NamedTuple):
    row: int
    id: str | None
    givens: str | None
    solution: str | None


def _problems_of_shape(rows: list[_Row], geo: Geometry) -> list[Problem]:
    found: list[tuple[_Row, str]] = [(row, "no givens") for row in rows if row.givens is None]
    valid = [row for row in rows if row.givens is not None]
    try:
        counts, solutions = engine.count_many([row.givens for row in valid], 2, geo, solutions=True)
    except ValueError:  # malformed givens are problems of their own row
        sifted = []
        for row in valid:
            try:
                engine.parse(str(row.givens), geo)
                sifted.append(row)
            except ValueError as exc:
                found.append((row, str(exc)))
        valid = sifted
        counts, solutions = engine.count_many([row.givens for row in valid], 2, geo, solutions=True)
    for row, count, solution in zip(valid, counts, solutions, strict=True):
        if count == 0 and row.solution and (broken := broken_cage(row.solution, geo)):
            found.append((row, f"no solution: the stored solution breaks {broken}"))
        elif count != 1:
            found.append((row, "no solution" if count == 0 else "more than one solution"))
        elif row.solution and solution != row.solution:
            found.append((row, "stored solution is wrong"))
        elif (broken := broken_cage(solution, geo)) is not None:
            found.append((row, f"the solution breaks {broken}"))
    return [Problem(row.row, _id_of(row, geo), problem) for row, problem in found]


def _id_of(row: _Row, geo: Geometry | None) -> str:
    """The row's stored id, else the store's id of its givens (grade output has none)."""
    if row.id is not None:
        return row.id
    if geo is None:
        return UNKNOWN_ID
    try:
        (key,) = canonical_keys([(str(row.givens), geo)])
    except ValueError:
        return UNKNOWN_ID
    return puzzle_id(geo.box_rows, geo.box_cols, key)
