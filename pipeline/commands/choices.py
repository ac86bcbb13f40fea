"""The values the CLI offers as choices and defaults, as ``Literal`` types typer lists in --help.

The modules that own these names import numba, reportlab or pyarrow, which ``pipeline --help``
must not wait for; so the names are repeated here, and ``tests/pipeline/test_cli.py`` checks each
against its owner (``engine.TIERS``, ``engine.dig.SYMMETRIES``, ``pipeline.render`` ...).
"""

from __future__ import annotations

from typing import Literal

TIERS = ("easy", "medium", "hard", "expert", "extreme")  # engine.TIERS
SYMMETRIES = (  # engine.dig.SYMMETRIES
    "none",
    "rotate180",
    "rotate90",
    "mirror_horizontal",
    "mirror_vertical",
    "diagonal",
    "anti_diagonal",
)
BACKENDS = ("loky", "dask")  # pipeline.recipe.BACKENDS
TRIMS = ("letter", "a4", "6x9", "8.5x11", "5.5x8.5")  # pipeline.render.page.TRIMS
LAYOUTS = (1, 2, 4, 6)  # pipeline.render.book.LAYOUTS
IMPOSITIONS = ("none", "saddle-stitch")  # pipeline.render.options.IMPOSITIONS
FORMATS = ("lines", "sdk", "ss", "grid", "csv", "tsv", "parquet")  # pipeline.formats.FORMATS

CLASSIC = "classic"  # engine.geometry.CLASSIC: the variant of rows, columns and boxes
ALL_CORES = -1  # pipeline.recipe.ALL_CORES
DEFAULT_CHUNK_SIZE = 25  # pipeline.recipe.DEFAULT_CHUNK_SIZE: grids or puzzles per task
DEFAULT_GRADE_CHUNK = 2_000  # pipeline.grade.DEFAULT_CHUNK: rows per grading task
MIN_SIZE, MAX_SIZE = 4, 64  # engine.geometry.MIN_SIZE, MAX_SIZE
MAX_SEED = 2**63 - 1  # pipeline.recipe.MAX_SEED: seeds are stored in int64 columns
PUZZLES_FILE = "puzzles.parquet"  # pipeline.run.PUZZLES_FILE: a run folder's puzzles

Tier = Literal[TIERS]  # type: ignore[valid-type]
Symmetry = Literal[SYMMETRIES]  # type: ignore[valid-type]
Backend = Literal[BACKENDS]  # type: ignore[valid-type]
Trim = Literal[TRIMS]  # type: ignore[valid-type]
Layout = Literal[LAYOUTS]  # type: ignore[valid-type]
Imposition = Literal[IMPOSITIONS]  # type: ignore[valid-type]
Format = Literal[FORMATS]  # type: ignore[valid-type]
