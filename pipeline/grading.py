"""``grade_files``: grade puzzle files that others made, every input row accounted for.

Flow: :func:`pipeline.formats.read_puzzles` streams chunks of rows; the well-formed puzzles of a
chunk go to a worker (joblib's loky), which settles their uniqueness with one
``engine.count_many`` call per grid size and grades only the unique ones; results come back in
input order, so the output does not depend on the worker count; rows are written as they arrive
and folded into a :class:`Summary` of bounded size, so memory stays flat whatever the file size.
"""

from __future__ import annotations

import heapq
import math
import time
import warnings
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path
from typing import Any, NamedTuple

import pyarrow as pa
from joblib import Parallel, delayed, effective_n_jobs

import engine
from engine import InvalidPuzzle, MultipleSolutions, NoSolution, Tier
from pipeline.formats import FormatError, InputRow, read_puzzles, write_rows
from pipeline.formats.writers import output_kind

OK, INVALID, NO_SOLUTION, MULTIPLE = "ok", "invalid", "no_solution", "multiple_solutions"
STATUSES = (OK, INVALID, NO_SOLUTION, MULTIPLE)
ALL_CORES = -1
DEFAULT_CHUNK = 2_000  # puzzles per worker task: ~0.3 s of grading, far above pickling costs
UNIQUE = 1  # count_many's count for a puzzle with exactly one solution
COUNT_LIMIT = 2  # counting stops at two solutions: enough to tell unique from not
TOP_PUZZLES = 5  # hardest and slowest puzzles listed in the summary
SHOWN_PROBLEMS = 10  # non-ok rows listed in the summary before "... and N more"
ITERATION_BIN = 10  # width of the iteration histogram's bins
NO_TIER = "(none)"  # tier label of graded puzzles that no band admits

#: The output columns. ``raw`` (the text as read) is kept only for invalid rows, whose puzzle
#: could not be normalised; the grade columns are null except for ok rows.
SCHEMA = pa.schema(
    [
        ("source", pa.string()),
        ("line", pa.int64()),
        ("puzzle", pa.string()),
        ("raw", pa.string()),
        ("status", pa.string()),
        ("reason", pa.string()),
        ("size", pa.int64()),
        ("score", pa.float64()),
        ("tier", pa.string()),
        ("iterations", pa.int64()),
        ("hardest", pa.string()),
        ("techniques", pa.map_(pa.string(), pa.int64())),
        ("clues", pa.int64()),
        ("solution", pa.string()),
    ]
)


class UnusableArguments(ValueError):
    """The arguments make the run impossible (missing file, bad format, box, column or output)."""


class StrictStop(ValueError):
    """``strict`` was asked for and a row is not ok; the message names its source and line."""


class Verdict(NamedTuple):
    """What a worker found for one well-formed puzzle (``seconds``: its grading time)."""

    status: str
    reason: str | None = None
    score: float | None = None
    tier: str | None = None
    iterations: int | None = None
    hardest: str | None = None
    techniques: dict[str, int] | None = None
    clues: int | None = None
    solution: str | None = None
    seconds: float = 0.0


NO_SOLUTION_VERDICT = Verdict(NO_SOLUTION, "the puzzle has no solution")
MULTIPLE_VERDICT = Verdict(MULTIPLE, "the puzzle has more than one solution")
#: What a worker receives: a chunk's well-formed ``(puzzle, box)`` pairs, and the tier bands.
Task = tuple[list[tuple[str, tuple[int, int]]], Mapping[str, Tier] | None]


def grade_chunk(task: Task) -> list[Verdict]:
    """Verdicts for a chunk of well-formed ``(puzzle, box)`` pairs, in their order.

    Uniqueness is settled per grid size with one ``count_many`` call, which also gives each
    solution; only the unique puzzles are graded, the costly step.
    """
    puzzles, tiers = task
    verdicts: list[Verdict | None] = [None] * len(puzzles)
    by_box: dict[tuple[int, int], list[int]] = {}
    for index, (_, box) in enumerate(puzzles):
        by_box.setdefault(box, []).append(index)
    for box, indices in by_box.items():
        counts, solutions = engine.count_many(
            [puzzles[i][0] for i in indices], COUNT_LIMIT, box, solutions=True
        )
        for index, count, solution in zip(indices, counts, solutions, strict=True):
            if count == UNIQUE:
                verdicts[index] = _graded(puzzles[index][0], box, solution, tiers)
            else:
                verdicts[index] = NO_SOLUTION_VERDICT if count == 0 else MULTIPLE_VERDICT
    return verdicts  # type: ignore[return-value]  (every index was filled above)


