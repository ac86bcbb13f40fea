"""Candidates -> :class:`InputRow`: normalise the text and check it, a whole batch at a time.

Each row's rules come first: the variant it names (a line's tag, a ``variant`` column) or the
command's, a Jigsaw's layout, which must be n connected regions of n cells (the engine's
:class:`engine.geometry.InvalidLayout` names the region at fault), and a Killer's cages, which
must cover the grid with connected cages of possible totals (:class:`engine.cages.InvalidCages`
names the cage). Then, per grid (size, variant, layout, cages), a vectorised screen (one lookup
table per size, a sort per unit of the variant) passes the well-formed puzzles, which are nearly
all of them, at numpy speed. Every row it flags goes to :func:`engine.parse`, so each reason is
the engine's own message naming the fault and the cell (``'1' is given twice in the main
diagonal: r1c1 and r5c5``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

import engine
from engine.cages import checked_cages
from engine.geometry import CLASSIC, Geometry, variant_name
from engine.text import BAD, infer_geometry, lookup_table
from pipeline.formats.killer import RawCages, raw_cages
from pipeline.formats.rows import EXTRA_BLANKS, Candidate, InputRow, clean_text, clip
from pipeline.variants import is_jigsaw, is_killer

#: Cells screened per numpy pass: bounds memory for big grids (64x64) in big chunks.
SCREEN_CELLS = 1 << 22
_TO_DOT = str.maketrans(EXTRA_BLANKS, "." * len(EXTRA_BLANKS))

Box = tuple[int, int] | None
#: A row's rules once read: its variant, a Jigsaw's layout as the row gives it and a Killer's
#: cages (as read, then checked).
Rules = tuple[str, str | None, Any]


@cache
def _table(n: int) -> np.ndarray:
    """The engine's byte -> value table, with the extra blank markers read as blanks too."""
    table = lookup_table(n).copy()
    table[np.frombuffer(EXTRA_BLANKS.encode(), dtype=np.uint8)] = 0
    return table


@cache
def _alphabet(geo: Geometry) -> np.ndarray:
    return np.frombuffer(("." + geo.symbols).encode(), dtype=np.uint8)


def screen(geo: Geometry, texts: Sequence[str]) -> tuple[list[str | None], np.ndarray]:
    """Normalised texts of equal-length ASCII puzzles, and a mask of those the engine must judge.

    A text is None where the mask is set: a character that is not a symbol, or two equal givens
    in one unit.
    """
    length = geo.ncells
    values = _table(geo.n)[np.frombuffer("".join(texts).encode("ascii"), dtype=np.uint8)]
    values = values.reshape(len(texts), length)
    flagged = (values == BAD).any(axis=1)
    in_units = np.sort(np.where(flagged[:, None], 0, values)[:, geo.units], axis=2)
    clash = ((in_units[..., 1:] == in_units[..., :-1]) & (in_units[..., 1:] > 0)).any(axis=(1, 2))
    flagged |= clash
    symbols = _alphabet(geo)[np.where(flagged[:, None], 0, values)].tobytes().decode("ascii")
    normal = [
        None if bad else symbols[i * length : (i + 1) * length]
        for i, bad in enumerate(flagged.tolist())
    ]
    return normal, flagged


def _judge(text: str, geo: Geometry) -> tuple[str | None, str | None]:
    """(normalised text, reason) for one puzzle, from the engine itself."""
    try:
        grid = engine.parse(text.translate(_TO_DOT), geo)
    except engine.InvalidPuzzle as exc:
        return None, clean_text(str(exc))
    return grid.to_text(), None


def _normalised(text: str, geo: Geometry) -> str | None:
    """The normalised text when every character is a symbol or a blank (givens may clash)."""
    values = _table(geo.n)[np.frombuffer(text.encode("ascii", "replace"), dtype=np.uint8)]
    if (values == BAD).any():
        return None
    return _alphabet(geo)[values].tobytes().decode("ascii")


