"""Digging speed per tier on 9x9, against the digger of an earlier commit run the same way.

Run: ``.venv/bin/python bench/dig_tiers_bench.py [--count N] [--repeats R] [--against REV]
[--killer] [--tiers easy,hard]``.
Each side digs ``count`` puzzles of each tier (``engine.dig`` with its defaults, one full grid
per seed; with ``--killer``, zero-given Killers by ``engine.killer.dig_killer``, 5 s at most a
puzzle) in a fresh process, the two sides alternating, ``repeats`` rounds on different seeds;
the figure is puzzles per CPU second (median and range). The other side is the engine at git
revision ``REV`` (default: the commit before the mid-level techniques of issue 16 joined the
ladder), checked out into a temporary worktree and put first on the import path. A tier's
meaning may differ between the two sides: the tiers were re-fitted since.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIERS = ("easy", "medium", "hard", "expert", "extreme")
BEFORE_TECHNIQUES = "769d5f4"  # the last commit before issue 16's finned fish
KILLER_SECONDS = 5.0  # a Killer dig's time limit (as bench/killer_bench.py's default)


def measure(count: int, seed: int, tiers: list[str], killer: bool) -> dict[str, float]:
    """CPU seconds per tier for ``count`` digs (the engine on the import path), after one
    untimed dig of each tier (numba's compilation or cache loading)."""
    import engine
    from engine.dig import DigFailed
    from engine.killer import dig_killer

    def dig(s: int, tier: str, seconds: float | None = KILLER_SECONDS) -> None:
        if not killer:
            engine.dig(engine.random_grid(9, seed=s), tier, seed=s)
            return
        with contextlib.suppress(DigFailed):  # its time counts, as a recipe's would
            dig_killer(engine.random_grid(9, seed=s), tier, seed=s, time_limit=seconds)

    with contextlib.suppress(ImportError):  # revisions before engine.warmup warm by digging
        from engine.warmup import warm

        warm("killer" if killer else "digger")  # every kernel a dig may reach: none compiles
    for tier in tiers:
        dig(1, tier, None)  # no time limit while the kernels compile
    seconds = {}
    for tier in tiers:
        start = time.process_time()
        for s in range(seed, seed + count):
            dig(s, tier)
        seconds[tier] = time.process_time() - start
    return seconds


def side(tree: Path, count: int, seed: int, options: argparse.Namespace) -> dict[str, float]:
    """:func:`measure` in a fresh process that imports the engine from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [sys.executable, __file__, "--measure", "--count", str(count), "--seed", str(seed)]
    args += ["--tiers", options.tiers, *(["--killer"] if options.killer else [])]
    done = subprocess.run(args, env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def rate(count: int, runs: list[dict[str, float]], tier: str) -> tuple[float, str]:
    rates = [count / run[tier] for run in runs]
    median = statistics.median(rates)
    return median, f"{median:,.1f}/s ({min(rates):,.1f}-{max(rates):,.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="digs per tier and round")
    parser.add_argument("--repeats", type=int, default=3, help="rounds (seeds differ per round)")
    parser.add_argument("--against", default=BEFORE_TECHNIQUES, help="git revision to compare")
    parser.add_argument("--tiers", default=",".join(TIERS), help="tiers, comma-separated")
    parser.add_argument("--killer", action="store_true", help="dig zero-given Killers instead")
    parser.add_argument("--seed", type=int, default=20261124, help=argparse.SUPPRESS)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.count < 1 or options.repeats < 1:
        parser.error("--count and --repeats must be at least 1")
    unknown = sorted(set(options.tiers.split(",")) - set(TIERS))
    if unknown:
        parser.error(f"unknown tier {unknown[0]!r}; the tiers are {', '.join(TIERS)}")
    if options.measure:
        tiers = options.tiers.split(",")
        print(json.dumps(measure(options.count, options.seed, tiers, options.killer)))
        return
    with tempfile.TemporaryDirectory() as temporary:
        other = Path(temporary) / "other"
        add = ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(other)]
        subprocess.run([*add, options.against], check=True)
        try:
            ours, theirs = [], []
            for round_no in range(options.repeats):
                seed = options.seed + 1000 * round_no
                theirs.append(side(other, options.count, seed, options))
                ours.append(side(ROOT, options.count, seed, options))
        finally:
            remove = ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)]
            subprocess.run(remove, check=True)
    kind = "Killers" if options.killer else "9x9"
    print(
        f"Digging {kind} per tier, {options.count} puzzles a tier and round, {options.repeats} "
        f"rounds; puzzles per CPU second, median (range); {options.against} against HEAD:\n"
    )
    print(f"| tier | {options.against} | ours | ratio |\n|---|---:|---:|---:|")
    for tier in options.tiers.split(","):
        before, before_text = rate(options.count, theirs, tier)
        now, now_text = rate(options.count, ours, tier)
        print(f"| {tier} | {before_text} | {now_text} | {now / before:.2f} |")


if __name__ == "__main__":
    main()
