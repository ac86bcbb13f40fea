"""Digging throughput: unique puzzles per second per tier, ours and qqwing's side by side.

Run: .venv/bin/python bench/dig_bench.py [--count 200] [--quick] [--large-seeds 20]
One core (one process). qqwing (Debian package `qqwing`, `apt-get install qqwing`) generates the
same number of puzzles at each of its levels in the same run. Each qqwing level is compared with
the tier where our grader puts most of qqwing's puzzles of that level (printed), and ours are
dug minimal, as qqwing's are, without symmetry (qqwing's default). Rates are per CPU second
(qqwing's from its process's CPU time), so other work on the machine disturbs them little; our
rates include making the full grids. Large sizes print the median CPU seconds per unique puzzle
at their default tiers, then, for the large grids' harder default tiers (hard and extreme on
16x16, hard on 25x25), the median and maximum CPU seconds over ``--large-seeds`` seeds of one
symmetric dig each with the default budget, and how many failed (``--large-only`` skips the rest).

qqwing's top level, expert, is open-ended (every puzzle its solver cannot finish without a
guess), while our tiers are bounded bands, so that level is also compared with the open band of
the same shape: from the lower score edge of the matched tier up (printed as "<tier>+"), which
admits every puzzle of qqwing's expert mix.
"""

from __future__ import annotations

import argparse
import collections
import math
import platform
import resource
import shutil
import statistics
import subprocess
import time

import engine
from engine.tiers import DEFAULT_TIERS, Tier

QQWING_LEVELS = ("simple", "easy", "intermediate", "expert")
OUR_TIERS = ("easy", "medium", "hard", "expert", "extreme")
LARGE = ((16, "medium", 11), (25, "medium", 5), (36, "medium", 3))  # size, tier, puzzles
LARGE_TIERS = ((16, "hard"), (16, "extreme"), (25, "hard"))  # the large grids' harder tiers
TARGET_RATIO = 10.0  # the goal: ten times qqwing's rate
SEED = 20261122


def qqwing(level: str, count: int) -> tuple[float, list[str]] | None:
    """(puzzles/s, puzzles) for `qqwing --generate` at a level, or None when it is absent."""
    if shutil.which("qqwing") is None:
        return None
    command = ["qqwing", "--generate", str(count), "--difficulty", level, "--one-line"]
    start = _children_cpu()
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    seconds = _children_cpu() - start
    return count / seconds, out.split()


def _children_cpu() -> float:
    """CPU seconds used by finished child processes (user and system)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def ours(tier: str | Tier, count: int, size: int = 9, minimal: bool = True) -> list[float]:
    """CPU seconds per unique puzzle (grid made, dug, graded into the tier), one per puzzle."""
    times = []
    for index in range(count):
        start = time.process_time()
        solution = engine.random_grid(size, seed=[SEED, size, index])
        engine.dig(solution, tier, seed=[SEED, index], minimal=minimal)
        times.append(time.process_time() - start)
    return times


def large_tiers(seeds: int) -> None:
    """Median and max CPU seconds of one rotate180 dig per seed (default budget), and failures."""
    print(f"\n{'size':6} {'tier':8} {'seeds':>5} {'median s':>9} {'max s':>8} {'failed':>6}  (CPU)")
    for size, tier in LARGE_TIERS:
        engine.dig(engine.random_grid(size, seed=SEED), tier, symmetry="rotate180", seed=SEED)
        times, failed = [], 0
        for seed in range(seeds):
            start = time.process_time()
            try:
                grid = engine.random_grid(size, seed=seed)
                engine.dig(grid, tier, symmetry="rotate180", seed=seed)
            except engine.DigFailed:
                failed += 1
            times.append(time.process_time() - start)
        print(
            f"{size:<6} {tier:8} {seeds:5} {statistics.median(times):9.3f} {max(times):8.3f} "
            f"{failed:6}"
        )


def row(level: str, tier: str, peer_rate: float, rate: float, note: str) -> None:
    ratio = rate / peer_rate
    flag = "" if ratio >= TARGET_RATIO else "  (below 10x)"
    print(f"{level:14} {tier:9} {peer_rate:9.1f} {rate:9.1f} {ratio:6.1f}x  {note}{flag}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="9x9 puzzles per tier")
    parser.add_argument("--quick", action="store_true", help="fewer puzzles, no 36x36")
    parser.add_argument("--large-seeds", type=int, default=20, help="seeds per large tier")
    parser.add_argument("--large-only", action="store_true", help="only the large tiers' table")
    args = parser.parse_args()
    if args.large_only:
        large_tiers(args.large_seeds)
        return
    count = 40 if args.quick else args.count
    print(f"machine: {platform.processor() or platform.machine()}, one core")
    for tier in OUR_TIERS:  # warm-up: numba cache loads of every path (digger and grader)
        ours(tier, 2)
    rates = {tier: count / sum(ours(tier, count)) for tier in OUR_TIERS}
    print(f"{'qqwing level':14} {'our tier':9} {'qqwing/s':>9} {'ours/s':>9} {'ratio':>7}  mix")
    for level in QQWING_LEVELS:
        peer = qqwing(level, count)
        if peer is None:
            print(f"{level:14} qqwing absent (apt-get install qqwing)")
            continue
        peer_rate, puzzles = peer
        mix = collections.Counter(engine.grade(p).tier for p in puzzles)
        tier = mix.most_common(1)[0][0]
        shares = " ".join(f"{name}:{mix[name]}" for name in OUR_TIERS if mix[name])
        row(level, tier, peer_rate, rates[tier], shares)
        if level == QQWING_LEVELS[-1]:  # open-ended: also against the open band of that shape
            band = Tier(f"{tier}+", score=(DEFAULT_TIERS[tier].score[0], math.inf))
            covered = sum(mix[name] for name in OUR_TIERS[OUR_TIERS.index(tier) :])
            ours(band, 2)
            rate = count / sum(ours(band, count))
            row(level, band.name, peer_rate, rate, f"admits {covered} of {len(puzzles)}")
    print(
        "\nour 9x9 tiers, minimal, per minute: "
        + ", ".join(f"{tier} {60 * rate:,.0f}" for tier, rate in rates.items())
    )
    print(f"\n{'size':6} {'tier':8} {'puzzles':>7} {'median s':>9} {'max s':>8}  (CPU)")
    for size, tier, puzzles in LARGE:
        if args.quick and size > 25:
            continue
        times = ours(tier, puzzles, size, minimal=False)
        print(f"{size:<6} {tier:8} {puzzles:7} {statistics.median(times):9.3f} {max(times):8.3f}")
    large_tiers(args.large_seeds)


if __name__ == "__main__":
    main()
