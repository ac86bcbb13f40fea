"""Run recipes: a TOML file read with ``tomllib`` into validated, frozen dataclasses.

Schema (every key is optional unless marked required; ``configs/nightly.toml`` shows it in use)::

    title    = "Nightly Sudoku"  # required, non-empty
    author   = ""                # default ""
    seed     = 20261122          # integer 0 .. 2**63-1: the run seed every chunk's RNG comes
                                 # from; leave it out for a daily seed (a new book each calendar
                                 # day, derived from the date and the recipe: pipeline.daily)
    timezone = "Europe/Paris"    # IANA zone whose calendar day picks the daily seed (default UTC)
    output   = "output"          # folder for run folders and the catalog, relative to the
                                 # recipe's folder (so the catalog is the same wherever the
                                 # run starts); --output is relative to the current folder

    [tiers.<name>]               # optional: define a tier or override a default one
                                 # (engine.tiers: defaults and how a band admits a puzzle)
    score      = [min, max]      # numbers, inclusive
    iterations = [min, max]      # integers, inclusive
    clues      = [min, max]      # integers, inclusive
    hardest    = "x_wing"        # technique id: the hardest technique a puzzle may need
    needs      = "naked_pair"    # technique id: its hardest technique is at least this

    [parallel]
    n_jobs     = -1              # integer >= 1, or -1 for every core
    backend    = "loky"          # "loky" | "dask"
    scheduler  = "tls://host:8786"  # with backend = "dask": tls://, or tcp:// with insecure;
                                 # none: a private TLS cluster on this machine (docs/dask.md)
    insecure   = false           # allow plain tcp:// (anyone who can reach its port can run
                                 # code in this process: only on a network that is all yours)
    tls_ca     = "ca.pem"        # with tls://: CA that signed the scheduler's and workers'
    tls_cert   = "client.pem"    # certificates; this process's certificate and its key
    tls_key    = "client-key.pem"  # (paths relative to the recipe; key optional if in cert)
    chunk_size = 25              # puzzles per task (integer >= 1)

    [print]
    trim             = "letter"  # letter | a4 | 6x9 | 8.5x11 | 5.5x8.5 | {width = in, height = in}
    bleed            = false
    imposition       = "none"    # "none" | "saddle-stitch" (needs binding = "saddle-stitch")
    binding          = "perfect" # "perfect" | "saddle-stitch"
    shade_answers    = false
    answers_per_page = 6         # 1 .. 16
    about            = true      # print an "about the difficulty" page
    hints            = false     # a hints section: each puzzle's first step beyond singles
    worked_solutions = []        # tiers whose puzzles get a worked solution at the back
    large_print      = false     # 1-2 puzzles a page, clues of 24 pt or more, 16 pt text

    [[sections]]                 # at least one, printed in this order
    title    = "Easy"            # default: the tier's name, capitalised
    source   = "collection.sdk"  # print puzzles from this file (relative to the recipe; any
                                 # format `pipeline grade` reads) instead of digging them
    order    = "file"            # with source: which matching puzzles come first: file |
                                 # easiest | hardest | random (seeded by the run seed)
    size     = 9                 # 4 .. 64, not prime (default 9, or rows*cols of `box`)
    box      = "3x3"             # ROWSxCOLS, must multiply to size (default: as square as possible)
    tier     = "easy"            # required: a default tier or one defined under [tiers]
    count    = 40                # required, integer from 1 to 1000000
    symmetry = "rotate180"       # none | rotate180 | rotate90 | mirror_horizontal |
                                 # mirror_vertical | diagonal | anti_diagonal (default none)
    minimal  = true              # every given needed for uniqueness (default true)
                                 # (symmetry and minimal shape dug puzzles: not with source)
    layout   = 4                 # puzzles per page: 1, 2, 4 or 6 (default 4 up to 9x9, else 1)

Any unknown key or bad value raises :class:`RecipeError` whose message names the file, the dotted
path of the key (``sections[2].layout``; array indices count from 0) and what is allowed.
Command-line options (``--output``, ``--seed``, ``--jobs``, ``--backend``) go through
:func:`with_overrides`, checked by the same rules. :func:`recipe_hash` fingerprints the content.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.canon import check_canon_size
from engine.dig import SYMMETRIES, ImpossibleBand, check_possible, tiers_for
from engine.geometry import box_shape, geometry
from engine.tiers import BAND_KEYS, TIERS, InvalidTiers, Tier, tiers_from_mapping
from pipeline.errors import UserError
from pipeline.render.book import LAYOUTS
from pipeline.render.options import PrintOptionError, PrintOptions
from pipeline.render.page import CUSTOM
from pipeline.scheduler_address import SchedulerAddressError, check_scheduler_address

BACKENDS = ("loky", "dask")
ALL_CORES = -1  # n_jobs: one worker per core
MAX_SEED = 2**63 - 1  # seeds are stored in the store's int64 columns
JOBS_ALLOWED = "an integer >= 1, or -1 (every core)"
DEFAULT_SIZE = 9
DEFAULT_CHUNK_SIZE = 25
MAX_SECTION_COUNT = 1_000_000  # puzzles in one section: a run holds its rows in memory
SMALL_GRID_LAYOUT = 4  # puzzles per page by default up to 9x9
LARGE_GRID_LAYOUT = 1  # and beyond
TIER_NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")
TOP_KEYS = (
    "title",
    "author",
    "seed",
    "timezone",
    "output",
    "tiers",
    "parallel",
    "print",
    "sections",
)
TLS_KEYS = ("tls_ca", "tls_cert", "tls_key")
PARALLEL_KEYS = ("n_jobs", "backend", "scheduler", "insecure", *TLS_KEYS, "chunk_size")
PRINT_KEYS = (
    "trim",
    "bleed",
    "imposition",
    "binding",
    "shade_answers",
    "answers_per_page",
    "about",
    "hints",
    "worked_solutions",
    "large_print",
)
TRIM_KEYS = ("width", "height")
# [print] keys passed to PrintOptions as they are (trim and worked_solutions are read first)
PRINT_OPTION_KEYS = tuple(k for k in PRINT_KEYS if k not in ("trim", "about", "worked_solutions"))
SECTION_KEYS = (
    "title",
    "size",
    "box",
    "tier",
    "count",
    "symmetry",
    "minimal",
    "layout",
    "source",
    "order",
)
DIG_ONLY_KEYS = ("symmetry", "minimal")  # shape dug puzzles; meaningless with ``source``
#: How a section with ``source`` orders the file's puzzles of its tier before taking ``count``.
ORDERS = ("file", "easiest", "hardest", "random")
DEFAULT_TIMEZONE = "UTC"  # whose calendar day picks a daily seed, unless the recipe names one
# Keys of the recipe hash that change where or how fast a run goes, not what it makes.
RUN_ONLY_KEYS = ("source", "output")
RUN_ONLY_PARALLEL_KEYS = ("n_jobs", "backend", "scheduler", "insecure", *TLS_KEYS)


class RecipeError(UserError):
    """A recipe cannot be read or breaks the schema; the message names file, key and what fits."""


@dataclass(frozen=True)
class ParallelSpec:
    """Where chunks run: local processes (loky) or a Dask cluster at ``scheduler``."""

    n_jobs: int = ALL_CORES
    backend: str = "loky"
    scheduler: str | None = None
    chunk_size: int = DEFAULT_CHUNK_SIZE
    insecure: bool = False  # plain tcp:// allowed: anyone who can reach its port runs code here
    tls_ca: Path | None = None  # with a tls:// scheduler: the CA, and this process's
    tls_cert: Path | None = None  # certificate and key (pipeline.parallel.dask_security)
    tls_key: Path | None = None


@dataclass(frozen=True)
class PrintSpec:
    """The renderer's options plus whether to print an "about the difficulty" page."""

    options: PrintOptions = field(default_factory=PrintOptions)
    about: bool = True


