"""The run store: Parquet schemas with key/value metadata, atomic writes, and the cross-run catalog.

A run folder holds ``puzzles.parquet`` (one row per puzzle, :data:`PUZZLE_SCHEMA`), its
finished chunks under ``chunks/`` (what a killed run resumes from), ``manifest.json``, the PDF
and the report.
Every file appears complete or not at all: it is written beside its target and renamed onto it.

Puzzle ids are stable and content-based: a hash of the box shape and the puzzle's canonical key
(``engine.canon``; :mod:`pipeline.variants`), so a disguised copy of a puzzle (relabelled,
rows/bands or columns/stacks permuted, transposed) has the same id as the original, and a
variant puzzle (X, Windoku, Jigsaw ...) never shares one with a classic puzzle. Every table of
puzzles or grids names each row's ``variant``, for a Jigsaw its ``regions`` and for a Killer its
``cages``; a file written before those columns existed reads as classic (without ``cages``:
null). The catalog of every id already in a book is :mod:`pipeline.catalog`.

"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

import engine
from pipeline.errors import UserError
from pipeline.formats import FormatError
from pipeline.formats.writers import atomic_path

SCHEMA_VERSION = "3"  # 2: the variant and regions columns; 3: cages
GENERATOR_VERSION = version("sudoku-pipeline")
METADATA = {b"sudoku.schema_version": SCHEMA_VERSION, b"sudoku.generator": GENERATOR_VERSION}
ID_LENGTH = 16  # hex digits of the id hash: 64 bits, no collision in any plausible catalog
CATALOG = "catalog"
CHUNKS = "chunks"
PUZZLES_FILE = "puzzles.parquet"  # in a run folder: the book's puzzles
MANIFEST_FILE = "manifest.json"  # in a run folder: written last, once the book is printed

_TIMESTAMP = pa.timestamp("us", tz="UTC")
_TECHNIQUE_COUNT = pa.struct([("technique", pa.string()), ("steps", pa.int32())])
#: A Killer's cages: each its total and its cells, row-major indices from 0 (docs/puzzle-files.md).
CAGES_TYPE = pa.list_(pa.struct([("sum", pa.int32()), ("cells", pa.list_(pa.int32()))]))
#: A row's rules: ``classic``, ``x``, ``jigsaw+x``, ``killer`` ...
#: (:func:`engine.geometry.variant_name`), a Jigsaw's layout, one region symbol per cell,
#: row-major, and a Killer's cages (each null for other variants).
VARIANT_FIELDS = [
    pa.field("variant", pa.string(), nullable=False),
    ("regions", pa.string()),
    ("cages", CAGES_TYPE),
]

#: Full solution grids (``pipeline generate``).
GRID_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("size", pa.int32()),
        ("box_rows", pa.int32()),
        ("box_cols", pa.int32()),
        *VARIANT_FIELDS,
        ("solution", pa.string()),
        ("seed", pa.int64()),
        ("section", pa.int32()),
        ("chunk", pa.int32()),
        ("created", _TIMESTAMP),
    ],
    metadata=METADATA,
)

#: Graded puzzles: the rows of ``puzzles.parquet``, chunk files and ``pipeline dig`` output.
PUZZLE_SCHEMA = pa.schema(
    [
        ("id", pa.string()),  # hash of box shape + canonical key
        ("size", pa.int32()),
        ("box_rows", pa.int32()),
        ("box_cols", pa.int32()),
        *VARIANT_FIELDS,
        ("givens", pa.string()),
        ("solution", pa.string()),
        ("canonical", pa.string()),  # canonical key of the givens (pipeline.variants)
        ("clues", pa.int32()),
        ("tier", pa.string()),
        ("score", pa.float64()),
        ("iterations", pa.int32()),
        ("hardest", pa.string()),
        ("techniques", pa.list_(_TECHNIQUE_COUNT)),  # steps per technique
        ("passes", pa.list_(pa.int16())),  # per cell: the logic pass that solved it, 0 = given
        ("symmetry", pa.string()),
        ("attempts", pa.int32()),  # digger attempts spent on the accepted puzzle
        ("seed", pa.int64()),  # run seed: with section, chunk and position, the provenance
        ("section", pa.int32()),
        ("chunk", pa.int32()),
        ("position", pa.int32()),  # index inside the chunk (a source section: the file's line)
        ("run_id", pa.string()),
        ("created", _TIMESTAMP),
    ],
    metadata=METADATA,
)

CATALOG_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("box_rows", pa.int32()),
        ("box_cols", pa.int32()),
        *VARIANT_FIELDS,
        ("canonical", pa.string()),
        ("tier", pa.string()),
        ("book", pa.string()),
        ("run_id", pa.string()),
    ],
    metadata=METADATA,
)

#: Columns that differ between two runs making the same puzzles.
TIMESTAMP_COLUMNS = ("created",)


class StoreError(UserError):
    """A store file cannot be written or read; the message names the path."""


def puzzle_id(box_rows: int, box_cols: int, canonical: str) -> str:
    """Stable id of a puzzle from its canonical key (:func:`pipeline.variants.canonical_keys`):
    equal for a puzzle and its disguises, transposes included. The shape is hashed as the
    form's (wide boxes: 3x2 hashes as 2x3), as tall boxes' forms are their wide transposes
    (:func:`engine.canon.form_geometry`). A classic key is the canonical text, as it was before
    variants, so classic ids never change; a variant's key starts with its name."""
    box_rows, box_cols = sorted((box_rows, box_cols))
    digest = hashlib.sha256(f"{box_rows}x{box_cols}:{canonical}".encode())
    return digest.hexdigest()[:ID_LENGTH]


