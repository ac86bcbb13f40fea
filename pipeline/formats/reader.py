"""``read_puzzles``: every source, whatever its format, as a stream of validated row chunks.

Arguments are checked before anything is read (unknown format, bad box, missing file, missing
column: :class:`FormatError`), so a command fails at once rather than after grading half its
input. Faults inside a source are never raised: they become rows with a ``reason``.

Each source is read once. A regular file is opened at the start to sniff its format and check
its columns, then again when its turn comes; stdin, pipes, process substitution and FIFOs can
be read only once, so they are opened and sniffed only when their turn comes (a bad
``--column`` for one of them raises :class:`FormatError` from the iteration, before its first
row).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from engine.geometry import CLASSIC, Geometry, box_shape, geometry, variant_name
from pipeline.formats import detect
from pipeline.formats.blocks import read_grids
from pipeline.formats.lines import SOLO_KILLER, read_lines
from pipeline.formats.rows import Candidate, FormatError, InputRow
from pipeline.formats.sources import (
    SNIFF_BYTES,
    STDIN,
    ReadMeter,
    Source,
    Unreadable,
    check_path,
    file_size,
    is_regular,
    open_source,
    text_lines,
)
from pipeline.formats.tables import (
    check_table,
    parquet_metadata,
    parquet_schema,
    pick_column,
    read_csv,
    read_parquet,
    text_column,
)
from pipeline.formats.tags import split_tag
from pipeline.formats.validate import validate
from pipeline.variants import is_jigsaw

DEFAULT_CHUNK = 10_000


@dataclass(frozen=True)
class Plan:
    """How one source will be read: resolved before any source is read."""

    spec: str | Path
    fmt: str | None  # None: sniffed when read (stdin, pipes and FIFOs are read once)


def source_format(source: Source, fmt: str | None, column: str | None) -> str:
    """The source's format (forced or sniffed); ``column`` is only for tables."""
    complete = len(source.head) < SNIFF_BYTES
    found = fmt or detect.sniff(source.head, source.suffix, complete, source.encoding)
    if column is not None and found not in detect.TABLE_FORMATS:
        raise FormatError(f"{source.name}: --column needs a table with a header; read as {found}")
    return found


def check_columns(source: Source, fmt: str, column: str | None) -> None:
    """Raise :class:`FormatError` now if a table has no such column, or no text in it."""
    if fmt == detect.PARQUET:
        known = parquet_schema(source)
        if known is not None:
            text_column(source.name, known, pick_column(source.name, known.names, column))
    elif fmt in (detect.CSV, detect.TSV) and column is not None:
        try:
            check_table(source.name, text_lines(source), detect.DELIMITERS[fmt], column)
        except Unreadable:
            return  # reading it will report where it breaks, as a row


def plan_sources(sources: Sequence[str | Path], fmt: str | None, column: str | None) -> list[Plan]:
    """Resolve the format of every regular file now; stdin, pipes and FIFOs when read."""
    if sum(str(spec) == STDIN for spec in sources) > 1:
        raise FormatError("'-' (stdin) can be read only once")
    plans = []
    for spec in sources:
        check_path(spec)
        if not is_regular(spec):
            plans.append(Plan(spec, fmt))
            continue
        with open_source(spec) as source:
            found = source_format(source, fmt, column)
            check_columns(source, found, column)
            plans.append(Plan(spec, found))
    return plans


@dataclass(frozen=True)
class InputSize:
    """How much input a read takes, for a progress bar's total: ``rows`` when every source is a
    Parquet file on disk (its footer says), ``bytes`` when every source is a regular file; None
    where it is not known without reading (stdin, pipes, text rows)."""

    rows: int | None
    bytes: int | None


def input_size(
    sources: Sequence[str | Path], fmt: str | None = None, column: str | None = None
) -> InputSize:
    """The :class:`InputSize` of ``sources`` from file sizes and Parquet footers alone (stdin and
    pipes are not opened); call it after :func:`read_puzzles` has checked the arguments."""
    rows: int | None = 0
    size = 0
    for spec in sources:
        found = file_size(spec)
        if found is None:
            return InputSize(None, None)
        size += found
        if rows is not None:
            with open_source(spec) as source:
                parquet = source_format(source, fmt, column) == detect.PARQUET
                metadata = parquet_metadata(source) if parquet else None
            rows = None if metadata is None else rows + metadata.num_rows
    return InputSize(rows, size)


