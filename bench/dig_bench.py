"""Digging vs qqwing's generator: unique minimal 9x9 puzzles per CPU second, level by level.

Run: .venv/bin/python bench/dig_bench.py [--count 100] [--repeats 3] [--large-seeds 20]
[--large-only] [--table FILE]
One core. For each of qqwing's levels (simple, easy, intermediate, expert, by qqwing's own
definitions: see qqwing_levels.py), both sides make ``--count`` puzzles of that level,
``--repeats`` times: qqwing by ``qqwing --generate N --difficulty LEVEL`` (a fresh random run
each time), ours with one seed per repeat, digging minimal puzzles without symmetry (as qqwing's
are) for the nearest tier band and keeping only those ``level_of`` puts in the level; the time of
the rest, of making the full grids and of the check is counted. Rates are puzzles per CPU second
(qqwing's from its process's CPU time), the median of the repeats with their range.

The classes are checked both ways: our definition of the level applied to qqwing's puzzles, and
qqwing's own rating (``qqwing --solve --stats``) of ours; the table gives both shares.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterable
from pathlib import Path

import qqwing_cli
from figures import Table, rate_cell, share_cell
from qqwing_cli import LEVELS
from qqwing_levels import DIG_BANDS, level_of

import engine
from engine.warmup import FAMILIES, warm

SEED = 20261124
LARGE = ((16, 11), (25, 5), (36, 3))  # size, puzzles (medium tier, not minimal)
LARGE_TIERS = ((16, "hard"), (16, "extreme"), (25, "hard"))  # the large grids' harder tiers
DEFINITIONS = {
    "simple": "naked singles alone",
    "easy": "needs hidden singles",
    "intermediate": "needs pairs or locked candidates",
    "expert": "needs more: qqwing guesses",
}


def ours(level: str, count: int, seed: int) -> tuple[list[str], float, int]:
    """``count`` minimal puzzles of a qqwing level, the CPU seconds, and the digs it took."""
    band = DIG_BANDS[level]
    kept: list[str] = []
    digs = 0
    start = time.process_time()
    while len(kept) < count:
        key = [seed, LEVELS.index(level), digs]
        digs += 1
        solution = engine.random_grid(9, seed=key)
        try:
            puzzle = engine.dig(solution, band, seed=key, minimal=True).puzzle
        except engine.DigFailed:
            continue
        if level_of(puzzle) == level:
            kept.append(puzzle)
    return kept, time.process_time() - start, digs


def compare(level: str, count: int, repeats: int) -> list[str]:
    """One table row: the level, both sides' rates, the ratio and the two class checks."""
    ours_rates, our_puzzles, digs = [], [], 0
    for repeat in range(repeats):
        puzzles, seconds, tries = ours(level, count, SEED + repeat)
        ours_rates.append(count / seconds)
        our_puzzles += puzzles
        digs += tries
    peer_rates, peer_puzzles = [], []
    for _ in range(repeats):
        puzzles, seconds = qqwing_cli.generate(level, count)
        peer_rates.append(count / seconds)
        peer_puzzles += puzzles
    ours_in = sum(level_of(p) == level for p in peer_puzzles)
    peer_in = sum(rated == level for rated in qqwing_cli.levels(our_puzzles))
    ratio = statistics.median(ours_rates) / statistics.median(peer_rates)
    return [
        f"{level} ({DEFINITIONS[level]})",
        rate_cell(peer_rates),
        rate_cell(ours_rates),
        f"{ratio:,.1f}x",
        share_cell(ours_in, len(peer_puzzles)),
        share_cell(peer_in, len(our_puzzles)),
        share_cell(len(our_puzzles), digs),
    ]


def large(table: Path | None) -> None:
    """CPU seconds per unique medium puzzle on 16x16 to 36x36, grid included."""
    sizes = Table(
        "Digging larger grids, ours alone: CPU seconds per unique puzzle of the medium tier "
        "(not minimal), grid included",
        ["size", "puzzles", "median", "max"],
    )
    for size, count in LARGE:
        times = cpu_seconds(size, "medium", range(count), "none")
        sizes.add([f"{size}x{size}", str(count), *_spread(times)])
    sizes.emit(table)


def large_tiers(seeds: int, table: Path | None) -> None:
    """Median and max CPU seconds of one rotate180 dig per seed (default budget), and failures."""
    tiers = Table(
        f"The large grids' harder tiers, ours alone: CPU seconds of one rotate180 dig with the "
        f"default budget per seed, {seeds} seeds, grid included",
        ["size, tier", "median", "max", "failed"],
    )
    for size, tier in LARGE_TIERS:
        cpu_seconds(size, tier, [SEED], "rotate180")  # warm-up
        failures: list[int] = []
        times = cpu_seconds(size, tier, range(seeds), "rotate180", failures)
        tiers.add([f"{size}x{size} {tier}", *_spread(times), str(len(failures))])
    tiers.emit(table)


def cpu_seconds(
    size: int, tier: str, seeds: Iterable[int], symmetry: str, failures: list[int] | None = None
) -> list[float]:
    """CPU seconds of one dig (grid included) per seed; failed digs are timed and listed."""
    times = []
    for seed in seeds:
        start = time.process_time()
        try:
            grid = engine.random_grid(size, seed=[SEED, size, seed])
            engine.dig(grid, tier, symmetry=symmetry, seed=seed)
        except engine.DigFailed:
            if failures is None:
                raise
            failures.append(seed)
        times.append(time.process_time() - start)
    return times


def _spread(times: list[float]) -> list[str]:
    return [f"{statistics.median(times):.3f} s", f"{max(times):.3f} s"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="puzzles per level and repeat")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each side (our seeds)")
    parser.add_argument("--large-seeds", type=int, default=20, help="seeds per large tier")
    parser.add_argument("--large-only", action="store_true", help="only the large tiers' table")
    parser.add_argument("--table", type=Path, help="also write the tables (markdown) here")
    args = parser.parse_args()
    if args.large_only:
        large_tiers(args.large_seeds, args.table)
        return
    if not qqwing_cli.available():
        raise SystemExit("qqwing is not installed (make system-deps): nothing to compare")
    for family in FAMILIES:  # warm-up, untimed: every kernel compiled or loaded from the cache
        warm(family)
    for level in LEVELS:  # and every path the benchmark takes
        ours(level, 10, SEED - 1)
    table = Table(
        f"Digging vs `qqwing --generate`, minimal 9x9 without symmetry, {args.count} puzzles of "
        f"each level per run, {args.repeats} runs a side (our seeds {SEED}..."
        f"{SEED + args.repeats - 1}); puzzles per CPU second, median (range)",
        [
            "qqwing level (its definition)",
            "qqwing",
            "ours",
            "ratio",
            "qqwing's in the level by our check",
            "ours in the level by qqwing's rating",
            "our digs kept",
        ],
    )
    for level in LEVELS:
        table.add(compare(level, args.count, args.repeats))
        print(table.rows[-1], flush=True)
    table.emit(args.table)
    large(args.table)
    large_tiers(args.large_seeds, args.table)


if __name__ == "__main__":
    main()
