"""Fuzz the input side: 100,000 generated input files and 20,000 recipes through the real
readers and recipe loader in this process, and 60 of each through the installed ``pipeline``
script.

Run: ``.venv/bin/python bench/fuzz_inputs.py [--inputs N] [--recipes N] [--cli N] [--workers N]``
(the in-process part is shared among ``--workers`` processes; the CLI runs alongside, two at a
time). The inputs (``tests/pipeline/input_fuzz.py``) are puzzle lines, grids, CSV/TSV and
Parquet tables and garbage bytes, in several encodings and line endings, with blank and comment
lines and lines over the length limit, gzipped, cut. Each is built in plain Python from a seed:
hypothesis draws one seed an example and ``BATCH`` inputs are built from it, since hypothesis's
own bookkeeping for an input drawn choice by choice cost more than reading it. Each must read
without an exception other than the documented :class:`FormatError` (a forced table format
whose head has no usable column), with no line reported twice and, where the generator knows
them, exactly the lines that hold a row. Each recipe must load or raise :class:`RecipeError`
naming its file. Through the CLI, ``grade`` must exit 0, 1 or 2 with no traceback and write one
row per row the reader finds; ``grade --recipe`` on a fuzzed recipe must exit 2 with one
``Error:`` line, or grade. Prints the counts, the time and the CPU time taken (this process and
its children); exits 1 if any check failed or fewer inputs or recipes were checked than asked.

Measured with the defaults (2 cores, load 7-9 from other work): 415 s of CPU, 830 s wall; the
in-process part alone (``--cli 0``) 163 s of CPU (245 s wall at load 6-7), the 120 CLI runs
about 2.1 s of CPU each (process start: imports and numba's cache), so about 3.5 minutes on an
idle 2-core machine.
Before (every choice a hypothesis draw, one input an example; 150 CLI runs of each kind), on the
same busy machine: 10,000 inputs and 2,000 recipes took 70 s of CPU (now 18 s; so about 660 s
for the default counts), and 300 CLI runs about 625 s; 2,605 s wall in all at load 14-21.
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import shutil
import subprocess
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from itertools import zip_longest
from pathlib import Path
from random import Random

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))  # the generators live with the tests

import pyarrow.parquet as pq  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pipeline.formats import FormatError  # noqa: E402
from tests.pipeline.input_fuzz import (  # noqa: E402
    Input,
    build_input,
    build_recipe_case,
    check_rows,
    inputs,
    load_fuzzed_recipe,
    read_input,
    recipes,
    scratch_folder,
    seeds,
)

SCRIPT = Path(sys.executable).with_name("pipeline")
SHOWN_FAILURES = 5
SHOWN_CHARS = 3_000  # of each failing example (the key rebuilds it whole)
USAGE = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)  # children: the pool, the CLI runs
CPU_FIELDS = ("ru_utime", "ru_stime")
CLI_WORKERS = 2
CHUNK = 1_000  # inputs per hypothesis run: progress is printed after each
BATCH = 25  # inputs (recipes) built from the seed of one hypothesis example
UNIQUE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def fuzz(count: int, strategy: st.SearchStrategy, check) -> None:
    """Run ``check`` on ``count`` generated examples; a failing check is counted (and its first
    few shown), not shrunk, so one run covers all of them."""

    @settings(
        max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(example=strategy)
    def run(example) -> None:
        check(example)

    run()


class Tally:
    """Counts of what happened, and the first failures with their tracebacks."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.failures: list[str] = []
        self.digests: dict[str, set[bytes]] = {"inputs": set(), "recipes": set()}

    def seen(self, kind: str, example: object) -> None:
        """Note an example, to count the distinct ones (an empty file comes up often)."""
        self.digests[kind].add(hashlib.blake2b(repr(example).encode(), digest_size=12).digest())

    def add(self, other: Tally) -> None:
        self.counts.update(other.counts)
        self.failures += other.failures
        for kind, digests in other.digests.items():
            self.digests[kind] |= digests

    def fail(self, kind: str, what: object) -> None:
        self.counts[kind] += 1
        if len(self.failures) < SHOWN_FAILURES:
            shown = repr(what)
            shown = shown if len(shown) <= SHOWN_CHARS else f"{shown[:SHOWN_CHARS]}... (cut)"
            self.failures.append(f"{kind}: {shown}\n{traceback.format_exc()}")


