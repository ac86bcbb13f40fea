"""Regenerate ``golden_grades.tsv``: the grader's output for a fixed sample of public puzzles.

Run from the repository root, on purpose, after a change that is meant to move grades:
``.venv/bin/python tests/data/make_golden_grades.py``. Then read the diff of the file (which puzzles
moved, by how much) before committing it; ``tests/engine/test_golden_grades.py`` fails on any
difference until then. The sample is fixed: the same puzzles come out of the same data files.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.grade_table import NO_TECHNIQUE, grade_many  # noqa: E402
from engine.logic.state import TECHNIQUES  # noqa: E402
from tests.conftest import SHARED_DATA  # noqa: E402

GOLDEN = Path(__file__).with_name("golden_grades.tsv")
SE_RATED = "sudoku_exchange_se_rated_train.tsv"  # public domain
SEVENTEEN = "17_clue.txt"  # as shipped by tdoku (BSD-2-Clause), like golden_counts.txt
PER_RATING = 6  # puzzles per SE rating value, spread over that rating's lines
SEVENTEEN_COUNT = 24  # 17-clue puzzles, spread over the list
COLUMNS = ("puzzle", "score", "iterations", "hardest", "tier", "source")
NONE = "-"  # hardest or tier absent


def spread(items: list, count: int) -> list:
    """``count`` items evenly spaced over ``items`` (all of them when there are fewer)."""
    if len(items) <= count:
        return items
    return [items[i * len(items) // count] for i in range(count)]


def sample() -> list[tuple[str, str]]:
    """(puzzle, source) pairs: SE-rated puzzles across every rating, then 17-clue puzzles."""
    by_rating: dict[str, list[str]] = defaultdict(list)
    with (SHARED_DATA / SE_RATED).open() as handle:
        for line in handle:
            if line.strip() and not line.startswith("#"):
                puzzle, rating = line.rstrip("\n").split("\t")[:2]
                by_rating[rating].append(puzzle)
    chosen = [
        (puzzle, f"se:{rating}")
        for rating in sorted(by_rating, key=float)
        for puzzle in spread(by_rating[rating], PER_RATING)
    ]
    with (SHARED_DATA / SEVENTEEN).open() as handle:
        seventeen = [line.split()[0] for line in handle if line.strip() and line[0] != "#"]
    return chosen + [(puzzle, "17-clue") for puzzle in spread(seventeen, SEVENTEEN_COUNT)]


def rows(puzzles: list[str]) -> list[tuple[str, str, str, str, str]]:
    """(puzzle, score, iterations, hardest, tier) as the file writes them: the score in
    ``repr`` form, which reads back as the same float."""
    table = grade_many(puzzles)
    return [
        (
            puzzle,
            repr(float(table.score[i])),
            str(int(table.iterations[i])),
            NONE if table.hardest[i] == NO_TECHNIQUE else TECHNIQUES[table.hardest[i]],
            table.tiers[i] or NONE,
        )
        for i, puzzle in enumerate(puzzles)
    ]


def main() -> None:
    chosen = sample()
    graded = rows([puzzle for puzzle, _ in chosen])
    lines = [
        "# grades of public puzzles (tests/data/README.md); regenerate with",
        "# .venv/bin/python tests/data/make_golden_grades.py",
        "\t".join(COLUMNS),
        *("\t".join((*row, source)) for row, (_, source) in zip(graded, chosen, strict=True)),
    ]
    GOLDEN.write_text("\n".join(lines) + "\n")
    print(f"{GOLDEN}: {len(graded)} puzzles")


if __name__ == "__main__":
    main()
