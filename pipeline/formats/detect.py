"""Which reader a source needs: from ``--format``, else its suffix, else a look at its first lines.

Format names: ``lines`` (one puzzle per line), ``sdk``/``ss``/``grid`` (grids written over
several lines; one reader serves the three), ``csv``/``tsv`` (a header row names the columns) and
``parquet``. A ``.csv``/``.tsv`` file without a header is read as ``lines``, since that reader
splits fields on commas and tabs too. A first line of names is a header only when the next line
has as many fields (a free-text title line holding a ``;`` is not one). A line that begins with
a variant tag (``x: <puzzle>``, ``jigsaw: <layout> <puzzle>``, ``killer: <cage map> <totals>``)
is a puzzle line.
"""

from __future__ import annotations

import csv
import math
import re

from engine.geometry import MAX_SIZE, MIN_SIZE, SYMBOLS
from pipeline.formats.blocks import is_separator, row_cells
from pipeline.formats.rows import EXTRA_BLANKS, FormatError
from pipeline.formats.tags import names_killer, split_tag

LINES, SDK, SS, GRID, CSV, TSV, PARQUET = "lines", "sdk", "ss", "grid", "csv", "tsv", "parquet"
FORMATS = (LINES, SDK, SS, GRID, CSV, TSV, PARQUET)
GRID_FORMATS = (SDK, SS, GRID)
TABLE_FORMATS = (CSV, TSV, PARQUET)
PARQUET_MAGIC = b"PAR1"

SUFFIXES = {
    ".sdk": SDK,
    ".ss": SS,
    ".csv": CSV,
    ".tsv": TSV,
    ".tab": TSV,
    ".parquet": PARQUET,
    ".pq": PARQUET,
}
DELIMITERS = {CSV: ",", TSV: "\t"}

PUZZLE_CHARS = frozenset(SYMBOLS + SYMBOLS.lower() + ".0" + EXTRA_BLANKS)
FIELD_SEPARATORS = re.compile(r"[\s,;:|]+")
_HEADER_NAME = re.compile(r"[A-Za-z_][\w .()/-]*")
_SNIFF_LINES = 200
_SNIFF_ROWS = 20  # content lines whose first field may show a one-line puzzle


def check_format(fmt: str | None) -> str | None:
    """The format name, lower-cased; :class:`FormatError` for a name no reader has."""
    if fmt is None:
        return None
    name = fmt.lower()
    if name not in FORMATS:
        raise FormatError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return name


def is_puzzle_like(field: str) -> bool:
    """A field that could be a whole puzzle on one line: n*n puzzle characters, 4 <= n <= 64."""
    n = math.isqrt(len(field))
    return n * n == len(field) and MIN_SIZE <= n <= MAX_SIZE and PUZZLE_CHARS.issuperset(field)


def content_lines(text: str) -> list[str]:
    """The stripped lines worth looking at: not blank, not ``#`` comments."""
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def header_delimiter(line: str, suffix_format: str | None) -> str | None:
    """The delimiter if ``line`` is a table header (names, no puzzle), else None."""
    delimiter = DELIMITERS.get(suffix_format or "")
    if delimiter is None:
        delimiter = next((d for d in ("\t", ",", ";") if d in line), None)
        if delimiter is None:
            return None
    try:
        names = next(csv.reader([line], delimiter=delimiter), [])
    except csv.Error:
        return None
    if not names or any(is_puzzle_like(name.strip()) for name in names):
        return None
    return delimiter if all(_HEADER_NAME.fullmatch(name.strip()) for name in names) else None


def _field_count(line: str, delimiter: str) -> int:
    try:
        return len(next(csv.reader([line], delimiter=delimiter), []))
    except csv.Error:
        return 0


def _heads_table(content: list[str], delimiter: str, suffix_format: str | None) -> bool:
    """True when the header line's fields line up with the next line's, so a free-text first
    line that happens to hold a ``;`` or ``,`` does not make a text file a table. A header with
    no line after it heads a table only in a ``.csv``/``.tsv`` file."""
    if len(content) < 2:
        return suffix_format in (CSV, TSV)
    return _field_count(content[0], delimiter) == _field_count(content[1], delimiter)


def _grid_run(lines: list[str], first: str) -> bool:
    """True when ``first`` opens exactly len(first) rows of that width, then a blank line or end.

    Tells a 16x16 grid (16 rows of 16) from a file of 4x4 puzzles, one per line.
    """
    width = len(first)
    run = 0
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            if run:
                break
            continue
        if len(stripped) != width:
            break
        run += 1
    return run == width


def sniff(head: bytes, suffix: str, complete: bool, encoding: str = "utf-8") -> str:
    """Guess the format from a source's first bytes and its suffix (``complete``: head is all)."""
    if head.startswith(PARQUET_MAGIC):
        return PARQUET
    by_suffix = SUFFIXES.get(suffix)
    if by_suffix in (SDK, SS, PARQUET):
        return by_suffix
    text = head.decode(encoding, errors="replace")
    raw_lines = text.splitlines()
    if not complete:
        raw_lines = raw_lines[:-1]  # the last line may be cut
    raw_lines = raw_lines[:_SNIFF_LINES]
    content = content_lines("\n".join(raw_lines))
    if not content:
        return by_suffix or LINES
    first = content[0]
    delimiter = header_delimiter(first, by_suffix)
    if delimiter is not None and _heads_table(content, delimiter, by_suffix):
        return TSV if delimiter == "\t" else CSV
    if by_suffix in (CSV, TSV):
        return LINES
    rulings = (is_separator(line) and not is_puzzle_like(line) for line in content[: MAX_SIZE + 2])
    if any(rulings):
        return GRID
    fields = [field for line in content[:_SNIFF_ROWS] for field in _leading_fields(line)]
    killers = any(
        names_killer(tag) for line in content[:_SNIFF_ROWS] if (tag := split_tag(line)[0])
    )
    if (killers or any(map(is_puzzle_like, fields))) and not _grid_run(raw_lines, first):
        return LINES
    return GRID if _opens_grid(content) else LINES


def _leading_fields(line: str) -> list[str]:
    """The fields of a line that may hold its puzzle: the first, or after a variant tag the
    first two (a Jigsaw's layout, then its puzzle)."""
    tag, rest = split_tag(line)
    return FIELD_SEPARATORS.split(rest, maxsplit=2)[: 1 if tag is None else 2]


def _opens_grid(content: list[str]) -> bool:
    """True when the first content line and those after it look like the rows of one grid."""
    width = len(row_cells(content[0]))
    rows = content[:width]
    return MIN_SIZE <= width <= MAX_SIZE and all(len(row_cells(row)) == width for row in rows)
