"""End-to-end benchmark of ``pipeline run``: cold and warm numba cache, per-stage throughput, and
the speed-up of two workers over one.

Each run is a fresh process on a fresh output folder (no resume, an empty catalog):

* cold: an empty ``NUMBA_CACHE_DIR``, so every kernel compiles (in each worker too), 1 worker;
* warm: the same cache, now filled, 1 worker and then 2 workers.

Stage figures come from the run's manifest (dig = grids + digging + grading + canonical forms).
Usage: ``.venv/bin/python bench/run_bench.py [configs/nightly.toml] [--scale K] [--warm-only]``;
``--scale`` multiplies every section's count, so worker start-up (about 2 s a process to import and
load the numba cache) weighs less against the work.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIPELINE = Path(sys.executable).parent / "pipeline"
TARGET_SPEEDUP = 1.8
CLOCK_FLOOR = 1e-3  # seconds: the manifest rounds stage times to milliseconds


COUNT = re.compile(r"^count = (\d+)$", re.MULTILINE)


def scaled(recipe: Path, scale: int, folder: Path) -> Path:
    """A copy of the recipe with every section's count multiplied by ``scale``."""
    text = COUNT.sub(lambda m: f"count = {int(m.group(1)) * scale}", recipe.read_text())
    copy = folder / recipe.name
    copy.write_text(text)
    return copy


def run_once(recipe: Path, jobs: int, cache: Path, output: Path) -> tuple[float, dict]:
    """Wall time of one ``pipeline run`` and its manifest."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    command = [str(PIPELINE), "run", str(recipe), "--output", str(output), "--jobs", str(jobs)]
    start = time.perf_counter()
    subprocess.run([*command, "--quiet"], cwd=ROOT, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    manifest = next(output.glob("*/*/manifest.json"))
    return wall, json.loads(manifest.read_text())


def describe(label: str, wall: float, manifest: dict) -> str:
    timings, puzzles = manifest["timings_seconds"], manifest["counts"]["puzzles"]
    pages = manifest["pdf"]["pages"]
    return (
        f"{label:<16} wall {wall:6.1f} s | dig {timings['dig']:6.2f} s "
        f"({puzzles / timings['dig']:6.1f} puzzles/s) | store {timings['store']:5.2f} s "
        f"({puzzles / max(timings['store'], CLOCK_FLOOR):7.0f} rows/s) | "
        f"render {timings['render']:5.2f} s "
        f"({pages / timings['render']:5.1f} pages/s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recipe", nargs="?", type=Path, default=ROOT / "configs" / "nightly.toml")
    parser.add_argument("--scale", type=int, default=1, help="multiply every section's count")
    parser.add_argument("--warm-only", action="store_true", help="skip the cold run")
    args = parser.parse_args()
    runs = [("warm, 1 worker", 1), ("warm, 2 workers", 2)]
    if not args.warm_only:
        runs.insert(0, ("cold, 1 worker", 1))
    with tempfile.TemporaryDirectory(prefix="run-bench-") as scratch:
        recipe = scaled(args.recipe.resolve(), args.scale, Path(scratch))
        cache = Path(scratch) / "numba-cache"
        cache.mkdir()
        if args.warm_only:  # fill the cache first, untimed
            run_once(recipe, 1, cache, Path(scratch) / "fill")
        results = {}
        for label, jobs in runs:
            wall, manifest = run_once(recipe, jobs, cache, Path(scratch) / label.replace(" ", ""))
            results[label] = (wall, manifest)
            print(describe(label, wall, manifest), flush=True)
    one, two = results["warm, 1 worker"], results["warm, 2 workers"]
    print(f"puzzles: {one[1]['counts']['puzzles']} ({recipe.name}), cores: {os.cpu_count()}")
    print(
        f"speed-up of 2 workers over 1: {one[0] / two[0]:.2f}x end to end, "
        f"{one[1]['timings_seconds']['dig'] / two[1]['timings_seconds']['dig']:.2f}x on the dig "
        f"stage (target >= {TARGET_SPEEDUP}x)"
    )
    if not args.warm_only:
        cold = results["cold, 1 worker"][0]
        print(f"cold start costs {cold - one[0]:.1f} s of numba compilation")


if __name__ == "__main__":
    main()
