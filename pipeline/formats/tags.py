"""The text form of a variant puzzle on one line: the variant's name and ``:``, then the puzzle,
a Jigsaw's layout first, a Killer's cages before the puzzle (docs/puzzle-files.md;
:mod:`pipeline.formats.killer`)::

    x: 3.....5.4...........53...29...4...17....2.....5..3.....8....7.6......3...4.5.....
    jigsaw: <n*n region symbols, row by row> <the puzzle>
    killer: <cage map> <totals> [<the givens>]

A line without a tag is a puzzle of the variant the command names (``--variant``, default
classic). The tag is read as :func:`engine.geometry.variant_name` reads a name (any case, parts
joined by ``+``): letters only, so no puzzle (which always holds a digit or a blank) is ever
taken for one. What follows the puzzle is read as on any line (solution, rating, comment).
"""

from __future__ import annotations

import re

from engine.geometry import variant_name
from pipeline.variants import is_jigsaw, is_killer

TAG = re.compile(r"\s*([A-Za-z]+(?:\s*\+\s*[A-Za-z]+)*)\s*:\s*")


def split_tag(text: str) -> tuple[str | None, str]:
    """The variant tag of a line as written (None when it has none) and the rest of the line."""
    found = TAG.match(text)
    if found is None:
        return None, text
    return found[1], text[found.end() :]


def names_jigsaw(tag: str) -> bool:
    """Whether a tag names a Jigsaw variant (its layout comes before the puzzle); an unknown
    name does not (it is reported when the row is validated)."""
    try:
        return is_jigsaw(variant_name(tag))
    except ValueError:
        return False


def names_killer(tag: str) -> bool:
    """Whether a tag names a Killer variant (its cage map and totals come before the givens);
    an unknown name does not."""
    try:
        return is_killer(variant_name(tag))
    except ValueError:
        return False
