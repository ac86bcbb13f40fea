"""How well the grade's score ranks puzzles the way Sudoku Explainer (SE) does.

Run: ``.venv/bin/python bench/se_correlation.py FILE [--split tune|held|all]``. FILE has one puzzle
a line: 81 characters (``0`` or ``.`` for a blank) then its SE rating, separated by blanks (e.g.
the per-rating files of the public-domain Sudoku Exchange puzzle bank). Prints Spearman's rank
correlation between our score and the SE rating, then, for each SE band, the mean, spread and
hardest technique of our score.

``--split`` keeps calibration honest: a puzzle belongs to the *tune* half or the *held* half by a
fixed hash of its text, so tuning on one half and checking on the other needs no second file.
"""

from __future__ import annotations

import argparse
import zlib
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from engine import grade

SPLITS = ("all", "tune", "held")


def read_rated(path: Path) -> list[tuple[str, float]]:
    """(puzzle, SE rating) pairs; blank and ``#`` lines are skipped."""
    rows = []
    with path.open() as handle:
        for number, line in enumerate(handle, 1):
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            if len(fields) < 2:
                raise ValueError(f"{path}:{number}: expected a puzzle and its SE rating")
            rows.append((fields[0].replace("0", "."), float(fields[-1])))
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
    return float(np.corrcoef(ranks(x), ranks(y))[0, 1])


def report(rows: list[tuple[str, float]]) -> float:
    """Print rho and the per-band table; returns rho."""
    se = np.array([rating for _, rating in rows])
    grades = [grade(puzzle) for puzzle, _ in rows]
    score = np.array([g.score for g in grades])
    rho = spearman(se, score)
    print(f"{len(rows)} puzzles  Spearman rho = {rho:.3f}")
    bands: dict[float, list] = defaultdict(list)
    for rating, g in zip(se, grades, strict=True):
        bands[float(rating)].append(g)
    print(f"{'SE':>5} {'n':>3} {'mean':>6} {'min':>6} {'max':>6}  most common hardest")
    for rating in sorted(bands):
        scores = [g.score for g in bands[rating]]
        common = Counter(g.hardest for g in bands[rating]).most_common(2)
        names = ", ".join(f"{name} {count}" for name, count in common)
        print(
            f"{rating:5.1f} {len(scores):3d} {np.mean(scores):6.2f} {min(scores):6.2f} "
            f"{max(scores):6.2f}  {names}"
        )
    return rho


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file", type=Path, help="puzzles with their SE ratings")
    parser.add_argument("--split", choices=SPLITS, default="all")
    args = parser.parse_args()
    rows = [row for row in read_rated(args.file) if in_split(row[0], args.split)]
    report(rows)


if __name__ == "__main__":
    main()
