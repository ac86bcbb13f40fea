"""What a new user waits for: compiling the engine, and the first commands, cold and warm.

Run: .venv/bin/python bench/startup_bench.py [--skip-nightly] [--skip-families] [--repeat N]

Prints (wall seconds, and CPU seconds of the process and its children):
1. the compile time of each kernel family, each in a fresh process on one growing, initially
   empty kernel cache (so a family's figure leaves out what an earlier one compiled);
2. `pipeline --help`, `pipeline grade` on 10 lines of 17_clue.txt (and on 9 of them with one
   puzzle beyond the core rungs, which waits for the whole ladder to compile), and the nightly run
   (configs/nightly.toml, a fixed date, a fresh output folder each time), each cold (an empty
   NUMBA_CACHE_DIR, as after a bare install) and warm (the same cache again), the nightly run
   with --jobs 1, --jobs 2 and the default worker count; ``--repeat`` times each (a busy machine's
   wall times vary: the CPU seconds vary less).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from public_sets import DATA, read

ROOT = Path(__file__).resolve().parents[1]
PIPELINE = Path(sys.executable).parent / "pipeline"
FAMILY_ORDER = (
    "counter",
    "grids",
    "canonical forms",
    "grader core",
    "grader",
    "digger",
    "explainer",
)
DATE = "2026-01-01"
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def timed(command: list[str], cache: Path) -> tuple[float, float]:
    """Wall and CPU seconds (children included) of one command with ``cache`` as numba's."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    subprocess.run(command, check=True, capture_output=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def row(label: str, figures: tuple[float, float]) -> None:
    print(f"| {label} | {figures[0]:.1f} | {figures[1]:.1f} |", flush=True)


def families(scratch: Path) -> None:
    print("\nCompile time per kernel family (fresh process each, shared cache, in this order)")
    print("| family | wall s | CPU s |\n|---|---:|---:|")
    cache = scratch / "families"
    total = [0.0, 0.0]
    for family in FAMILY_ORDER:
        code = f"from engine.warmup import warm; warm({family!r})"
        figures = timed([sys.executable, "-c", code], cache)
        total = [total[0] + figures[0], total[1] + figures[1]]
        row(family, figures)
    row("**all, one after another**", (total[0], total[1]))
    row("`pipeline prepare` (side by side)", timed([str(PIPELINE), "prepare"], scratch / "all"))


def commands(scratch: Path, nightly: bool, repeat: int) -> None:
    ten = scratch / "ten.txt"
    ten.write_text("\n".join(read(DATA / "17_clue.txt")[:10]) + "\n")
    # one puzzle beyond the core rungs: the command waits for the whole ladder to compile
    mixed = scratch / "mixed.txt"
    mixed.write_text("\n".join([*read(DATA / "17_clue.txt")[:9], HARD]) + "\n")
    runs = {
        "`pipeline --help`": lambda out: ["--help"],
        "`pipeline grade` 10 lines": lambda out: ["grade", str(ten), "-o", f"{out}/g.parquet"],
        "`pipeline grade` 9 lines + 1 hard": lambda out: [
            "grade",
            str(mixed),
            "-o",
            f"{out}/g.parquet",
        ],
        "`pipeline explain` the hard puzzle": lambda out: ["explain", HARD],
    }
    if nightly:
        nightly_run = ["run", "configs/nightly.toml", "--date", DATE]
        runs["nightly run, `--jobs 1`"] = lambda out: [*nightly_run, "-o", out, "-j", "1"]
        runs["nightly run, `--jobs 2`"] = lambda out: [*nightly_run, "-o", out, "-j", "2"]
        runs["nightly run, default jobs"] = lambda out: [*nightly_run, "-o", out]
    print("\nCommands, cold (empty kernel cache) and warm (the same cache again)")
    print("| command | cold wall s | cold CPU s | warm wall s | warm CPU s |")
    print("|---|---:|---:|---:|---:|")
    for number, (label, arguments) in enumerate(runs.items()):
        for attempt in range(repeat):
            cache = scratch / f"cache-{number}-{attempt}"
            figures: list[float] = []
            for _ in ("cold", "warm"):
                with tempfile.TemporaryDirectory() as out:
                    figures += timed([str(PIPELINE), *arguments(out)], cache)
            print(f"| {label} | " + " | ".join(f"{f:.1f}" for f in figures) + " |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-nightly", action="store_true", help="leave out the nightly runs")
    parser.add_argument("--skip-families", action="store_true", help="leave out part 1")
    parser.add_argument("--repeat", type=int, default=1, help="cold and warm runs per command")
    options = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as scratch:
        if not options.skip_families:
            families(Path(scratch))
        commands(Path(scratch), not options.skip_nightly, options.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
