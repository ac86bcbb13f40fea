"""Grading speed and the difficulty it finds: 17-clue puzzles and the top1465 hard list.

Run: ``.venv/bin/python bench/grade_bench.py [--limit N]``. One process, one core. Prints
puzzles graded per second (CPU time and wall time: the machine may be shared), one at a time
with ``engine.grade`` and as one batch with ``engine.grade_many``, then the distribution of
tiers, hardest techniques, iterations and scores. A few puzzles of each set
(including one that needs trial and error) are graded untimed first, so numba's compilation or
cache loading is not measured.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np
from public_sets import DATA, read

from engine import TIERS, grade, grade_many
from engine.grade import Grade

SETS = ("17_clue.txt", "magictour_top1465.txt")
WARM_UP = 50
PERCENTILES = (10, 25, 50, 75, 90, 99)


def timed(puzzles: list[str]) -> tuple[list[Grade], float, float]:
    """Grades, CPU seconds and wall seconds."""
    for puzzle in puzzles[:WARM_UP] + read(DATA / "magictour_top1465.txt")[:WARM_UP]:
        grade(puzzle)
    cpu, wall = time.process_time(), time.perf_counter()
    grades = [grade(puzzle) for puzzle in puzzles]
    return grades, time.process_time() - cpu, time.perf_counter() - wall


def timed_batch(puzzles: list[str]) -> tuple[float, float]:
    """CPU and wall seconds of one ``grade_many`` call over the set (warmed up first)."""
    grade_many(puzzles[:WARM_UP] + read(DATA / "magictour_top1465.txt")[:WARM_UP])
    cpu, wall = time.process_time(), time.perf_counter()
    grade_many(puzzles)
    return time.process_time() - cpu, time.perf_counter() - wall


def share(counter: Counter, total: int, order: list) -> str:
    return "  ".join(f"{key}={counter[key] / total:.1%}" for key in order if counter[key])


def report(name: str, puzzles: list[str]) -> None:
    grades, cpu, wall = timed(puzzles)
    count = len(grades)
    print(f"\n{name}: {count:,} puzzles")
    print(f"  grade        {count / cpu:,.0f} /s per core (CPU time), {count / wall:,.0f} /s wall")
    cpu, wall = timed_batch(puzzles)
    print(f"  grade_many   {count / cpu:,.0f} /s per core (CPU time), {count / wall:,.0f} /s wall")
    print(f"  tiers        {share(Counter(g.tier for g in grades), count, list(TIERS))}")
    hardest = Counter(g.hardest for g in grades)
    print(f"  hardest      {share(hardest, count, [k for k, _ in hardest.most_common()])}")
    solved = sum(g.solved for g in grades)
    print(f"  logic alone  {solved / count:.1%} solved without trial and error")
    for label, values in (
        ("iterations", [g.iterations for g in grades]),
        ("score", [g.score for g in grades]),
    ):
        marks = np.percentile(values, PERCENTILES)
        row = "  ".join(f"p{p}={m:.4g}" for p, m in zip(PERCENTILES, marks, strict=True))
        print(f"  {label:<12} mean={np.mean(values):.4g}  {row}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=0, help="grade only the first N of each set")
    args = parser.parse_args()
    for name in SETS:
        puzzles = read(DATA / name)
        report(name, puzzles[: args.limit] if args.limit else puzzles)


if __name__ == "__main__":
    main()