def _graded(
    puzzle: str, box: tuple[int, int], solution: str, tiers: Mapping[str, Tier] | None
) -> Verdict:
    start = time.perf_counter()
    try:
        found = engine.grade(puzzle, tiers, f"{box[0]}x{box[1]}")
    except NoSolution:  # the counter said unique: these three are never expected, but a row
        return NO_SOLUTION_VERDICT  # must never take the run down
    except MultipleSolutions:
        return MULTIPLE_VERDICT
    except InvalidPuzzle as exc:
        return Verdict(INVALID, str(exc))
    return Verdict(
        OK,
        score=found.score,
        tier=found.tier,
        iterations=found.iterations,
        hardest=found.hardest,
        techniques=dict(found.steps_per_technique),
        clues=found.clues,
        solution=solution,
        seconds=time.perf_counter() - start,
    )


@dataclass
class Summary:
    """Figures over every row, in memory that does not grow with the row count."""

    tier_order: Sequence[str] = engine.TIERS  # the bands' names, easiest first
    statuses: Counter[str] = field(default_factory=Counter)
    tiers: Counter[str] = field(default_factory=Counter)
    score_bins: Counter[int] = field(default_factory=Counter)  # floor(score) -> count
    iteration_bins: Counter[int] = field(default_factory=Counter)  # iterations // BIN -> count
    score_total: float = 0.0
    score_min: float = math.inf
    score_max: float = -math.inf
    hardest: list[tuple[float, int, str]] = field(default_factory=list)  # min-heaps of the top
    slowest: list[tuple[float, int, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # the first SHOWN_PROBLEMS non-ok rows

    @property
    def rows(self) -> int:
        return sum(self.statuses.values())

    @property
    def not_ok(self) -> int:
        return self.rows - self.statuses[OK]

    def add(self, row: Mapping[str, Any], seconds: float) -> None:
        """Fold one output row (and its grading time) into the figures."""
        self.statuses[row["status"]] += 1
        where = f"{row['source']}:{row['line']}"
        if row["status"] != OK:
            if len(self.problems) < SHOWN_PROBLEMS:
                self.problems.append(f"{where}: {row['status']}: {row['reason']}")
            return
        score = row["score"]
        self.tiers[row["tier"] or NO_TIER] += 1
        self.score_bins[math.floor(score)] += 1
        self.iteration_bins[row["iterations"] // ITERATION_BIN] += 1
        self.score_total += score
        self.score_min = min(self.score_min, score)
        self.score_max = max(self.score_max, score)
        order = -self.rows  # ties: the earlier row ranks higher
        _keep_top(self.hardest, (score, order, f"{where} {row['puzzle']}"))
        _keep_top(self.slowest, (seconds, order, f"{where} {row['puzzle']}"))


def _keep_top(heap: list[tuple[float, int, str]], item: tuple[float, int, str]) -> None:
    if len(heap) < TOP_PUZZLES:
        heapq.heappush(heap, item)
    else:
        heapq.heappushpop(heap, item)


def format_summary(summary: Summary) -> str:
    """The terminal report: statuses, tiers (easiest first), score and iteration spreads, the
    hardest and slowest puzzles, the first rows that are not ok."""
    total = summary.rows
    lines = [f"{total} rows"]
    lines += [f"  {status:<20}{summary.statuses[status]:>9}" for status in STATUSES]
    graded = summary.statuses[OK]
    if graded:
        lines.append("tiers")
        lines += [
            f"  {tier:<20}{count:>9}" for tier, count in _by_tier(summary.tiers, summary.tier_order)
        ]
        mean = summary.score_total / graded
        lines.append(
            f"score  min {summary.score_min:.2f}  mean {mean:.2f}  max {summary.score_max:.2f}"
        )
        lines += [
            f"  {low}.0-{low}.9{'':<12}{count:>9}"
            for low, count in sorted(summary.score_bins.items())
        ]
        lines.append("iterations")
        lines += [
            f"  {b * ITERATION_BIN}-{(b + 1) * ITERATION_BIN - 1:<16}{count:>9}"
            for b, count in sorted(summary.iteration_bins.items())
        ]
        lines.append("hardest (score)")
        lines += [f"  {s:7.2f}  {what}" for s, _, what in sorted(summary.hardest, reverse=True)]
        lines.append("slowest to grade (seconds)")
        lines += [f"  {s:7.3f}  {what}" for s, _, what in sorted(summary.slowest, reverse=True)]
    if summary.problems:
        lines.append("rows that are not ok")
        lines += [f"  {problem}" for problem in summary.problems]
        shown = len(summary.problems)
        if total - graded > shown:
            lines.append(f"  ... and {total - graded - shown} more")
    return "\n".join(lines) + "\n"


def _by_tier(counts: Counter[str], order: Sequence[str]) -> list[tuple[str, int]]:
    rank = {name: index for index, name in enumerate(order)}
    return sorted(counts.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0]))


def _row(row: InputRow, verdict: Verdict | None) -> dict[str, Any]:
    """The output row of an input row; ``verdict`` is None for a row that is not well formed."""
    if verdict is None:
        verdict = Verdict(INVALID, row.reason)
    return {
        "source": row.source,
        "line": row.line,
        "puzzle": row.puzzle,
        "raw": row.raw if verdict.status == INVALID else None,
        "status": verdict.status,
        "reason": verdict.reason,
        "size": row.box[0] * row.box[1] if row.box else None,
        "score": verdict.score,
        "tier": verdict.tier,
        "iterations": verdict.iterations,
        "hardest": verdict.hardest,
        "techniques": verdict.techniques,
        "clues": verdict.clues,
        "solution": verdict.solution,
    }


def _in_order(
    function: Callable[[Task], list[Verdict]], tasks: Iterator[Task], n_jobs: int
) -> Iterator[list[Verdict]]:
    """``function`` over ``tasks``, results in task order; tasks are drawn lazily (a few ahead
    of the workers), so a long input is never held in memory. One worker, or a single task,
    runs in this process: starting workers would cost more than it saves."""
    first = list(islice(tasks, 2))
    if effective_n_jobs(n_jobs) == 1 or len(first) < 2:
        yield from map(function, chain(first, tasks))
        return
    parallel = Parallel(n_jobs=n_jobs, return_as="generator", pre_dispatch="2*n_jobs")
    results = parallel(delayed(function)(task) for task in chain(first, tasks))
    try:
        for result in results:  # noqa: UP028  (``yield from`` would close ``results`` unguarded)
            yield result
    finally:  # stopped early (--strict): cancel the rest without joblib's warning about it
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            results.close()


def _result_rows(
    chunks: Iterator[list[InputRow]],
    tiers: Mapping[str, Tier] | None,
    n_jobs: int,
    strict: bool,
    summary: Summary,
    on_rows: Callable[[int], None],
) -> Iterator[dict[str, Any]]:
    pending: deque[list[InputRow]] = deque()  # chunks sent out, waiting for their verdicts

    def tasks() -> Iterator[Task]:
        for chunk in chunks:
            pending.append(chunk)
            yield [(row.puzzle, row.box) for row in chunk if row.ok], tiers  # type: ignore[misc]

    for verdicts in _in_order(grade_chunk, tasks(), n_jobs):
        chunk = pending.popleft()
        found = iter(verdicts)
        for input_row in chunk:
            verdict = next(found) if input_row.ok else None
            row = _row(input_row, verdict)
            if strict and row["status"] != OK:
                raise StrictStop(
                    f"{row['source']} line {row['line']}: {row['status']}: {row['reason']} "
                    "(--strict stops at the first row that is not ok)"
                )
            summary.add(row, verdict.seconds if verdict else 0.0)
            yield row
        on_rows(len(chunk))


def grade_files(
    sources: Sequence[str | Path],
    output: Path | None = None,
    *,
    fmt: str | None = None,
    column: str | None = None,
    box: str | None = None,
    tiers: Mapping[str, Tier] | None = None,
    n_jobs: int = ALL_CORES,
    chunk_size: int = DEFAULT_CHUNK,
    strict: bool = False,
    on_rows: Callable[[int], None] = lambda count: None,
) -> Summary:
    """Grade every puzzle-like row of ``sources`` (paths or ``-``), one output row each.

    ``fmt``, ``column`` and ``box`` are as in :func:`pipeline.formats.read_puzzles`; ``tiers``
    replaces the engine's default bands; ``on_rows(count)`` is called as rows are done (for a
    progress bar). Raises :class:`UnusableArguments` before any grading when the arguments cannot
    work, and :class:`StrictStop` at the first row that is not ok when ``strict`` (the output
    is then not written: writes are atomic).
    """
    if n_jobs == 0 or n_jobs < ALL_CORES:
        raise UnusableArguments(f"--jobs must be -1 (every core) or at least 1, got {n_jobs}")
    try:
        if output is not None:
            output_kind(output)
            if not output.parent.is_dir():
                raise FormatError(f"{output}: folder {output.parent} does not exist")
        chunks = read_puzzles(sources, fmt, column, box, chunk_size)
    except FormatError as exc:
        raise UnusableArguments(str(exc)) from None
    summary = Summary(tuple(tiers) if tiers else engine.TIERS)
    rows = _result_rows(chunks, tiers, n_jobs, strict, summary, on_rows)
    if output is None:
        deque(rows, maxlen=0)  # grade for the summary alone
    else:
        write_rows(rows, output, SCHEMA)
    return summary
