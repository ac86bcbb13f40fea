"""How fast and in how little memory ``pipeline run`` refuses a recipe past its limits.

Run: ``.venv/bin/python bench/recipe_limits_bench.py [--repeats 3]``. Each hostile recipe goes
through the installed ``pipeline`` script in a fresh process (the refusal pays the command's
start-up: imports and the recipe's reading); prints the exit code, the median wall time and
the largest peak memory of that process alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPT = Path(sys.executable).with_name("pipeline")
HOSTILE = {
    "2,000 sections of 1,000,000": "[[sections]]\ntier = 'easy'\ncount = 1000000\n" * 2_000,
    "20,000 sections of 1": "[[sections]]\ntier = 'easy'\ncount = 1\n" * 20_000,
    "100,000 pages of puzzles": "[[sections]]\ntier = 'easy'\ncount = 600000\nlayout = 6\n",
    "100,000 nested arrays": "x = " + "[" * 100_000 + "]" * 100_000 + "\n",
}
#: Runs one command and prints its exit code and its own peak memory (KB): the only child.
ONE = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:], capture_output=True).returncode\n"
    "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def measure(recipe: Path, repeats: int) -> tuple[int, float, int]:
    """Exit code, median wall seconds and largest peak KB of ``pipeline run recipe``."""
    seconds, peaks, codes = [], [], set()
    for _ in range(repeats):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", ONE, str(SCRIPT), "run", str(recipe), "-q"],
            capture_output=True,
            text=True,
            check=True,
        )
        seconds.append(time.perf_counter() - start)
        code, peak = map(int, done.stdout.split())
        codes.add(code)
        peaks.append(peak)
    (code,) = codes
    return code, statistics.median(seconds), max(peaks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    repeats = parser.parse_args().repeats
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("| recipe | exit | wall (median) | peak memory |\n|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for name, body in HOSTILE.items():
            recipe = Path(folder) / "hostile.toml"
            recipe.write_text('title = "Hostile"\nseed = 1\n' + body)
            code, wall, peak = measure(recipe, repeats)
            print(f"| {name} | {code} | {wall:.2f} s | {peak / 1024:.0f} MB |")


if __name__ == "__main__":
    main()
