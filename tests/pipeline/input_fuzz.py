"""Generated input files and recipes for fuzzing, each with what reading it must give.

An input is built from a model (puzzle lines, grids, CSV/TSV tables, Parquet tables, or garbage
bytes), then damaged the ways files are: other encodings and line endings, blank and comment
lines, lines over the readers' limit, gzip, truncation. The model knows which lines hold a row,
so the check can demand each of them exactly once (ok or an error row), in order; where the
damage makes that unknowable (a cut in the middle of a grid, random bytes read as grids), it
demands that no line is reported twice and every row is ok or says why.

Each input and recipe is built in plain Python from one :class:`random.Random`, and hypothesis
draws its seed: one an example in ``tests/pipeline/test_inputs_fuzz.py`` (a failure shrinks to
a seed that rebuilds it), a batch an example in ``bench/fuzz_inputs.py``, which runs 100,000.
Drawing every choice through composite strategies cost 4 ms an input and 7 ms a recipe in
hypothesis's own bookkeeping, more than reading the file; built from a seed, 0.3 ms. Cuts and
numbers favour the edges (empty, one byte, one short; 0, 2**63, nan) as hypothesis's draws do.
"""

from __future__ import annotations

import gzip
import io
import math
import re
import struct
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
from pipeline.formats.sources import MAX_LINE_CHARS
from pipeline.formats.tables import headerless
from pipeline.recipe import RecipeError, load_recipe, with_overrides
from pipeline.recipe_schema import MAX_SEED

NEWLINE = re.compile(r"\r\n|\r|\n")  # the readers' universal newlines
SOLUTIONS = {n: engine.random_grid(n, seed=n) for n in (4, 6, 9)}
CELL_CHARS = "123456789.0_-*ABCxé"  # symbols, blank markers, and a few that are not
JUNK_CHARS = " \t,;:|#\"'\x00\x0b\x1c\u2028é\udcff"
seeds = st.integers(0, 2**64 - 1)


@dataclass(frozen=True)
class Input:
    """A generated file: its bytes, name, the format to force (None: sniff) and, when the model
    knows it, the line of every row in order (None: only the general checks apply);
    ``no_puzzle_column`` when it is a table whose puzzle column holds no text, which a reader
    must refuse with a :class:`pipeline.formats.FormatError` naming the file."""

    data: bytes
    name: str
    fmt: str | None
    lines: tuple[int, ...] | None
    no_puzzle_column: bool = False

    @property
    def may_be_refused(self) -> bool:
        """Whether a FormatError is a right answer: a forced table format whose head has no
        usable column, or a table whose puzzle column holds no text."""
        return self.fmt in ("csv", "tsv", "parquet") or self.no_puzzle_column


def _edge(rng: Random, low: int, high: int) -> int:
    """An integer in [low, high], at or next to an end one time in ten."""
    if rng.random() < 0.1:
        return min(max(rng.choice([low, low + 1, high - 1, high]), low), high)
    return rng.randint(low, high)


def _cut(rng: Random, length: int) -> int | None:
    """Where to cut ``length`` bytes: None (whole) half the time."""
    return None if rng.random() < 0.5 else _edge(rng, 0, length)