@dataclass(frozen=True)
class SectionSpec:
    """One section of the book: ``count`` puzzles of one shape and tier, dug, or taken from the
    file ``source`` in ``order``."""

    title: str
    size: int
    box_rows: int
    box_cols: int
    tier: str
    count: int
    symmetry: str = "none"
    minimal: bool = True
    layout: int = SMALL_GRID_LAYOUT
    source: Path | None = None
    order: str = "file"

    @property
    def box(self) -> str:
        """Box shape as written in recipes, e.g. ``3x3``."""
        return f"{self.box_rows}x{self.box_cols}"


@dataclass(frozen=True)
class Recipe:
    """A validated run recipe. ``tiers`` holds only the bands the recipe defines itself;
    ``seed`` is None when the run derives one from the day (:mod:`pipeline.daily`)."""

    title: str
    seed: int | None
    sections: tuple[SectionSpec, ...]
    author: str = ""
    timezone: str = DEFAULT_TIMEZONE
    output: Path = Path("output")
    tiers: tuple[Tier, ...] = ()
    parallel: ParallelSpec = field(default_factory=ParallelSpec)
    print: PrintSpec = field(default_factory=PrintSpec)
    source: str = "<recipe>"

    def tier(self, name: str) -> Tier | None:
        """The band this recipe defines for ``name``, or None to use the default band."""
        return next((band for band in self.tiers if band.name == name), None)


