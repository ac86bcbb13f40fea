"""Compiling once per machine: the notice on a cold cache, silence after, and no command that
compiles again once the engine is prepared (real commands in real processes, numba's real cache)."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import engine
from engine.logic.passes import solve_passes
from engine.logic.singles import find_singles
from engine.numba_internals import cache_folder as engine_cache_folder
from engine.search import search
from pipeline.prepare import (
    ALL_FAMILIES,
    NOTICE,
    _Reporter,
    machine_key,
    prepare_engine,
    unprepared,
)

ROOT = Path(__file__).resolve().parents[2]
PIPELINE = Path(sys.executable).parent / "pipeline"
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
RECIPE = """
title = "Every Kernel"
seed = 3
output = "{output}"
[parallel]
n_jobs = 2
chunk_size = 2
[[sections]]
size = 4
tier = "easy"
count = 2
minimal = false
[[sections]]
size = 6
tier = "medium"
count = 2
symmetry = "mirror_vertical"
minimal = false
[[sections]]
tier = "hard"
count = 2
symmetry = "rotate180"
[[sections]]
tier = "extreme"
count = 2
[[sections]]
size = 16
tier = "easy"
count = 1
symmetry = "rotate180"
minimal = false
layout = 1
[[sections]]
variant = "jigsaw"
tier = "medium"
count = 1
minimal = false
[[sections]]
variant = "killer"
tier = "easy"
count = 1
"""


def pipeline(*args: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [str(PIPELINE), *map(str, args)],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
        timeout=600,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def puzzle_file(path: Path) -> Path:
    table = pa.table(
        {
            "id": ["a"],
            "givens": [PUZZLE],
            "box_rows": [3],
            "box_cols": [3],
            "solution": [engine.solve(PUZZLE)],
            "size": [9],
            # what verify reads of a graded file; verify checks the solution, not the grade
            "clues": [sum(c != "." for c in PUZZLE)],
            "hardest": ["hidden_single"],
            "iterations": [5],
            "score": [1.2],
            "tier": ["easy"],
        }
    )
    pq.write_table(table, path)
    return path


def test_a_changed_engine_or_machine_prepares_again(monkeypatch) -> None:
    prepare_engine(["counter"])
    assert unprepared(["counter"]) == []
    monkeypatch.setattr("pipeline.prepare.machine_key", lambda: "another-cpu-or-source")
    assert unprepared(["counter", "counter", "grids"]) == ["counter", "grids"]


#: numba says so on stdout when it writes compiled code into its cache (NUMBA_DEBUG_CACHE)
SAVED = "[cache] data saved to"


@pytest.mark.slow
def test_no_command_compiles_once_the_engine_is_prepared(tmp_path: Path) -> None:
    """After `pipeline prepare` (the set-up commands run it), a run over every grid shape, a
    Jigsaw and a Killer and a spread of tiers with workers, grade, generate, dig, verify and
    explain compile nothing: numba, asked to report its cache, saves nothing in any of their
    processes (asked of each command, so that other tests compiling meanwhile do not count)."""
    prepare_engine(ALL_FAMILIES)
    recipe = tmp_path / "every.toml"
    recipe.write_text(RECIPE.format(output=tmp_path / "out"))
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text(f"{PUZZLE}\n{'1' * 81}\n{'.' * 256}\n")
    grids, dug = tmp_path / "grids.parquet", tmp_path / "dug.parquet"
    for args in (
        ("run", recipe, "-q"),
        ("grade", puzzles, "-o", tmp_path / "graded.parquet", "-q"),
        ("generate", "-o", grids, "-n", 3, "--size", 6, "-q"),
        ("dig", grids, "-o", dug, "--tier", "easy", "-q"),
        ("verify", dug),
        ("explain", PUZZLE),
    ):
        done = pipeline(*args, env={"NUMBA_DEBUG_CACHE": "1"})
        assert done.returncode in (0, 1), (args, done.stderr)
        assert NOTICE not in done.stderr
        assert "[cache] data loaded from" in done.stdout, args  # the report is on
        saved = [line for line in done.stdout.splitlines() if line.startswith(SAVED)]
        assert not saved, (args, saved)


HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def seed(cache: Path, kernels: str, beside: Any = find_singles) -> list[str]:
    """Copy the prepared machine's compiled ``kernels`` (a glob of numba's cache files in the
    folder of the kernel ``beside``: ``engine/logic``'s by default) into the kernel cache
    ``cache``, where numba looks for them under it; returns the data files' names (one per
    compiled entry).

    `pipeline prepare`, which the set-up commands run before the tests, compiled them on this
    machine with the engine's sources as they are (numba's cache keys them by those)."""
    prepared = sorted(engine_cache_folder(beside).glob(kernels))
    assert prepared, f"pipeline prepare has not compiled {kernels} here"
    module, name = beside.py_func.__module__, beside.py_func.__name__
    where = subprocess.run(
        [sys.executable, "-c", FOLDER_OF.format(module=module, name=name)],
        capture_output=True,
        text=True,
        env={**os.environ, "NUMBA_CACHE_DIR": str(cache)},
        cwd=ROOT,
        check=True,
    )
    folder = Path(where.stdout.strip())
    folder.mkdir(parents=True, exist_ok=True)  # numba makes it when asked
    for path in prepared:
        shutil.copy2(path, folder / path.name)
    return compiled(folder, kernels)


def compiled(cache: Path, kernels: str) -> list[str]:
    """The data files (one per compiled entry) of numba's cache files ``kernels`` under
    ``cache``."""
    return sorted(path.name for path in cache.rglob(kernels) if path.suffix == ".nbc")


#: Where numba caches a kernel ``{module}.{name}`` under the ``NUMBA_CACHE_DIR`` it is given.
FOLDER_OF = (
    "from engine.numba_internals import cache_folder; "
    "from {module} import {name}; print(cache_folder({name}))"
)
#: Every finder of the ladders: about two minutes of the grader's three minutes of compiling.
#: The prepared machine compiled them split between `pipeline prepare`'s helper lane
#: (``engine.warmup.PARTS``) and the pass loop: a finder that one typed otherwise than the other
#: holds a second entry there.
FINDERS = "*.find_*.nb[ci]"
#: The whole ladder's pass loop, the grader's biggest kernel (20 s of compiling).
WHOLE_LADDER = f"passes.{solve_passes.__name__}-*.nb[ci]"
#: The canonical forms, which nested trial and error reaches (17 s of the rest of the grader's
#: compiling, left to the background process and waited for in step 3 otherwise), and the
#: counter's search (15 s, most of `pipeline verify`'s compiling). Both in engine/'s folder.
CANONICAL_FORMS = "canon.*.nb[ci]"
COUNTER = "search.*.nb[ci]"


@pytest.mark.slow
def test_a_cold_machine_is_told_once_and_grades_on_the_core_rungs_first(tmp_path: Path) -> None:
    """On one empty kernel cache (as after a bare install) but for the finders, the canonical
    forms and the counter's search, in this order:

    1. `pipeline verify` says so once: a notice line first, a line per family prepared (the
       counter), on stderr that is not a terminal; the next command says nothing of it;
    2. two `pipeline grade` commands of easy puzzles, started together, compile the core rungs'
       pass loop (one of them; the other waits for it), grade them and leave the rest to a
       background process that ends with the command, unfinished;
    3. with a hard puzzle among them it waits for (and helps) the background process.
    Every grade writes the rows a prepared machine writes. The finders, the canonical forms
    and the search come compiled from the prepared cache (:func:`seed`, to save the test
    minutes of compiling that tell nothing more), the finders each with one entry: the helper
    lane and the pass loop typed it alike there; and neither pass loop compiled here, core or
    whole, adds a second one.
    (One cache for all three, so that each family compiles once here.) Before 3, the whole
    ladder's pass loop comes from the prepared cache too: the background process of 2 had it
    nearly done when its command ended, and saves it or not by a few seconds; seeded, what 3
    waits for is the same on every run (the rest of the grader family), and no kernel it
    compiles types that pass loop anew."""
    cache = tmp_path / "cache"
    finders = seed(cache, FINDERS)
    forms = seed(cache, CANONICAL_FORMS, beside=search)
    counter = seed(cache, COUNTER, beside=search)
    assert not [name for name in finders if not name.endswith(".1.nbc")], finders
    cold = {"NUMBA_CACHE_DIR": str(cache)}
    source = puzzle_file(tmp_path / "one.parquet")
    first = pipeline("verify", source, env=cold)
    assert first.returncode == 0, first.stderr
    lines = first.stderr.splitlines()
    assert lines[0].startswith(NOTICE) and "counter" in lines[0]
    assert any(line.strip().startswith("[1/1] counter") for line in lines[1:])
    assert lines[-1].startswith("engine ready in")
    assert "1 puzzles verified" in first.stdout
    again = pipeline("verify", source, env=cold)
    assert again.returncode == 0 and again.stderr == ""

    easy = [engine.dig(engine.random_grid(9, seed=s), "easy", seed=s).puzzle for s in range(4)]
    for name, files in (("easy", (easy[:2], easy[2:])), ("mixed", ([*easy, HARD],))):
        sources = [tmp_path / f"{name}-{number}.txt" for number in range(len(files))]
        started = []  # the easy files by two commands at once, racing for the cache
        for source, puzzles in zip(sources, files, strict=True):
            source.write_text("\n".join(puzzles) + "\n")
            arguments = [PIPELINE, "grade", source, "-o", source.with_suffix(".parquet")]
            started.append(
                subprocess.Popen(
                    [str(a) for a in arguments],
                    stderr=subprocess.PIPE,
                    text=True,
                    env={**os.environ, **cold},
                    cwd=ROOT,
                )
            )
        core_compiled = 0  # by one of the two easy commands: the other waits for it
        for source, puzzles, command in zip(sources, files, started, strict=True):
            _, stderr = command.communicate(timeout=600)
            assert command.returncode == 0 and "Traceback" not in stderr, stderr
            lines = stderr.splitlines()
            assert lines[0].startswith(NOTICE) and "in the background" in lines[0], lines
            waited = [line for line in lines if line.startswith("compiling the rest of the engine")]
            assert len(waited) == (name == "mixed"), lines
            core_compiled += sum("grader core: compiled in" in line for line in lines)
            again = source.with_name(f"{source.stem}-prepared.parquet")
            prepared = pipeline("grade", source, "-o", again)
            assert prepared.returncode == 0 and NOTICE not in prepared.stderr
            rows = pq.read_table(source.with_suffix(".parquet"))
            assert rows.equals(pq.read_table(again)) and rows.num_rows == len(puzzles)
        assert core_compiled == (name == "easy"), name
        if name == "easy":  # the background processes ended with the commands, work unfinished
            stamps = {path.name for path in cache.rglob("*.stamp")}
            families = ("counter", "grader-core")  # verify's, and the core rungs'
            assert stamps == {f"sudoku-prepared-{f}-{machine_key()}.stamp" for f in families}
            whole_ladder = seed(cache, WHOLE_LADDER)
    assert compiled(cache, FINDERS) == finders
    assert compiled(cache, WHOLE_LADDER) == whole_ladder
    assert compiled(cache, CANONICAL_FORMS) == forms
    assert compiled(cache, COUNTER) == counter


class Terminal(io.StringIO):
    """What a person watching sees: a stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stream", [Terminal, io.StringIO])
def test_a_family_compiling_shows_a_spinner_with_its_seconds_on_a_terminal_only(stream) -> None:
    """numba prints nothing for the minutes a family compiles: on a terminal its line shows
    meanwhile, with the time so far, and goes when the numbered line comes; in a log, only the
    numbered lines."""
    out = stream()
    report = _Reporter(out, 2)
    with report.compiling("grids"):
        time.sleep(1.2)
    report("grids", 1.2)
    shown = out.getvalue()
    assert shown.endswith("  [1/2] grids: compiled in 1.2 s\n")
    if stream is Terminal:
        assert "[1/2] grids: compiling" in shown and "0:00:01" in shown
    else:
        assert shown == "  [1/2] grids: compiled in 1.2 s\n"