def _puzzle(rng: Random) -> str:
    """A puzzle-like text: a real grid with cells blanked, maybe damaged; rarely a line over
    the readers' limit (just over, or at it)."""
    n = rng.choice(sorted(SOLUTIONS))
    cells = list(SOLUTIONS[n])
    for index in rng.sample(range(n * n), rng.randint(0, n * n)):
        cells[index] = "."
    text = "".join(cells)
    where = rng.randint(0, len(text))
    junk = "".join(rng.choices(CELL_CHARS + JUNK_CHARS, k=rng.randint(1, 4)))
    if rng.random() < 0.002:
        return (text * (MAX_LINE_CHARS // len(text) + 1))[: MAX_LINE_CHARS + rng.randint(-1, 2)]
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


def _expected(fmt: str, text: str) -> tuple[int, ...]:
    """The row lines a read of ``text`` forced to ``fmt`` (lines, csv, tsv) must give: a table's
    first content line not over the length limit is its header unless it holds a puzzle."""
    found = content_lines(text)
    if fmt == "lines":
        return found
    lines = NEWLINE.split(text)
    delimiter = "," if fmt == "csv" else "\t"
    for place, number in enumerate(found):
        first = lines[number - 1]
        if len(first) <= MAX_LINE_CHARS:
            if headerless(first.strip().split(delimiter)) is not None:
                return found
            return found[:place] + found[place + 1 :]
    return found


MODELS = (line_file, grid_file, table_file)


def text_input(rng: Random) -> Input:
    """A text model in some encoding and line ending, maybe cut, maybe gzipped (and cut)."""
    lines, fmt, starts = rng.choice(MODELS)(rng)
    ending = rng.choice(["\n", "\r\n", "\r"])
    encoding = rng.choice(["utf-8", "utf-8", "utf-8-sig", "utf-16", "latin-1"])
    data = _encode(ending.join(lines) + rng.choice(["", ending]), encoding)
    zipped, cut = rng.random() < 0.5, _cut(rng, len(data))
    if cut is not None and not zipped:
        data = data[:cut]
    expected = None
    if fmt == "grid" and cut is None:
        expected = tuple(start + 1 for start in starts or ())
    elif fmt != "grid" and not (encoding == "utf-16" and cut is not None):
        expected = _expected(fmt, _decode(data))
    if zipped:
        data = gzip.compress(data, compresslevel=rng.choice([1, 9]), mtime=0)
        if cut is not None:
            data = data[: max(cut, 1)]
            expected = None  # where the gzip breaks: see check_cut_gzip
    forced = rng.random() < 0.5
    suffix = {"csv": ".csv", "tsv": ".tsv"}.get(fmt, ".txt") + (".gz" if zipped else "")
    return Input(data, f"input{suffix}", fmt if forced else None, expected if forced else None)


def parquet_input(rng: Random) -> Input:
    """A Parquet table of puzzle text (nulls and junk too), in one row group or several, maybe
    gzipped or cut."""
    count = rng.randint(0, 25)
    puzzles = [
        None if rng.random() < 0.1 else _puzzle(rng).encode("utf-8", "replace").decode()
        for _ in range(count)
    ]
    table = pa.table({"puzzle": pa.array(puzzles, pa.string()), "n": list(range(count))})
    buffer = io.BytesIO()
    compression = rng.choice(["snappy", "none", "gzip"])
    pq.write_table(table, buffer, row_group_size=rng.choice([None, 1, 7]), compression=compression)
    data = buffer.getvalue()
    cut = _cut(rng, len(data))
    lines = tuple(range(1, count + 1)) if cut is None else None
    data = data if cut is None else data[:cut]
    if rng.random() < 0.5:
        data = gzip.compress(data, compresslevel=1, mtime=0)
    return Input(data, "input.parquet", rng.choice([None, "parquet"]), lines)


#: Kinds of Parquet column a hostile table draws from: the text kinds a puzzle column may be,
#: then kinds no puzzle can be read from (numbers, nesting, nulls).
TEXT_KINDS = ("string", "large_string", "binary", "dictionary")
OTHER_KINDS = ("int", "float", "list", "struct", "map", "null")
BIG_VALUES = (MAX_LINE_CHARS + 1, 200_000)  # characters: one over the line limit, and far over


def _storable_puzzle(rng: Random) -> str:
    """A puzzle-like text that Arrow can store (no lone surrogates)."""
    return _puzzle(rng).encode("utf-8", "replace").decode()


def _column(rng: Random, kind: str, count: int) -> pa.Array:
    """``count`` values of one kind of column, puzzles, junk, nulls and big values among them."""
    if kind in TEXT_KINDS:
        texts = []
        for _ in range(count):
            roll = rng.random()
            if roll < 0.1:
                texts.append(None)
            elif roll < 0.15:
                texts.append(rng.choice("123456789.") * rng.choice(BIG_VALUES))
            else:
                texts.append(_storable_puzzle(rng))
        strings = pa.array(texts, pa.large_string() if kind == "large_string" else pa.string())
        if kind == "binary":
            return strings.cast(pa.binary())
        return strings.dictionary_encode() if kind == "dictionary" else strings
    if kind == "int":
        return pa.array([_edge(rng, -(2**63), 2**63 - 1) for _ in range(count)], pa.int64())
    if kind == "float":
        return pa.array([rng.choice(EDGE_FLOATS) for _ in range(count)], pa.float64())
    if kind == "list":
        return pa.array([[_storable_puzzle(rng)] * rng.randint(0, 3) for _ in range(count)])
    if kind == "struct":
        return pa.array(
            [{"puzzle": _storable_puzzle(rng), "n": rng.randint(0, 9)} for _ in range(count)]
        )
    if kind == "map":
        return pa.array(
            [[("k", _storable_puzzle(rng))] for _ in range(count)],
            pa.map_(pa.string(), pa.string()),
        )
    return pa.nulls(count)


def hostile_parquet_input(rng: Random) -> Input:
    """A Parquet table made to break a reader: a puzzle column of any kind (text, numbers,
    lists, structs, maps, all nulls), up to 60 extra columns of any kind, values far over the
    line limit, and row groups of one row or many."""
    count = _edge(rng, 0, 30)
    kind = rng.choice(TEXT_KINDS + OTHER_KINDS)
    columns = {"puzzle": _column(rng, kind, count)}
    for index in range(_edge(rng, 0, 60)):
        columns[f"c{index}"] = _column(rng, rng.choice(TEXT_KINDS + OTHER_KINDS), count)
    buffer = io.BytesIO()
    row_group = rng.choice([None, 1, 3])
    pq.write_table(pa.table(columns), buffer, row_group_size=row_group, compression="zstd")
    text = kind in TEXT_KINDS
    lines = tuple(range(1, count + 1)) if text else None
    return Input(
        buffer.getvalue(), "hostile.parquet", rng.choice([None, "parquet"]), lines, not text
    )


def garbage_input(rng: Random) -> Input:
    """Random bytes, or bytes that start like a known format and go wrong."""
    start = rng.choice([b"", b"PAR1", b"\x1f\x8b", b"\xef\xbb\xbf", b"\xff\xfe", b"a,b\n"])
    alphabet = rng.choice([bytes(range(256)), b"123456789.\n\r ,#-|", b"\n\r\t "])
    data = start + bytes(rng.choices(alphabet, k=_edge(rng, 0, 2000)))
    fmt = rng.choice([None, "lines", "sdk", "grid", "csv", "tsv", "parquet"])
    name = rng.choice(["x.txt", "x.sdk", "x.ss", "x.csv", "x.tsv", "x.parquet", "x.gz"])
    plain = fmt == "lines" and not data.startswith((b"\x1f\x8b", b"\xff\xfe", b"\xfe\xff"))
    return Input(data, name, fmt, content_lines(_decode(data)) if plain else None)


KINDS = (text_input, text_input, parquet_input, hostile_parquet_input, garbage_input)


def build_input(rng: Random) -> Input:
    """One generated input file, every choice taken from ``rng``."""
    return rng.choice(KINDS)(rng)


inputs = seeds.map(lambda seed: build_input(Random(seed)))


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
NAMES = ("easy", "hard", "3x3", "2x3", "rotate180", "x_wing", "naked_single", "UTC")
EDGE_INTEGERS = (0, 1, -1, 9, 2**63 - 1, 2**63, -(2**63), 2**64, -(2**64))
EDGE_FLOATS = (math.nan, math.inf, -math.inf, 0.0, -0.0, 5e-324, 1.7976931348623157e308, 0.5)
CHARACTERS = (  # ranges of code points a string draws from, as hypothesis's text() does
    (0x20, 0x7E),  # printable ASCII: quotes, backslash, brackets, =, #
    (0x00, 0x1F),  # control characters
    (0x80, 0xFF),
    (0x100, 0xD7FF),
    (0xE000, 0xFFFF),  # private use, byte-order mark, specials
    (0x10000, 0x10FFFF),
)


def _string(rng: Random) -> str:
    ranges = rng.sample(CHARACTERS, rng.randint(1, 3))
    return "".join(chr(rng.randint(*rng.choice(ranges))) for _ in range(rng.randint(0, 12)))


def _float(rng: Random) -> float:
    """An edge value, a plain one, or any 64-bit pattern (subnormals, huge, nan payloads)."""
    kind = rng.randrange(3)
    if kind == 0:
        return rng.choice(EDGE_FLOATS)
    if kind == 1:
        return rng.uniform(-200, 200)
    return struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]


def _scalar(rng: Random) -> object:
    kind = rng.randrange(6)
    if kind == 0:
        return rng.choice([rng.randint(-(2**64), 2**64), rng.randint(-5, 100)])
    if kind == 1:
        return rng.choice(EDGE_INTEGERS)
    if kind == 2:
        return _float(rng)
    if kind == 3:
        return rng.random() < 0.5
    if kind == 4:
        return _string(rng)
    return rng.choice(NAMES)


def _value(rng: Random) -> object:
    """A scalar, or a list of up to three."""
    if rng.random() < 0.5:
        return _scalar(rng)
    return [_scalar(rng) for _ in range(rng.randint(0, 3))]


def _band(rng: Random) -> object:
    """Two bounds (nan and out-of-range ones too), or any value."""
    if rng.random() < 0.5:
        return _value(rng)
    return [rng.choice([_float(rng), rng.randint(-5, 100)]) for _ in range(2)]


def _some(rng: Random, keys: tuple[str, ...], most: int) -> list[str]:
    return rng.sample(keys, rng.randint(0, min(most, len(keys))))


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


def hostile_recipe(rng: Random) -> str:
    """TOML text made to exhaust a reader: arrays or inline tables nested deeper than a parser's
    stack, a string of a million characters, thousands of sections at the largest counts."""
    depth = rng.choice([10, 1_000, 100_000])
    shape = rng.randrange(4)
    if shape == 0:
        return f'title = "Deep"\nx = {"[" * depth}{"]" * depth}\n'
    if shape == 1:
        return f'title = "Deep"\nx = {"{a = " * depth}1{"}" * depth}\n'
    if shape == 2:
        return f'title = "{"x" * 1_000_000}"\n[[sections]]\ntier = "easy"\ncount = 1\n'
    count = rng.choice([1, 1_000_000])
    section = f'[[sections]]\ntier = "easy"\ncount = {count}\n'
    return 'title = "Many"\nseed = 1\n' + section * rng.choice([2_000, 20_000])


def build_recipe(rng: Random) -> str:
    """TOML text of a recipe: usual and unknown keys, random values, bands and sections, and
    now and then a hostile one (:func:`hostile_recipe`)."""
    if rng.random() < 0.05:
        return hostile_recipe(rng)
    lines = ['title = "Fuzz"'] if rng.randint(0, 5) else []
    if rng.random() < 0.5:  # a valid recipe, then a few keys set at random
        lines += ["seed = 1", "[[sections]]", 'tier = "easy"', "count = 1"]
        for key in _some(rng, SECTION_KEYS, 2):
            lines.append(f"{key} = {toml_value(_value(rng))}")
        return "\n".join(lines) + "\n"
    for key in _some(rng, KEYS[1:6], 5):
        lines.append(f"{key} = {toml_value(_value(rng))}")
    for name in _some(rng, ("x", "easy", "Bad Name"), 2):
        lines.append(f'[tiers."{name}"]')
        for key in _some(rng, BAND_KEYS, 3):
            lines.append(f"{key} = {toml_value(_band(rng))}")
    for _ in range(rng.randint(0, 2)):
        lines.append("[[sections]]")
        lines.append(f'tier = "{rng.choice(["easy", "x", "hard", "nope"])}"')
        lines.append(f"count = {toml_value(rng.choice([1, 0, 5, 'a']))}")
        for key in _some(rng, SECTION_KEYS[2:], 2):
            lines.append(f"{key} = {toml_value(_value(rng))}")
    text = "\n".join(lines) + "\n"
    if rng.randint(0, 9) == 0:  # damaged bytes: cut, or a stray character
        where = _edge(rng, 0, len(text))
        text = text[:where] + rng.choice(["", "=", "[", '"', "\udcff"]) + text[where:]
    return text


def build_recipe_case(rng: Random) -> tuple[str, int | None]:
    """A recipe's text and the --seed override to apply (None: none)."""
    text = build_recipe(rng)
    return text, rng.choice([None, None, None, None, 0, MAX_SEED, MAX_SEED + 1, -1])


recipes = seeds.map(lambda seed: build_recipe_case(Random(seed)))


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
