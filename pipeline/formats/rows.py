"""What the readers hand on: one :class:`InputRow` per puzzle-like row, and the errors they raise.

Readers first produce a :class:`Candidate` (the text they found, not yet checked); ``validate``
turns a batch of candidates into rows. Keeping the two apart lets every format share one
vectorised check, and lets a reader report a structural fault (a grid with a missing row, an
undecodable byte) in the same ``reason`` field the engine's own messages use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engine.cages import Cage
from engine.geometry import CLASSIC
from pipeline.errors import UserError

#: Blank markers accepted on input besides the engine's own ``.`` and ``0``.
EXTRA_BLANKS = "_-*"
#: Longest ``raw`` text kept on a row; a 64x64 puzzle and its solution still fit whole.
RAW_LIMIT = 10_000


class FormatError(UserError):
    """A source cannot be read at all: missing file, unknown format, missing column, bad box."""


class Candidate(NamedTuple):
    """A puzzle-like row as a reader found it, before normalisation and validation."""

    line: int  # 1-based line of the row's first line (Parquet: row index + 1)
    raw: str  # the text as read (a grid: its lines joined with newlines)
    text: str | None  # the puzzle's symbols, any blank markers; None when the reader gave up
    extra: dict[str, Any]
    reason: str | None = None  # set when the reader already knows the row is bad
    variant: str | None = None  # as the row names it (a line's tag, a column); None: not named
    regions: str | None = None  # a Jigsaw's layout as the row gives it
    cages: Any = None  # a Killer's cages as the row gives them (pipeline.formats.killer.raw_cages)


@dataclass(frozen=True, slots=True)
class InputRow:
    """One puzzle-like row of an input file, valid or not.

    ``reason`` is None exactly when the puzzle is well formed (right length, known symbols, a
    known variant, a Jigsaw's layout n connected regions of n cells, no two equal givens in a
    unit of its variant). ``puzzle`` is the normalised engine text (blanks ``.``, upper-case
    symbols) whenever the row could be read as a grid, so also for clashing givens; ``box`` is
    its box shape whenever the length fixes one; ``variant`` its variant in its one spelling
    (None when the row names one that does not exist), ``regions`` a Jigsaw's layout (upper-case
    region symbols), ``cages`` a Killer's cages as :func:`engine.cages.checked_cages` gives them.
    """

    source: str
    line: int
    raw: str
    puzzle: str | None
    box: tuple[int, int] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None
    variant: str | None = CLASSIC
    regions: str | None = None
    cages: tuple[Cage, ...] | None = None

    @property
    def ok(self) -> bool:
        """True when the puzzle is well formed and can be handed to the engine."""
        return self.reason is None


def clean_text(text: str) -> str:
    """Text safe to store: undecodable bytes (kept as surrogates) become ``\\xNN`` escapes."""
    if text.isascii():
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def clip(text: str) -> str:
    """``clean_text`` cut to :data:`RAW_LIMIT` characters, saying how much was left out."""
    if len(text) <= RAW_LIMIT and text.isascii():
        return text
    text = clean_text(text)
    if len(text) <= RAW_LIMIT:
        return text
    return f"{text[:RAW_LIMIT]}… ({len(text) - RAW_LIMIT} more characters)"


def undecodable(text: str, column: int = 1) -> str | None:
    """Describe the first byte that was not UTF-8 (decoded as a surrogate), or None.

    ``column`` is the 1-based column of ``text`` in its line, so the message points into the line.
    """
    if text.isascii():
        return None
    for index, char in enumerate(text):
        if "\udc80" <= char <= "\udcff":
            return (
                f"undecodable byte 0x{ord(char) - 0xDC00:02X} at column {column + index} "
                "(the file is not UTF-8 text)"
            )
    return None
