"""Generated input files and recipes for fuzzing, each with what reading it must give.

An input is built from a model (puzzle lines, grids, CSV/TSV tables, Parquet tables, or garbage
bytes), then damaged the ways files are: other encodings and line endings, blank and comment
lines, gzip, truncation. The model knows which lines hold a row, so the check can demand each
of them exactly once (ok or an error row), in order; where the damage makes that unknowable
(a cut in the middle of a grid, random bytes read as grids), it demands that no line is
reported twice and every row is ok or says why. ``bench/fuzz_inputs.py`` runs 100,000 of them,
``tests/pipeline/test_inputs_fuzz.py`` a few thousand.
"""

from __future__ import annotations

import gzip
import io
import math
import re
import tempfile
import zlib
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from random import Random

import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import strategies as st

import engine
from pipeline.formats import InputRow, read_puzzles
from pipeline.formats.tables import headerless
from pipeline.recipe import RecipeError, load_recipe, with_overrides

NEWLINE = re.compile(r"\r\n|\r|\n")  # the readers' universal newlines
SOLUTIONS = {n: engine.random_grid(n, seed=n) for n in (4, 6, 9)}
CELL_CHARS = "123456789.0_-*ABCxé"  # symbols, blank markers, and a few that are not
JUNK_CHARS = " \t,;:|#\"'\x00\x0b\x1c\u2028é\udcff"


@dataclass(frozen=True)
class Input:
    """A generated file: its bytes, name, the format to force (None: sniff) and, when the model
    knows it, the line of every row in order (None: only the general checks apply)."""

    data: bytes
    name: str
    fmt: str | None
    lines: tuple[int, ...] | None


def _puzzle(rng: Random) -> str:
    """A puzzle-like text: a real grid with cells blanked, maybe damaged."""
    n = rng.choice(sorted(SOLUTIONS))
    cells = list(SOLUTIONS[n])
    for index in rng.sample(range(n * n), rng.randint(0, n * n)):
        cells[index] = "."
    text = "".join(cells)
    where = rng.randint(0, len(text))
    junk = "".join(rng.choices(CELL_CHARS + JUNK_CHARS, k=rng.randint(1, 4)))
    return rng.choice([text, text, text[:where], text[:where] + junk + text[where:], junk])


def _content(text: str) -> bool:
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith("#")


Model = tuple[list[str], str, tuple[int, ...] | None]  # lines, format, 0-based grid starts


def line_file(rng: Random) -> Model:
    """Lines of one puzzle each (with extra fields), blank and comment lines between."""
    lines = []
    for _ in range(rng.randint(0, 30)):
        if rng.random() < 0.1:
            lines.append(rng.choice(["", "   ", "# a comment", "#", "\t"]))
        else:
            extra = rng.choice(["", " 3.4", ",7", ":1:x", "\tnote here", " | x"])
            lines.append(_puzzle(rng) + extra)
    return lines, "lines", None


def grid_file(rng: Random) -> Model:
    """Whole grids, one row of cells a line, with rulings, blank and comment lines."""
    lines: list[str] = []
    starts = []
    for _ in range(rng.randint(0, 6)):
        n = rng.choice(sorted(SOLUTIONS))
        blanks = set(rng.sample(range(n * n), rng.randint(0, n * n)))
        cells = ["." if i in blanks else c for i, c in enumerate(SOLUTIONS[n])]
        lines.append(rng.choice(["", "# grid", "#Aan author"]))
        starts.append(len(lines))
        for row in range(n):
            lines.append("".join(cells[row * n : (row + 1) * n]))
            if n == 9 and row in (2, 5) and rng.random() < 0.5:
                lines.append("------+-------+------")
        lines.append("")
    return lines, "grid", tuple(starts)


def table_file(rng: Random) -> Model:
    """A CSV or TSV table: a header (or none), one row a line, blank and comment lines."""
    fmt = rng.choice(["csv", "tsv"])
    delimiter = "," if fmt == "csv" else "\t"
    header = rng.choice([["puzzle"], ["id", "quizzes", "solutions"], ["givens", "n"]])
    lines = [] if rng.random() < 0.2 else [delimiter.join(header)]  # headerless
    for _ in range(rng.randint(0, 20)):
        if rng.random() < 0.1:
            lines.append(rng.choice(["", "# c"]))
            continue
        fields = [_puzzle(rng).replace(delimiter, "").replace('"', "") for _ in header]
        lines.append(delimiter.join(fields))
    return lines, fmt, None


MODELS = (line_file, grid_file, table_file)
seeds = st.integers(0, 2**32 - 1)


def _encode(text: str, encoding: str) -> bytes:
    if encoding == "latin-1":
        return text.encode("latin-1", "replace")
    return text.encode(encoding, "surrogateescape" if encoding == "utf-8" else "replace")


