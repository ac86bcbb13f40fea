"""Running Debian's ``qqwing`` binary and reading its CSV output, for the side-by-side benchmarks.

qqwing is timed by the CPU time of its process (``RUSAGE_CHILDREN``), as our side is by
``time.process_time``: other work on a shared machine then disturbs both sides little.
Its CSV output is one header line and one line per puzzle; each puzzle line ends with a comma, the
header line only in some modes.
"""

from __future__ import annotations

import resource
import shutil
import subprocess

LEVELS = ("simple", "easy", "intermediate", "expert")


class QqwingOutputError(ValueError):
    """qqwing printed something the benchmark cannot read; the message names the line."""


def available() -> bool:
    return shutil.which("qqwing") is not None


def version() -> str:
    return subprocess.run(
        ["qqwing", "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()


def children_cpu() -> float:
    """CPU seconds (user and system) of this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(arguments: list[str], puzzles: list[str] | None = None) -> tuple[str, float]:
    """qqwing's standard output and the CPU seconds its process used."""
    feed = "".join(f"{p}\n" for p in puzzles) if puzzles is not None else None
    start = children_cpu()
    out = subprocess.run(
        ["qqwing", *arguments], input=feed, capture_output=True, text=True, check=True
    ).stdout
    return out, children_cpu() - start


def parse_csv(text: str) -> list[dict[str, str]]:
    """Rows of qqwing's ``--csv`` output as {column: field}; blank lines are skipped."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return []
    header = _fields(lines[0])
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        fields = _fields(line)
        if len(fields) != len(header):
            raise QqwingOutputError(
                f"line {number}: {len(fields)} fields, the header has {len(header)}: {line!r}"
            )
        rows.append(dict(zip(header, fields, strict=True)))
    return rows


def _fields(line: str) -> list[str]:
    return line.removesuffix(",").split(",")


def generate(level: str, count: int) -> tuple[list[str], float]:
    """``count`` puzzles of a qqwing level (no symmetry, its default) and the CPU seconds."""
    out, seconds = run(["--generate", str(count), "--difficulty", level, "--csv"])
    puzzles = [row["Puzzle"] for row in parse_csv(out)]
    if len(puzzles) != count:
        raise QqwingOutputError(f"asked qqwing for {count} puzzles, read {len(puzzles)}")
    return puzzles, seconds


def levels(puzzles: list[str]) -> list[str]:
    """qqwing's own level of each puzzle (``--solve --stats``), lower case."""
    out, _ = run(["--solve", "--stats", "--csv", "--nosolution"], puzzles)
    return [row["Difficulty"].lower() for row in parse_csv(out)]


def count(puzzles: list[str]) -> tuple[list[int], float]:
    """Solutions of each puzzle, all of them counted (``--count-solutions``), and the CPU
    seconds; qqwing does no solving pass in this mode."""
    out, seconds = run(["--solve", "--count-solutions", "--nosolution", "--csv"], puzzles)
    return [int(row["Solution Count"]) for row in parse_csv(out)], seconds


def solve(puzzles: list[str]) -> tuple[list[str], float]:
    """One solution of each puzzle (``--solve``: its logic, then guesses) and the CPU seconds."""
    out, seconds = run(["--solve", "--csv"], puzzles)
    return [row["Solution"] for row in parse_csv(out)], seconds
