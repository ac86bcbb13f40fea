"""``write_rows`` / ``write_tables``: result rows or Arrow tables to Parquet (the default), CSV
or JSON lines, chosen by suffix.

Writes go to a temporary file beside the target, renamed over it only when complete
(``os.replace``), so an error half-way leaves any earlier file at that path untouched. Rows are
written in batches (Parquet through one ``ParquetWriter``), so memory does not grow with the
row count.
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.formats.rows import FormatError

PARQUET, CSV, JSONL = "parquet", "csv", "jsonl"
WRITE_SUFFIXES = {
    "": PARQUET,
    ".parquet": PARQUET,
    ".pq": PARQUET,
    ".csv": CSV,
    ".jsonl": JSONL,
    ".ndjson": JSONL,
    ".json": JSONL,
}
BATCH_ROWS = 10_000
NEW_FILE_MODE = 0o666  # what open() asks for a new file, before the umask


def current_umask() -> int:
    """The process's umask (reading it means setting it, so it is set straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


Row = Mapping[str, Any]


def output_kind(path: Path) -> str:
    """``parquet``, ``csv`` or ``jsonl`` from the suffix; :class:`FormatError` for others."""
    kind = WRITE_SUFFIXES.get(path.suffix.lower())
    if kind is None:
        known = ", ".join(s for s in WRITE_SUFFIXES if s)
        raise FormatError(f"{path}: unknown output suffix {path.suffix!r}; use {known}")
    return kind


PART_SUFFIX = ".part"


