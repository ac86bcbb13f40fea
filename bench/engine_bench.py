"""Engine core vs qqwing: counting and solving the same puzzle files, then ours alone on grids.

Run: .venv/bin/python bench/engine_bench.py [--repeats 3] [--table FILE]
One core (numba kernels are single-threaded; qqwing is one process). Both sides get the same
puzzles and the same number of runs, each timed by CPU time (ours ``time.process_time``,
qqwing's its process's); the figure is the median run with the range. Two tasks:

* prove uniqueness: ours ``engine.count_many(limit=2)``, qqwing ``--count-solutions`` (it counts
  every solution; on a unique puzzle both must finish the whole search);
* find a solution: ours ``engine.count_many(limit=1, solutions=True)``, qqwing ``--solve`` (its
  logic, then guesses; neither proves uniqueness).

Both sides' answers are checked against each other before a figure is printed.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import qqwing_cli
from figures import Table, rate_cell
from public_sets import DATA, read

import engine
from engine.warmup import FAMILIES, warm

SETS = (  # file, puzzles taken from its start (None: all)
    ("17_clue.txt", None),
    ("magictour_top1465.txt", None),
    ("forum_hardest_1905_11plus.txt", 2_000),
)


def cpu_runs(work: Callable[[], object], repeats: int) -> list[float]:
    """CPU seconds of each of ``repeats`` runs, after an untimed warm-up run."""
    work()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return times


def compare(puzzles: list[str], repeats: int) -> tuple[list[float], list[float]]:
    """Puzzles/s of each run, ours and qqwing's, proving uniqueness."""
    counts = engine.count_many(puzzles, limit=2)
    peer_counts, _ = qqwing_cli.count(puzzles)
    if set(counts.tolist()) != {1} or set(peer_counts) != {1}:
        raise SystemExit("a puzzle of the set is not unique by one side's count")
    ours = cpu_runs(lambda: engine.count_many(puzzles, limit=2), repeats)
    peer = [qqwing_cli.count(puzzles)[1] for _ in range(repeats)]
    return _rates(puzzles, ours), _rates(puzzles, peer)


def compare_solve(puzzles: list[str], repeats: int) -> tuple[list[float], list[float]]:
    """Puzzles/s of each run, ours and qqwing's, finding one solution."""
    _, solutions = engine.count_many(puzzles, limit=1, solutions=True)
    peer_solutions, _ = qqwing_cli.solve(puzzles)
    if solutions != peer_solutions:
        raise SystemExit("the two sides found different solutions to a unique puzzle")
    ours = cpu_runs(lambda: engine.count_many(puzzles, limit=1, solutions=True), repeats)
    peer = [qqwing_cli.solve(puzzles)[1] for _ in range(repeats)]
    return _rates(puzzles, ours), _rates(puzzles, peer)


def _rates(puzzles: list[str], seconds: list[float]) -> list[float]:
    return [len(puzzles) / s for s in seconds]


def alone(repeats: int, table: Path | None) -> None:
    """Figures with no qqwing counterpart: larger grids and full-grid generation."""
    ours = Table(
        f"Engine core, ours alone (qqwing does only 9x9 and has no batch grid maker); CPU time, "
        f"median of {repeats} runs",
        ["what", "figure"],
    )
    puzzle = read(DATA / "sudoku25x25.txt")[0]  # the DFS alone runs past millions of branches
    seconds = statistics.median(cpu_runs(lambda: engine.count_solutions(puzzle), repeats))
    ours.add(["count to 2, `sudoku25x25.txt` (MiniZinc, one puzzle; SAT)", f"{seconds:.2f} s"])
    count = 20_000
    seconds = statistics.median(cpu_runs(lambda: engine.random_grids(count, 9, seed=1), repeats))
    ours.add(["random 9x9 grids, `random_grids`", f"{count / seconds:,.0f}/s"])
    for size in (16, 25, 36):
        engine.random_grid(size, seed=0)  # warm-up
        times = []
        for seed in range(1, 12):
            start = time.process_time()
            engine.random_grid(size, seed=seed)
            times.append(time.process_time() - start)
        median, slowest = statistics.median(times), max(times)
        ours.add(
            [
                f"random {size}x{size} grid, median (max) of 11 seeds",
                f"{1000 * median:.2f} ms ({1000 * slowest:.2f} ms)",
            ]
        )
    ours.emit(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs of each side")
    parser.add_argument("--table", type=Path, help="also write the tables (markdown) here")
    args = parser.parse_args()
    if not qqwing_cli.available():
        raise SystemExit("qqwing is not installed (make system-deps): nothing to compare")
    for family in FAMILIES:  # untimed: every kernel compiled or loaded from numba's cache
        warm(family)
    table = Table(
        f"Counting and solving vs qqwing, the same puzzles on both sides, {args.repeats} runs a "
        "side; puzzles per CPU second, median (range)",
        ["task, puzzles", "qqwing", "ours", "ratio"],
    )
    for name, limit in SETS:
        puzzles = read(DATA / name)[:limit]
        for task, measure in (("prove unique", compare), ("solve", compare_solve)):
            ours, peer = measure(puzzles, args.repeats)
            ratio = statistics.median(ours) / statistics.median(peer)
            label = f"{task}, `{name}` ({len(puzzles):,})"
            table.add([label, rate_cell(peer), rate_cell(ours), f"{ratio:,.1f}x"])
            print(table.rows[-1], flush=True)
    table.emit(args.table)
    alone(args.repeats, args.table)


if __name__ == "__main__":
    main()
