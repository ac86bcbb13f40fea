"""The grade stage: puzzle files that others made, graded, every input row accounted for.

Flow: :func:`pipeline.formats.read_puzzles` streams chunks of rows; the well-formed puzzles of a
chunk go to a worker (local processes or a Dask cluster: :mod:`pipeline.parallel`), which
grades them (:func:`pipeline.tasks.grade_chunk`: one ``engine.grade_many`` call per grid size;
uniqueness comes with the grade) and sends back Arrow columns, checked here
(:func:`pipeline.recheck.check_verdicts`); results come back in input order, so the output does
not depend on the worker count or backend; each chunk is joined with its input rows into an
Arrow table, written as it arrives and folded into a :class:`Summary` of bounded size, so
memory stays flat whatever the file size.
Nothing is done row by row in Python that Arrow or numpy can do for a whole column.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

import engine
from engine import Tier
from pipeline.errors import UserError
from pipeline.formats import FormatError, InputRow, InputSize, ReadMeter, input_size, read_puzzles
from pipeline.formats.writers import output_kind, write_tables
from pipeline.parallel import results_in_order
from pipeline.prepare import GRADE, prepare_engine, prepare_grading
from pipeline.recheck import check_verdicts
from pipeline.recipe import ParallelSpec, usable_jobs
from pipeline.recipe_schema import ALL_CORES, JOBS_ALLOWED
from pipeline.store import CAGES_TYPE
from pipeline.tasks import GRADED_SCHEMA, INVALID, OK, STATUSES, GradeTask, Verdicts, grade_chunk
from pipeline.variants import cages_value

DEFAULT_CHUNK = 2_000  # puzzles per worker task: ~0.15 s of grading, far above pickling costs
TOP_PUZZLES = 5  # hardest and slowest puzzles listed in the summary
SHOWN_PROBLEMS = 10  # non-ok rows listed in the summary before "... and N more"
ITERATION_BIN = 10  # width of the iteration histogram's bins
NO_TIER = "(none)"  # tier label of graded puzzles that no band admits


class Done(NamedTuple):
    """Progress after a chunk: rows graded and bytes of input read so far, of the input's size."""

    rows: int
    bytes_read: int
    size: InputSize


class UnusableArguments(UserError):
    """The arguments make the run impossible (missing file, bad format, box, column or output)."""


class StrictStop(ValueError):
    """``strict`` was asked for and a row is not ok; the message names its source and line."""


