"""The person's path (``engine.path.person_path``, what `pipeline explain` prints): what its
searches remember from one puzzle to the next never shows in a path."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import engine
from engine.path import PathStep, person_path
from engine.text import parse
from tests.conftest import read_puzzles

SAMPLE = 30  # top1465's first: two paths take a Franken fish, many end in trial and error


def test_what_the_fish_searches_remember_never_shows(shared_data: Path) -> None:
    """The Franken and mutant fish searches keep, per digit, the cells with which they last
    found nothing, in the thread's workspace (``WorkArrays.fish_cells``): the paths made in
    order, backwards, and each in a new thread (a fresh workspace) are the same."""
    puzzles = read_puzzles(shared_data / "magictour_top1465.txt")[:SAMPLE]
    grades = [engine.grade(puzzle) for puzzle in puzzles]

    def path(index: int) -> tuple[PathStep, ...]:
        return person_path(parse(puzzles[index]), grades[index])

    forward = [path(index) for index in range(SAMPLE)]
    assert any(step.technique == "franken_fish" for steps in forward for step in steps)
    backward = [path(index) for index in reversed(range(SAMPLE))]
    assert backward[::-1] == forward
    for index in range(0, SAMPLE, 3):
        with ThreadPoolExecutor(max_workers=1) as fresh:  # a new thread: a fresh workspace
            assert fresh.submit(path, index).result() == forward[index], puzzles[index]