def remove_partial_files(*folders: Path) -> list[Path]:
    """Remove the temporary files :func:`atomic_path` leaves in ``folders`` when its process is
    killed mid-write (only safe while no other process writes there); return them."""
    removed = []
    for folder in folders:
        for path in sorted(folder.glob(f".*{PART_SUFFIX}")):
            if path.is_file() or path.is_symlink():
                path.unlink(missing_ok=True)
                removed.append(path)
    return removed


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path``, moved onto it (durably) only if the block succeeds.

    An ``OSError`` in the block (a folder that cannot be written, a full disk) becomes a
    :class:`FormatError` naming ``path``: the block is the writing, the rows come from readers
    that report their own faults as rows. A symbolic link at ``path`` is refused, naming it:
    whoever planted it there chose what would be replaced.
    """
    if path.is_symlink():
        raise FormatError(f"{path}: is a symbolic link; remove it (nothing is written through one)")
    if not path.parent.is_dir():
        raise FormatError(f"{path}: folder {path.parent} does not exist")
    try:
        handle, name = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=PART_SUFFIX
        )
    except OSError as exc:
        raise FormatError(f"{path}: cannot write in {path.parent}: {_why(exc)}") from None
    try:  # mkstemp makes the file private (0600); the output is the user's, as any file they make
        os.fchmod(handle, NEW_FILE_MODE & ~current_umask())
    finally:
        os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        with temporary.open("rb+") as written:
            os.fsync(written.fileno())
        os.replace(temporary, path)
        sync_folder(path.parent)  # the rename itself survives a power cut only once synced
    except OSError as exc:
        raise FormatError(f"{path}: cannot write: {_why(exc)}") from None
    finally:
        temporary.unlink(missing_ok=True)


def sync_folder(folder: Path) -> None:
    """fsync a folder, so that names created, renamed or removed in it are on disk."""
    handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _why(exc: OSError) -> str:
    """An OSError's reason alone (Arrow's carry it as ``[errno N] reason`` in the text)."""
    return (exc.strerror or str(exc)).rsplit("] ", 1)[-1]


def _batches(rows: Iterable[Row], size: int) -> Iterator[list[Row]]:
    rows = iter(rows)
    while batch := list(islice(rows, size)):
        yield batch


def _plain(value: Any) -> Any:
    """JSON-ready form of what ``json`` cannot write: numpy values, sets, bytes, dates ..."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray | set | frozenset):
        return list(value.tolist() if isinstance(value, np.ndarray) else value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    return str(value)  # dates, decimals ... as they print


def _check_keys(path: Path, names: list[str], batch: list[Row], start: int) -> None:
    known = set(names)
    for offset, row in enumerate(batch):
        if row.keys() - known:
            extra = ", ".join(sorted(row.keys() - known))
            raise FormatError(
                f"{path}: row {start + offset + 1} has fields ({extra}) that the first row lacks"
            )


def _write_parquet(rows: Iterable[Row], path: Path, schema: pa.Schema | None, size: int) -> int:
    writer: pq.ParquetWriter | None = None
    count = 0
    try:
        for batch in _batches(rows, size):
            if schema is None:
                inferred = pa.Table.from_pylist(batch).schema
                schema = pa.schema(  # a column that is all null so far is taken to be text
                    f.with_type(pa.string()) if pa.types.is_null(f.type) else f for f in inferred
                )
            _check_keys(path, schema.names, batch, count)
            try:
                table = pa.Table.from_pylist(batch, schema=schema)
            except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
                raise FormatError(
                    f"{path}: rows {count + 1}-{count + len(batch)} do not fit the columns "
                    f"of the first rows: {exc}"
                ) from None
            if writer is None:
                writer = pq.ParquetWriter(path, schema)
            writer.write_table(table)
            count += len(batch)
        if writer is None:  # no rows: still a valid (empty) file
            pq.write_table((schema or pa.schema([])).empty_table(), path)
    finally:
        if writer is not None:
            writer.close()
    return count


def _cell(value: Any) -> Any:
    """A CSV cell: nested values as JSON, None as an empty cell."""
    if value is None:
        return ""
    if isinstance(value, dict | list | tuple | np.ndarray):
        return json.dumps(value, default=_plain, ensure_ascii=False)
    return value.item() if isinstance(value, np.generic) else value


def _write_csv(rows: Iterable[Row], handle: TextIO, path: Path) -> int:
    writer: csv.DictWriter | None = None
    count = 0
    for row in rows:
        if writer is None:
            writer = csv.DictWriter(handle, fieldnames=list(row), lineterminator="\n")
            writer.writeheader()
        _check_keys(path, list(writer.fieldnames), [row], count)
        writer.writerow({key: _cell(value) for key, value in row.items()})
        count += 1
    return count


def _write_jsonl(rows: Iterable[Row], handle: TextIO) -> int:
    count = 0
    for row in rows:
        handle.write(json.dumps(dict(row), default=_plain, ensure_ascii=False))
        handle.write("\n")
        count += 1
    return count


def write_tables(tables: Iterable[pa.Table], path: Path, schema: pa.Schema) -> int:
    """Write Arrow tables of ``schema`` to ``path`` as one file; return the row count.

    As :func:`write_rows` (format by suffix, atomic), without turning columns into rows for
    Parquet, whose row groups are gathered to about BATCH_ROWS rows.
    """
    path = Path(path)
    if output_kind(path) != PARQUET:
        return write_rows(
            (row for table in tables for row in table.to_pylist(maps_as_pydicts="strict")), path
        )
    count = written = 0
    with atomic_path(path) as temporary, pq.ParquetWriter(temporary, schema) as writer:
        gathered: list[pa.Table] = []
        for table in tables:
            gathered.append(table)
            count += table.num_rows
            if count - written >= BATCH_ROWS:
                writer.write_table(pa.concat_tables(gathered))
                gathered, written = [], count
        if gathered or count == 0:
            writer.write_table(pa.concat_tables(gathered) if gathered else schema.empty_table())
    return count


def write_rows(
    rows: Iterable[Row],
    path: Path,
    schema: pa.Schema | None = None,
    batch_rows: int = BATCH_ROWS,
) -> int:
    """Write ``rows`` (mappings with the same keys) to ``path``; return how many were written.

    The format follows the suffix (see :data:`WRITE_SUFFIXES`). For Parquet, ``schema`` fixes the
    column types; without it they are inferred from the first batch. Raises
    :class:`FormatError` for an unknown suffix, a missing folder, or a row that does not fit.
    """
    path = Path(path)
    kind = output_kind(path)
    with atomic_path(path) as temporary:
        if kind == PARQUET:
            return _write_parquet(rows, temporary, schema, batch_rows)
        with temporary.open("w", encoding="utf-8", newline="") as handle:
            if kind == CSV:
                return _write_csv(rows, handle, path)
            return _write_jsonl(rows, handle)
