"""Candidates -> :class:`InputRow`: normalise the text and check it, a whole batch at a time.

A vectorised screen (one lookup table per size, a sort per unit) passes the well-formed puzzles,
which are nearly all of them, at numpy speed. Every row it flags goes to :func:`engine.parse`, so
each reason is the engine's own message naming the fault and the cell.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import cache

import numpy as np

import engine
from engine.geometry import Geometry
from engine.text import BAD, infer_geometry, lookup_table
from pipeline.formats.rows import EXTRA_BLANKS, Candidate, InputRow, clean_text, clip

#: Cells screened per numpy pass: bounds memory for big grids (64x64) in big chunks.
SCREEN_CELLS = 1 << 22
_TO_DOT = str.maketrans(EXTRA_BLANKS, "." * len(EXTRA_BLANKS))

Box = tuple[int, int] | None


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


def _judge(text: str, box: Box) -> tuple[str | None, str | None]:
    """(normalised text, reason) for one puzzle, from the engine itself."""
    try:
        grid = engine.parse(text.translate(_TO_DOT), box)
    except engine.InvalidPuzzle as exc:
        return None, clean_text(str(exc))
    return grid.to_text(), None


def _normalised(text: str, geo: Geometry) -> str | None:
    """The normalised text when every character is a symbol or a blank (givens may clash)."""
    values = _table(geo.n)[np.frombuffer(text.encode("ascii", "replace"), dtype=np.uint8)]
    if (values == BAD).any():
        return None
    return _alphabet(geo)[values].tobytes().decode("ascii")


def validate(source: str, candidates: Sequence[Candidate], box: Box) -> list[InputRow]:
    """One :class:`InputRow` per candidate, in order."""
    puzzles: list[str | None] = [None] * len(candidates)
    reasons: list[str | None] = [c.reason for c in candidates]
    boxes: list[Box] = [None] * len(candidates)
    by_length: dict[int, tuple[list[int], list[str]]] = defaultdict(lambda: ([], []))
    for i, found in enumerate(candidates):
        if found.reason is None and found.text is not None:
            indexes, texts = by_length[len(found.text)]
            indexes.append(i)
            texts.append(found.text)
    for length, (indexes, texts) in by_length.items():
        try:
            geo = infer_geometry(length, box)
        except (engine.InvalidPuzzle, ValueError) as exc:
            for i in indexes:
                reasons[i] = clean_text(str(exc))
            continue
        shape = (geo.box_rows, geo.box_cols)
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
            puzzles[i], reasons[i] = _judge(text, shape)
            if reasons[i] is not None and text.isascii():
                puzzles[i] = _normalised(text, geo)
        for i in indexes:
            boxes[i] = shape
    return [
        InputRow(source, c.line, clip(c.raw), puzzles[i], boxes[i], c.extra, reasons[i])
        for i, c in enumerate(candidates)
    ]
