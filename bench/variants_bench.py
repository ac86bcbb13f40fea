"""Digging Sudoku-X and Jigsaw puzzles per tier, against Simon Tatham's Solo at its matched level.

Run: ``.venv/bin/python bench/variants_bench.py [--count N] [--repeats R]`` (``make bench``
installs Solo, Debian's ``sgt-puzzles``). Each side makes ``count`` unique 9x9 puzzles per
level, ``repeats`` rounds on different seeds; the figure is puzzles per CPU second (median and
range): Solo's ``--generate`` process's CPU time, our process time for a full grid, a Jigsaw's
random layout and the dig. Solo's levels, matched by what they allow (its solver's
``DIFF_*`` levels) to our tiers by what they need:

* basic (singles) -> easy; intermediate (intersections) -> medium; advanced (set analysis:
  naked and hidden subsets) -> hard; extreme (forcing chains, X-wing-like positional sets)
  -> expert; unreasonable (guessing) -> extreme.

Solo digs symmetric puzzles by default, ours are dug without symmetry; both are unique.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import time
from pathlib import Path

from figures import Table, number, rate_cell
from qqwing_cli import children_cpu

import engine
from engine.geometry import geometry
from engine.layouts import random_layout

SOLO = "/usr/games/sgt-solo"
LEVELS = {"b": "easy", "i": "medium", "a": "hard", "e": "expert", "u": "extreme"}
NAMES = {"b": "basic", "i": "intermediate", "a": "advanced", "e": "extreme", "u": "unreasonable"}
VARIANTS = {"x": "3x3x", "jigsaw": "3x3j"}


def solo_seconds(variant: str, level: str, count: int) -> float:
    """CPU seconds Solo takes to generate ``count`` puzzles of the variant at the level."""
    start = children_cpu()
    subprocess.run(
        [SOLO, "--generate", str(count), f"{VARIANTS[variant]}d{level}"],
        capture_output=True,
        check=True,
    )
    return children_cpu() - start


def our_seconds(variant: str, tier: str, count: int, seed: int) -> float:
    """CPU seconds we take to make ``count`` puzzles of the tier (grid, layout and dig)."""
    start = time.process_time()
    for s in range(seed, seed + count):
        geo = random_layout(9, seed=s) if variant == "jigsaw" else geometry(3, 3, "x")
        engine.dig(engine.random_grid(seed=s, box=geo), tier, seed=s, box=geo)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=number, default=40, help="puzzles per level and round")
    parser.add_argument("--repeats", type=number, default=3, help="rounds, each on new seeds")
    parser.add_argument("--table", type=Path, help="also append the table to this file")
    args = parser.parse_args()
    if not shutil.which(SOLO):
        raise SystemExit(f"{SOLO} not found: `make bench` installs Debian's sgt-puzzles")
    for variant in VARIANTS:  # compile or load every kernel first, untimed
        for tier in LEVELS.values():
            our_seconds(variant, tier, 1, 10**6)
    table = Table(
        f"9x9 variants, puzzles per CPU second, {args.count} per level, {args.repeats} rounds",
        ["variant", "Solo level", "our tier", "Solo", "ours", "ours / Solo"],
    )
    for variant in VARIANTS:
        for level, tier in LEVELS.items():
            solo, ours = [], []
            for round_ in range(args.repeats):
                solo.append(args.count / solo_seconds(variant, level, args.count))
                seed = 1000 * (round_ + 1)
                ours.append(args.count / our_seconds(variant, tier, args.count, seed))
            ratio = sorted(o / s for o, s in zip(ours, solo, strict=True))[len(ours) // 2]
            table.add(
                [variant, NAMES[level], tier, rate_cell(solo), rate_cell(ours), f"{ratio:.1f}x"]
            )
    table.emit(args.table)


if __name__ == "__main__":
    main()