def bands_for(own: Sequence[Tier], box_rows: int, box_cols: int) -> dict[str, Tier]:
    """The bands for one grid shape, as a run resolves them and ``pipeline grade --recipe``
    re-grades by: the recipe's own tiers first, then the engine's defaults for that size
    (:func:`engine.dig.tiers_for`: from 16x16 up, bands people solve at that size)."""
    return own_bands_first(own, tiers_for(geometry(box_rows, box_cols)))


def bands_table(bands: Mapping[str, Tier]) -> list[dict[str, Any]]:
    """Bands in the order a puzzle is tested against them (a list: JSON objects lose order), each
    its name and the keys it constrains as a recipe's ``[tiers]`` writes them, with null for an
    open bound (standard JSON has no infinity): what a run records of its bands."""
    table = []
    for name, band in bands.items():
        fields = {key: getattr(band, key) for key in BAND_KEYS if getattr(band, key) is not None}
        table.append(
            {"name": name}
            | {
                key: [None if math.isinf(bound) else bound for bound in value]
                if isinstance(value, tuple)
                else value
                for key, value in fields.items()
            }
        )
    return table


def own_bands_first(own: Sequence[Tier], defaults: Mapping[str, Tier]) -> dict[str, Tier]:
    """A recipe's own tiers first, so a custom band such as a kids' "starter" is not claimed by
    a wider default band before it, then the defaults it does not redefine."""
    bands = {band.name: band for band in own}
    return bands | {name: band for name, band in defaults.items() if name not in bands}


_REQUIRED = object()  # marks a key without a default


class _Table:
    """One TOML table being read. Its keys are checked against ``keys`` first (None: any name),
    so a misspelt key is reported as unknown rather than as a missing one."""

    def __init__(self, value: object, path: str, source: str, keys: tuple[str, ...] | None) -> None:
        self.path, self.source = path, source
        if not isinstance(value, Mapping):
            self._fail(path, f"got {_shown(value)}; allowed: a table")
        self.value: Mapping[str, Any] = value
        unknown = [key for key in value if keys is not None and key not in keys]
        if unknown:
            self.fail(str(unknown[0]), f"unknown key; allowed keys: {_listed(keys or ())}")

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def _fail(self, path: str, problem: str) -> NoReturn:
        raise RecipeError(f"{self.source}: {path or 'top level'}: {problem}")

    def fail(self, key: str, problem: str) -> NoReturn:
        self._fail(self.where(key), problem)

    def get(self, key: str, default: object) -> Any:
        if key in self.value:
            return self.value[key]
        if default is _REQUIRED:
            self.fail(key, "is required")
        return default

    def string(self, key: str, default: object = _REQUIRED, choices: tuple[str, ...] = ()) -> Any:
        value = self.get(key, default)
        if value is default:
            return value
        allowed = f"one of {_listed(choices)}" if choices else "a string"
        if not isinstance(value, str) or (choices and value not in choices):
            self.fail(key, f"got {_shown(value)}; allowed: {allowed}")
        return value

    def integer(
        self, key: str, default: object = _REQUIRED, low: int = 0, high: int | None = None
    ) -> Any:
        value = self.get(key, default)
        if value is default:
            return value
        allowed = f"an integer from {low} to {high}" if high is not None else f"an integer >= {low}"
        if not _is_int(value) or value < low or (high is not None and value > high):
            self.fail(key, f"got {_shown(value)}; allowed: {allowed}")
        return value

    def boolean(self, key: str, default: bool) -> bool:
        value = self.get(key, default)
        if not isinstance(value, bool):
            self.fail(key, f"got {_shown(value)}; allowed: true or false")
        return value

    def table(self, key: str, keys: tuple[str, ...] | None) -> _Table:
        """A sub-table (empty when absent)."""
        return _Table(self.get(key, {}), self.where(key), self.source, keys)

    def tables(self, key: str, keys: tuple[str, ...]) -> list[_Table]:
        """An array of tables (``[[key]]``), required and non-empty."""
        value = self.get(key, _REQUIRED)
        if not isinstance(value, list) or not value:
            self.fail(key, f"got {_shown(value)}; allowed: one or more [[{key}]] tables")
        where = self.where(key)
        return [_Table(item, f"{where}[{i}]", self.source, keys) for i, item in enumerate(value)]


