"""Digging 9x9 Killers per tier, against Simon Tatham's Solo at its matched killer level.

Run: ``.venv/bin/python bench/killer_bench.py [--count N] [--repeats R] [--levels biaeu]``
(``make bench`` installs Solo, Debian's ``sgt-puzzles``). Each side makes ``count`` unique
zero-given 9x9 Killers per level, ``repeats`` rounds on different seeds; the figure is puzzles
per CPU second (median and range): Solo's ``--generate N 3x3kd<level>`` process's CPU time, and
ours for a full grid and ``engine.killer.dig_killer``. Levels are matched to tiers as in
``bench/variants_bench.py`` (basic -> easy ... unreasonable -> extreme). A tier our digger
does not reach within ``--time-limit`` seconds a puzzle is reported as such, with the time
spent, rather than left out.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import time
from pathlib import Path

from figures import Table, number, rate_cell
from qqwing_cli import children_cpu
from variants_bench import LEVELS, NAMES, SOLO

import engine
from engine.dig import DigFailed
from engine.killer import dig_killer


def solo_seconds(level: str, count: int) -> float:
    """CPU seconds Solo takes to generate ``count`` killers at the level."""
    start = children_cpu()
    subprocess.run(
        [SOLO, "--generate", str(count), f"3x3kd{level}"], capture_output=True, check=True
    )
    return children_cpu() - start


def our_seconds(tier: str, count: int, seed: int, time_limit: float) -> tuple[float, int]:
    """CPU seconds we take for ``count`` killers of the tier (grid and dig), and how many
    landed in it."""
    start = time.process_time()
    landed = 0
    for s in range(seed, seed + count):
        try:
            dig_killer(engine.random_grid(seed=s), tier, seed=s, time_limit=time_limit)
            landed += 1
        except DigFailed:
            pass
    return time.process_time() - start, landed


def levels(text: str) -> str:
    """An argparse type: Solo level letters, each one of LEVELS."""
    unknown = sorted(set(text) - set(LEVELS))
    if not text or unknown:
        raise argparse.ArgumentTypeError(
            f"choose letters of {''.join(LEVELS)} ({', '.join(NAMES.values())}), not {text!r}"
        )
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=number, default=20, help="puzzles per level and round")
    parser.add_argument("--repeats", type=number, default=3, help="rounds, each on new seeds")
    parser.add_argument(
        "--levels", type=levels, default="".join(LEVELS), help="Solo levels, e.g. biu"
    )
    parser.add_argument("--time-limit", type=float, default=5.0, help="seconds per puzzle")
    parser.add_argument("--table", type=Path, help="also append the table to this file")
    args = parser.parse_args()
    if not shutil.which(SOLO):
        raise SystemExit(f"{SOLO} not found: `make bench` installs Debian's sgt-puzzles")
    our_seconds("extreme", 1, 10**6, args.time_limit)  # compile or load the kernels, untimed
    table = Table(
        f"9x9 Killer, puzzles per CPU second, {args.count} per level, {args.repeats} rounds",
        ["Solo level", "our tier", "Solo", "ours", "ours landed", "ours / Solo"],
    )
    for level in args.levels:
        tier = LEVELS[level]
        solo, ours, landed = [], [], 0
        for round_ in range(args.repeats):
            solo.append(args.count / solo_seconds(level, args.count))
            seconds, made = our_seconds(tier, args.count, 1000 * (round_ + 1), args.time_limit)
            ours.append(made / seconds)
            landed += made
        ratio = sorted(o / s for o, s in zip(ours, solo, strict=True))[len(ours) // 2]
        total = args.count * args.repeats
        table.add(
            [
                NAMES[level],
                tier,
                rate_cell(solo),
                rate_cell(ours),
                f"{landed}/{total}",
                f"{ratio:.2f}x",
            ]
        )
    table.emit(args.table)


if __name__ == "__main__":
    main()
