"""How well the grade's score ranks puzzles the way Sudoku Explainer (SE) does, per SE band.

Run: ``.venv/bin/python bench/se_correlation.py [FILE] [--split tune|held|all] [--sample N]
[--by-rating]``. FILE (default: the shared Sudoku Exchange sample,
``sudoku_exchange_se_rated_train.tsv``) has one puzzle a line: 81 characters (``0`` or ``.`` for
a blank), a TAB, its SE rating, and optionally a TAB and its solution; ``#`` lines are comments.
Prints, for each SE band (< 4, 4-6.5, 6.5-7.5, >= 7.5) and over all puzzles: the count, the
share of puzzles whose score is within 0.1 and within 0.2 of their SE rating, Spearman's rho,
and the mean and spread of the error (our score - SE).

``--split`` keeps calibration honest: a puzzle belongs to the *tune* half or the *held* half by a
fixed hash of its text, so tuning on one half and checking on the other needs no second file.
``--sample N`` grades N puzzles of the split, a fixed stride through it (quick runs).
"""

from __future__ import annotations

import argparse
import time
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

from engine import grade_many
from engine.logic import TECHNIQUES

SPLITS = ("all", "tune", "held")
DEFAULT_FILE = (
    Path(__file__).resolve().parents[1] / "../shared/data/sudoku_exchange_se_rated_train.tsv"
)
# the score is in tenths, as SE's rating: a small slack keeps 0.1 apart within 0.1 in floats
WITHIN = (0.1 + 1e-9, 0.2 + 1e-9)
BANDS = ((0.0, 4.0, "< 4"), (4.0, 6.5, "4-6.5"), (6.5, 7.5, "6.5-7.5"), (7.5, 99.0, ">= 7.5"))


def read_rated(path: Path) -> list[tuple[str, float]]:
    """(puzzle, SE rating) pairs; blank and ``#`` lines are skipped."""
    rows = []
    with path.open() as handle:
        for number, line in enumerate(handle, 1):
            fields = line.split("\t") if "\t" in line else line.split()
            if not fields or not fields[0].strip() or fields[0].startswith("#"):
                continue
            try:
                rows.append((fields[0].strip().replace("0", "."), float(fields[1])))
            except (IndexError, ValueError):
                message = f"{path}:{number}: expected a puzzle, a TAB and its SE rating"
                raise SystemExit(message) from None
    return rows


def in_split(puzzle: str, split: str) -> bool:
    """True when the puzzle belongs to the split (a fixed hash halves the set)."""
    if split == "all":
        return True
    return (zlib.crc32(puzzle.encode()) % 2 == 0) == (split == "tune")


def ranks(values: np.ndarray) -> np.ndarray:
    """Ranks from 1, ties given their mean rank (as Spearman's rho needs)."""
    order = np.argsort(values, kind="stable")
    ranked = np.empty(len(values))
    ranked[order] = np.arange(1, len(values) + 1)
    for value in np.unique(values):
        tied = values == value
        ranked[tied] = ranked[tied].mean()
    return ranked


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    if len(x) < 3:
        return float("nan")
    return float(np.corrcoef(ranks(x), ranks(y))[0, 1])


def report(rows: list[tuple[str, float]], by_rating: bool = False) -> dict[str, float]:
    """Print the per-band table and overall rho; returns {band: rho} with "all" for overall."""
    se = np.array([rating for _, rating in rows])
    start = time.perf_counter()
    table = grade_many([puzzle for puzzle, _ in rows])
    seconds = time.perf_counter() - start
    score = np.asarray(table.score)
    hardest = np.asarray(table.hardest)
    error = score - se
    print(f"{len(rows)} puzzles graded in {seconds:.1f} s ({len(rows) / seconds:,.0f}/s)")
    print(
        f"{'SE band':>8} {'n':>5} {'<=0.1':>6} {'<=0.2':>6} {'rho':>6} {'mean err':>9} "
        f"{'sd err':>7}  most common hardest"
    )
    found = {}
    for low, high, label in (*BANDS, (0.0, 99.0, "all")):
        inside = (se >= low) & (se < high)
        if not inside.any():
            continue
        rho = spearman(se[inside], score[inside])
        found[label] = rho
        common = Counter(int(h) for h in hardest[inside]).most_common(2)
        names = ", ".join(f"{_name(h)} {c}" for h, c in common) if label != "all" else ""
        near = np.abs(error[inside])
        print(
            f"{label:>8} {inside.sum():5d} {np.mean(near <= WITHIN[0]):6.1%} "
            f"{np.mean(near <= WITHIN[1]):6.1%} {rho:6.3f} {error[inside].mean():+9.3f} "
            f"{error[inside].std():7.3f}  {names}"
        )
    if by_rating:
        print(f"\n{'SE':>5} {'n':>4} {'mean':>6} {'p10':>6} {'p90':>6} {'exact':>6}")
        for rating in np.unique(se):
            at = score[se == rating]
            p10, p90 = np.percentile(at, (10, 90))
            exact = np.mean(np.abs(at - rating) < WITHIN[0] / 2)
            print(f"{rating:5.1f} {len(at):4d} {at.mean():6.2f} {p10:6.2f} {p90:6.2f} {exact:6.1%}")
    return found


def _name(index: int) -> str:
    return TECHNIQUES[index] if 0 <= index < len(TECHNIQUES) else "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, nargs="?", default=DEFAULT_FILE.resolve())
    parser.add_argument("--split", choices=SPLITS, default="all")
    parser.add_argument("--sample", type=int, default=0, help="grade only N puzzles (a stride)")
    parser.add_argument("--by-rating", action="store_true", help="also a row per SE rating")
    args = parser.parse_args()
    rows = [row for row in read_rated(args.file) if in_split(row[0], args.split)]
    if args.sample and args.sample < len(rows):
        rows = rows[:: len(rows) // args.sample][: args.sample]
    report(rows, args.by_rating)


if __name__ == "__main__":
    main()
