"""Golden grades: the grader reproduces, exactly, its recorded grades of a few hundred public
puzzles across the scale (``tests/data/golden_grades.tsv``), in the batch and one at a time.

A change meant to move grades regenerates the file (``tests/data/make_golden_grades.py``) and the
diff shows which puzzles moved; any other change must leave every row as it is.
"""

from __future__ import annotations

import pytest

from engine.grade import grade
from engine.grade_table import NO_TECHNIQUE, grade_many
from engine.logic.state import TECHNIQUES
from tests.conftest import TEST_DATA
from tests.data.make_golden_grades import COLUMNS, GOLDEN, NONE

ONE_BY_ONE = 40  # rows also graded through engine.grade, spread over the file


def golden_rows() -> list[dict[str, str]]:
    lines = [line for line in GOLDEN.read_text().splitlines() if not line.startswith("#")]
    assert tuple(lines[0].split("\t")) == COLUMNS
    return [dict(zip(COLUMNS, line.split("\t"), strict=True)) for line in lines[1:]]


def test_golden_file_spans_the_scale() -> None:
    rows = golden_rows()
    assert GOLDEN.parent == TEST_DATA and len(rows) >= 300
    assert {row["tier"] for row in rows} >= {"easy", "medium", "hard", "expert", "extreme"}
    assert len({row["source"] for row in rows}) >= 50  # every SE rating and the 17-clue list
    assert len({row["puzzle"] for row in rows}) == len(rows)


def test_batch_grades_match_the_golden_file() -> None:
    rows = golden_rows()
    table = grade_many([row["puzzle"] for row in rows])
    for i, row in enumerate(rows):
        hardest = NONE if table.hardest[i] == NO_TECHNIQUE else TECHNIQUES[table.hardest[i]]
        found = (float(table.score[i]), int(table.iterations[i]), hardest, table.tiers[i] or NONE)
        expected = (float(row["score"]), int(row["iterations"]), row["hardest"], row["tier"])
        assert found == expected, f"line {i + 1} ({row['source']}) {row['puzzle']}"


@pytest.mark.parametrize("index", range(ONE_BY_ONE))
def test_single_grades_match_the_golden_file(index: int) -> None:
    rows = golden_rows()
    row = rows[index * len(rows) // ONE_BY_ONE]
    found = grade(row["puzzle"])
    assert (found.score, found.iterations) == (float(row["score"]), int(row["iterations"]))
    assert (found.hardest or NONE, found.tier or NONE) == (row["hardest"], row["tier"])
