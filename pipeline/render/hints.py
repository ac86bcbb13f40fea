"""The hints section and the worked-solutions appendix: a person's path in words, as flowables.

A hint names the first step beyond the singles (where a solver who only scans gets stuck); a
worked solution walks every pass, the singles of a pass in one line. Both are worded by
:mod:`pipeline.explain`, so the book says what ``pipeline explain`` prints.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import groupby
from xml.sax.saxutils import escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph

import engine
from engine.geometry import Geometry
from pipeline.explain import Explanation, effects, explain, first_hint, reason
from pipeline.render.book import Book, BookError, BookPuzzle
from pipeline.render.pages import bold_text, symbol_word

HINTS_HEADING = "Hints"
WORKED_HEADING = "Worked solutions"
SINGLES_ONLY = "Singles solve it all."
HINTS_INTRO = (
    "For each puzzle, where to look once you have filled in every single: each cell that only "
    "one {symbol} fits, and each last place left for a {symbol} in a row, column or box. Cells "
    "are named by row and column: r2c6 is row 2, column 6."
)
WORKED_INTRO = (
    "Each pass starts from the grid as the pass before left it: first every single in sight, "
    "then the one technique named. Cells are named by row and column: r3c5=7 places a 7 in row "
    "3, column 5; r1c2≠4 crosses out the 4 pencilled in row 1, column 2."
)
NOT_EQUAL = "≠"  # a removal, as printed: r1c2≠4
WORKED_SIZE_RATIO = 0.85  # worked solutions are set a little smaller than body text
EXPLAINED_CACHE = 4096  # puzzles: the booklet lays the book out more than once


def numbered(book: Book) -> Iterator[tuple[int, BookPuzzle]]:
    """Every puzzle with its number in the book, as the puzzle pages number them."""
    puzzles = (puzzle for section in book.sections for puzzle in section.puzzles)
    yield from enumerate(puzzles, start=1)


def hint_flowables(book: Book, heading: ParagraphStyle, body: ParagraphStyle) -> list[Flowable]:
    """The hints section: a heading, a line of use, then one numbered hint per puzzle."""
    symbol = symbol_word(puzzle.grids.geometry.n for _, puzzle in numbered(book))
    intro = HINTS_INTRO.format(symbol=symbol)
    flowables: list[Flowable] = [Paragraph(HINTS_HEADING, heading), Paragraph(intro, body)]
    for number, puzzle in numbered(book):
        hint = first_hint(_explained(puzzle))
        text = f"{hint}." if hint else SINGLES_ONLY
        flowables.append(Paragraph(f"{bold_text(f'{number}.', heading)} {escape(text)}", body))
    return flowables


def worked_flowables(
    book: Book, tiers: tuple[str, ...], heading: ParagraphStyle, body: ParagraphStyle
) -> list[Flowable]:
    """The appendix: every pass of each puzzle of ``tiers``; empty when no puzzle is of them."""
    title_style = ParagraphStyle("worked-title", parent=body, keepWithNext=1)
    small = ParagraphStyle(
        "worked",
        parent=body,
        fontSize=body.fontSize * WORKED_SIZE_RATIO,
        leading=body.leading * WORKED_SIZE_RATIO,
    )
    flowables: list[Flowable] = []
    for number, puzzle in numbered(book):
        if puzzle.tier not in tiers:
            continue
        explained = _explained(puzzle)
        title = f"{bold_text(f'Puzzle {number}', heading)} ({escape(puzzle.tier)})"
        flowables.append(Paragraph(title, title_style))
        lines = worked_lines(explained)
        flowables.extend(
            Paragraph(bold_text(label, heading) + text, small) for label, text in lines
        )
    if not flowables:
        return []
    return [Paragraph(WORKED_HEADING, heading), Paragraph(escape(WORKED_INTRO), body), *flowables]


def worked_lines(explained: Explanation) -> list[tuple[str, str]]:
    """(label, markup) per pass: its singles' placements, or its technique's first step in words
    and what the pass's other steps of that technique remove."""
    geo = explained.geometry
    lines = []
    for pass_no, group in groupby(explained.steps, key=lambda step: step.pass_no):
        first, *more = steps = list(group)
        done = ", ".join(dict.fromkeys(e for step in steps for e in effects(step, geo, NOT_EQUAL)))
        if first.single:
            lines.append((f"Pass {pass_no}. ", escape(f"Singles: {done}")))
            continue
        why = reason(first, geo)
        text = why if first.name in why else f"{first.name}. {why}"  # "Look for a ..." names it
        text += f"; {len(more)} more like it ({done})" if more else f" ({done})"
        lines.append((f"Pass {pass_no}. ", escape(text)))
    return lines


def _explained(puzzle: BookPuzzle) -> Explanation:
    """The puzzle's path; a puzzle without one solution has none to print."""
    try:
        return _explain_cached(puzzle.givens, puzzle.grids.geometry)
    except (engine.InvalidPuzzle, engine.NoSolution, engine.MultipleSolutions) as exc:
        raise BookError(f"puzzle {puzzle.id!r}: no worked solution or hint: {exc}") from None


@lru_cache(maxsize=EXPLAINED_CACHE)
def _explain_cached(givens: str, geo: Geometry) -> Explanation:
    """The geometry carries the variant, so a Jigsaw is solved on its regions."""
    return explain(givens, geo)