def rules(found: Candidate, default: str) -> Rules:
    """The variant (in its one spelling), the layout and the cages (as read, not yet checked) a
    candidate is read by: its own, else ``default``; ValueError naming what is wrong (an unknown
    variant, a Jigsaw without its layout or a Killer without its cages, a layout or cages given
    to a variant without them, cages that cannot be read)."""
    variant = variant_name(found.variant if found.variant is not None else default)
    regions = None if found.regions is None else found.regions.strip()
    if is_jigsaw(variant) and not regions:
        raise ValueError(
            f"a {variant} puzzle needs its layout: write the line as '{variant}: <layout> "
            "<puzzle>', or give a regions column"
        )
    if regions and not is_jigsaw(variant):
        raise ValueError(f"regions are given, but a {variant} puzzle has none (only jigsaw has)")
    cages = raw_cages(found.cages)
    if is_killer(variant) and cages is None:
        layout = "<layout> " if is_jigsaw(variant) else ""
        raise ValueError(
            f"a {variant} puzzle needs its cages: write the line as '{variant}: {layout}<cage map> "
            "<totals> [<givens>]', or give a cages column"
        )
    if cages is not None and not is_killer(variant):
        raise ValueError(f"cages are given, but a {variant} puzzle has none (only killer has)")
    return variant, regions, cages


def _with_rules(
    geo: Geometry, variant: str, regions: str | None, cages: RawCages | None
) -> Geometry:
    """``geo`` with a row's rules; InvalidLayout names the region or symbol at fault, as written,
    InvalidCages the cage. A layout's lower-case letters read as upper case where they are not
    symbols of the grid (as a puzzle's do), and are kept so."""
    checked = None if cages is None else checked_cages(cages, geo.n)
    ruled = geo.with_variant(variant, regions, checked)
    if regions is not None and regions != regions.upper() and geo.symbols == geo.symbols.upper():
        return geo.with_variant(variant, regions.upper(), checked)
    return ruled


def validate(
    source: str, candidates: Sequence[Candidate], box: Box, variant: str = CLASSIC
) -> list[InputRow]:
    """One :class:`InputRow` per candidate, in order; ``variant`` is the rules of a row that
    does not name its own."""
    puzzles: list[str | None] = [None] * len(candidates)
    reasons: list[str | None] = [c.reason for c in candidates]
    boxes: list[Box] = [None] * len(candidates)
    read: list[Rules | None] = [None] * len(candidates)
    groups: dict[tuple[int, str, str | None, RawCages | None], tuple[list[int], list[str]]] = (
        defaultdict(lambda: ([], []))
    )
    for i, found in enumerate(candidates):
        if found.reason is None and found.text is not None:
            try:
                read[i] = rules(found, variant)
            except ValueError as exc:
                reasons[i] = clean_text(str(exc))
                continue
            indexes, texts = groups[(len(found.text), *read[i])]
            indexes.append(i)
            texts.append(found.text)
    for (length, name, layout, cages), (indexes, texts) in groups.items():
        try:
            geo = infer_geometry(length, box)
            for i in indexes:
                boxes[i] = geo.shape_tuple
            geo = _with_rules(geo, name, layout, cages)
        except (engine.InvalidPuzzle, ValueError) as exc:  # InvalidLayout names the region,
            for i in indexes:  # InvalidCages the cage; cages are reported once they are checked
                reasons[i], read[i] = clean_text(str(exc)), (name, layout, None)
            continue
        plain = [k for k, text in enumerate(texts) if text.isascii()]
        judged = [k for k, text in enumerate(texts) if not text.isascii()]
        step = max(1, SCREEN_CELLS // geo.ncells)
        for start in range(0, len(plain), step):
            part = plain[start : start + step]
            normal, flagged = screen(geo, [texts[k] for k in part])
            for k, puzzle in zip(part, normal, strict=True):
                puzzles[indexes[k]] = puzzle
            judged.extend(part[j] for j in np.flatnonzero(flagged).tolist())
        for k in judged:
            i, text = indexes[k], texts[k]
            puzzles[i], reasons[i] = _judge(text, geo)
            if reasons[i] is not None and text.isascii():
                puzzles[i] = _normalised(text, geo)
        for i in indexes:
            read[i] = (geo.variant, geo.regions, geo.cages)
    return [
        InputRow(
            source,
            c.line,
            clip(c.raw),
            puzzles[i],
            boxes[i],
            c.extra,
            reasons[i],
            *_shown(read[i], c, variant),
        )
        for i, c in enumerate(candidates)
    ]


def _shown(read: Rules | None, found: Candidate, default: str) -> tuple[Any, Any, Any]:
    """The variant, regions and cages a row reports: as read, else the variant it names when
    that is one (a row the reader gave up on), else none."""
    if read is not None:
        return read
    try:
        return variant_name(found.variant if found.variant is not None else default), None, None
    except ValueError:
        return None, None, None
