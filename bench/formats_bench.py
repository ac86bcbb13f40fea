"""Reader throughput and memory: rows/s on 17_clue.txt, peak memory on a 1,000,000-line file.

Run: ``.venv/bin/python bench/formats_bench.py [--lines N]``. Throughput is the best of a few
passes over ../shared/data/17_clue.txt, beside a bare ``line.split()[0]`` loop (no validation) as
the floor. Peak memory (``ru_maxrss``) is measured in a fresh process per file, for a small and a
large generated file, so the difference is what reading the large file costs: flat means it does
not grow with the file.
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from public_sets import DATA

from pipeline.formats import read_puzzles

CLUES = DATA / "17_clue.txt"
PASSES = 3
SMALL_LINES = 10_000
BROKEN_EVERY = 97  # one line in this many is damaged, so invalid rows are part of the load
FALLBACK = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def best_rate(read) -> float:
    """Rows per second, best of PASSES calls of ``read`` (which returns its row count)."""
    best = float("inf")
    for _ in range(PASSES):
        start = time.perf_counter()
        rows = read()
        best = min(best, time.perf_counter() - start)
    return rows / best


def read_rows(path: Path) -> int:
    return sum(len(chunk) for chunk in read_puzzles([path]))


def bare_split(path: Path) -> int:
    with path.open() as handle:
        return len([line.split()[0] for line in handle if line.strip() and line[0] != "#"])


def generate(path: Path, lines: int) -> None:
    """``lines`` puzzle lines cycled from 17_clue.txt (or one puzzle), some of them damaged."""
    if CLUES.exists():
        puzzles = [p for p in CLUES.read_text().split("\n") if p and not p.startswith("#")]
    else:
        puzzles = [FALLBACK]
    with path.open("w") as out:
        for i, puzzle in zip(range(lines), itertools.cycle(puzzles), strict=False):
            out.write(puzzle[: -(i % 5) - 1] if i % BROKEN_EVERY == 0 else puzzle)
            out.write("\n")


def child(path: Path) -> None:
    """Read ``path`` and print rows, invalid rows, seconds and this process's peak memory."""
    start = time.perf_counter()
    rows = bad = 0
    for chunk in read_puzzles([path]):
        rows += len(chunk)
        bad += sum(not row.ok for row in chunk)
    seconds = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    found = {"rows": rows, "invalid": bad, "seconds": seconds, "peak_mib": peak_kib / 1024}
    print(json.dumps(found))


def measure(path: Path) -> dict:
    script = [sys.executable, __file__, "--child", str(path)]
    return json.loads(subprocess.run(script, check=True, capture_output=True, text=True).stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000, help="lines in the large file")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    if CLUES.exists():
        rate = best_rate(lambda: read_rows(CLUES))
        floor = best_rate(lambda: bare_split(CLUES))
        print(f"17_clue.txt: {rate:,.0f} rows/s read and validated")
        print(f"  bare line.split()[0] loop: {floor:,.0f} rows/s ({floor / rate:.1f}x faster)")
    else:
        print(f"{CLUES} absent: throughput skipped")
    with tempfile.TemporaryDirectory() as folder:
        for lines in (SMALL_LINES, args.lines):
            path = Path(folder) / f"{lines}.txt"
            generate(path, lines)
            got = measure(path)
            print(
                f"{lines:>9,} lines ({path.stat().st_size / 2**20:,.0f} MiB): "
                f"{got['rows']:,} rows, {got['invalid']:,} invalid, {got['seconds']:.1f} s, "
                f"peak memory {got['peak_mib']:,.0f} MiB"
            )


if __name__ == "__main__":
    main()
