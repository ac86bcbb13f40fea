"""``pipeline grade`` throughput with 1 and 2 workers, the grader's own ceiling, and peak memory.

Run: ``.venv/bin/python bench/grade_files_bench.py [--lines N] [--jobs 1 2]``.

* Throughput: the real command (a fresh process each time, start-up and writing included) on
  ../shared/data/17_clue.txt, as wall-clock puzzles/s and as puzzles per CPU-second (the CPU
  time of the command and its workers), which stays meaningful on a shared, busy machine.
  Start-up (imports, numba's cache, worker processes) is a fixed second or two; the steady-state
  rate excludes it: the extra puzzles of a file holding 17_clue.txt REPEAT times over the extra
  time it takes.
* Ceiling: ``engine.grade_many`` on one core in this process (warm), the work every row needs;
  twice it is what two cores can do at best, to compare with the target.
* A first, unmeasured run on a small file fills numba's cache, so no figure includes compiling.
* Memory: peak resident size of the largest process (the command or one of its workers) on a
  small and a large generated file (17-clue puzzles, one line in 97 damaged), so the difference
  is what the file's size costs: flat means it does not grow with the file.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from formats_bench import CLUES, SMALL_LINES, generate  # the same generated files as the reader's

import engine

TARGET = 20_000  # puzzles/s on 2 cores (issue 6)
REPEAT = 5  # the steady-state file: 17_clue.txt this many times over
CEILING_SAMPLE = 5_000  # puzzles timed for the grader's ceiling
WARM_LINES = 500  # a first, unmeasured run: numba's cache is filled before any timing
RUN_APP = (
    "import sys; import pipeline.commands.grade; from pipeline.app import app; "
    "app(sys.argv[1:], prog_name='pipeline')"
)


def run_command(path: Path, jobs: int, output: Path) -> tuple[float, float, float]:
    """Run ``pipeline grade`` in a fresh process: (wall seconds, CPU seconds, peak MiB).

    Peak and CPU come from the finished processes this one waited for (the command, which
    waits for its workers), so run it once per measure from a fresh parent (see ``--child``).
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    command = [sys.executable, "-c", RUN_APP, "grade", str(path), "-o", str(output)]
    done = subprocess.run([*command, "-j", str(jobs), "-q"], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):  # 1: some rows are not ok, expected in generated files
        raise SystemExit(f"pipeline grade failed ({done.returncode}): {done.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


def rows_in(path: Path) -> int:
    with path.open() as handle:
        return sum(1 for line in handle if line.strip() and not line.startswith("#"))


def grader_ceiling() -> float:
    """Puzzles/s of ``engine.grade_many`` (the worker's engine call) on one core, warm."""
    puzzles = [p for p in CLUES.read_text().split("\n") if p and not p.startswith("#")]
    sample = puzzles[:CEILING_SAMPLE]
    engine.grade_many(sample[:10])
    start = time.process_time()
    engine.grade_many(sample)
    return len(sample) / (time.process_time() - start)


def child(path: Path, jobs: int) -> None:
    """Measure one command run from this fresh process and print the figures."""
    with tempfile.TemporaryDirectory() as folder:
        wall, cpu, peak = run_command(path, jobs, Path(folder) / "graded.parquet")
    print(f"{wall} {cpu} {peak}")


def measure(path: Path, jobs: int) -> tuple[float, float, float]:
    script = [sys.executable, __file__, "--child", str(path), "--jobs", str(jobs)]
    done = subprocess.run(script, check=True, capture_output=True, text=True)
    wall, cpu, peak = (float(x) for x in done.stdout.split())
    return wall, cpu, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000, help="lines in the large file")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="worker counts")
    parser.add_argument("--skip-memory", action="store_true", help="throughput only")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.jobs[0])
        return
    if not CLUES.exists():
        raise SystemExit(f"{CLUES} absent: nothing to measure")
    count = rows_in(CLUES)
    with tempfile.TemporaryDirectory() as folder:  # compile (or load) every kernel once first
        warm = Path(folder) / "warm.txt"
        generate(warm, WARM_LINES)
        measure(warm, 1)
    rate = grader_ceiling()
    print(f"grader alone (engine.grade_many), one core: {rate:,.0f} puzzles/CPU-s")
    print(f"  two cores at best: {2 * rate:,.0f} puzzles/s; target {TARGET:,}")
    with tempfile.TemporaryDirectory() as folder:
        repeated = Path(folder) / f"17_clue_x{REPEAT}.txt"
        repeated.write_text(CLUES.read_text() * REPEAT)
        for jobs in args.jobs:
            wall, cpu, peak = measure(CLUES, jobs)
            print(
                f"pipeline grade 17_clue.txt -j {jobs}: {count:,} puzzles in {wall:.1f} s = "
                f"{count / wall:,.0f} puzzles/s wall (start-up included), "
                f"{count / cpu:,.0f} puzzles/CPU-s, peak {peak:,.0f} MiB"
            )
            long_wall, _, _ = measure(repeated, jobs)
            extra = (REPEAT - 1) * count
            print(
                f"  steady state, -j {jobs}: the {REPEAT}x file takes {long_wall:.1f} s: "
                f"{extra:,} more puzzles in {long_wall - wall:.1f} s more = "
                f"{extra / (long_wall - wall):,.0f} puzzles/s"
            )
    if args.skip_memory:
        return
    with tempfile.TemporaryDirectory() as folder:
        for lines in (SMALL_LINES, args.lines):
            path = Path(folder) / f"{lines}.txt"
            generate(path, lines)
            wall, _, peak = measure(path, max(args.jobs))
            print(
                f"{lines:>9,} lines ({path.stat().st_size / 2**20:,.0f} MiB), -j {max(args.jobs)}: "
                f"{wall:,.0f} s, peak memory of the largest process {peak:,.0f} MiB"
            )


if __name__ == "__main__":
    main()
