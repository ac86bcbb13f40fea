"""Opening a source: a path or ``-`` (stdin), gzip by its magic bytes, text by its byte-order mark.

Every source is opened once and read once: its first bytes (for sniffing) are replayed ahead of
the rest of the same stream, so pipes, process substitution (``/dev/fd/N``) and FIFOs lose
nothing. Bytes are pulled with ``read1`` (one read at a time), so a read that fails (a truncated
gzip) loses only what it could not read: every line before the break is still returned.

Every source is decoded here, line by line, so that one bad byte or one huge line spoils only
its own row: undecodable bytes survive as surrogates (``surrogateescape``) for the row to report,
and a line longer than :data:`MAX_LINE_CHARS` is read in bounded pieces, counted and flagged,
keeping memory flat whatever the input.
"""

from __future__ import annotations

import codecs
import gzip
import io
import os
import stat
import sys
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from pipeline.formats.rows import Candidate, FormatError

STDIN = "-"
STDIN_NAME = "<stdin>"
GZIP_MAGIC = b"\x1f\x8b"
GZIP_DEFLATE = 8  # the third header byte: the only compression method RFC 1952 defines
GZIP_RESERVED_FLAGS = 0xE0  # the fourth byte's reserved bits, zero in every gzip member
SNIFF_BYTES = 64 * 1024  # enough for the header and a few puzzles of any size
MAX_LINE_CHARS = 1 << 16  # a longer line is reported, not read: a 64x64 puzzle and its
# solution take 8,192 characters
CUT_SHOWN = 80  # characters of an over-long line kept as the row's raw text
READ_ERRORS = (OSError, EOFError, zlib.error, UnicodeError)

# byte-order marks and the codec that reads past them; UTF-8 without a mark is the default
_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