def _decode(data: bytes) -> str:
    """The text as the readers decode it (byte-order mark, else UTF-8 keeping bad bytes)."""
    for bom, codec in (
        (b"\xef\xbb\xbf", "utf-8-sig"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if data.startswith(bom):
            return data.decode(codec, "replace")
    return data.decode("utf-8", "surrogateescape")


def content_lines(text: str) -> tuple[int, ...]:
    """Numbers of the lines that hold a row: neither blank nor a ``#`` comment."""
    return tuple(i + 1 for i, line in enumerate(NEWLINE.split(text)) if _content(line))


@st.composite
def text_inputs(draw: st.DrawFn) -> Input:
    """A text model in some encoding and line ending, maybe cut, maybe gzipped (and cut)."""
    model = draw(st.sampled_from(MODELS))
    lines, fmt, starts = model(Random(draw(seeds)))
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "utf-16", "latin-1"]))
    data = _encode(ending.join(lines) + draw(st.sampled_from(["", ending])), encoding)
    zipped, cut = draw(st.booleans()), draw(st.none() | st.integers(0, len(data)))
    if cut is not None and not zipped:
        data = data[:cut]
    expected = None
    if fmt == "grid" and cut is None:
        expected = tuple(start + 1 for start in starts or ())
    elif fmt != "grid" and not (encoding == "utf-16" and cut is not None):
        expected = _expected(fmt, _decode(data))
    if zipped:
        data = gzip.compress(data, mtime=0)
        if cut is not None:
            data = data[: max(cut, 1)]
            expected = None  # where the gzip breaks: see check_cut_gzip
    forced = draw(st.booleans())
    suffix = {"csv": ".csv", "tsv": ".tsv"}.get(fmt, ".txt") + (".gz" if zipped else "")
    return Input(data, f"input{suffix}", fmt if forced else None, expected if forced else None)


def _expected(fmt: str, text: str) -> tuple[int, ...]:
    """The row lines a read of ``text`` forced to ``fmt`` (lines, csv, tsv) must give."""
    found = content_lines(text)
    if fmt == "lines" or not found:
        return found
    first = NEWLINE.split(text)[found[0] - 1].strip()
    delimiter = "," if fmt == "csv" else "\t"
    return found if headerless(first.split(delimiter)) is not None else found[1:]


@st.composite
def parquet_inputs(draw: st.DrawFn) -> Input:
    """A Parquet table of puzzle text (nulls and junk too), maybe gzipped or cut."""
    rng = Random(draw(seeds))
    count = rng.randint(0, 25)
    puzzles = [
        None if rng.random() < 0.1 else _puzzle(rng).encode("utf-8", "replace").decode()
        for _ in range(count)
    ]
    table = pa.table({"puzzle": pa.array(puzzles, pa.string()), "n": list(range(count))})
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    data = buffer.getvalue()
    cut = draw(st.none() | st.integers(0, len(data)))
    lines = tuple(range(1, count + 1)) if cut is None else None
    data = data if cut is None else data[:cut]
    if draw(st.booleans()):
        data = gzip.compress(data, mtime=0)
    return Input(data, "input.parquet", draw(st.sampled_from([None, "parquet"])), lines)


@st.composite
def garbage_inputs(draw: st.DrawFn) -> Input:
    """Random bytes, or bytes that start like a known format and go wrong."""
    start = draw(
        st.sampled_from([b"", b"PAR1", b"\x1f\x8b", b"\xef\xbb\xbf", b"\xff\xfe", b"a,b\n"])
    )
    rng = Random(draw(seeds))
    alphabet = rng.choice([bytes(range(256)), b"123456789.\n\r ,#-|", b"\n\r\t "])
    data = start + bytes(rng.choices(alphabet, k=rng.randint(0, 2000)))
    fmt = draw(st.sampled_from([None, "lines", "sdk", "grid", "csv", "tsv", "parquet"]))
    name = draw(st.sampled_from(["x.txt", "x.sdk", "x.ss", "x.csv", "x.tsv", "x.parquet", "x.gz"]))
    plain = fmt == "lines" and not data.startswith((b"\x1f\x8b", b"\xff\xfe", b"\xfe\xff"))
    return Input(data, name, fmt, content_lines(_decode(data)) if plain else None)


inputs = st.one_of(text_inputs(), text_inputs(), parquet_inputs(), garbage_inputs())


def scratch_folder() -> Path:
    """A fresh folder for the generated files, in memory (/dev/shm) where there is one."""
    memory = Path("/dev/shm")
    return Path(tempfile.mkdtemp(prefix="inputs-fuzz-", dir=memory if memory.is_dir() else None))


def read_input(folder: Path, found: Input) -> list[InputRow]:
    """Write ``found`` to ``folder`` and read it as the commands do; FormatError is allowed only
    where an argument cannot fit the file (a forced table format with no column found)."""
    path = folder / found.name
    path.write_bytes(found.data)
    return [row for chunk in read_puzzles([path], fmt=found.fmt, chunk_size=7) for row in chunk]


