"""Tables with named columns: CSV/TSV with a header row (or without one: see
:func:`table_columns`), and Parquet.

The puzzle column is ``column`` when given, else the first column with a usual name
(:data:`PUZZLE_COLUMNS`), else the first column; ``variant``, ``regions`` and ``cages`` columns
name each row's variant, a Jigsaw's layout and a Killer's cages (:data:`VARIANT_COLUMNS`, as the
pipeline writes them; CSV cages as JSON, :mod:`pipeline.formats.killer`); every
other column goes into ``extra`` under its own name. CSV rows are read one line at a time, so a
quoted field cannot span lines (no puzzle file does that) and one bad line spoils only its own
row.
"""

from __future__ import annotations

import csv
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from itertools import chain
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.formats.detect import is_puzzle_like
from pipeline.formats.rows import Candidate, FormatError, clean_text, undecodable
from pipeline.formats.sources import (
    CUT_SHOWN,
    MAX_LINE_CHARS,
    READ_ERRORS,
    Line,
    Source,
    Unreadable,
    too_long,
)
from pipeline.variants import VARIANT_COLUMNS

#: Column names that hold the puzzle in files seen in the wild (Kaggle's ``quizzes`` ...).
PUZZLE_COLUMNS = ("puzzle", "puzzles", "quizzes", "quiz", "givens", "grid", "sudoku", "question")


def variant_fields(extra: dict[str, Any]) -> tuple[str | None, str | None, Any]:
    """A row's variant, regions and cages (as the file holds them: a list, or JSON text in a
    CSV cell), taken out of its other columns (None where not given: an empty cell or a null)."""
    variant, regions, cages = (extra.pop(name, None) for name in VARIANT_COLUMNS)
    variant, regions = (None if value in (None, "") else str(value) for value in (variant, regions))
    return variant, regions, None if cages in (None, "") else cages


def pick_column(name: str, columns: Sequence[str], column: str | None) -> int:
    """Index of the puzzle column; :class:`FormatError` when ``column`` is not in the header."""
    if column is not None:
        if column not in columns:
            raise FormatError(
                f"{name}: no column {column!r}; its columns are {', '.join(map(repr, columns))}"
            )
        return columns.index(column)
    lowered = [c.strip().lower() for c in columns]
    return next((lowered.index(c) for c in PUZZLE_COLUMNS if c in lowered), 0)


def _split(line: str, delimiter: str) -> list[str]:
    return next(csv.reader([line], delimiter=delimiter), [])


def _content(lines: Iterable[Line]) -> Iterator[Line]:
    """The lines that are neither blank nor ``#`` comments, stripped."""
    for number, line, cut in lines:
        text = line.strip()
        if text and text[0] != "#":
            yield number, text, cut


def _fields(text: str, delimiter: str) -> list[str]:
    try:
        return [clean_text(field.strip()) for field in _split(text, delimiter)]
    except csv.Error:
        return [clean_text(text)]


def headerless(fields: Sequence[str]) -> int | None:
    """Index of the first field of a table's first row that holds a puzzle (that row is then
    data, not a header), or None."""
    return next((i for i, field in enumerate(fields) if is_puzzle_like(field.strip())), None)


def table_columns(
    name: str, first: Line, delimiter: str, column: str | None
) -> tuple[list[str], int, bool]:
    """From a table's first content line: the column names, the puzzle column's index, and
    whether that line is data. A first line holding a puzzle is no header: its columns are
    named ``field1`` ... and ``column`` cannot name one (:class:`FormatError`)."""
    number, text, _ = first
    fields = _fields(text, delimiter)
    puzzle = headerless(fields)
    if puzzle is None:
        return fields, pick_column(name, fields, column), False
    if column is not None:
        raise FormatError(
            f"{name}: --column {column!r} needs a header row, but line {number} holds a puzzle; "
            "add a header naming the columns, or leave --column out"
        )
    return [f"field{i + 1}" for i in range(len(fields))], puzzle, True


def check_table(name: str, lines: Iterable[Line], delimiter: str, column: str | None) -> None:
    """Raise :class:`FormatError` now when ``column`` cannot be found in the table."""
    first = next((line for line in _content(lines) if not line[2]), None)
    if first is not None:
        table_columns(name, first, delimiter, column)


def read_csv(
    name: str, lines: Iterable[Line], delimiter: str, column: str | None
) -> Iterator[Candidate]:
    """One candidate per data line of a CSV/TSV file (its first line too when it is no header,
    see :func:`table_columns`). A line over :data:`MAX_LINE_CHARS` before the first readable one
    is an error row, not the header: its fields past the first characters are never read."""
    rows = _content(lines)
    first = next(rows, None)
    while first is not None and first[2]:  # over-long: an error row, never the header
        yield too_long(*first)
        first = next(rows, None)
    if first is None:
        return
    header, index, first_is_data = table_columns(name, first, delimiter, column)
    if first_is_data:
        rows = chain([first], rows)
    for number, text, cut in rows:
        if cut:
            yield too_long(number, text, cut)
            continue
        try:
            fields = _split(text, delimiter)
        except csv.Error as exc:
            yield Candidate(number, text, None, {}, f"not a CSV row: {exc}")
            continue
        if index >= len(fields):
            reason = f"row has {len(fields)} fields; the puzzle is in field {index + 1}"
            yield Candidate(number, text, None, {}, reason)
            continue
        extra = {
            key: clean_text(value)
            for i, (key, value) in enumerate(zip(header, fields, strict=False))
            if i != index
        }
        puzzle = fields[index].strip()
        bad = undecodable(puzzle)
        reason = f"column {header[index]!r}: {bad}" if bad else None
        yield Candidate(
            number, text, None if bad else puzzle, extra, reason, *variant_fields(extra)
        )


