"""Book input: puzzles, sections and rows are checked before any page is drawn."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from pipeline.render.book import Book, BookError, BookPuzzle, Section, book_from_rows
from pipeline.render.fonts import UnsupportedText, check_text

SOLUTION = engine.random_grid(9, seed=11)


def _givens(solution: str, every: int = 3) -> str:
    return "".join(s if k % every == 0 else "." for k, s in enumerate(solution))


def _row(index: int, tier: str = "easy", **extra: object) -> dict:
    solution = engine.random_grid(9, seed=index)
    row = {
        "id": f"id{index:04d}",
        "givens": _givens(solution),
        "solution": solution,
        "box_rows": 3,
        "box_cols": 3,
        "tier": tier,
        "score": float(index),
    }
    row.update(extra)
    return row


def test_puzzle_parses_into_grids() -> None:
    puzzle = BookPuzzle("abc", _givens(SOLUTION), SOLUTION, 3, 3, "easy")
    grids = puzzle.grids
    assert grids.geometry.n == 9
    assert engine.to_text(grids.geometry, grids.solution) == SOLUTION
    assert engine.to_text(grids.geometry, grids.givens) == _givens(SOLUTION)


def test_bad_givens_name_the_puzzle_and_the_cell() -> None:
    bad = "x" + _givens(SOLUTION)[1:]
    with pytest.raises(BookError, match=r"puzzle 'p1': givens: bad character 'x' at index 0"):
        BookPuzzle("p1", bad, SOLUTION, 3, 3, "easy")


def test_wrong_box_shape_is_refused() -> None:
    with pytest.raises(BookError, match=r"puzzle 'p1': givens: .*needs 36"):
        BookPuzzle("p1", _givens(SOLUTION), SOLUTION, 2, 3, "easy")


def test_solution_must_be_complete() -> None:
    holey = "." + SOLUTION[1:]
    with pytest.raises(BookError, match=r"solution has 1 blank cells \(first at r1c1\)"):
        BookPuzzle("p1", _givens(SOLUTION), holey, 3, 3, "easy")


def test_givens_must_agree_with_the_solution() -> None:
    wrong = SOLUTION[1] + SOLUTION[1:]  # r1c1 given as r1c2's symbol
    givens = wrong[0] + "." * 80
    with pytest.raises(BookError, match=f"given '{SOLUTION[1]}' at r1c1 differs"):
        BookPuzzle("p1", givens, SOLUTION, 3, 3, "easy")


def test_passes_must_fit_the_givens() -> None:
    givens = _givens(SOLUTION)
    good = tuple(0 if s != "." else 2 for s in givens)
    assert BookPuzzle("p", givens, SOLUTION, 3, 3, "easy", passes=list(good)).passes == good
    with pytest.raises(BookError, match="passes has 80 entries; a 9x9"):
        BookPuzzle("p", givens, SOLUTION, 3, 3, "easy", passes=good[:-1])
    blank_zero = (0,) * 81
    with pytest.raises(BookError, match=r"passes\[1\] \(r1c2\) is 0"):
        BookPuzzle("p", givens, SOLUTION, 3, 3, "easy", passes=blank_zero)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.booleans(), min_size=81, max_size=81))
def test_any_blanking_of_a_solution_is_a_valid_puzzle(holes: list[bool]) -> None:
    givens = "".join("." if hole else s for s, hole in zip(SOLUTION, holes, strict=True))
    passes = tuple(1 if hole else 0 for hole in holes)
    puzzle = BookPuzzle("p", givens, SOLUTION, 3, 3, "easy", passes=passes)
    assert puzzle.grids.givens.tolist().count(0) == sum(holes)


def test_short_id_is_a_prefix() -> None:
    puzzle = BookPuzzle("0123456789abcdef", _givens(SOLUTION), SOLUTION, 3, 3, "easy")
    assert puzzle.short_id == "01234567"


def test_section_and_book_checks() -> None:
    puzzle = BookPuzzle("p", _givens(SOLUTION), SOLUTION, 3, 3, "easy")
    with pytest.raises(BookError, match="section 'Easy': layout 3 is not one of 1, 2, 4, 6"):
        Section("Easy", "easy", 3, [puzzle])
    with pytest.raises(BookError, match="section 'Easy' has no puzzles"):
        Section("Easy", "easy", 1, [])
    with pytest.raises(BookError, match="no title"):
        Book(" ", "me", [Section("Easy", "easy", 1, [puzzle])])
    assert Section("Easy", "easy", 4, [puzzle] * 9).pages == 3


def test_book_from_rows_groups_by_tier_in_layout_order() -> None:
    rows = [_row(k, tier) for k, tier in enumerate(["hard", "easy", "hard", "easy", "hard"])]
    rows[0]["score"] = math.nan
    rows[1]["passes"] = [0 if s != "." else 1 for s in rows[1]["givens"]]
    book = book_from_rows(rows, "Title", "Author", {"easy": 2, "hard": 6}, about="About")
    assert [(s.title, s.tier, s.layout) for s in book.sections] == [
        ("Easy", "easy", 2),
        ("Hard", "hard", 6),
    ]
    assert [p.id for p in book.sections[1].puzzles] == ["id0000", "id0002", "id0004"]
    assert book.sections[1].puzzles[0].score is None
    assert book.sections[0].puzzles[0].passes == tuple(rows[1]["passes"])
    assert book.puzzle_count == 5 and book.about == "About"


def test_book_from_rows_names_the_bad_row() -> None:
    rows = [_row(0), _row(1)]
    del rows[1]["solution"]
    with pytest.raises(BookError, match="row 1: missing 'solution'"):
        book_from_rows(rows, "T", "A", {"easy": 1})
    with pytest.raises(BookError, match="row 0 \\(id 'id0000'\\): tier 'easy' has no layout"):
        book_from_rows([_row(0)], "T", "A", {"hard": 1})
    with pytest.raises(BookError, match="tier 'hard' has a layout but no rows"):
        book_from_rows([_row(0)], "T", "A", {"easy": 1, "hard": 1})
    bad = _row(0, givens="x" * 81)
    with pytest.raises(BookError, match="row 0: puzzle 'id0000': givens: bad character"):
        book_from_rows([bad], "T", "A", {"easy": 1})


def test_text_font_prints_many_scripts_and_names_what_it_lacks() -> None:
    check_text("Café & <Ünïcode> Жук Ελληνικά", "book title")
    with pytest.raises(UnsupportedText, match=r"book author: '数' .* not in the font DejaVuSans"):
        check_text("数独", "book author")