def check_input(folder: Path, tally: Tally, key: str, found: Input) -> None:
    """Read one generated input (``key`` rebuilds it: ``build_input(Random(key))``)."""
    tally.counts["inputs"] += 1
    tally.seen("inputs", found)
    try:
        rows = read_input(folder, found)
    except FormatError:
        tally.counts["inputs refused (FormatError: forced table, no text column)"] += 1
        if not found.may_be_refused:
            tally.fail("FormatError beyond a forced table or a column without text", (key, found))
        return
    except Exception:  # what the fuzz looks for
        tally.fail("tracebacks", (key, found))
        return
    tally.counts["rows"] += len(rows)
    tally.counts["error rows"] += sum(not row.ok for row in rows)
    tally.counts["inputs with known row lines"] += found.lines is not None
    try:
        check_rows(found, rows)
    except AssertionError:
        tally.fail("rows not reported exactly once", (key, found))


def check_recipe(folder: Path, tally: Tally, key: str, example: tuple[str, int | None]) -> None:
    """Load one generated recipe (``key`` rebuilds it: ``build_recipe_case(Random(key))``)."""
    tally.counts["recipes"] += 1
    tally.seen("recipes", example)
    try:
        tally.counts[f"recipes {load_fuzzed_recipe(folder, *example)}"] += 1
    except AssertionError:
        tally.fail("recipe errors not naming the file", (key, example))
    except Exception:  # what the fuzz looks for
        tally.fail("tracebacks", (key, example))


def collect(count: int, strategy: st.SearchStrategy) -> list:
    found: list = []
    fuzz(count, strategy, found.append)
    return found


