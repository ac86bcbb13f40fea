"""Run recipes: a TOML file read with ``tomllib`` into validated, frozen dataclasses.

Every key, its values and its default are declared once, in :mod:`pipeline.recipe_schema`
(the documented list, ``docs/recipes.md``, is generated from it); ``configs/nightly.toml`` shows
a recipe in use. Limits (sections, puzzles, pages, file size) are checked as the file is read,
before any work.

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
from datetime import date
from pathlib import Path
from typing import Any, NoReturn
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.canon import check_canon_size
from engine.dig import ImpossibleBand, check_possible, tiers_for
from engine.geometry import CLASSIC, box_shape, geometry
from engine.tiers import BAND_KEYS, TIERS, InvalidTiers, Tier, tiers_from_mapping
from pipeline.errors import UserError
from pipeline.recipe_schema import (
    ALL_CORES,
    COVER,
    DEFAULT_CHUNK_SIZE,
    DEFAULT_SIZE,
    DEFAULT_TIMEZONE,
    MAX_PUZZLES,
    MAX_SECTIONS,
    MAX_TOML_BYTES,
    MAX_TOML_DOTS,
    NONE,
    PACK_FORMATS,
    PACK_WIDTH_POINTS,
    PARALLEL,
    POINTS_PER_UNIT,
    PRINT,
    REQUIRED,
    SECTION,
    SYNDICATION,
    TOP,
    TRIM,
    Key,
    Table,
)
from pipeline.render.book import LAYOUTS
from pipeline.render.cover import CoverError, CoverOptionError, CoverOptions, check_binding
from pipeline.render.options import PrintOptionError, PrintOptions
from pipeline.render.page import CUSTOM, MAX_PAGES
from pipeline.scheduler_address import SchedulerAddressError, check_scheduler_address
from pipeline.variants import checked_variant, is_jigsaw, is_killer

SMALL_GRID_LAYOUT = 4  # puzzles per page by default up to 9x9
LARGE_GRID_LAYOUT = 1  # and beyond
TIER_NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")
TLS_KEYS = ("tls_ca", "tls_cert", "tls_key")
# [print] keys passed to PrintOptions as they are (trim and worked_solutions are read first)
PRINT_OPTION_KEYS = tuple(k for k in PRINT.names if k not in ("trim", "about", "worked_solutions"))
DIG_ONLY_KEYS = ("symmetry", "minimal")  # shape dug puzzles; meaningless with ``source``
# Keys of the recipe hash that change where or how fast a run goes, not what it makes.
RUN_ONLY_KEYS = ("source", "output")
RUN_ONLY_PARALLEL_KEYS = ("n_jobs", "backend", "scheduler", "insecure", *TLS_KEYS)
LENGTH = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(" + "|".join(POINTS_PER_UNIT) + r")\s*\Z")
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")


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
    """One section of the book: ``count`` puzzles of one shape, variant and tier, dug, or taken
    from the file ``source`` in ``order``."""

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
    variant: str = CLASSIC

    @property
    def box(self) -> str:
        """Box shape as written in recipes, e.g. ``3x3``."""
        return f"{self.box_rows}x{self.box_cols}"


@dataclass(frozen=True)
class Length:
    """A length as a recipe writes it (``2.5in``, ``180pt``): files keep the unit asked."""

    value: float
    unit: str  # a key of POINTS_PER_UNIT

    @property
    def points(self) -> float:
        return self.value * POINTS_PER_UNIT[self.unit]

    def __str__(self) -> str:
        return f"{self.value:g}{self.unit}"


def parse_width(text: object) -> Length:
    """A pack's width from ``"2.5in"`` or ``"180pt"``; ValueError saying what it takes when
    ``text`` is no such length or is outside :data:`PACK_WIDTH_POINTS`."""
    low, high = PACK_WIDTH_POINTS
    allowed = f'allowed: a length such as "2.5in" or "180pt", from {low:g}pt to {high:g}pt'
    found = LENGTH.match(text) if isinstance(text, str) else None
    if found is None:
        raise ValueError(f"got {_shown(text)}; {allowed}")
    length = Length(float(found[1]), found[2])
    if not low <= length.points <= high:
        raise ValueError(f"got {_shown(text)} ({length.points:g}pt); {allowed}")
    return length


@dataclass(frozen=True)
class SyndicationSpec:
    """A daily pack (:mod:`pipeline.syndication`): one puzzle a day of each tier for ``days``
    days from ``start`` (None: the run's day), written in ``formats`` at ``width``."""

    tiers: tuple[str, ...]
    days: int
    start: date | None
    width: Length
    formats: tuple[str, ...]
    dpi: int
    size: int
    box_rows: int
    box_cols: int
    symmetry: str
    minimal: bool = True

    def sections(self) -> tuple[SectionSpec, ...]:
        """The pack as sections the run digs after the book's (never printed in it)."""
        return tuple(
            SectionSpec(
                title=f"Syndication {tier}",
                size=self.size,
                box_rows=self.box_rows,
                box_cols=self.box_cols,
                tier=tier,
                count=self.days,
                symmetry=self.symmetry,
                minimal=self.minimal,
            )
            for tier in self.tiers
        )


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
    cover: CoverOptions | None = None  # None: no cover
    source: str = "<recipe>"
    syndication: SyndicationSpec | None = None

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


class _Table:
    """One TOML table being read against its declaration (:mod:`pipeline.recipe_schema`; None:
    keys of any name). Its keys are checked first, so a misspelt key is reported as unknown
    rather than as a missing one."""

    def __init__(self, value: object, path: str, source: str, schema: Table | None) -> None:
        self.path, self.source, self.schema = path, source, schema
        if not isinstance(value, Mapping):
            self._fail(path, f"got {_shown(value)}; allowed: a table")
        self.value: Mapping[str, Any] = value
        keys = schema.names if schema is not None else None
        unknown = [key for key in value if keys is not None and key not in keys]
        if unknown:
            self.fail(str(unknown[0]), f"unknown key; allowed keys: {_listed(keys or ())}")

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def _fail(self, path: str, problem: str) -> NoReturn:
        raise RecipeError(f"{self.source}: {path or 'top level'}: {problem}")

    def fail(self, key: str, problem: str) -> NoReturn:
        self._fail(self.where(key), problem)

    def refuse(self, key: str, value: object, choices: tuple[object, ...] = ()) -> NoReturn:
        """Fail on ``value`` of ``key``, saying what the declaration says the key takes (and,
        for a choice known only when reading, the choices)."""
        assert self.schema is not None
        allowed = self.schema[key].allowed
        if choices:
            allowed = f"one of {_listed(choices)} ({allowed})"
        self.fail(key, f"got {_shown(value)}; allowed: {allowed}")

    def get(self, key: str, default: object) -> Any:
        if key in self.value:
            return self.value[key]
        if default is REQUIRED:
            self.fail(key, "is required")
        return None if default is NONE else default

    def read(self, name: str, choices: tuple[object, ...] = ()) -> Any:
        """The value of a declared key, checked as its declaration says (``choices`` for a
        choice only known when reading, such as the recipe's tier names)."""
        assert self.schema is not None
        key: Key = self.schema[name]
        value = self.get(name, key.default)
        if name not in self.value:
            return value
        if not _fits(key, value, choices or key.choices):
            self.refuse(name, value, choices)
        return value

    def table(self, key: str, schema: Table | None) -> _Table:
        """A sub-table (empty when absent)."""
        return _Table(self.get(key, {}), self.where(key), self.source, schema)

    def tables(self, key: str, schema: Table, most: int) -> list[_Table]:
        """An array of tables (``[[key]]``), required, non-empty and of at most ``most``."""
        value = self.get(key, REQUIRED)
        if not isinstance(value, list) or not value:
            self.fail(key, f"got {_shown(value)}; allowed: one or more [[{key}]] tables")
        if len(value) > most:
            self.fail(key, f"{len(value)} tables; a recipe may have {most} at most")
        where = self.where(key)
        return [_Table(item, f"{where}[{i}]", self.source, schema) for i, item in enumerate(value)]


def _fits(key: Key, value: object, choices: tuple[object, ...]) -> bool:
    """Whether ``value`` is what ``key`` takes on its own (``value`` keys are checked by their
    readers, with the other keys they depend on)."""
    if key.kind == "string":
        return isinstance(value, str)
    if key.kind == "boolean":
        return isinstance(value, bool)
    if key.kind == "integer":
        high = key.high if key.high is not None else value
        return _is_int(value) and key.low <= value <= high  # type: ignore[operator]
    if key.kind == "choice":
        return isinstance(value, str) and value in choices
    return True


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
    table = top.table("parallel", PARALLEL)
    n_jobs = table.read("n_jobs")
    if not usable_jobs(n_jobs):
        table.refuse("n_jobs", n_jobs)
    backend = table.read("backend")
    scheduler = table.read("scheduler")
    insecure = table.read("insecure")
    tls = {key: table.read(key) for key in TLS_KEYS}
    if scheduler is not None:
        try:
            address = check_scheduler_address(scheduler, insecure)
        except SchedulerAddressError as exc:
            table.fail("scheduler", str(exc))
        if address.tls and (tls["tls_ca"] is None or tls["tls_cert"] is None):
            needs = "tls_ca and tls_cert (--tls-ca, --tls-cert) are required"
            table.fail("scheduler", f"{scheduler} is tls://: {needs}")
    chunk_size = table.read("chunk_size")
    paths = {key: None if name is None else base / name for key, name in tls.items()}
    return ParallelSpec(n_jobs, backend, scheduler, chunk_size, insecure, **paths)


def _trim(table: _Table) -> dict[str, Any]:
    """PrintOptions fields for ``trim``: a named size or a custom ``{width, height}`` in inches
    (their values are checked by PrintOptions)."""
    value = table.get("trim", None)
    if value is None or not isinstance(value, Mapping):
        return {} if value is None else {"trim": value}
    custom = table.table("trim", TRIM)
    return {"trim": CUSTOM, **{side: custom.get(side, REQUIRED) for side in TRIM.names}}


def _print(top: _Table, tier_names: tuple[str, ...]) -> PrintSpec:
    """The ``[print]`` table: its keys read here, their values checked by PrintOptions."""
    table = top.table("print", PRINT)
    fields = {key: table.value[key] for key in PRINT_OPTION_KEYS if key in table.value}
    fields.update(_trim(table))
    fields["worked_solutions"] = _tier_list(table, "worked_solutions", tier_names)
    about = table.read("about")
    try:
        return PrintSpec(PrintOptions(**fields), about)
    except PrintOptionError as exc:
        key = f"trim.{exc.field}" if exc.field in TRIM.names else exc.field
        table.fail(key, exc.problem)


def _cover(top: _Table, spec: PrintSpec) -> CoverOptions | None:
    """The ``[cover]`` table: present (even empty), the book gets a cover."""
    if "cover" not in top.value:
        return None
    table = top.table("cover", COVER)
    fields = {key: table.read(key) for key in COVER.names if key in table.value}
    try:
        options = CoverOptions(**fields)
    except CoverOptionError as exc:
        table.fail(exc.field, exc.problem)
    try:
        check_binding(spec.options)
    except CoverError as exc:
        top.fail("cover", f"{exc} (the [print] binding)")
    return options


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
    size = table.read("size")
    box = table.read("box")
    if size is not None and not _is_int(size):
        table.refuse("size", size)
    if box is not None and not isinstance(box, str):
        table.refuse("box", box)
    try:  # the range and fit of both: engine.geometry.box_shape; every puzzle's id needs its form
        rows, cols = box_shape(DEFAULT_SIZE if size is None and box is None else size, box)
        check_canon_size(rows * cols)
    except ValueError as exc:
        key = "size" if box is None else "box"
        table.fail(key, f"got {_shown(table.value[key])}; {exc}")
    return rows * cols, rows, cols


def _variant(table: _Table, rows: int, cols: int) -> str:
    """The section's variant in its one spelling (:func:`engine.geometry.variant_name`), checked
    against its grid now (windoku is 9x9 only) rather than when the first worker digs."""
    value = table.read("variant")
    if not isinstance(value, str):
        table.refuse("variant", value)
    try:
        variant = checked_variant(value, rows, cols)
    except ValueError as exc:
        table.fail("variant", str(exc))
    if is_jigsaw(variant) and "box" in table.value:
        table.fail("box", f"a {variant} section's regions replace the boxes; leave box out")
    if is_killer(variant):
        for key in DIG_ONLY_KEYS:
            if key in table.value:
                table.fail(key, f"a {variant} section's puzzles are its cages; leave {key} out")
    return variant


def _source(table: _Table, base: Path) -> Path | None:
    """The file a section prints puzzles from (relative to the recipe's folder), or None."""
    name = table.read("source")
    if name is not None and not isinstance(name, str):
        table.refuse("source", name)
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


def _diggable(
    table: _Table,
    section: SectionSpec,
    own: tuple[Tier, ...],
    key: str = "tier",
    also: str = "",
) -> None:
    """Fail now, naming the key (and ``also`` what else is at fault), when the section's band
    can never be dug on its grid (rather than after the engine has compiled and the first
    worker has tried)."""
    band = bands_for(own, section.box_rows, section.box_cols)[section.tier]
    try:
        check_possible(band, geometry(section.box_rows, section.box_cols), section.minimal)
    except ImpossibleBand as exc:
        defined = f" (defined under [tiers.{band.name}])" if band in own else ""
        table.fail(key, f"{exc}{defined}" + (f" ({also})" if also else ""))


def _section(
    table: _Table, own: tuple[Tier, ...], tiers: tuple[str, ...], base: Path
) -> SectionSpec:
    size, rows, cols = _shape(table)
    tier = table.read("tier", tiers)
    title = table.read("title")
    section = SectionSpec(
        title=tier.replace("_", " ").capitalize() if title is None else title,
        size=size,
        box_rows=rows,
        box_cols=cols,
        tier=tier,
        count=table.read("count"),
        symmetry=table.read("symmetry"),
        minimal=table.read("minimal"),
        layout=table.get(
            "layout", SMALL_GRID_LAYOUT if size <= DEFAULT_SIZE else LARGE_GRID_LAYOUT
        ),
        source=_source(table, base),
        order=table.read("order"),
        variant=_variant(table, rows, cols),
    )
    if not _is_int(section.layout) or section.layout not in LAYOUTS:
        table.refuse("layout", section.layout)
    if not section.title.strip():
        table.fail("title", "is empty; allowed: a non-empty string")
    if section.source is None:
        _diggable(table, section, own)
    return section


def _syndication(
    top: _Table, own: tuple[Tier, ...], names: tuple[str, ...]
) -> SyndicationSpec | None:
    """The ``[syndication]`` table, or None without one."""
    if "syndication" not in top.value:
        return None
    table = top.table("syndication", SYNDICATION)
    if "tiers" not in table.value:
        table.fail("tiers", "is required")
    tiers = _tier_list(table, "tiers", names)
    if not tiers or len(set(tiers)) < len(tiers):
        table.refuse("tiers", list(tiers))
    formats = table.get("formats", SYNDICATION["formats"].default)
    if (
        not isinstance(formats, list | tuple)
        or not formats
        or not all(isinstance(name, str) and name in PACK_FORMATS for name in formats)
        or len(set(formats)) < len(formats)
    ):
        table.refuse("formats", formats)
    if "dpi" in table.value and "png" not in formats:
        table.fail("dpi", "applies only with png in formats")
    try:
        width = parse_width(table.read("width"))
    except ValueError as exc:
        table.fail("width", str(exc))
    size, rows, cols = _shape(table)
    spec = SyndicationSpec(
        tiers=tiers,
        days=table.read("days"),
        start=_start(table),
        width=width,
        formats=tuple(name for name in PACK_FORMATS if name in formats),
        dpi=table.read("dpi"),
        size=size,
        box_rows=rows,
        box_cols=cols,
        symmetry=table.read("symmetry"),
        minimal=table.read("minimal"),
    )
    for section in spec.sections():  # the pack's grid may be the fault as much as its tiers
        _diggable(
            table, section, own, "tiers", also="the grid of syndication.size, syndication.box"
        )
    return spec


def _start(table: _Table) -> date | None:
    """A pack's first day: a TOML date or an ISO ``YYYY-MM-DD`` string."""
    value = table.read("start")
    if isinstance(value, str) and ISO_DATE.match(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            table.refuse("start", value)
    if value is not None and (type(value) is not date):
        table.refuse("start", value)
    return value


def _output(top: _Table, base: Path = Path()) -> Path:
    """The output folder; a relative one is taken relative to ``base`` (the recipe's folder)."""
    output = top.read("output")
    if not isinstance(output, str) or not output.strip():
        top.refuse("output", output)
    return Path(os.path.normpath(base / output))


def _timezone(top: _Table) -> str:
    name = top.read("timezone")
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        top.refuse("timezone", name)
    return name


def parse_recipe(
    mapping: Mapping[str, Any], source: str = "<recipe>", base: Path = Path()
) -> Recipe:
    """Validate a recipe already read from TOML; ``source`` names it in error messages, ``base``
    is the folder that sections' ``source`` files and a relative ``output`` are relative to."""
    top = _Table(mapping, "", source, TOP)
    title = top.read("title")
    if not title.strip():
        top.fail("title", "is empty; allowed: a non-empty string")
    tiers = _tiers(top)
    names = tuple(dict.fromkeys((*TIERS, *(band.name for band in tiers))))
    print_spec = _print(top, names)
    recipe = Recipe(
        title=title,
        author=top.read("author"),
        seed=top.read("seed"),
        timezone=_timezone(top),
        output=_output(top, base),
        tiers=tiers,
        parallel=_parallel(top, base),
        print=print_spec,
        cover=_cover(top, print_spec),
        sections=tuple(
            _section(table, tiers, names, base)
            for table in top.tables("sections", SECTION, MAX_SECTIONS)
        ),
        source=source,
        syndication=_syndication(top, tiers, names),
    )
    _check_size(top, recipe)
    return recipe


LARGE_PRINT_PER_PAGE = 2  # large print sets at most this many puzzles on a page


def _check_size(top: _Table, recipe: Recipe) -> None:
    """Refuse, before any work, a book larger than the limits of
    :data:`pipeline.recipe_schema.LIMITS`: its puzzles, and the pages its puzzles alone would
    take (fewer than the book's, so no book the renderer would bind is refused here)."""
    total = sum(section.count for section in recipe.sections)
    if total > MAX_PUZZLES:
        top.fail("sections", f"{total} puzzles in all; a book holds {MAX_PUZZLES} at most")
    large = recipe.print.options.large_print
    pages = sum(
        -(
            -section.count
            // (max(section.layout, LARGE_PRINT_PER_PAGE) if large else section.layout)
        )
        for section in recipe.sections
    )
    if pages > MAX_PAGES:
        top.fail(
            "sections",
            f"the puzzles alone fill {pages} pages; a bound book holds {MAX_PAGES} at most "
            "(fewer puzzles, more puzzles a page with layout, or several books)",
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
    top = _Table(mapping, "", f"{recipe.source} with command-line options", TOP)
    return dataclasses.replace(
        recipe,
        output=_output(top),
        seed=top.read("seed"),
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
    top = _Table({"parallel": _given(options)}, "", "command-line options", TOP)
    return _parallel(top)


def load_recipe(path: str | Path) -> Recipe:
    """Read and validate a recipe file; syntax errors name the line."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_TOML_BYTES + 1)
    except OSError as exc:
        raise RecipeError(f"{path}: cannot read recipe: {exc.strerror or exc}") from None
    if len(data) > MAX_TOML_BYTES:
        raise RecipeError(f"{path}: over {MAX_TOML_BYTES} bytes; a recipe is a page of text")
    if data.count(b".") > MAX_TOML_DOTS:  # tomllib takes time square in a dotted key's length
        raise RecipeError(f"{path}: over {MAX_TOML_DOTS} '.' characters; a recipe needs far fewer")
    try:
        mapping = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RecipeError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise RecipeError(f"{path}: TOML syntax error: {exc}") from None
    except ValueError as exc:  # a value tomllib cannot convert (an integer of 5,000 digits)
        raise RecipeError(f"{path}: a value cannot be read: {exc}") from None
    except RecursionError:  # tomllib recurses once per level of nested arrays or tables
        raise RecipeError(f"{path}: arrays or tables nested too deep to read") from None
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
        if section["variant"] == CLASSIC:  # classic recipes keep the hash (and run id) they had
            del section["variant"]
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()