def check_rows(found: Input, rows: list[InputRow]) -> None:
    """No line reported twice, rows in order, each ok (and then the engine's own text) or with a
    reason that can be stored; exactly the model's lines when it knows them."""
    lines = [row.line for row in rows]
    assert all(b > a for a, b in pairwise(lines)), lines
    for row in rows:
        assert row.line >= 1
        row.raw.encode("utf-8")
        if row.ok:
            assert row.puzzle == engine.parse(row.puzzle, row.box).to_text()
        else:
            assert isinstance(row.reason, str) and row.reason
            row.reason.encode("utf-8")
    if found.lines is not None:
        assert tuple(lines) == found.lines, (lines, found.lines)
    if found.name.endswith(".gz") and found.fmt == "lines":
        check_cut_gzip(found, rows)


def check_cut_gzip(found: Input, rows: list[InputRow]) -> None:
    """A cut gzip read as lines gives the content lines zlib can read, then one error row."""
    try:
        readable = zlib.decompressobj(wbits=31).decompress(found.data)
    except zlib.error:
        return  # the header itself is broken: one error row, checked above
    if not rows or rows[-1].ok or "cannot read past line" not in (rows[-1].reason or ""):
        return  # the file was whole
    text = _decode(readable)
    complete = len(NEWLINE.split(text)) - 1
    stop = rows[-1].line
    assert complete <= stop <= complete + 1, (complete, stop)  # a final \r may wait for a \n
    assert tuple(row.line for row in rows[:-1]) == tuple(
        line for line in content_lines(text) if line < stop
    )


# ---- recipes ----

KEYS = ("title", "author", "seed", "timezone", "output", "colour", "n_jobs", "tiers")
BAND_KEYS = ("score", "iterations", "clues", "hardest", "needs", "level")
SECTION_KEYS = ("tier", "count", "size", "box", "symmetry", "minimal", "layout", "order")
scalars = st.one_of(
    st.integers(-(2**64), 2**64),
    st.sampled_from([0, 1, 9, 2**63 - 1, 2**63, -1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=12),
    st.sampled_from(["easy", "hard", "3x3", "2x3", "rotate180", "x_wing", "naked_single", "UTC"]),
)
values = st.one_of(scalars, st.lists(scalars, max_size=3))


def toml_value(value: object) -> str:
    """A value as TOML writes it (nan and inf included)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        escaped = value.encode("unicode_escape").decode("ascii").replace('"', '\\"')
        return f'"{escaped}"'
    return "[" + ", ".join(toml_value(item) for item in value) + "]"  # type: ignore[attr-defined]


@st.composite
def recipes(draw: st.DrawFn) -> str:
    """TOML text of a recipe: usual and unknown keys, random values, bands and sections."""
    lines = ['title = "Fuzz"'] if draw(st.integers(0, 5)) else []
    if draw(st.booleans()):  # a valid recipe, then a few keys set at random
        lines += ["seed = 1", "[[sections]]", 'tier = "easy"', "count = 1"]
        for key in draw(st.lists(st.sampled_from(SECTION_KEYS), unique=True, max_size=2)):
            lines.append(f"{key} = {toml_value(draw(values))}")
        return "\n".join(lines) + "\n"
    for key in draw(st.lists(st.sampled_from(KEYS[1:6]), unique=True)):
        lines.append(f"{key} = {toml_value(draw(values))}")
    for name in draw(st.lists(st.sampled_from(["x", "easy", "Bad Name"]), unique=True, max_size=2)):
        lines.append(f'[tiers."{name}"]')
        for key in draw(st.lists(st.sampled_from(BAND_KEYS), unique=True, max_size=3)):
            band = st.lists(
                st.floats(allow_nan=True) | st.integers(-5, 100), min_size=2, max_size=2
            )
            lines.append(f"{key} = {toml_value(draw(band | values))}")
    for _ in range(draw(st.integers(0, 2))):
        lines.append("[[sections]]")
        tier = draw(st.sampled_from(["easy", "x", "hard", "nope"]))
        lines.append(f'tier = "{tier}"')
        lines.append(f"count = {toml_value(draw(st.sampled_from([1, 0, 5, 'a'])))}")
        for key in draw(st.lists(st.sampled_from(SECTION_KEYS[2:]), unique=True, max_size=2)):
            lines.append(f"{key} = {toml_value(draw(values))}")
    text = "\n".join(lines) + "\n"
    if draw(st.integers(0, 9)) == 0:  # damaged bytes: cut, or a stray character
        where = draw(st.integers(0, len(text)))
        text = text[:where] + draw(st.sampled_from(["", "=", "[", '"', "\udcff"])) + text[where:]
    return text


def load_fuzzed_recipe(folder: Path, text: str, seed: int | None) -> str:
    """Load the recipe (and a --seed override): 'ok' or 'error'; any exception but
    RecipeError fails the caller."""
    path = folder / "fuzz.toml"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    try:
        recipe = load_recipe(path)
        with_overrides(recipe, seed=seed)
    except RecipeError as exc:
        assert str(exc).startswith(str(path)), exc
        return "error"
    return "ok"