@dataclass
class Summary:
    """Figures over every row, in memory that does not grow with the row count."""

    tier_order: Sequence[str] = engine.TIERS  # the bands' names, easiest first
    statuses: Counter[str] = field(default_factory=Counter)
    tiers: Counter[str] = field(default_factory=Counter)
    hardest_techniques: Counter[str] = field(default_factory=Counter)  # technique id -> puzzles
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

    def add(self, table: pa.Table, seconds: np.ndarray) -> None:
        """Fold a chunk of output rows (and each row's grading time) into the figures."""
        first = self.rows  # rows folded before this chunk
        status = table.column("status").to_numpy(zero_copy_only=False)
        self.statuses.update(status.tolist())
        ok = status == OK
        for index in np.flatnonzero(~ok)[: SHOWN_PROBLEMS - len(self.problems)]:
            row = table.slice(index, 1).to_pylist()[0]
            where = f"{row['source']}:{row['line']}"
            self.problems.append(f"{where}: {row['status']}: {row['reason']}")
        if not ok.any():
            return
        graded = table.filter(pa.array(ok))
        score = graded.column("score").to_numpy()
        iterations = graded.column("iterations").to_numpy()
        tiers = graded.column("tier").fill_null(NO_TIER).to_pylist()
        self.tiers.update(tiers)
        self.hardest_techniques.update(graded.column("hardest").drop_null().to_pylist())
        self.score_bins.update(np.floor(score).astype(np.int64).tolist())
        self.iteration_bins.update((iterations // ITERATION_BIN).tolist())
        self.score_total += float(score.sum())
        self.score_min = min(self.score_min, float(score.min()))
        self.score_max = max(self.score_max, float(score.max()))
        order = -(first + 1 + np.flatnonzero(ok))  # ties: the earlier row ranks higher
        for heap, figure in ((self.hardest, score), (self.slowest, seconds[ok])):
            for index in np.argsort(-figure, kind="stable")[:TOP_PUZZLES]:
                row = graded.slice(int(index), 1).to_pylist()[0]
                what = f"{row['source']}:{row['line']} {row['puzzle']}"
                _keep_top(heap, (float(figure[index]), int(order[index]), what))


def _keep_top(heap: list[tuple[float, int, str]], item: tuple[float, int, str]) -> None:
    if len(heap) < TOP_PUZZLES:
        heapq.heappush(heap, item)
    else:
        heapq.heappushpop(heap, item)


def format_summary(summary: Summary) -> str:
    """The terminal report: statuses, tiers (easiest first), hardest techniques (by the names
    solvers use), score and iteration spreads, the hardest and slowest puzzles, the first rows
    that are not ok."""
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
        lines.append("hardest technique")
        lines += [
            f"  {engine.TECHNIQUE_NAMES[name]:<30}{summary.hardest_techniques[name]:>9}"
            for name in engine.TECHNIQUES
            if summary.hardest_techniques[name]
        ]
        lines.append(
            f"score  min {summary.score_min:.1f}  mean {mean:.2f}  max {summary.score_max:.1f}"
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
        lines += [f"  {s:7.1f}  {what}" for s, _, what in sorted(summary.hardest, reverse=True)]
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


def _output_table(chunk: list[InputRow], verdicts: Verdicts) -> pa.Table:
    """The output rows of a chunk: its input rows joined with the verdicts of the well-formed
    ones; a row that is not well formed is ``invalid`` with the reader's reason."""
    ok = np.array([row.ok for row in chunk], dtype=bool)
    columns = verdicts.columns
    if not ok.all():  # spread the verdicts over the chunk, nulls at the malformed rows
        where = np.full(len(chunk), -1, dtype=np.int64)
        where[ok] = np.arange(columns.num_rows)
        columns = columns.take(pa.array(where, mask=~ok))
        reasons = pa.array([row.reason for row in chunk], pa.string())
        columns = columns.set_column(0, "status", columns.column("status").fill_null(INVALID))
        columns = columns.set_column(1, "reason", pc.coalesce(columns.column("reason"), reasons))
    status = columns.column("status")
    raw = pa.array([row.raw for row in chunk], pa.string())
    inputs = {
        "source": pa.array([row.source for row in chunk], pa.string()),
        "line": pa.array([row.line for row in chunk], pa.int64()),
        "puzzle": pa.array([row.puzzle for row in chunk], pa.string()),
        "raw": pc.if_else(pc.equal(status, INVALID), raw, pa.scalar(None, pa.string())),
        "size": pa.array(
            [row.box[0] * row.box[1] if row.box else None for row in chunk], pa.int64()
        ),
        "box_rows": pa.array([row.box[0] if row.box else None for row in chunk], pa.int64()),
        "box_cols": pa.array([row.box[1] if row.box else None for row in chunk], pa.int64()),
        "variant": pa.array([row.variant for row in chunk], pa.string()),
        "regions": pa.array([row.regions for row in chunk], pa.string()),
        "cages": pa.array([cages_value(row.cages) for row in chunk], CAGES_TYPE),
    }
    return pa.table(
        {
            name: inputs[name] if name in inputs else columns.column(name)
            for name in GRADED_SCHEMA.names
        },
        GRADED_SCHEMA,
    )


def _prepare(spec: ParallelSpec) -> Callable[[], None] | None:
    """The engine prepared for grading before any worker starts. Local workers may start on the
    core rungs while the rest compiles (:func:`pipeline.prepare.prepare_grading`); Dask workers
    prepare themselves (``pipeline.dask_worker``), after this process has."""
    if spec.backend == "dask":
        prepare_engine(GRADE)
        return None
    return prepare_grading()


def _result_tables(
    chunks: Iterator[list[InputRow]],
    settings: tuple[tuple[Tier, ...], Callable[[], None] | None],
    spec: ParallelSpec,
    strict: bool,
    summary: Summary,
    meter: ReadMeter,
    on_progress: Callable[[int, int], None],
) -> Iterator[pa.Table]:
    # chunks sent out, waiting for their verdicts, with the bytes read up to each
    pending: deque[tuple[list[InputRow], int]] = deque()

    def tasks() -> Iterator[GradeTask]:
        for chunk in chunks:
            pending.append((chunk, meter.bytes_read))
            shapes = [
                (row.puzzle, (*row.box, row.variant, row.regions, row.cages))
                for row in chunk
                if row.ok
            ]
            yield shapes, *settings  # type: ignore[misc]

    for _, verdicts in results_in_order(grade_chunk, tasks(), spec, check_verdicts):
        chunk, bytes_read = pending.popleft()
        table = _output_table(chunk, verdicts)
        status = table.column("status").to_numpy(zero_copy_only=False)
        if strict and (status != OK).any():
            row = table.slice(int(np.argmax(status != OK)), 1).to_pylist()[0]
            raise StrictStop(
                f"{row['source']} line {row['line']}: {row['status']}: {row['reason']} "
                "(--strict stops at the first row that is not ok)"
            )
        seconds = np.zeros(len(chunk))
        seconds[[row.ok for row in chunk]] = verdicts.seconds
        summary.add(table, seconds)
        yield table
        on_progress(len(chunk), bytes_read)


def grade_files(
    sources: Sequence[str | Path],
    output: Path | None = None,
    *,
    fmt: str | None = None,
    column: str | None = None,
    box: str | None = None,
    variant: str | None = None,
    tiers: Sequence[Tier] = (),
    n_jobs: int = ALL_CORES,
    chunk_size: int = DEFAULT_CHUNK,
    strict: bool = False,
    parallel: ParallelSpec | None = None,
    on_progress: Callable[[Done], None] = lambda done: None,
) -> Summary:
    """Grade every puzzle-like row of ``sources`` (paths or ``-``), one output row each.

    ``fmt``, ``column``, ``box`` and ``variant`` are as in :func:`pipeline.formats.read_puzzles`
    (each row is graded by its variant's rules, re-verified unique under them); ``tiers``
    are a recipe's own bands, put before each grid size's defaults as a run does;
    ``on_progress`` is called as chunks are done (for a progress bar); ``parallel`` runs the
    chunks on its backend (default: ``n_jobs`` local processes). Raises
    :class:`UnusableArguments` before any grading when the arguments cannot work, and
    :class:`StrictStop` at the first row that is not ok when ``strict`` (the output is then not
    written: writes are atomic).
    """
    if not usable_jobs(n_jobs):
        raise UnusableArguments(f"--jobs must be {JOBS_ALLOWED}, got {n_jobs}")
    spec = parallel or ParallelSpec(n_jobs=n_jobs)
    try:
        if output is not None:
            output_kind(output)
            if not output.parent.is_dir():
                raise FormatError(f"{output}: folder {output.parent} does not exist")
        meter = ReadMeter()
        chunks = read_puzzles(sources, fmt, column, box, chunk_size, meter, variant)
        size = input_size(sources, fmt, column)
    except FormatError as exc:
        raise UnusableArguments(str(exc)) from None
    # before any worker starts, and after the arguments proved usable
    before_full_ladder = _prepare(spec)
    summary = Summary(tuple(dict.fromkeys([*(band.name for band in tiers), *engine.TIERS])))
    rows = 0

    def chunk_done(count: int, bytes_read: int) -> None:
        nonlocal rows
        rows += count
        on_progress(Done(rows, bytes_read, size))

    on_progress(Done(0, 0, size))  # the total, before the first chunk is done
    tables = _result_tables(
        chunks, (tuple(tiers), before_full_ladder), spec, strict, summary, meter, chunk_done
    )
    try:
        if output is None:
            deque(tables, maxlen=0)  # grade for the summary alone
        else:
            write_tables(tables, output, GRADED_SCHEMA)
    except FormatError as exc:  # the output cannot be written, or a pipe's --column is wrong
        raise UnusableArguments(str(exc)) from None
    return summary


def graded_table(
    source: Path,
    tiers: Sequence[Tier] = (),
    n_jobs: int = ALL_CORES,
    box: str | None = None,
    variant: str | None = None,
) -> pa.Table:
    """Every puzzle-like row of one file graded (:data:`pipeline.tasks.GRADED_SCHEMA`), each grid
    size by its bands as in :func:`grade_files`: what a recipe section that prints others'
    puzzles selects from."""
    try:
        chunks = read_puzzles([source], box=box, variant=variant)
    except FormatError as exc:
        raise UnusableArguments(str(exc)) from None
    spec = ParallelSpec(n_jobs=n_jobs)
    tables = _result_tables(
        chunks, (tuple(tiers), _prepare(spec)), spec, False, Summary(), ReadMeter(), lambda *_: None
    )
    return pa.concat_tables([GRADED_SCHEMA.empty_table(), *tables])