def usable_jobs(n_jobs: object) -> bool:
    """True for a worker count the pipeline takes (:data:`JOBS_ALLOWED`): joblib would also read
    0 as an error and -2 as "every core but one", which no recipe or option should imply."""
    return _is_int(n_jobs) and (n_jobs >= 1 or n_jobs == ALL_CORES)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _listed(choices: tuple[object, ...]) -> str:
    return ", ".join(str(choice) for choice in choices)


def _tiers(top: _Table) -> tuple[Tier, ...]:
    """Bands from ``[tiers.<name>]``: names checked here, the bands by the engine's parser."""
    tiers = top.table("tiers", None)
    for name in tiers.value:
        if not isinstance(name, str) or not TIER_NAME.match(name):
            tiers.fail(str(name), "bad tier name; allowed: lower-case letters, digits, '_', '-'")
    try:
        return tuple(tiers_from_mapping(tiers.value).values())
    except InvalidTiers as exc:  # its message starts with the dotted key
        raise RecipeError(f"{top.source}: {exc}") from None


def _parallel(top: _Table, base: Path = Path()) -> ParallelSpec:
    table = top.table("parallel", PARALLEL_KEYS)
    n_jobs = table.get("n_jobs", ALL_CORES)
    if not usable_jobs(n_jobs):
        table.fail("n_jobs", f"got {_shown(n_jobs)}; allowed: {JOBS_ALLOWED}")
    backend = table.string("backend", "loky", BACKENDS)
    scheduler = table.string("scheduler", None)
    insecure = table.boolean("insecure", False)
    tls = {key: table.string(key, None) for key in TLS_KEYS}
    if scheduler is not None:
        try:
            address = check_scheduler_address(scheduler, insecure)
        except SchedulerAddressError as exc:
            table.fail("scheduler", str(exc))
        if address.tls and (tls["tls_ca"] is None or tls["tls_cert"] is None):
            needs = "tls_ca and tls_cert (--tls-ca, --tls-cert) are required"
            table.fail("scheduler", f"{scheduler} is tls://: {needs}")
    chunk_size = table.integer("chunk_size", DEFAULT_CHUNK_SIZE, 1)
    paths = {key: None if name is None else base / name for key, name in tls.items()}
    return ParallelSpec(n_jobs, backend, scheduler, chunk_size, insecure, **paths)


def _trim(table: _Table) -> dict[str, Any]:
    """PrintOptions fields for ``trim``: a named size or a custom ``{width, height}`` in inches
    (their values are checked by PrintOptions)."""
    value = table.get("trim", None)
    if value is None or not isinstance(value, Mapping):
        return {} if value is None else {"trim": value}
    custom = table.table("trim", TRIM_KEYS)
    return {"trim": CUSTOM, **{side: custom.get(side, _REQUIRED) for side in TRIM_KEYS}}


def _print(top: _Table, tier_names: tuple[str, ...]) -> PrintSpec:
    """The ``[print]`` table: its keys read here, their values checked by PrintOptions."""
    table = top.table("print", PRINT_KEYS)
    fields = {key: table.value[key] for key in PRINT_OPTION_KEYS if key in table.value}
    fields.update(_trim(table))
    fields["worked_solutions"] = _tier_list(table, "worked_solutions", tier_names)
    about = table.boolean("about", True)
    try:
        return PrintSpec(PrintOptions(**fields), about)
    except PrintOptionError as exc:
        key = f"trim.{exc.field}" if exc.field in TRIM_KEYS else exc.field
        table.fail(key, exc.problem)