def candidates(
    source: Source, fmt: str, column: str | None, chunk_size: int
) -> Iterator[Candidate]:
    """The candidates of one opened source; a source that stops reading ends with an error row."""
    try:
        if fmt == detect.PARQUET:
            yield from read_parquet(source, column, chunk_size)
        elif fmt in detect.GRID_FORMATS:
            yield from read_grids(text_lines(source))
        elif fmt in (detect.CSV, detect.TSV):
            yield from read_csv(source.name, text_lines(source), detect.DELIMITERS[fmt], column)
        else:
            yield from read_lines(text_lines(source))
    except Unreadable as exc:
        yield Candidate(exc.line, "", None, {}, exc.message)


def _rows(
    plans: list[Plan],
    column: str | None,
    rules: tuple[tuple[int, int] | None, str],
    chunk_size: int,
    meter: ReadMeter | None,
) -> Iterator[list[InputRow]]:
    for plan in plans:
        with open_source(plan.spec, meter) as source:
            fmt = source_format(source, plan.fmt, column)
            found = candidates(source, fmt, column, chunk_size)
            while batch := list(islice(found, chunk_size)):
                yield validate(source.name, batch, *rules)


def _rechunk(parts: Iterator[list[InputRow]], chunk_size: int) -> Iterator[list[InputRow]]:
    """Chunks of exactly ``chunk_size`` rows (the last may be smaller), across sources."""
    pending: list[InputRow] = []
    for part in parts:
        pending.extend(part)
        while len(pending) >= chunk_size:
            yield pending[:chunk_size]
            pending = pending[chunk_size:]
    if pending:
        yield pending


def default_variant(variant: str | None) -> str:
    """The variant of the rows that do not name theirs (``--variant``; None: classic).
    :class:`FormatError` for an unknown one, and for a Jigsaw: each of its puzzles has a layout
    of its own, which a row must give (a tagged line or a regions column), never a command."""
    if variant is None:
        return CLASSIC
    try:
        name = variant_name(variant)
    except ValueError as exc:
        raise FormatError(f"--variant: {exc}") from None
    if is_jigsaw(name):
        raise FormatError(
            f"--variant {variant}: each Jigsaw puzzle has a layout of its own, which the file "
            f"must give: write each line as '{name}: <layout> <puzzle>', or give CSV/TSV/Parquet "
            "variant and regions columns (docs/puzzle-files.md)"
        )
    return name


def read_puzzles(
    sources: Sequence[str | Path],
    fmt: str | None = None,
    column: str | None = None,
    box: str | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    meter: ReadMeter | None = None,
    variant: str | None = None,
) -> Iterator[list[InputRow]]:
    """Stream the puzzle-like rows of ``sources`` (paths, or ``-`` for stdin) in chunks.

    ``fmt`` forces a format (see :data:`pipeline.formats.detect.FORMATS`), ``column`` picks the
    puzzle column of CSV/TSV/Parquet tables, ``box`` (``"3x4"``) fixes the geometry, ``variant``
    the rules of rows that do not name theirs (:func:`default_variant`); ``meter`` follows the
    bytes read (for progress). Raises :class:`FormatError` at once for arguments that make a
    source unusable; everything else a source holds comes back as rows, one per puzzle-like
    row, none dropped.
    """
    if chunk_size < 1:
        raise FormatError(f"chunk size must be at least 1, got {chunk_size}")
    shape = None
    if box is not None:
        try:
            shape = box_shape(box=box)
        except ValueError as exc:
            raise FormatError(f"--box {box}: {exc}") from None
    rules = (shape, default_variant(variant))
    plans = plan_sources(sources, detect.check_format(fmt), column)
    return _rechunk(_rows(plans, column, rules, chunk_size, meter), chunk_size)


def read_variant_argument(text: str, box: str | None = None) -> tuple[str, Geometry] | None:
    """A puzzle given on the command line as one line of a puzzle file that names its variant
    (``x: <puzzle>``, ``jigsaw: <layout> <puzzle>``, ``killer: <cage map> <totals>``, Solo's
    ``3x3k:...``): its givens and geometry, read as a file's line is; None for a plain puzzle
    string, which the engine reads. ValueError with the line's fault."""
    line = text.strip()
    if split_tag(line)[0] is None and not SOLO_KILLER.match(line):
        return None
    (row,) = validate("argument", list(read_lines([(1, line, 0)])), box)
    if not row.ok or row.puzzle is None or row.box is None:
        raise ValueError(row.reason or "not a puzzle")
    return row.puzzle, geometry(*row.box, row.variant or CLASSIC, row.regions, row.cages)
