"""Grids written over several lines: SadMan ``.sdk``, Simple Sudoku ``.ss``, blank-line grids.

One reader serves all three. A grid is n rows of n cells; the first row's width sets n, so
grids follow one another with or without blank lines between them. A row is either its
characters (``|`` and spaces ignored: ``2..|1.5|..3``) or, for big grids, numbers separated by
spaces (``10 3 . 16``). Ruling lines (``---+---``), ``[Puzzle]`` section lines and ``#`` lines are
skipped; SadMan's ``#A``, ``#D`` ... metadata lines go into the next grid's ``extra``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.geometry import MAX_SIZE, MIN_SIZE, SYMBOLS
from pipeline.formats.rows import EXTRA_BLANKS, Candidate, clean_text, undecodable
from pipeline.formats.sources import Line, too_long

#: SadMan / SudoCue metadata tags (``#Aauthor`` ...) and the ``extra`` keys they fill.
SDK_TAGS = {
    "A": "author",
    "D": "description",
    "C": "comment",
    "B": "date",
    "S": "source",
    "L": "level",
    "U": "url",
}
_NUMBER_BLANKS = frozenset(EXTRA_BLANKS + ".0")


def is_separator(line: str) -> bool:
    """A ruling line between boxes (``-----``, ``|---+---|``, ``*-----*``, ``=====``)."""
    return bool(line) and not line.strip("-+*=| ") and ("-" in line or "=" in line)


def _number_cell(token: str) -> str | None:
    """The symbol a space-separated token stands for (``10`` -> ``A``), or None if not a number."""
    if token in _NUMBER_BLANKS:
        return "."
    if token.isdigit() and token.isascii():
        value = int(token)
        return "." if value == 0 else SYMBOLS[value - 1] if value <= MAX_SIZE else None
    return None


def row_cells(line: str) -> list[str]:
    """The cells of one grid row, as single symbols."""
    tokens = line.replace("|", " ").split()
    if len(tokens) >= MIN_SIZE and any(len(token) > 1 for token in tokens):
        numbers = [_number_cell(token) for token in tokens]
        if None not in numbers:
            return numbers  # type: ignore[return-value]
    return list("".join(tokens))


class _Grid:
    """The rows of the grid being read, and the metadata lines that came before it."""

    def __init__(self) -> None:
        self.rows: list[tuple[int, str, list[str]]] = []  # (line number, text, cells)
        self.extra: dict[str, str] = {}

    def fault(self) -> str | None:
        """Why the rows read so far are not a whole grid, or None."""
        width = len(self.rows[0][2])
        for number, row, cells in self.rows:
            if bad := undecodable(row):
                return f"line {number}: {bad}"
            if len(cells) != width:
                return f"line {number} has {len(cells)} cells; the grid's first row has {width}"
        if len(self.rows) < width:
            return (
                f"grid stops after {len(self.rows)} rows at line {self.rows[-1][0]}; "
                f"a grid whose first row has {width} cells needs {width} rows"
            )
        return None

    def candidate(self) -> Candidate:
        """The grid read so far as a candidate; starts a new grid."""
        reason = self.fault()
        raw = "\n".join(text for _, text, _ in self.rows)
        text = None if reason else "".join("".join(cells) for _, _, cells in self.rows)
        found = Candidate(self.rows[0][0], raw, text, self.extra, reason)
        self.rows, self.extra = [], {}
        return found


def read_grids(lines: Iterable[Line]) -> Iterator[Candidate]:
    """One candidate per grid, at the line of its first row."""
    grid = _Grid()
    for number, line, cut in lines:
        text = line.strip()
        if not text or text.startswith("#") or (text[0] == "[" and text[-1] == "]"):
            if not text and grid.rows:  # a blank line ends an unfinished grid
                yield grid.candidate()
            if text.startswith("#") and len(text) > 1 and text[1] in SDK_TAGS:
                grid.extra[SDK_TAGS[text[1]]] = clean_text(text[2:].strip())
            continue
        width = len(grid.rows[0][2]) if grid.rows else 0
        if is_separator(text) and not (text.strip("-") == "" and len(text) == width):
            continue  # a row of '-' blanks as wide as the grid is a row, not a ruling
        if cut:
            if grid.rows:
                yield grid.candidate()
            yield too_long(number, text, cut)
            continue
        cells = row_cells(text)
        if not grid.rows and not MIN_SIZE <= len(cells) <= MAX_SIZE:
            reason = f"a grid row has {MIN_SIZE} to {MAX_SIZE} cells, this line has {len(cells)}"
            yield Candidate(number, text, None, {}, reason)
            continue
        grid.rows.append((number, text, cells))
        if len(grid.rows) == len(grid.rows[0][2]):
            yield grid.candidate()
    if grid.rows:
        yield grid.candidate()
