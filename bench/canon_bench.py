"""Canonical-form speed: 9x9 17-clue puzzles and full grids per second, 16x16 timings, and with
``--big`` full 25x25 grids one by one and the refusal of 36x36 (timed: it must be immediate).

Run: ``.venv/bin/python bench/canon_bench.py [--limit N] [--big]``. Reads the public sets in
../shared/data; the first batch of each size is compiled (or loaded from numba's cache) untimed.
"""

from __future__ import annotations

import argparse
import statistics
import time

from public_sets import DATA, read

from engine.canon import MAX_CANON_SIZE, CanonTooLarge, canonical_many
from engine.grids import random_grid

WARM_UP = 5  # puzzles canonicalised before timing, so compilation is not measured
FULL_GRIDS = 300  # random full 9x9 grids timed
GIANT_PUZZLES = 20  # 16x16 puzzles timed one by one
GIANT_GRIDS = 5  # full 16x16 grids timed one by one
BIG_GRIDS = 3  # full 25x25 grids timed one by one (--big): 10 to 30 s each


def rate(puzzles: list[str], box: str | None = None) -> float:
    """Puzzles per second for one batch call."""
    canonical_many(puzzles[:WARM_UP], box)
    start = time.perf_counter()
    canonical_many(puzzles, box)
    return len(puzzles) / (time.perf_counter() - start)


def timings(puzzles: list[str], box: str) -> list[float]:
    """Seconds per puzzle, one call each."""
    canonical_many(puzzles[:1], box)
    seconds = []
    for puzzle in puzzles:
        start = time.perf_counter()
        canonical_many([puzzle], box)
        seconds.append(time.perf_counter() - start)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=0, help="use only the first N 9x9 puzzles")
    parser.add_argument("--big", action="store_true", help="also full 25x25 grids, and 36x36")
    args = parser.parse_args()
    seventeen = read(DATA / "17_clue.txt")
    if args.limit:
        seventeen = seventeen[: args.limit]
    print(f"{'9x9 17-clue puzzles:':<20} {rate(seventeen):,.0f} /s ({len(seventeen):,}, 1 core)")
    grids = [random_grid(9, seed=seed) for seed in range(FULL_GRIDS)]
    print(f"{'9x9 full grids:':<20} {rate(grids):,.0f} /s ({FULL_GRIDS} random grids)")
    giant = read(DATA / "sudoku16x16.tsv")[:GIANT_PUZZLES]
    report("16x16 puzzles", timings(giant, "4x4"))
    grids = [random_grid(16, seed=seed) for seed in range(GIANT_GRIDS)]
    report("16x16 full grids", timings(grids, "4x4"))
    if args.big:
        big = [random_grid(MAX_CANON_SIZE, seed=seed) for seed in range(BIG_GRIDS)]
        report("25x25 full grids", timings(big, "5x5"))
        refusal()


def refusal() -> None:
    """Time the refusal of a full 36x36 grid, past the size limit."""
    grid = random_grid(36, seed=0)
    start = time.perf_counter()
    try:
        canonical_many([grid], "6x6")
    except CanonTooLarge as exc:
        took = (time.perf_counter() - start) * 1e3
        print(f"{'36x36 full grid:':<20} refused in {took:.1f} ms ({exc})")


def report(what: str, seconds: list[float]) -> None:
    print(
        f"{what + ':':<20} median {statistics.median(seconds) * 1e3:.1f} ms, "
        f"max {max(seconds) * 1e3:.1f} ms ({len(seconds)} timed one by one)"
    )


if __name__ == "__main__":
    main()
