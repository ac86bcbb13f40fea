"""The recipe schema, declared once: every table and key with the values it takes, its default
and what it means.

The reader (:mod:`pipeline.recipe`) takes the allowed keys, defaults, ranges and choices from
here, and its error messages say what a key takes in the words written here; ``docs/recipes.md``
is generated from the same declaration (:func:`markdown`; ``python -m pipeline.recipe_schema``
prints it, and a test fails when the file is out of date).

Plain frozen dataclasses, not pydantic or msgspec: the checks that matter here are the
pipeline's own (a band no puzzle can meet, a box that does not fit its size, a plain tcp://
scheduler), every message must name the dotted key in the recipe's words, and neither library's
messages or extra dependency would buy more than the hundred lines below.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.dig import SYMMETRIES
from engine.tiers import TIERS
from pipeline.render.book import LAYOUTS
from pipeline.render.options import (
    BINDINGS,
    DEFAULT_ACCENT,
    DEFAULT_BACKGROUND,
    IMPOSITIONS,
    PAPERS,
    TRIMS,
)

BACKENDS = ("loky", "dask")
ALL_CORES = -1  # n_jobs: one worker per core
MAX_SEED = 2**63 - 1  # seeds are stored in the store's int64 columns
JOBS_ALLOWED = "an integer >= 1, or -1 (every core)"
DEFAULT_SIZE = 9
DEFAULT_CHUNK_SIZE = 25
DEFAULT_TIMEZONE = "UTC"  # whose calendar day picks a daily seed, unless the recipe names one
MAX_SECTION_COUNT = 1_000_000  # puzzles in one section: a run holds its rows in memory
MAX_SECTIONS = 200  # sections in one recipe
MAX_PUZZLES = 1_000_000  # puzzles in one book, all sections together
MAX_TOML_BYTES = 1 << 20  # a recipe file's size: a recipe is a page of text
MAX_TOML_DOTS = 2_000  # '.' characters in a recipe file: tomllib slows with a dotted key's square
#: How a section with ``source`` orders the file's puzzles of its tier before taking ``count``.
ORDERS = ("file", "easiest", "hardest", "random")
PACK_FORMATS = ("pdf", "svg", "png")  # files a syndication pack writes, in this order
MAX_PACK_DAYS = 366
POINTS_PER_UNIT = {"in": 72.0, "pt": 1.0}  # the units a pack's width is written in
PACK_WIDTH_POINTS = (108.0, 864.0)  # 1.5 in to 12 in: a column to a full page

REQUIRED = object()  # the default of a key that must be given
NONE = object()  # the default of a key whose absence means "none" (no seed: a daily one)


@dataclass(frozen=True)
class Key:
    """One key of a recipe table. ``kind`` says how the reader checks it on its own (string,
    integer, boolean, choice; ``value`` for keys the reader checks with others, by the rule
    ``allowed`` states); ``allowed`` is what the docs and the error messages say it takes."""

    name: str
    kind: str
    allowed: str
    default: object
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[object, ...] = ()

    @property
    def shown_default(self) -> str:
        if self.default is REQUIRED:
            return "required"
        if self.default is NONE:
            return "none"
        if isinstance(self.default, bool):
            return str(self.default).lower()
        return repr(self.default) if isinstance(self.default, str) else str(self.default)


@dataclass(frozen=True)
class Table:
    """A table of the recipe (``[print]``, ``[[sections]]`` ...) and its keys."""

    name: str  # as written in TOML; "" for the top level
    help: str
    keys: tuple[Key, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(key.name for key in self.keys)

    def __getitem__(self, name: str) -> Key:
        return next(key for key in self.keys if key.name == name)


def _choices(values: tuple[object, ...]) -> str:
    return "one of " + ", ".join(str(value) for value in values)


TOP = Table(
    "",
    "the book",
    (
        Key("title", "string", "a non-empty string", REQUIRED, "the book's title"),
        Key("author", "string", "a string", "", "printed under the title"),
        Key(
            "seed",
            "integer",
            f"an integer from 0 to {MAX_SEED}",
            NONE,
            "every chunk's random numbers derive from it; none: a new daily seed each calendar "
            "day (a second run the same day resumes the first)",
            low=0,
            high=MAX_SEED,
        ),
        Key(
            "timezone",
            "value",
            'an IANA time zone such as "Europe/Paris"',
            DEFAULT_TIMEZONE,
            "whose calendar day picks the daily seed",
        ),
        Key(
            "output",
            "value",
            "a folder path",
            "output",
            "holds the run folders and the catalog; relative to the recipe's folder",
        ),
        Key("tiers", "value", "tables [tiers.<name>]", NONE, "bands of the recipe's own tiers"),
        Key("parallel", "value", "a table [parallel]", NONE, "where the work runs"),
        Key("print", "value", "a table [print]", NONE, "how the book is printed"),
        Key("cover", "value", "a table [cover]", NONE, "a paperback cover; none: no cover"),
        Key("sections", "value", "one or more [[sections]] tables", REQUIRED, "the book's parts"),
        Key("syndication", "value", "a table [syndication]", NONE, "a daily pack beside the book"),
    ),
)

TIER = Table(
    "tiers.<name>",
    "a tier of the recipe's own, or a default one redefined (default tiers, easiest first: "
    + ", ".join(TIERS)
    + "); a name is lower-case letters, digits, '_' and '-'",
    (
        Key("score", "value", "[min, max], numbers", NONE, "the grade's score, inclusive"),
        Key("iterations", "value", "[min, max], integers", NONE, "logic passes, inclusive"),
        Key("clues", "value", "[min, max], integers", NONE, "givens, inclusive"),
        Key("hardest", "value", "a technique id", NONE, "the hardest technique a puzzle may need"),
        Key("needs", "value", "a technique id", NONE, "its hardest technique is at least this"),
    ),
)

PARALLEL = Table(
    "parallel",
    "where the chunks of work run",
    (
        Key("n_jobs", "value", JOBS_ALLOWED, ALL_CORES, "local worker processes"),
        Key(
            "backend",
            "choice",
            _choices(BACKENDS),
            "loky",
            "local processes, or Dask",
            choices=BACKENDS,
        ),
        Key(
            "scheduler",
            "string",
            "tls://host:port, or tcp://host:port with insecure",
            NONE,
            "the Dask scheduler; none: a private TLS cluster on this machine (docs/dask.md)",
        ),
        Key(
            "insecure",
            "boolean",
            "true or false",
            False,
            "allow plain tcp://: anyone who can reach its port can run code in the run",
        ),
        Key("tls_ca", "string", "a file path", NONE, "with tls://: the CA of the cluster"),
        Key("tls_cert", "string", "a file path", NONE, "this process's certificate"),
        Key("tls_key", "string", "a file path", NONE, "its key, if not in tls_cert"),
        Key(
            "chunk_size",
            "integer",
            "an integer >= 1",
            DEFAULT_CHUNK_SIZE,
            "puzzles per task",
            low=1,
        ),
    ),
)

PRINT = Table(
    "print",
    "how the book is printed",
    (
        Key(
            "trim",
            "value",
            _choices(TRIMS) + ", or {width = in, height = in}",
            "letter",
            "the page size",
        ),
        Key("bleed", "value", "true or false", False, "print to the page's edge"),
        Key(
            "imposition",
            "value",
            _choices(IMPOSITIONS),
            "none",
            "saddle-stitch sheets (needs binding saddle-stitch)",
        ),
        Key("binding", "value", _choices(BINDINGS), "perfect", "how the book is bound"),
        Key("shade_answers", "value", "true or false", False, "answer cells shaded by pass"),
        Key("answers_per_page", "value", "an integer from 1 to 16", 6, "answer grids a page"),
        Key("about", "boolean", "true or false", True, 'an "about the difficulty" page'),
        Key(
            "hints",
            "value",
            "true or false",
            False,
            "a hints section: each puzzle's first step beyond the singles",
        ),
        Key(
            "worked_solutions",
            "value",
            "a list of tier names",
            NONE,
            "tiers whose puzzles get a worked solution at the back",
        ),
        Key("large_print", "value", "true or false", False, "1-2 puzzles a page, large clues"),
    ),
)

TRIM = Table(
    "print.trim",
    "a custom page size, in inches",
    (
        Key("width", "value", "a number of inches", REQUIRED, "page width"),
        Key("height", "value", "a number of inches", REQUIRED, "page height"),
    ),
)

COLOUR = "'#rrggbb', or [c, m, y, k] percentages"
COVER = Table(
    "cover",
    "a KDP paperback cover, `<book>-cover.pdf` beside the book (perfect binding only); the table "
    "alone, even empty, asks for one (docs/covers.md)",
    (
        Key("paper", "choice", _choices(PAPERS), "white", "sets the spine's width", choices=PAPERS),
        Key(
            "subtitle",
            "string",
            "a non-empty string",
            NONE,
            "under the title; default: count and tiers",
        ),
        Key(
            "back_text",
            "string",
            "a non-empty string",
            NONE,
            "the back's text; default: the contents",
        ),
        Key("background", "value", COLOUR, DEFAULT_BACKGROUND, "the ground of the whole cover"),
        Key("accent", "value", COLOUR, DEFAULT_ACCENT, "the rule and the grids' frames"),
    ),
)

SECTION = Table(
    "sections",
    "one part of the book, printed in recipe order",
    (
        Key("title", "string", "a non-empty string", NONE, "default: the tier's name"),
        Key("size", "value", "4 to 64, not prime", NONE, "grid size (default 9, or rows*cols)"),
        Key(
            "box",
            "value",
            "ROWSxCOLS, multiplying to size",
            NONE,
            "box shape (default: as square as possible)",
        ),
        Key(
            "variant",
            "value",
            "classic, or jigsaw, killer, windoku, x joined by '+' (jigsaw+x, killer+x); "
            "windoku is 9x9 only",
            "classic",
            "the rules: x adds the two main diagonals, windoku four windows, jigsaw a new "
            "layout of irregular regions for each puzzle in place of the boxes (no box key), "
            "killer cages with sums drawn for each puzzle",
        ),
        Key(
            "tier",
            "choice",
            "a default tier or one defined under [tiers]",
            REQUIRED,
            "the band every puzzle is dug or chosen for",
        ),
        Key(
            "count",
            "integer",
            f"an integer from 1 to {MAX_SECTION_COUNT}",
            REQUIRED,
            "puzzles in the section",
            low=1,
            high=MAX_SECTION_COUNT,
        ),
        Key(
            "symmetry",
            "choice",
            _choices(SYMMETRIES),
            "none",
            "of the givens (dug only)",
            choices=SYMMETRIES,
        ),
        Key(
            "minimal",
            "boolean",
            "true or false",
            True,
            "every given needed for uniqueness (dug only)",
        ),
        Key(
            "layout",
            "value",
            _choices(LAYOUTS),
            NONE,
            "puzzles a page (default 4 up to 9x9, else 1)",
        ),
        Key(
            "source",
            "value",
            "a puzzle file, relative to the recipe",
            NONE,
            "print puzzles from this file (any format pipeline grade reads) instead of digging",
        ),
        Key(
            "order",
            "choice",
            _choices(ORDERS),
            "file",
            "with source: which puzzles of the tier come first",
            choices=ORDERS,
        ),
    ),
)

SYNDICATION = Table(
    "syndication",
    "a daily syndication pack made with the book (docs/syndication.md): one puzzle a day per "
    "tier, each a file cropped to the grid, with its solution for the next day; its puzzles "
    "go in the catalog like the book's",
    (
        Key(
            "tiers",
            "value",
            "a non-empty list of tier names, each once",
            REQUIRED,
            "one puzzle a day of each",
        ),
        Key(
            "days",
            "integer",
            f"an integer from 1 to {MAX_PACK_DAYS}",
            7,
            "days in the pack",
            low=1,
            high=MAX_PACK_DAYS,
        ),
        Key(
            "start",
            "value",
            "a date (2025-06-02)",
            NONE,
            "the pack's first day; none: the run's day",
        ),
        Key(
            "width",
            "value",
            'a length in inches or points ("2.5in", "180pt"), 1.5in to 12in',
            "2.5in",
            "each file's width (its height adds the caption)",
        ),
        Key(
            "formats",
            "value",
            "a non-empty list of " + ", ".join(PACK_FORMATS) + ", each once",
            ("svg", "pdf"),
            "the files written of each puzzle and solution",
        ),
        Key(
            "dpi",
            "integer",
            "an integer from 72 to 1200",
            300,
            "with png in formats: its resolution",
            low=72,
            high=1200,
        ),
        Key("size", "value", "4 to 64, not prime", NONE, "grid size (default 9, or rows*cols)"),
        Key("box", "value", "ROWSxCOLS, multiplying to size", NONE, "box shape"),
        Key(
            "symmetry",
            "choice",
            _choices(SYMMETRIES),
            "rotate180",
            "of the givens",
            choices=SYMMETRIES,
        ),
        Key(
            "minimal",
            "boolean",
            "true or false",
            True,
            "every given needed for uniqueness (false for singles-level tiers on 16x16 and up)",
        ),
    ),
)

TABLES = (TOP, TIER, PARALLEL, PRINT, TRIM, COVER, SECTION, SYNDICATION)
LIMITS = (
    f"at most {MAX_SECTIONS} sections and {MAX_PUZZLES:,} puzzles in all, no more pages than a "
    f"bound book holds, and a recipe file of at most {MAX_TOML_BYTES:,} bytes and "
    f"{MAX_TOML_DOTS:,} '.' characters"
)


def _rows(table: Table) -> Iterator[str]:
    heading = f"[[{table.name}]]" if table.name == "sections" else f"[{table.name}]"
    yield f"## {'Top level' if not table.name else heading}\n"
    yield f"{table.help[0].upper()}{table.help[1:]}.\n"
    yield "| key | takes | default | what it is |"
    yield "|---|---|---|---|"
    for key in table.keys:
        yield f"| `{key.name}` | {key.allowed} | {key.shown_default} | {key.help} |"
    yield ""


def markdown() -> str:
    """``docs/recipes.md``: every key of every table, from the declaration above."""
    lines = [
        "# Recipe keys",
        "",
        "Generated from `pipeline/recipe_schema.py` (`python -m pipeline.recipe_schema`); do not",
        "edit by hand. A key not listed is an error, and every error names the file, the dotted",
        "key (`sections[2].layout`, indices from 0) and what the key takes. Limits: "
        + LIMITS
        + ".",
        "",
    ]
    for table in TABLES:
        lines += _rows(table)
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown(), end="")