def write_table(
    rows: Iterable[Mapping[str, Any]],
    path: Path,
    schema: pa.Schema,
    metadata: Mapping[bytes, str] | None = None,
) -> int:
    """Write rows atomically to Parquet with ``schema`` (and its metadata, plus ``metadata``);
    return the count."""
    path = Path(path)
    if metadata:
        schema = schema.with_metadata({**(schema.metadata or {}), **metadata})
    try:
        table = pa.Table.from_pylist(list(rows), schema=schema)
    except (pa.ArrowInvalid, pa.ArrowTypeError, KeyError) as exc:
        raise StoreError(f"{path}: rows do not fit the schema: {exc}") from None
    empty = [f.name for f in schema if not f.nullable and table.column(f.name).null_count]
    if empty:  # Arrow would refuse the write itself, naming no file
        raise StoreError(f"{path}: rows do not fit the schema: {empty[0]} is null in some rows")
    try:
        with atomic_path(path) as temporary:
            pq.write_table(table, temporary)
    except FormatError as exc:
        raise StoreError(str(exc)) from None
    except OSError as exc:
        raise StoreError(f"{path}: cannot write: {exc.strerror or exc}") from None
    return table.num_rows


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Every row of a Parquet file as dicts."""
    try:
        return pq.read_table(path).to_pylist()
    except (OSError, pa.ArrowException) as exc:
        raise StoreError(f"{path}: cannot read Parquet: {exc}") from None


# puzzles.parquet metadata: how many sections are the book's; the rows of later sections are a
# syndication pack's (pipeline.syndication), stored and cataloged with the book, never printed in it
BOOK_SECTIONS_KEY = b"sudoku.book_sections"


def read_metadata(path: Path) -> dict[str, str]:
    """The file's ``sudoku.*`` key/value metadata, keys without the prefix."""
    meta = pq.read_schema(path).metadata or {}
    prefix = b"sudoku."
    return {k[len(prefix) :].decode(): v.decode() for k, v in meta.items() if k.startswith(prefix)}


def write_json(data: Mapping[str, Any], path: Path) -> None:
    """Write JSON atomically (temporary file beside ``path``, then rename)."""
    write_text(json.dumps(data, indent=2, sort_keys=True, default=str) + "\n", path)


def write_text(text: str, path: Path) -> None:
    """Write a text file atomically."""
    path = Path(path)
    try:
        with atomic_path(path) as temporary:
            temporary.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise StoreError(f"{path}: cannot write: {exc.strerror or exc}") from None


def make_folder(path: Path) -> Path:
    """Create a folder (and parents); a permission or disk error names it, and so does a
    symbolic link in its place (files written there would land where the link points)."""
    if path.is_symlink():
        raise StoreError(f"{path}: is a symbolic link, not a folder; remove it and try again")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"{path}: cannot create folder: {exc.strerror or exc}") from None
    return path


@cache
def generator_build() -> str:
    """What makes the puzzles: the package version and a hash of the engine's sources, so a chunk
    made by an older or edited engine is told apart from this one's."""
    digest = hashlib.sha256()
    root = Path(engine.__file__).parent
    for source in sorted(root.rglob("*.py")):
        digest.update(str(source.relative_to(root)).encode() + b"\0" + source.read_bytes())
    return f"{GENERATOR_VERSION}+{digest.hexdigest()[:12]}"
