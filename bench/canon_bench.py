"""Canonical-form speed, per grid on one core: full grids and puzzles of every classic size from
9x9 to 64x64 (the minlex search up to 25x25, the canonical graph past it), and 9x9 X, Windoku and
Jigsaw. With ``--big``, full 25x25 grids too (the minlex search takes 10 to 30 s each).

Run: ``.venv/bin/python bench/canon_bench.py [--limit N] [--big]``. Reads the public sets in
../shared/data (9x9 17-clue, 16x16 and 25x25 puzzles); other puzzles are full grids with
:data:`KEEP` of their cells kept at random. Each size's first grid is canonicalised untimed, so
compiling (or loading numba's cache) is not measured.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from public_sets import DATA, read

from engine.canon import canonical_many
from engine.geometry import Geometry, geometry
from engine.grids import random_grid, random_grids

KEEP = 0.45  # share of a full grid's cells a made puzzle keeps
WARM_UP = 5  # puzzles canonicalised before timing a batch
FULL_GRIDS = 300  # random full 9x9 grids timed in one batch
TIMED = {16: 10, 25: 3, 36: 5, 49: 3, 64: 3}  # grids (and puzzles) of each size timed one by one
# a 9x9 Jigsaw layout with no symmetry of the square
JIGSAW = "111222223111123333112223333445555666445455666444455669778888969777778999778888999"


def rate(puzzles: list[str], box: str | Geometry | None = None) -> float:
    """Puzzles per second for one batch call."""
    canonical_many(puzzles[:WARM_UP], box)
    start = time.perf_counter()
    canonical_many(puzzles, box)
    return len(puzzles) / (time.perf_counter() - start)


def timings(puzzles: list[str], box: str | Geometry) -> list[float]:
    """Seconds per puzzle, one call each."""
    canonical_many(puzzles[:1], box)
    seconds = []
    for puzzle in puzzles:
        start = time.perf_counter()
        canonical_many([puzzle], box)
        seconds.append(time.perf_counter() - start)
    return seconds


def full_grids(size: int, count: int) -> list[str]:
    """Random full grids of the usual box, made by the seeded search."""
    return random_grids(count, size, seed=size)


def blanked(grids: list[str], seed: int = 0) -> list[str]:
    """The grids with KEEP of their cells kept at random."""
    rng = np.random.default_rng(seed)
    return ["".join(ch if rng.random() < KEEP else "." for ch in grid) for grid in grids]


def report(what: str, seconds: list[float]) -> None:
    print(
        f"{what + ':':<26} median {_shown(statistics.median(seconds))}, "
        f"max {_shown(max(seconds))} ({len(seconds)} timed one by one)"
    )


def _shown(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1e3:.1f} ms"


def classic(limit: int, big: bool) -> None:
    seventeen = read(DATA / "17_clue.txt")
    if limit:
        seventeen = seventeen[:limit]
    print(f"{'9x9 17-clue puzzles:':<26} {rate(seventeen):,.0f} /s ({len(seventeen):,}, 1 core)")
    grids = [random_grid(9, seed=seed) for seed in range(FULL_GRIDS)]
    print(f"{'9x9 full grids:':<26} {rate(grids):,.0f} /s ({FULL_GRIDS} random grids)")
    report("16x16 puzzles", timings(read(DATA / "sudoku16x16.tsv")[: TIMED[16]], "4x4"))
    report("16x16 full grids", timings(full_grids(16, TIMED[16]), "4x4"))
    made = blanked(full_grids(25, TIMED[25]))
    report("25x25 puzzles", timings(read(DATA / "sudoku25x25.txt") + made, "5x5"))
    if big:
        report("25x25 full grids", timings(full_grids(25, TIMED[25]), "5x5"))
    for size in (36, 49, 64):
        box = f"{round(size**0.5)}x{round(size**0.5)}"
        grids = full_grids(size, TIMED[size])
        report(f"{size}x{size} puzzles", timings(blanked(grids), box))
        report(f"{size}x{size} full grids", timings(grids, box))


def variants() -> None:
    for geo in (geometry(3, 3, "x"), geometry(3, 3, "windoku"), geometry(3, 3, "jigsaw", JIGSAW)):
        grids = random_grids(FULL_GRIDS // 3, 9, seed=0, box=geo)
        puzzles = blanked(grids)
        print(
            f"{f'9x9 {geo.variant}:':<26} puzzles {rate(puzzles, geo):,.0f} /s, "
            f"full grids {rate(grids, geo):,.0f} /s ({len(grids)} of each)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=0, help="use only the first N 9x9 puzzles")
    parser.add_argument("--big", action="store_true", help="also full 25x25 grids (minutes)")
    args = parser.parse_args()
    classic(args.limit, args.big)
    variants()


if __name__ == "__main__":
    main()
