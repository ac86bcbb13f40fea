"""Run every benchmark in this folder once (and the input fuzz), each in its own process, and
record that one run.

Run: .venv/bin/python bench/run_all.py [--only dig_bench,engine_bench]  (or `make bench`).
Everything the scripts print goes to bench/last-run.md, headed by the machine, the date and the
load on the machine; the tables of the scripts that compare us with qqwing (TABLE_SCRIPTS) also
replace the block between the bench markers of bench/RESULTS.md, so its figures are this run's.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import tempfile
import textwrap
from importlib.metadata import version
from pathlib import Path

import qqwing_cli

HERE = Path(__file__).resolve().parent
SUMMARY = HERE / "RESULTS.md"
RESULTS = HERE / "last-run.md"
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"
TABLE_SCRIPTS = ("dig_bench.py", "engine_bench.py")  # they take --table FILE


def machine() -> str:
    """One line: CPU, cores, memory, Python, numba, qqwing."""
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    parts = [
        f"{platform.machine()}, {os.cpu_count()} cores",
        f"{memory / 2**30:.0f} GiB",
        f"Python {platform.python_version()}, numba {version('numba')}",
        qqwing_cli.version() if qqwing_cli.available() else "qqwing absent",
    ]
    return "; ".join(parts)


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} (1 min), {five:.1f} (5 min)"


def replace_block(text: str, block: str) -> str:
    """``text`` with what lies between the bench markers replaced by ``block``."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"RESULTS.md: the markers {BEGIN} ... {END} are missing")
    return text[: start + len(BEGIN)] + "\n" + block + text[end:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated script names (without .py) to run")
    args = parser.parse_args()
    scripts = sorted([*HERE.glob("*_bench.py"), HERE / "fuzz_inputs.py"])
    if args.only:
        wanted = {f"{name.strip()}.py" for name in args.only.split(",")}
        scripts = [s for s in scripts if s.name in wanted]
    started = datetime.datetime.now(datetime.UTC)
    load_before = load()
    failed, logs = [], []
    with tempfile.TemporaryDirectory(prefix="bench-") as scratch:
        tables = Path(scratch) / "tables.md"
        tables.touch()
        for script in scripts:
            print(f"\n=== {script.name} ===", flush=True)
            command = [sys.executable, str(script)]
            if script.name in TABLE_SCRIPTS:
                command += ["--table", str(tables)]
            result = subprocess.run(command, check=False, capture_output=True, text=True)
            print(result.stdout + result.stderr, end="", flush=True)
            logs.append(f"### {script.name}\n\n```\n{result.stdout}{result.stderr}```\n")
            if result.returncode:
                failed.append(script.name)
        figures = tables.read_text()
    finished = datetime.datetime.now(datetime.UTC)
    command = f"`make bench BENCH={args.only}`" if args.only else "`make bench`"
    header = (
        textwrap.fill(
            f"Measured by {command} (`bench/run_all.py`) from {started:%Y-%m-%d %H:%M} to "
            f"{finished:%H:%M} UTC on {machine()}. Load average at the start {load_before}, at the "
            f"end {load()}: a machine shared with other work, so every figure is CPU time, which "
            "such load disturbs less than wall time (not entirely: caches and memory are shared).",
            width=100,
        )
        + "\n"
    )
    RESULTS.write_text(
        "# Benchmark results of one run\n\n" + header + "\n" + figures + "\n## Output of every "
        "script\n\n" + "\n".join(logs) + (f"\nfailed: {', '.join(failed)}\n" if failed else "")
    )
    compared = [s.name for s in scripts if s.name in TABLE_SCRIPTS]
    if compared and not set(compared) & set(failed):
        SUMMARY.write_text(replace_block(SUMMARY.read_text(), header + "\n" + figures))
        print(f"\n{SUMMARY.name} figures and {RESULTS.name} written")
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
