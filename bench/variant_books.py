"""A variant book of every tier, made through the real CLI, then every puzzle checked apart.

Run: ``.venv/bin/python bench/variant_books.py [--count 200] [--n-jobs 2] [--out DIR]
[--books killer-9,killer-6] [--tiers easy,medium]``. Writes a recipe per book (X, Windoku,
Jigsaw, Jigsaw+X and Killer at 9x9, Jigsaw and Killer at 6x6, Jigsaw at 12x12) with one section
per tier (easy to extreme; 6x6 Killer: easy), runs ``pipeline run`` on each, and prints each
run's time.
Then each stored puzzle is checked by means the run did not use: a SAT count from the rules as
a person states them (``tests/variant_rules.py``; a Killer's cages as the list of digit sets
each total allows) must find exactly one solution, the stored one;
givens and solution obey every unit and every cage (its total, no repeat, each cell in one
cage); a Jigsaw's regions are n connected cells; and a fresh ``engine.grade`` puts it in its
tier. Prints a table per variant and the failures (none expected).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from figures import Table  # noqa: E402

import engine  # noqa: E402
from engine.geometry import region_ids  # noqa: E402
from pipeline.variants import is_killer, row_geometry  # noqa: E402
from tests.variant_rules import obeys, sat_solutions  # noqa: E402

TIERS = ("easy", "medium", "hard", "expert", "extreme")
BOOKS = (
    ("x", 9),
    ("windoku", 9),
    ("jigsaw", 9),
    ("jigsaw+x", 9),
    ("killer", 9),
    ("jigsaw", 6),
    ("killer", 6),
    ("jigsaw", 12),
)


def tiers_of(variant: str, size: int, tiers: tuple[str, ...] = TIERS) -> tuple[str, ...]:
    """The tiers a book has: ``tiers``, but a 6x6 Killer (for children) is easy only."""
    return ("easy",) if is_killer(variant) and size == 6 else tiers


def recipe(
    variant: str, size: int, count: int, n_jobs: int, output: Path, tiers: tuple[str, ...]
) -> str:
    lines = [
        f'title = "Check {variant} {size}x{size}"',
        "seed = 30",
        f'output = "{output}"',
        f"[parallel]\nn_jobs = {n_jobs}",
        "[print]\nabout = false",
    ]
    dig_keys = "" if is_killer(variant) else "\nminimal = false"  # a Killer's are its cages
    for tier in tiers_of(variant, size, tiers):
        lines.append(
            f'[[sections]]\ntitle = "{tier}"\nvariant = "{variant}"\nsize = {size}\n'
            f'tier = "{tier}"\ncount = {count}{dig_keys}\nlayout = 6'
        )
    return "\n".join(lines) + "\n"


def check(row: dict) -> str | None:
    """What is wrong with a stored puzzle, or None."""
    n = row["size"]
    geo = row_geometry(row)  # checks the cages: totals their sizes allow, connected, cover once
    if geo.regions is not None:
        region_ids(geo.regions, n)  # raises on a region of the wrong size or in pieces
    givens = engine.parse(row["givens"], geo).values
    solution = engine.parse(row["solution"], geo).values
    if not (obeys(geo, givens) and obeys(geo, solution) and solution.all()):
        return "breaks a unit or a cage"
    found = sat_solutions(geo, givens)
    if len(found) != 1:
        return f"{len(found)} solutions by SAT"
    if not np.array_equal(found[0], solution):
        return "SAT's solution is not the stored one"
    if engine.grade(row["givens"], box=geo).tier != row["tier"]:
        return "graded into another tier"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="puzzles per variant and tier")
    parser.add_argument("--n-jobs", type=int, default=2, help="worker processes of the run")
    parser.add_argument("--out", type=Path, help="output folder (default: a temporary one)")
    parser.add_argument(
        "--books", help="only these books, as variant-size joined by commas (e.g. killer-9)"
    )
    parser.add_argument("--tiers", default=",".join(TIERS), help="tiers, joined by commas")
    args = parser.parse_args()
    tiers = tuple(args.tiers.split(","))
    books = BOOKS
    if args.books:
        books = tuple(b for b in BOOKS if f"{b[0]}-{b[1]}" in args.books.split(","))
    out = args.out or Path(tempfile.mkdtemp(prefix="variant-books-"))
    out.mkdir(parents=True, exist_ok=True)
    for variant, size in books:
        path = out / f"{variant}-{size}.toml"
        path.write_text(recipe(variant, size, args.count, args.n_jobs, out / "output", tiers))
        start = time.perf_counter()
        command = [str(Path(sys.executable).parent / "pipeline"), "run", str(path), "--quiet"]
        subprocess.run(command, check=True)
        print(f"{variant} {size}x{size}: {time.perf_counter() - start:.1f} s wall", flush=True)
    files = sorted((out / "output").glob("*/*/puzzles.parquet"))
    rows = pl.concat([pl.read_parquet(file) for file in files], how="diagonal").to_dicts()
    table = Table(
        f"{len(rows)} puzzles in {len(files)} books, each checked by SAT, the units and a re-grade",
        ["variant", "size", *TIERS, "failures"],
    )
    failures: list[str] = []
    for variant, size in books:
        mine = [r for r in rows if r["variant"] == variant and r["size"] == size]
        landed = Counter(r["tier"] for r in mine)
        wrong = [(r["id"], check(r)) for r in mine]
        failures += [f"{variant} {size} {i}: {why}" for i, why in wrong if why]
        table.add(
            [
                variant,
                str(size),
                *(str(landed[t]) for t in TIERS),
                str(sum(bool(w) for _, w in wrong)),
            ]
        )
    table.emit(None)
    print("\n".join(failures) or "no failures")


if __name__ == "__main__":
    main()
