"""What many test modules share: the CLI runners, reading an error line, small recipes, sample
puzzles and the hypothesis strategies. Test modules import from here, never from each other."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np
from hypothesis import strategies as st
from typer import testing as typer_testing
from typer.testing import CliRunner

import engine
from engine import SYMBOLS
from engine.geometry import Geometry
from engine.solver import count_grid
from engine.text import Grid, parse, to_text
from pipeline.cli import app

PROJECT = Path(__file__).resolve().parents[1]
RUN_APP = "import sys; from pipeline.cli import app; app(sys.argv[1:], prog_name='pipeline')"

# ---- the command line ---------------------------------------------------------------------------

runner = CliRunner()
# typer's runner builds the app's click command again on every invoke, most of the time of an
# in-process command (23 of 32 ms of an easy explain); built once, as the installed script does
typer_testing._get_command = functools.cache(typer_testing._get_command)


class Outcome(NamedTuple):
    """What a command did: its exit code and what it wrote to each stream."""

    code: int
    stdout: str
    stderr: str


def invoke(*args: object, stdin: str | None = None) -> Outcome:
    """``pipeline *args`` in this process; a traceback or an exception other than the exit fails
    the test, since a user must never see one."""
    result = runner.invoke(app, [str(arg) for arg in args], input=stdin)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return Outcome(result.exit_code, result.stdout, result.stderr)


def run_pipeline(
    *args: object, stdin: bytes | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    """The app in a real process, as ``.venv/bin/pipeline`` runs it."""
    command = [sys.executable, "-c", RUN_APP, *(str(a) for a in args)]
    return subprocess.run(command, input=stdin, capture_output=True, cwd=PROJECT, timeout=timeout)


def one_error_line(stderr: str) -> str:
    """The one ``Error: ...`` line a refused command prints, and nothing else."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), stderr
    return lines[0]


CHROMIUM_TIMEOUT = 120  # s