_TEXT_TYPES = (
    pa.types.is_string,
    pa.types.is_large_string,
    pa.types.is_binary,
    pa.types.is_large_binary,
)


def text_column(name: str, schema: pa.Schema, index: int) -> None:
    """Raise :class:`FormatError` unless column ``index`` holds text (or bytes)."""
    kind = schema.field(index).type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if not any(test(kind) for test in _TEXT_TYPES):
        raise FormatError(f"{name}: column {schema.names[index]!r} holds {kind}, not puzzle text")


def _as_text(value: Any) -> str | None:
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="surrogateescape")
    return value


def _on_disk(source: Source) -> bool:
    """True when Parquet can seek in the source's file itself (not stdin, a pipe or gzip)."""
    return source.path is not None and not source.compressed and source.path.is_file()


def parquet_metadata(source: Source) -> pq.FileMetaData | None:
    """Footer of a Parquet source on disk (schema, row count), or None if it is not there or not
    readable as one."""
    if not _on_disk(source):
        return None
    try:
        return pq.read_metadata(source.path)
    except (pa.ArrowException, OSError):
        return None


def parquet_schema(source: Source) -> pa.Schema | None:
    """Schema of a Parquet source on disk, or None if it is not there or not readable as one."""
    metadata = parquet_metadata(source)
    return None if metadata is None else metadata.schema.to_arrow_schema()


#: Bytes a row group's column may hold uncompressed before it is left unread: a column is read
#: a row group at a time, so this (with MAX_LINE_CHARS per value on average) bounds the memory a
#: small file that decompresses into gigabytes can take.
MAX_COLUMN_CHUNK = 256 << 20


def oversized(metadata: pq.FileMetaData, group: int, name: str) -> int | None:
    """Uncompressed bytes of column ``name`` in row group ``group`` when reading them could take
    more memory than a puzzle file needs (over :data:`MAX_COLUMN_CHUNK`, or more than
    :data:`MAX_LINE_CHARS` a row on average), else None; decided from the footer alone."""
    chunk = metadata.row_group(group)
    rows = max(1, chunk.num_rows)
    names = [chunk.column(i).path_in_schema for i in range(chunk.num_columns)]
    size = sum(
        chunk.column(i).total_uncompressed_size
        for i, path in enumerate(names)
        if path == name or path.startswith(f"{name}.")
    )
    return size if size > MAX_COLUMN_CHUNK or size > rows * MAX_LINE_CHARS else None


def read_parquet(source: Source, column: str | None, batch_rows: int) -> Iterator[Candidate]:
    """One candidate per row of a Parquet file, its line being the row index + 1.

    Only the columns it keeps are read, a row group at a time in batches, and none whose size in
    the footer says it would not fit in bounded memory: such a puzzle column makes each row of
    its row group an error row, unread; such another column is left out of ``extra``.
    """
    with ExitStack() as stack:
        if _on_disk(source):
            where: Any = source.path
        else:  # Parquet needs a seekable file
            where = stack.enter_context(tempfile.TemporaryFile())
            try:
                shutil.copyfileobj(source.stream, where)
            except READ_ERRORS as exc:
                raise Unreadable(1, f"cannot read the Parquet data: {exc}") from None
            where.seek(0)
        try:
            table = stack.enter_context(pq.ParquetFile(where))
        except (pa.ArrowException, OSError) as exc:
            raise Unreadable(1, f"not a readable Parquet file: {exc}") from None
        schema = table.schema_arrow
        index = pick_column(source.name, schema.names, column)
        text_column(source.name, schema, index)
        puzzle_name = schema.names[index]
        row = 0
        try:
            for group in range(table.metadata.num_row_groups):
                rows = table.metadata.row_group(group).num_rows
                size = oversized(table.metadata, group, puzzle_name)
                if size is not None:
                    for line in range(row + 1, row + rows + 1):
                        yield _unread(line, puzzle_name, group, size, rows)
                    row += rows
                    continue
                kept = [
                    name
                    for name in schema.names
                    if name == puzzle_name or oversized(table.metadata, group, name) is None
                ]
                for batch in table.iter_batches(batch_rows, row_groups=[group], columns=kept):
                    columns = {name: batch.column(name).to_pylist() for name in kept}
                    puzzles = columns.pop(puzzle_name)
                    for i, value in enumerate(puzzles):
                        extra = {key: values[i] for key, values in columns.items()}
                        text = _as_text(value)
                        yield _parquet_candidate(row + i + 1, text, puzzle_name, extra)
                    row += len(puzzles)
        except (pa.ArrowException, OSError) as exc:
            raise Unreadable(row + 1, f"cannot read past row {row}: {exc}") from None


def _unread(line: int, column: str, group: int, size: int, rows: int) -> Candidate:
    reason = (
        f"column {column!r} holds {size} bytes in row group {group} ({rows} rows), more than a "
        f"puzzle file needs ({MAX_LINE_CHARS} characters a row, {MAX_COLUMN_CHUNK} bytes a row "
        "group); not read"
    )
    return Candidate(line, "", None, {}, reason)


def _parquet_candidate(line: int, text: str | None, column: str, extra: dict) -> Candidate:
    rules = variant_fields(extra)
    if text is None:
        return Candidate(line, "", None, extra, f"column {column!r} is empty (null)", *rules)
    if len(text) > MAX_LINE_CHARS:
        return too_long(line, text[:CUT_SHOWN], len(text))
    text = text.strip()
    bad = undecodable(text)
    reason = f"column {column!r}: {bad}" if bad else None
    return Candidate(line, text, None if bad else text, extra, reason, *rules)
