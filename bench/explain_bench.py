"""Worked-solution speed: the pass loop on the person's ladder (``engine.path.person_path``),
which `pipeline explain`, hints and worked solutions print, on the top1465 hard list.

Run: ``.venv/bin/python bench/explain_bench.py [--limit N] [--repeats R]``. One process, one core,
CPU time, best of R rounds, each in a thread of its own: a thread's workspace remembers what its
searches found fruitless (exact, but a puzzle seen twice would be faster). Each puzzle's grade
(which the path needs for its solution) is made before the clock starts, and the first puzzles go
through once untimed, so neither grading nor numba's compilation or cache loading is measured. No
peer runs here: HoDoKu, whose ladder the person's order follows, is a Java program this project
does not install; the script runs unchanged in a worktree of an earlier commit, for a
before-and-after figure.
"""

from __future__ import annotations

import argparse
import threading
import time

from public_sets import DATA, read

from engine import grade
from engine.path import person_path
from engine.text import parse

WARM_UP = 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=300, help="the first N puzzles (300)")
    parser.add_argument("--repeats", type=int, default=3, help="timed rounds, best kept (3)")
    args = parser.parse_args()
    if args.limit < 1 or args.repeats < 1:
        parser.error("--limit and --repeats must be at least 1")
    puzzles = read(DATA / "magictour_top1465.txt")[: args.limit]
    grids = [parse(puzzle) for puzzle in puzzles]
    grades = [grade(puzzle) for puzzle in puzzles]
    for grid, graded in zip(grids[:WARM_UP], grades, strict=False):
        person_path(grid, graded)
    rounds: list[tuple[float, int]] = []

    def timed_round() -> None:
        start = time.process_time()
        steps = sum(len(person_path(g, graded)) for g, graded in zip(grids, grades, strict=True))
        rounds.append((time.process_time() - start, steps))

    for _ in range(args.repeats):
        fresh = threading.Thread(target=timed_round)
        fresh.start()
        fresh.join()
    best, steps = min(rounds)
    count = len(puzzles)
    print(f"magictour_top1465.txt, first {count}: person's ladder (explain, worked solutions)")
    print(f"  {count / best:,.1f} puzzles/s per core (CPU time, best of {args.repeats})")
    print(f"  {best / count * 1000:.2f} ms a puzzle, {steps / count:.1f} steps a puzzle")


if __name__ == "__main__":
    main()