def chromium_screenshot(page: Path, shot: Path, window: tuple[int, int], profile: Path) -> None:
    """Render ``page`` in headless Chromium (a fresh profile, no network chatter) into the PNG
    ``shot`` at ``window`` pixels, as a reader's browser would draw it."""
    subprocess.run(
        [
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            f"--screenshot={shot}",
            f"--window-size={window[0]},{window[1]}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT,
    )


# ---- puzzles ------------------------------------------------------------------------------------


def solution_grid(box_rows: int, box_cols: int, shift: int = 0) -> str:
    """A valid full grid by the shifted-rows pattern: row r starts at a box-row offset."""
    n = box_rows * box_cols
    return "".join(
        SYMBOLS[(box_cols * (r % box_rows) + r // box_rows + c + shift) % n]
        for r in range(n)
        for c in range(n)
    )


def one_blank_per_row(grid: str, n: int, offset: int = 0) -> str:
    """The grid with one cell blanked in each row (a different column each): unique by
    construction, since each row then misses exactly one symbol."""
    cells = list(grid)
    for r in range(n):
        cells[r * n + (r + offset) % n] = "."
    return "".join(cells)


SOLUTION = solution_grid(3, 3)
UNIQUE = one_blank_per_row(SOLUTION, 9)
MULTI = "1" + "." * 80  # one clue: many solutions
NO_SOL = "12345678." + "........9" + "." * 63  # r1c9 has no candidate, yet no two givens clash
CLASH = "11" + "." * 79  # two 1s in the first row: not even a puzzle
SHORT = "1234"


def grid_text(values: list[int]) -> str:
    """Cell values (0 for a blank) as puzzle text."""
    return "".join(SYMBOLS[v - 1] if v else "." for v in values)


def dig(geo: Geometry, seed: int, tried: float = 1.0) -> str:
    """A minimal-ish unique puzzle: blank cells of a random grid while the answer stays unique,
    trying that on the ``tried`` share of its cells."""
    rng = np.random.default_rng(seed)
    values = parse(engine.random_grid(seed=seed, box=geo), geo).values.copy()
    for cell in rng.permutation(geo.ncells)[: round(tried * geo.ncells)]:
        keep = values[cell]
        values[cell] = 0
        if count_grid(Grid(geo, values), 2)[0] != 1:
            values[cell] = keep
    return to_text(geo, values)


KEEP_WRONG = 0.25  # solution_states: chance that a wrong candidate stays in an open cell
SOLVE = 0.3  # solution_states: chance that an open cell counts as solved by logic


def solution_states(geo: Geometry, text: str, seed: int, count: int):
    """(cand, placed, given, solution) pencil-mark states of a unique puzzle that its solution
    fits: some open cells solved, some wrong candidates left (none a placed peer rules out).
    Whatever a sound finder claims on them is true of the solution."""
    values = parse(text, geo).values.astype(np.int32)
    solution = parse(engine.solve(text, box=geo), geo).values.astype(np.int32)
    given = (values != 0).astype(np.int32)
    rng = np.random.default_rng(seed)
    for _ in range(count):
        placed = np.where(given | (rng.random(geo.ncells) < SOLVE), solution, 0).astype(np.int32)
        cand = np.zeros(geo.ncells, dtype=np.uint64)
        for cell in range(geo.ncells):
            if placed[cell]:
                cand[cell] = 1 << (int(placed[cell]) - 1)
                continue
            seen = {int(placed[p]) for p in geo.peers[cell]}
            digits = {int(solution[cell])}
            digits |= {d for d in range(1, geo.n + 1) if rng.random() < KEEP_WRONG} - seen
            cand[cell] = sum(1 << (d - 1) for d in digits)
        yield cand, placed, given, solution


# ---- variant puzzles (their rules and a SAT count: tests/variant_rules.py) -----------------------


def in_one_piece(cells: list[int], n: int) -> bool:
    """Whether cells of an n x n grid are orthogonally connected."""
    todo, seen = [cells[0]], {cells[0]}
    while todo:
        r, c = divmod(todo.pop(), n)
        for other in (r * n + c - n, r * n + c + n, r * n + c - 1, r * n + c + 1):
            near = abs(other // n - r) + abs(other % n - c) == 1
            if other in cells and other not in seen and near:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(cells)


def tagged_line(puzzle: str, variant: str = "classic", regions: str | None = None) -> str:
    """A puzzle's line in the text form of docs/puzzle-files.md: the puzzle alone when classic,
    else ``variant: [layout] puzzle``."""
    if variant == "classic":
        return puzzle
    return f"{variant}: {puzzle if regions is None else f'{regions} {puzzle}'}"


# ---- hypothesis strategies ----------------------------------------------------------------------

# every box shape up to 9x9, tall ones too; the share of cells partial_grids may blank shrinks
# with the size, or the counts would take long
SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]
BLANK_AT_MOST = {4: 0.9, 6: 0.9, 8: 0.6, 9: 0.55, 12: 0.6, 16: 0.5}


@st.composite
def partial_grids(
    draw: st.DrawFn, shapes: list[tuple[int, int]] = SHAPES
) -> tuple[int, int, list[int]]:
    """Random partial grids: a random full grid (``engine.random_grid``, drawn shape and seed)
    with a drawn share of its cells blanked in a drawn order, sometimes with one given changed
    (often a clash)."""
    box_rows, box_cols = draw(st.sampled_from(shapes))
    n = box_rows * box_cols
    seed = draw(st.integers(0, 2**32 - 1))
    box = (box_rows, box_cols)
    full = engine.parse(engine.random_grid(n, seed=seed, box=box), box)
    values = [int(v) for v in full.values]
    share = draw(st.floats(0.0, BLANK_AT_MOST[n]))
    order = draw(st.permutations(range(n * n)))
    for cell in order[: round(share * n * n)]:
        values[cell] = 0
    if draw(st.booleans()):
        values[draw(st.integers(0, n * n - 1))] = draw(st.integers(1, n))
    return box_rows, box_cols, values


def clash_free(case: tuple[int, int, list[int]]) -> bool:
    """Whether a drawn partial grid has no two equal givens in a unit."""
    box_rows, box_cols, values = case
    geo = engine.geometry(box_rows, box_cols)
    return engine.text.find_clash(geo, np.array(values, dtype=np.uint8)) is None


# ---- whole runs ---------------------------------------------------------------------------------

SMALL_RECIPE = """
title = "Small Test"
seed = {seed}
output = "{output}"
[parallel]
n_jobs = {n_jobs}
chunk_size = {chunk_size}
[print]
about = false
[[sections]]
title = "Tiny"
size = 4
tier = "easy"
count = 4
minimal = false
layout = 6
[[sections]]
title = "Classic"
size = 9
tier = "easy"
count = {nine}
symmetry = "rotate180"
layout = 4
"""
TIMESTAMPS = ("created",)


def small_recipe(
    folder: Path, seed: int = 7, n_jobs: int = 1, chunk_size: int = 3, nine: int = 6
) -> Path:
    """A two-section recipe (4x4 and 9x9 easy) written in ``folder``, output under it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"small-{seed}.toml"
    text = SMALL_RECIPE.format(
        seed=seed, output=folder / "output", n_jobs=n_jobs, chunk_size=chunk_size, nine=nine
    )
    path.write_text(text)
    return path


VARIANT_RECIPE = """
title = "Variant Test"
seed = {seed}
output = "{output}"
[parallel]
n_jobs = 1
chunk_size = 2
[print]
about = false
[[sections]]
title = "X"
size = 6
variant = "X"
tier = "easy"
count = 2
[[sections]]
title = "Windoku"
variant = "windoku"
tier = "easy"
count = 1
minimal = false
[[sections]]
title = "Jigsaw"
size = 6
variant = "jigsaw"
tier = "easy"
count = 3
[[sections]]
title = "Jigsaw-X"
size = 6
variant = "x+jigsaw"
tier = "easy"
count = 1
minimal = false
"""


def variant_recipe(folder: Path, seed: int = 5) -> Path:
    """A recipe of easy 6x6 X, 9x9 Windoku, 6x6 Jigsaw and Jigsaw-X sections (the last two a
    layout per puzzle; names spelled freely) written in ``folder``, output under it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "variants.toml"
    path.write_text(VARIANT_RECIPE.format(seed=seed, output=folder / "output"))
    return path


def content(rows: list[dict]) -> list[dict]:
    """Rows without timestamps: what must be equal between equivalent runs."""
    return [{k: v for k, v in row.items() if k not in TIMESTAMPS} for row in rows]


# A process that takes an flock on argv[1], says "held" and keeps it for 30 s.
HOLD_LOCK = """
import fcntl, os, sys, time
handle = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(handle, fcntl.LOCK_EX)
os.write(handle, str(os.getpid()).encode())
print("held", flush=True)
time.sleep(30)
"""
