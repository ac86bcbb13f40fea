"""Re-verification of worker rows: honest rows pass, and each kind of forgery is named."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from pipeline.parallel import UntrustedResult
from pipeline.recheck import check_dug, check_grids, check_verdicts
from pipeline.recipe import SectionSpec
from pipeline.tasks import (
    Chunk,
    DigJob,
    GradeTask,
    GridJob,
    dig_chunk,
    grade_chunk,
    grid_chunk,
    section_tiers,
)

NINE = SectionSpec("Classic", 9, 3, 3, "easy", 3)
HARD = SectionSpec("Classic", 9, 3, 3, "hard", 3)


@pytest.fixture(scope="module")
def dug() -> tuple[DigJob, list[dict]]:
    job = DigJob(Chunk(0, 2, 3), NINE, 5, "run", section_tiers(NINE))
    return job, dig_chunk(job)


def swap_digits(text: str) -> str:
    a, b = text[0], text[1]
    return text.translate(str.maketrans({a: b, b: a}))


def drop_a_clue(givens: str) -> str:
    first = next(i for i, c in enumerate(givens) if c != ".")
    return givens[:first] + "." + givens[first + 1 :]


def set_(key: str, change: Callable) -> Callable[[dict], None]:
    return lambda row: row.update({key: change(row[key])})


FORGERIES = [
    (set_("solution", swap_digits), "givens disagree with the recorded solution"),
    (
        set_("givens", drop_a_clue),
        "puzzle has no single solution",
    ),  # dug minimal: one clue fewer, many
    (set_("score", lambda s: s + 0.5), "score is"),
    (set_("iterations", lambda n: n + 1), "iterations is"),
    (set_("id", lambda s: s[::-1]), "id is"),
    (set_("canonical", lambda s: s[::-1]), "canonical is"),
    (set_("position", lambda p: p + 1), "position is"),
    (set_("passes", lambda p: p[::-1]), "passes is"),
]


@pytest.mark.parametrize(("forge", "named"), FORGERIES)
def test_each_forgery_of_a_dug_row_is_named(dug, forge, named: str) -> None:
    job, rows = dug
    check_dug(job, rows)  # the honest rows pass
    forged = copy.deepcopy(rows)
    forge(forged[1])
    with pytest.raises(UntrustedResult, match=rf"chunk s000-c00002 item 1: (the )?{named}"):
        check_dug(job, forged)


def test_a_puzzle_outside_the_section_band_and_a_short_chunk_are_refused(dug) -> None:
    job, rows = dug
    as_hard = DigJob(job.chunk, HARD, job.run_seed, job.run_id, section_tiers(HARD))
    relabelled = [{**row, "tier": "hard"} for row in rows]
    with pytest.raises(UntrustedResult, match="item 0: the puzzle's grade is outside the 'hard'"):
        check_dug(as_hard, relabelled)
    with pytest.raises(UntrustedResult, match="chunk s000-c00002: 2 rows for a task of 3"):
        check_dug(job, rows[:2])


def test_grids_must_be_valid_and_of_the_task() -> None:
    job = GridJob(Chunk(0, 0, 4), 9, "3x3", 1)
    rows = grid_chunk(job)
    check_grids(job, rows)
    clash = copy.deepcopy(rows)
    clash[2]["solution"] = clash[2]["solution"][1] + clash[2]["solution"][0] + "1" * 79
    with pytest.raises(UntrustedResult, match="item 2: the solution is not a valid grid"):
        check_grids(job, clash)
    with pytest.raises(UntrustedResult, match="item 3: seed is 2, the task gives 1"):
        check_grids(job, [*rows[:3], {**rows[3], "seed": 2}])


def test_a_graded_row_must_keep_its_givens(shared_data) -> None:
    from tests.conftest import read_puzzles

    puzzles = read_puzzles(shared_data / "17_clue.txt")[:3]
    nine = (3, 3, "classic", None)
    task: GradeTask = ([(p, nine) for p in puzzles], (), None)
    verdicts = grade_chunk(task)
    check_verdicts(task, verdicts)
    other: GradeTask = (
        [(puzzles[1], nine), (puzzles[0], nine), (puzzles[2], nine)],
        (),
        None,
    )
    with pytest.raises(UntrustedResult, match="givens disagree with the recorded solution"):
        check_verdicts(other, verdicts)  # the verdicts of other puzzles
