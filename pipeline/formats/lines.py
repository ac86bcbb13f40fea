"""One puzzle per line, optionally followed by other fields (a rating, a comment, a solution).

Fields are separated by whitespace, ``,``, ``;``, ``:`` or ``|`` (tdoku's ``puzzle:count:solution``,
the common ``puzzle rating`` lists, headerless CSV/TSV). Extra fields have no names, so they are
named by what they look like: the first as long as the puzzle is its ``solution``, the first
number its ``rating``, the rest joined into ``comment``. A line may begin with its variant
(``x: <puzzle>``, ``jigsaw: <layout> <puzzle>``, ``killer: <cage map> <totals> [<givens>]``:
:mod:`pipeline.formats.tags`, :mod:`pipeline.formats.killer`), or be one of Simon Tatham's Solo
Killer descriptions (``3x3k:...``, :mod:`pipeline.formats.solo`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from pipeline.formats.detect import FIELD_SEPARATORS
from pipeline.formats.killer import read_cages
from pipeline.formats.rows import Candidate, clean_text, undecodable
from pipeline.formats.solo import solo_killer
from pipeline.formats.sources import Line, too_long
from pipeline.formats.tags import names_jigsaw, names_killer, split_tag

QUOTES = "\"'"
#: A Solo Killer description (``3x3k:...``, ``3x3xk:...``): the parameters, a ``k`` among them.
SOLO_KILLER = re.compile(r"\d+(x\d+)?[a-z0-9]*k[a-z0-9]*:")


def _is_number(field: str) -> bool:
    try:
        float(field)
    except ValueError:
        return False
    return True


def extra_fields(fields: list[str], length: int) -> dict[str, Any]:
    """Name the fields after the puzzle: ``solution``, ``rating``, ``comment``."""
    extra: dict[str, Any] = {}
    comment = []
    for field in fields:
        field = clean_text(field.strip(QUOTES))
        if "solution" not in extra and len(field) == length:
            extra["solution"] = field
        elif "rating" not in extra and _is_number(field):
            extra["rating"] = field
        elif field:
            comment.append(field)
    if comment:
        extra["comment"] = " ".join(comment)
    return extra


def read_lines(lines: Iterable[Line]) -> Iterator[Candidate]:
    """One candidate per line that is neither blank nor a ``#`` comment."""
    for number, line, cut in lines:
        text = line.strip()
        if not text or text[0] == "#":
            continue
        if cut:
            yield too_long(number, text, cut)
            continue
        if SOLO_KILLER.match(text):
            yield _solo_line(number, text)
            continue
        tag, rest = split_tag(text)
        fields = FIELD_SEPARATORS.split(rest)
        regions = None
        if tag is not None and names_jigsaw(tag):
            if len(fields) < 2:
                reason = f"a {tag} line is '{tag}: <layout> <puzzle>'; this one has no puzzle"
                yield Candidate(number, text, None, {}, reason, tag)
                continue
            regions, fields = fields[0].strip(QUOTES), fields[1:]
        cages = None
        if tag is not None and names_killer(tag):
            try:
                cages, fields = _killer_fields(tag, fields)
            except ValueError as exc:
                yield Candidate(number, text, None, {}, clean_text(str(exc)), tag, regions)
                continue
        puzzle = fields[0].strip(QUOTES)
        extra = extra_fields(fields[1:], len(puzzle)) if len(fields) > 1 else {}
        if puzzle.isascii() and (regions is None or regions.isascii()):
            yield Candidate(number, text, puzzle, extra, None, tag, regions, cages)
            continue
        read = [part for part in (regions, puzzle) if part]
        bad = next(
            (found for part in read if (found := undecodable(part, line.find(part) + 1))), None
        )
        yield Candidate(number, text, None if bad else puzzle, extra, bad, tag, regions, cages)


def _solo_line(number: int, text: str) -> Candidate:
    """A line holding one Solo Killer description (``sgt-solo --generate``), read whole."""
    description = text.split()[0]
    try:
        geo, givens = solo_killer(description)
    except ValueError as exc:
        return Candidate(number, text, None, {}, f"Solo description: {clean_text(str(exc))}")
    cages = tuple((cage.total, cage.cells) for cage in geo.cages or ())
    return Candidate(number, text, givens, {}, None, geo.variant, geo.regions, cages)


def _killer_fields(tag: str, fields: list[str]) -> tuple[tuple, list[str]]:
    """A Killer line's cages (its cage map and totals) and the fields from its givens on (all
    blank when it gives none: the next field is then a number or nothing); ValueError naming
    what is wrong."""
    if len(fields) < 2 or not fields[1]:
        raise ValueError(
            f"a {tag} line is '{tag}: <cage map> <totals> [<givens>]'; this one has no totals"
        )
    cage_map, totals, rest = fields[0].strip(QUOTES), fields[1], fields[2:]
    if not cage_map.isascii():
        raise ValueError(undecodable(cage_map) or f"cage map: {cage_map!r} is not ASCII")
    cages = read_cages(cage_map, totals)
    rest = [field for field in rest if field]
    if not rest or _is_number(rest[0]):
        return cages, ["." * len(cage_map), *rest]
    if len(rest[0].strip(QUOTES)) != len(cage_map):
        raise ValueError(
            f"the givens have {len(rest[0].strip(QUOTES))} cells, the cage map "
            f"{len(cage_map)}; they must be as long"
        )
    return cages, rest
