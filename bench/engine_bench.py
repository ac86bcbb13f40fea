"""Engine-core throughput: counting to 2, random full grids, and qqwing --solve side by side.

Run: .venv/bin/python bench/engine_bench.py [--quick]
Single core (numba kernels are single-threaded); each figure is the median of several runs.
qqwing (Debian package `qqwing`, installed by .ci/system-deps) solves the same puzzles in the same
run, so the ratio compares like with like on this machine.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable

from public_sets import DATA, read

import engine


def median_seconds(work: Callable[[], object], repeats: int) -> float:
    work()  # warm-up: numba compile or cache load
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def qqwing_rate(puzzles: list[str]) -> float | None:
    """Puzzles/s for `qqwing --solve --count-solutions` on the same puzzles (None if absent)."""
    if shutil.which("qqwing") is None:
        return None
    feed = "\n".join(puzzles) + "\n"
    command = ["qqwing", "--solve", "--count-solutions", "--one-line", "--nosolution"]
    start = time.perf_counter()
    subprocess.run(command, input=feed, text=True, capture_output=True, check=True)
    return len(puzzles) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer puzzles and repeats")
    args = parser.parse_args()
    repeats = 3 if args.quick else 5
    print(
        f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}"
    )
    print(f"{'what':52} {'ours/s':>10} {'qqwing/s':>10} {'ratio':>7}")
    for name, limit in [("17_clue.txt", None), ("forum_hardest_1905_11plus.txt", 10_000)]:
        puzzles = read(DATA / name)[:limit]
        if args.quick:
            puzzles = puzzles[:5_000]
        seconds = median_seconds(lambda p=puzzles: engine.count_many(p, limit=2), repeats)
        ours = len(puzzles) / seconds
        peer = qqwing_rate(puzzles[:2_000])
        ratio = f"{ours / peer:6.1f}x" if peer else "   n/a"
        peer_text = f"{peer:10,.0f}" if peer else "    absent"
        print(
            f"{'count to 2: ' + name + f' ({len(puzzles)})':52} {ours:10,.0f} {peer_text} {ratio}"
        )
    puzzle = read(DATA / "sudoku25x25.txt")[0]  # the DFS alone runs past millions of branches here
    seconds = median_seconds(lambda: engine.count_solutions(puzzle), 1 if args.quick else 3)
    print(f"{'count to 2: sudoku25x25.txt (MiniZinc), seconds':52} {seconds:10.2f}")
    count = 5_000 if args.quick else 20_000
    seconds = median_seconds(lambda: engine.random_grids(count, 9, seed=1), repeats)
    print(f"{'random 9x9 grids (random_grids)':52} {count / seconds:10,.0f}")
    seconds = median_seconds(lambda: [engine.random_grid(9, seed=s) for s in range(2_000)], 3)
    print(f"{'random 9x9 grids (one call each)':52} {2_000 / seconds:10,.0f}")
    for size in (16, 25, 36):
        times = []
        for seed in range(5 if args.quick else 11):
            start = time.perf_counter()
            engine.random_grid(size, seed=seed)
            times.append(time.perf_counter() - start)
        print(
            f"{f'random {size}x{size} grid: median s (max)':52} {statistics.median(times):10.3f}"
            f" ({max(times):.3f})"
        )


if __name__ == "__main__":
    main()