def pipeline(*args: object) -> subprocess.CompletedProcess:
    command = [str(SCRIPT), *(str(a) for a in args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=PROJECT)


def cli_input(folder: Path, tally: Tally, index: int, found: Input) -> None:
    """``pipeline grade`` on one generated file: its rows are the reader's, each once."""
    case = folder / f"cli-{index}"
    case.mkdir()
    path = case / found.name
    path.write_bytes(found.data)
    out = case / "graded.parquet"
    options = ["--format", found.fmt] if found.fmt else []
    result = pipeline("grade", path, "-o", out, "-q", "-j", "1", *options)
    tally.counts["CLI grade runs"] += 1
    tally.counts[f"CLI grade exit {result.returncode}"] += 1
    if "Traceback" in result.stderr or result.returncode not in (0, 1, 2):
        tally.fail("CLI tracebacks", (found, result.stderr[-2000:]))
        return
    if result.returncode == 2:
        if not result.stderr.strip().splitlines()[-1].startswith("Error: "):
            tally.fail("CLI errors not one line", (found, result.stderr))
        return
    try:
        lines = pq.read_table(out).column("line").to_pylist()
        expected = [row.line for row in read_input(case, found)]
        assert lines == expected and (found.lines is None or tuple(lines) == found.lines)
    except AssertionError:
        tally.fail("CLI rows not reported exactly once", found)


def cli_recipe(folder: Path, tally: Tally, index: int, text: str) -> None:
    """``pipeline grade --recipe``: a bad recipe is exit 2 and one line naming the file."""
    case = folder / f"recipe-{index}"
    case.mkdir()
    recipe = case / "fuzz.toml"
    recipe.write_bytes(text.encode("utf-8", "surrogateescape"))
    puzzles = case / "p.txt"
    puzzles.write_text(UNIQUE + "\n")
    result = pipeline("grade", puzzles, "--recipe", recipe, "-q", "-j", "1")
    tally.counts["CLI recipe runs"] += 1
    tally.counts[f"CLI recipe exit {result.returncode}"] += 1
    lines = result.stderr.strip().splitlines()
    if result.returncode == 2:
        ok = len(lines) == 1 and lines[0].startswith(f"Error: {recipe}: ")
    else:
        ok = result.returncode == 0 and "Traceback" not in result.stderr
    if not ok:
        tally.fail("CLI recipe failures", (text, result.stderr[-2000:]))


def batches(index: int, count: int, build, check) -> None:
    """Run ``check`` on ``count`` examples of ``build``: hypothesis draws one seed an example,
    and ``BATCH`` are built from it (each from its own :class:`Random`, keyed by the chunk
    ``index``, the seed and its place, so a failure shown with its key can be rebuilt)."""
    left = count

    def batch(seed: int) -> None:
        nonlocal left
        for place in range(min(BATCH, left)):
            key = f"{index}:{seed}:{place}"
            check(key, build(Random(key)))
        left -= BATCH

    if count:
        fuzz(-(-count // BATCH), seeds, batch)


def in_process(part: tuple[int, int, int]) -> Tally:
    """One chunk of the in-process part: generated inputs, then recipes, read in this process."""
    index, inputs_count, recipes_count = part
    folder = scratch_folder()
    tally = Tally()
    batches(index, inputs_count, build_input, partial(check_input, folder, tally))
    batches(index, recipes_count, build_recipe_case, partial(check_recipe, folder, tally))
    shutil.rmtree(folder, ignore_errors=True)
    return tally


def chunks(total: int, size: int) -> list[int]:
    return [min(size, total - start) for start in range(0, total, size)]


def report(tally: Tally, started: float, final: bool) -> None:
    if final:
        for name, count in sorted(tally.counts.items()):
            print(f"{name:<55}{count:>10}")
    else:
        shown = ", ".join(f"{k} {tally.counts[k]}" for k in ("inputs", "recipes", "tracebacks"))
        print(f"[{time.perf_counter() - started:.0f} s] {shown}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--recipes", type=int, default=20_000)
    parser.add_argument("--cli", type=int, default=60, help="inputs and recipes each, via CLI")
    parser.add_argument("--workers", type=int, default=2, help="processes for the in-process part")
    args = parser.parse_args()
    tally = Tally()
    start = time.perf_counter()
    sizes = zip_longest(chunks(args.inputs, CHUNK), chunks(args.recipes, CHUNK // 5), fillvalue=0)
    parts = [(index, *counts) for index, counts in enumerate(sizes)]
    with ProcessPoolExecutor(args.workers + 1) as pool:  # one more for the CLI runs
        cli_job = pool.submit(run_cli, args.cli) if args.cli and SCRIPT.exists() else None
        for part in pool.map(in_process, parts):
            tally.add(part)
            report(tally, start, final=False)
        in_process_time = time.perf_counter() - start
        if cli_job is not None:
            tally.add(cli_job.result())
    total = time.perf_counter() - start
    cpu = sum(getattr(resource.getrusage(who), field) for who in USAGE for field in CPU_FIELDS)
    for kind, digests in tally.digests.items():
        tally.counts[f"{kind}, distinct"] = len(digests)
    report(tally, start, final=True)
    print(
        f"time: {in_process_time:.0f} s for the in-process part ({args.workers} processes), "
        f"{total:.0f} s in all (the CLI runs alongside, {CLI_WORKERS} at a time); "
        f"{cpu:.0f} s of CPU"
    )
    failed = [
        kind
        for kind, count in tally.counts.items()
        if count and ("traceback" in kind or " not " in kind)
    ]
    if tally.counts["inputs"] < args.inputs or tally.counts["recipes"] < args.recipes:
        failed.append("fewer inputs or recipes than asked")
    for failure in tally.failures[:SHOWN_FAILURES]:
        print(failure, file=sys.stderr)
    print("FAILED: " + ", ".join(failed) if failed else "0 tracebacks, every row reported once")
    return 1 if failed else 0


def run_cli(count: int) -> Tally:
    """``count`` generated inputs and recipes through the installed script."""
    folder = scratch_folder()
    tally = Tally()
    cli_inputs = collect(count, inputs)
    cli_recipes = [text for text, _ in collect(count, recipes)]
    with ThreadPoolExecutor(CLI_WORKERS) as pool:
        jobs = [pool.submit(cli_input, folder, tally, i, f) for i, f in enumerate(cli_inputs)]
        jobs += [pool.submit(cli_recipe, folder, tally, i, t) for i, t in enumerate(cli_recipes)]
        for job in jobs:
            job.result()
    shutil.rmtree(folder, ignore_errors=True)
    return tally


if __name__ == "__main__":
    sys.exit(main())