def _tier_list(table: _Table, key: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """A list of tier names (empty when absent), each one the recipe knows."""
    value = table.get(key, [])
    allowed = f"a list of tier names from {_listed(names)}"
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        table.fail(key, f"got {_shown(value)}; allowed: {allowed}")
    for item in value:
        if item not in names:
            table.fail(key, f"got {item!r}; allowed: {allowed}")
    return tuple(value)


def _shape(table: _Table) -> tuple[int, int, int]:
    """(size, box rows, box cols) from ``size`` and/or ``box``."""
    size = table.integer("size", None)
    box = table.string("box", None)
    try:  # the range and fit of both: engine.geometry.box_shape; every puzzle's id needs its form
        rows, cols = box_shape(DEFAULT_SIZE if size is None and box is None else size, box)
        check_canon_size(rows * cols)
    except ValueError as exc:
        key = "size" if box is None else "box"
        table.fail(key, f"got {_shown(table.value[key])}; {exc}")
    return rows * cols, rows, cols


def _source(table: _Table, base: Path) -> Path | None:
    """The file a section prints puzzles from (relative to the recipe's folder), or None."""
    name = table.string("source", None)
    if name is None:
        if "order" in table.value:
            table.fail("order", "applies only to a section with source = a puzzle file")
        return None
    given = [key for key in DIG_ONLY_KEYS if key in table.value]
    if given:
        table.fail(given[0], "shapes dug puzzles; a section with source prints them as they are")
    path = base / name
    if not name.strip() or not path.is_file():
        table.fail("source", f"got {name!r}; allowed: a puzzle file (no file {path})")
    return path


def _diggable(table: _Table, section: SectionSpec, own: tuple[Tier, ...]) -> None:
    """Fail now, naming the key, when the section's band can never be dug on its grid (rather
    than after the engine has compiled and the first worker has tried)."""
    band = bands_for(own, section.box_rows, section.box_cols)[section.tier]
    try:
        check_possible(band, geometry(section.box_rows, section.box_cols), section.minimal)
    except ImpossibleBand as exc:
        defined = f" (defined under [tiers.{band.name}])" if band in own else ""
        table.fail("tier", f"{exc}{defined}")


def _section(
    table: _Table, own: tuple[Tier, ...], tiers: tuple[str, ...], base: Path
) -> SectionSpec:
    size, rows, cols = _shape(table)
    tier = table.string("tier", _REQUIRED, tiers)
    section = SectionSpec(
        title=table.string("title", tier.replace("_", " ").capitalize()),
        size=size,
        box_rows=rows,
        box_cols=cols,
        tier=tier,
        count=table.integer("count", _REQUIRED, 1, MAX_SECTION_COUNT),
        symmetry=table.string("symmetry", "none", SYMMETRIES),
        minimal=table.boolean("minimal", True),
        layout=table.get(
            "layout", SMALL_GRID_LAYOUT if size <= DEFAULT_SIZE else LARGE_GRID_LAYOUT
        ),
        source=_source(table, base),
        order=table.string("order", "file", ORDERS),
    )
    if not _is_int(section.layout) or section.layout not in LAYOUTS:
        table.fail("layout", f"got {_shown(section.layout)}; allowed: one of {_listed(LAYOUTS)}")
    if not section.title.strip():
        table.fail("title", "is empty; allowed: a non-empty string")
    if section.source is None:
        _diggable(table, section, own)
    return section


def _output(top: _Table, base: Path = Path()) -> Path:
    """The output folder; a relative one is taken relative to ``base`` (the recipe's folder)."""
    output = top.string("output", "output")
    if not output.strip():
        top.fail("output", "is empty; allowed: a folder path")
    return Path(os.path.normpath(base / output))


def _timezone(top: _Table) -> str:
    name = top.string("timezone", DEFAULT_TIMEZONE)
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        top.fail("timezone", f'got {name!r}; allowed: an IANA time zone such as "Europe/Paris"')
    return name


def parse_recipe(
    mapping: Mapping[str, Any], source: str = "<recipe>", base: Path = Path()
) -> Recipe:
    """Validate a recipe already read from TOML; ``source`` names it in error messages, ``base``
    is the folder that sections' ``source`` files and a relative ``output`` are relative to."""
    top = _Table(mapping, "", source, TOP_KEYS)
    title = top.string("title")
    if not title.strip():
        top.fail("title", "is empty; allowed: a non-empty string")
    tiers = _tiers(top)
    names = tuple(dict.fromkeys((*TIERS, *(band.name for band in tiers))))
    return Recipe(
        title=title,
        author=top.string("author", ""),
        seed=top.integer("seed", None, 0, MAX_SEED),
        timezone=_timezone(top),
        output=_output(top, base),
        tiers=tiers,
        parallel=_parallel(top, base),
        print=_print(top, names),
        sections=tuple(
            _section(table, tiers, names, base) for table in top.tables("sections", SECTION_KEYS)
        ),
        source=source,
    )


def with_overrides(
    recipe: Recipe,
    *,
    output: str | Path | None = None,
    seed: int | None = None,
    n_jobs: int | None = None,
    backend: str | None = None,
    scheduler: str | None = None,
    insecure: bool | None = None,
    tls_ca: Path | None = None,
    tls_cert: Path | None = None,
    tls_key: Path | None = None,
) -> Recipe:
    """The recipe with command-line options (None: keep the recipe's), checked by the same rules
    as the file (a plain tcp:// scheduler without ``insecure`` fails, naming the key)."""
    parallel = dataclasses.asdict(recipe.parallel)
    given = {"n_jobs": n_jobs, "backend": backend, "scheduler": scheduler, "insecure": insecure}
    given |= {"tls_ca": tls_ca, "tls_cert": tls_cert, "tls_key": tls_key}
    parallel.update({key: value for key, value in given.items() if value is not None})
    mapping = {
        "output": str(recipe.output if output is None else output),
        "parallel": _given(parallel),
    }
    if seed is not None or recipe.seed is not None:
        mapping["seed"] = recipe.seed if seed is None else seed
    top = _Table(mapping, "", f"{recipe.source} with command-line options", TOP_KEYS)
    return dataclasses.replace(
        recipe,
        output=_output(top),
        seed=top.integer("seed", None, 0, MAX_SEED),
        parallel=_parallel(top),
    )


def _given(options: Mapping[str, Any]) -> dict[str, Any]:
    """Options as a recipe's TOML would hold them: None left out, paths as strings."""
    return {
        key: str(value) if isinstance(value, Path) else value
        for key, value in options.items()
        if value is not None
    }


def parallel_options(options: Mapping[str, Any]) -> ParallelSpec:
    """A ``[parallel]`` table from a command's options (``--jobs``, ``--backend``,
    ``--scheduler`` ...; None for not given), checked by the recipe's rules."""
    top = _Table({"parallel": _given(options)}, "", "command-line options", TOP_KEYS)
    return _parallel(top)


def load_recipe(path: str | Path) -> Recipe:
    """Read and validate a recipe file; syntax errors name the line."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            mapping = tomllib.load(handle)
    except OSError as exc:
        raise RecipeError(f"{path}: cannot read recipe: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise RecipeError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise RecipeError(f"{path}: TOML syntax error: {exc}") from None
    return parse_recipe(mapping, str(path), path.parent)


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes (a section's source, for the recipe hash and the manifest)."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError as exc:
        raise RecipeError(f"{path}: cannot read: {exc.strerror or exc}") from None


def recipe_hash(recipe: Recipe) -> str:
    """SHA-256 of what decides the book's content (puzzles and print), for the manifest.

    The file name, output folder and n_jobs / backend / scheduler are left out: they change where
    and how fast a run goes, never its puzzles, so command-line overrides keep the hash. A
    section's ``source`` counts by the file's content, not its path.
    """
    content = dataclasses.asdict(recipe)
    for key in RUN_ONLY_KEYS:
        del content[key]
    for key in RUN_ONLY_PARALLEL_KEYS:
        del content["parallel"][key]
    for section in content["sections"]:
        if section["source"] is not None:
            section["source"] = file_digest(section["source"])
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()