class Unreadable(Exception):
    """The bytes of a source stop making sense at ``line``: reported as a last, invalid row."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


#: (number, text, cut): the 1-based line number, the text without its line ending, and 0, or
#: for a line longer than MAX_LINE_CHARS its length, the text then being its first CUT_SHOWN
#: characters. A plain tuple: one is made per line of every file.
Line = tuple[int, str, int]


def too_long(number: int, text: str, length: int) -> Candidate:
    """The error row of a line over :data:`MAX_LINE_CHARS` characters (``text``: its start)."""
    reason = f"line {number} has {length} characters; a line may have {MAX_LINE_CHARS} at most"
    return Candidate(number, f"{text}…", None, {}, reason)


class _Replay(io.RawIOBase):
    """A stream that replays bytes already read (for sniffing), then the rest of ``tail`` one
    ``read1`` at a time; ``error``, raised while reading the head, is raised after the head."""

    def __init__(self, head: bytes, tail: BinaryIO, error: Exception | None) -> None:
        self._head = memoryview(head)
        self._tail = tail
        self._error = error

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._head:
            size = min(len(buffer), len(self._head))
            buffer[:size] = self._head[:size]
            self._head = self._head[size:]
            return size
        if self._error is not None:
            raise self._error
        data = self._tail.read1(len(buffer))  # type: ignore[attr-defined]
        buffer[: len(data)] = data
        return len(data)


@dataclass
class Source:
    """An opened source: its display name, suffixes, first bytes, and a stream of all its bytes."""

    name: str
    path: Path | None  # None for stdin
    suffix: str  # lower-case, without a trailing .gz: ".sdk", ".csv" ...
    compressed: bool
    head: bytes  # the first SNIFF_BYTES of the (decompressed) content
    stream: BinaryIO  # the whole (decompressed) content, head included

    @property
    def encoding(self) -> str:
        return next((codec for bom, codec in _BOMS if self.head.startswith(bom)), "utf-8")


@dataclass
class ReadMeter:
    """Bytes read so far from the named files of a run, for a progress bar when the row count is
    unknown; stdin and pipes count nothing."""

    done: int = 0  # bytes of the files already read to the end
    current: BinaryIO | None = None  # the file being read

    @property
    def bytes_read(self) -> int:
        return self.done + (self.current.tell() if self.current is not None else 0)


def is_regular(spec: str | Path) -> bool:
    """True for a regular file, which can be opened twice; stdin, pipes and FIFOs are read once."""
    return str(spec) != STDIN and stat.S_ISREG(os.stat(spec).st_mode)


def file_size(spec: str | Path) -> int | None:
    """Bytes of a regular file; None for stdin, pipes and devices."""
    if str(spec) == STDIN:
        return None
    found = os.stat(spec)
    return found.st_size if stat.S_ISREG(found.st_mode) else None


def display_name(spec: str | Path) -> str:
    return STDIN_NAME if str(spec) == STDIN else str(spec)


def check_path(spec: str | Path) -> None:
    """Raise :class:`FormatError` when a named file cannot be opened for reading."""
    if str(spec) == STDIN:
        return
    path = Path(spec)
    if not path.exists():
        raise FormatError(f"{spec}: no such file")
    if path.is_dir():  # pipes (``<(zcat ...)``) and devices are fine
        raise FormatError(f"{spec}: is a folder, not a file")


def _sniffed(stream: BinaryIO) -> tuple[bytes, BinaryIO]:
    """The first SNIFF_BYTES of ``stream`` (fewer if it ends or breaks first), and a stream of
    all of it: those bytes, then the rest (or the error that stopped the head)."""
    parts: list[bytes] = []
    size = 0
    error = None
    try:
        while size < SNIFF_BYTES and (part := stream.read1(SNIFF_BYTES - size)):  # type: ignore[attr-defined]
            parts.append(part)
            size += len(part)
    except READ_ERRORS as exc:
        error = exc
    head = b"".join(parts)
    return head, io.BufferedReader(_Replay(head, stream, error))


@contextmanager
def open_source(spec: str | Path, meter: ReadMeter | None = None) -> Iterator[Source]:
    """Open a path or ``-`` as a :class:`Source`, decompressing gzip (recognised by its magic);
    ``meter`` follows the bytes read from a named file."""
    check_path(spec)
    name = display_name(spec)
    path = None if str(spec) == STDIN else Path(spec)
    try:
        handle = sys.stdin.buffer if path is None else path.open("rb")
    except OSError as exc:
        raise FormatError(f"{name}: cannot open: {exc.strerror or exc}") from None
    suffixes = [s.lower() for s in path.suffixes] if path else []
    if suffixes and suffixes[-1] == ".gz":
        suffixes.pop()
    metered = meter if path is not None and handle.seekable() else None  # pipes cannot tell()
    if metered is not None:
        metered.current = handle
    try:
        head, stream = _sniffed(handle)
        compressed = _gzip_header(head)
        if compressed:
            head, stream = _sniffed(gzip.GzipFile(fileobj=stream, mode="rb"))
        yield Source(name, path, suffixes[-1] if suffixes else "", compressed, head, stream)
    finally:
        if path is not None:
            if metered is not None:
                metered.done += os.fstat(handle.fileno()).st_size
                metered.current = None
            handle.close()


def _gzip_header(head: bytes) -> bool:
    """Whether the source starts as gzip does: its magic, then (when the source goes on) the
    deflate method and no reserved flag. Text whose first line merely starts with the two magic
    bytes stays text; a gzip file cut inside its header still reads as a broken gzip."""
    if not head.startswith(GZIP_MAGIC):
        return False
    return len(head) < 4 or (head[2] == GZIP_DEFLATE and not head[3] & GZIP_RESERVED_FLAGS)


def text_lines(source: Source) -> Iterator[Line]:
    """Decoded lines with 1-based numbers; raises :class:`Unreadable` if the bytes stop reading.

    Universal newlines (``\\n``, ``\\r\\n``, ``\\r``); undecodable bytes become surrogates
    (see :func:`pipeline.formats.rows.undecodable`).
    """
    errors = "surrogateescape" if source.encoding.startswith("utf-8") else "replace"
    text = io.TextIOWrapper(source.stream, encoding=source.encoding, errors=errors, newline=None)
    number = 0
    try:
        while line := text.readline(MAX_LINE_CHARS + 1):
            number += 1
            if line[-1] == "\n":
                yield number, line[:-1], 0
                continue
            if len(line) <= MAX_LINE_CHARS:  # the last line, without a line ending
                yield number, line, 0
                continue
            shown, length, rest = line[:CUT_SHOWN], len(line), line
            while rest and rest[-1] != "\n":  # count the rest of an over-long line, piece by piece
                rest = text.readline(MAX_LINE_CHARS)
                length += len(rest)
            yield number, shown, length - (1 if rest else 0)
    except READ_ERRORS as exc:
        raise Unreadable(number + 1, f"cannot read past line {number}: {exc}") from None
    finally:
        text.detach()
