"""Wall time and peak memory of ``pipeline stats``, ``verify`` and ``render`` on a big graded file.

Run: ``.venv/bin/python bench/tables_bench.py [--rows 1000000] [--sample 40000] [--repeat 3]``.

* The big file: ``pipeline grade`` output of ../shared/data/17_clue.txt (one line in 400 damaged,
  so some rows are not ok), repeated until it has ``--rows`` rows, each repetition a disguise of
  the original (its digits relabelled, the same for puzzle and solution, so every row stays a
  valid, unique puzzle) with its scores moved by less than 0.1 %. Written as ``pipeline grade``
  writes, row groups of ``BATCH_ROWS``. Both files are cached under output/tables_bench/.
* ``verify`` runs on the first ``--sample`` rows (the counter's 69k puzzles/s would take a
  quarter of a minute on a million); its puzzles/s is to compare with that counter alone.
* Each command is the installed script in a fresh process (start-up and imports included), run
  ``--repeat`` times; the figures are the median wall time and the largest peak resident size
  (a small launcher's ``RUSAGE_CHILDREN``). Targets on 1M rows: ``stats`` within 2 s and
  500 MB, ``render --tier hard --count 100`` (the PDF included) within 3 s and 500 MB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

import engine
from pipeline.formats.writers import BATCH_ROWS

PROJECT = Path(__file__).resolve().parent.parent
SOURCE = PROJECT.parent / "shared" / "data" / "17_clue.txt"
CACHE = PROJECT / "output" / "tables_bench"
PIPELINE = Path(sys.executable).parent / "pipeline"
DAMAGED_EVERY = 400  # one source line in this many gets a clash: rows that are not ok
DIGITS = [str(digit) for digit in range(1, 10)]
SCORE_JITTER = 1e-3  # relative: repeated rows' scores differ, their tiers do not
#: Runs a command and writes its peak resident size (KiB) and CPU seconds to a file: a small
#: process of its own, as a child's peak counts the memory of the process it was forked from.
LAUNCHER = (
    "import resource, subprocess, sys; code = subprocess.call(sys.argv[2:]); "
    "usage = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "open(sys.argv[1], 'w').write(f'{usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}'); "
    "sys.exit(code)"
)
TARGETS = {"stats": (2.0, 500), "render": (3.0, 500)}  # seconds, MB on the big file


def graded_source(folder: Path) -> Path:
    """``pipeline grade`` output of the source collection, some lines damaged."""
    graded = folder / "graded-17-clue.parquet"
    if graded.exists():
        return graded
    if not SOURCE.exists():
        sys.exit(f"{SOURCE} is missing: the public data sets are needed to build the big file")
    lines = SOURCE.read_text().splitlines()
    damaged = [
        "11" + line[2:] if number % DAMAGED_EVERY == 0 and len(line) == 81 else line
        for number, line in enumerate(lines, 1)
    ]
    text = folder / "17-clue-damaged.txt"
    text.write_text("\n".join(damaged) + "\n")
    command = [PIPELINE, "grade", text, "-o", graded, "-q"]
    result = subprocess.run(command, capture_output=True, check=False)
    if result.returncode not in (0, 1):  # 1: some rows not ok, as intended
        sys.exit(f"pipeline grade failed with exit code {result.returncode}")
    return graded


def big_file(small: Path, rows: int, folder: Path) -> Path:
    """``small`` repeated as disguises until ``rows`` rows (see the module docstring)."""
    big = folder / f"graded-{rows}.parquet"
    if big.exists():
        return big
    table = pq.read_table(small)
    rng = np.random.default_rng(2026)
    written = 0
    temporary = big.with_suffix(".partial")
    with pq.ParquetWriter(temporary, table.schema) as writer:
        while written < rows:
            part = table.slice(0, rows - written)
            relabel = [str(digit) for digit in rng.permutation(9) + 1]
            for name in ("puzzle", "solution"):
                text = pl.Series(part.column(name)).str.replace_many(DIGITS, relabel)
                position = part.schema.get_field_index(name)
                part = part.set_column(position, name, text.to_arrow().cast(pa.string()))
            score = np.asarray(part.column("score").to_numpy(zero_copy_only=False), dtype=float)
            moved = score * (1 + rng.uniform(-SCORE_JITTER, SCORE_JITTER, len(score)))
            position = part.schema.get_field_index("score")
            part = part.set_column(position, "score", pa.array(moved, pa.float64()))
            writer.write_table(part, row_group_size=BATCH_ROWS)
            written += part.num_rows
    temporary.rename(big)
    return big


def sample_file(big: Path, rows: int, folder: Path) -> Path:
    sample = folder / f"graded-sample-{rows}.parquet"
    if not sample.exists():
        pq.write_table(pq.read_table(big).slice(0, rows), sample, row_group_size=BATCH_ROWS)
    return sample


class Run(NamedTuple):
    seconds: float  # wall
    cpu: float  # user + system seconds of the command and its children
    megabytes: float  # peak resident size
    output: str


def measure(args: list[object]) -> Run:
    """One run of the pipeline script in a fresh process."""
    with tempfile.NamedTemporaryFile("r") as usage:
        start = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-S", "-c", LAUNCHER, usage.name, PIPELINE, *map(str, args)],
            capture_output=True,
            text=True,
            check=False,
        )
        seconds = time.perf_counter() - start
        kilobytes, cpu = usage.read().split()
    if result.returncode not in (0, 1):
        sys.exit(f"pipeline {args[0]} failed ({result.returncode}):\n{result.stderr}")
    return Run(seconds, float(cpu), int(kilobytes) / 1024, result.stdout)


def counter_rate(sample: Path) -> float:
    """Puzzles per second of the solution counter alone on the sample's ok puzzles (warm)."""
    givens = pl.read_parquet(sample).filter(pl.col("status") == "ok")["puzzle"].to_list()
    engine.count_many(givens[:100], 2, solutions=True)  # numba's cache loaded
    start = time.perf_counter()
    engine.count_many(givens, 2, solutions=True)
    return len(givens) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--sample", type=int, default=40_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    CACHE.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    big = big_file(graded_source(CACHE), args.rows, CACHE)
    sample = sample_file(big, args.sample, CACHE)
    print(f"files ready in {time.perf_counter() - start:.1f} s: {big} ({args.rows:,} rows)")
    pdf = CACHE / "hard.pdf"
    commands = {
        "stats": ["stats", big],
        "verify": ["verify", sample],
        "render": ["render", big, "--tier", "hard", "--count", 100, "-o", pdf],
    }
    print(f"load average {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores")
    for name, command in commands.items():
        runs = []
        for _ in range(args.repeat):
            pdf.unlink(missing_ok=True)
            runs.append(measure(command))
        seconds = statistics.median(run.seconds for run in runs)
        cpu = statistics.median(run.cpu for run in runs)
        peak = max(run.megabytes for run in runs)
        line = f"{name:7} {seconds:6.2f} s wall {cpu:6.2f} s CPU {peak:6.0f} MB peak RSS"
        if name == "verify":
            line += f"  {args.sample / seconds:,.0f} puzzles/s ({args.sample:,} rows)"
        if name in TARGETS:
            target_seconds, target_mb = TARGETS[name]
            met = seconds <= target_seconds and peak <= target_mb
            line += f"  target {target_seconds:g} s, {target_mb} MB: {'ok' if met else 'MISSED'}"
        print(line)
        print("        " + runs[-1].output.strip().splitlines()[-1])
    print(
        f"counter alone (engine.count_many, in this process): {counter_rate(sample):,.0f} puzzles/s"
    )
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
