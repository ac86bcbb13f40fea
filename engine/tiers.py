"""Tier bands: the labels a book prints (easy ... extreme) as data over a puzzle's grade.

A band constrains any of: the score, the iteration count, the clue count (each an inclusive
[min, max]), the hardest technique the puzzle may need (``hardest``) and the technique it must at
least need (``needs``), compared in ladder order (``engine.logic.TECHNIQUES``). A puzzle gets the
first band, easiest first, that admits it, or no tier when none does. Recipes override the
defaults with ``[tiers.<name>]`` tables; the pipeline parses them and calls
:func:`tiers_from_mapping` (the engine reads no files).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.logic.state import TECHNIQUE_INDEX, TECHNIQUES

BAND_KEYS = ("score", "iterations", "clues", "hardest", "needs")
Figure = float | np.ndarray  # one grade's figure, or a column of them


class InvalidTiers(ValueError):
    """A tier table is malformed; the message names the dotted key at fault."""


@dataclass(frozen=True)
class Tier:
    """One band; ``None`` leaves a field unconstrained."""

    name: str
    score: tuple[float, float] | None = None
    iterations: tuple[int, int] | None = None
    clues: tuple[int, int] | None = None
    hardest: str | None = None
    needs: str | None = None

    def admits(self, score: float, iterations: int, clues: int, hardest: str | None) -> bool:
        """True when a grade with these figures falls in this band."""
        rank = TECHNIQUE_INDEX[hardest] if hardest is not None else -1
        return bool(self.admits_rank(score, iterations, clues, rank))

    def admits_rank(
        self, score: Figure, iterations: Figure, clues: Figure, rank: Figure
    ) -> bool | np.ndarray:
        """As :meth:`admits`, with the hardest technique as its index (-1 for none); the figures
        may be numbers or numpy arrays alike (then the answer is an array)."""
        admitted = (
            _within(score, self.score)
            & _within(iterations, self.iterations)
            & _within(clues, self.clues)
        )
        if self.hardest is not None:
            admitted = admitted & (rank <= TECHNIQUE_INDEX[self.hardest])
        if self.needs is not None:
            admitted = admitted & (rank >= TECHNIQUE_INDEX[self.needs])
        return admitted


def techniques_clash(band: Tier) -> str | None:
    """Why no puzzle can meet the band's technique limits (``needs`` harder than ``hardest``),
    or None when they agree. The one statement of that rule: the table parser and the digger's
    feasibility check both ask it."""
    if band.hardest is None or band.needs is None:
        return None
    if TECHNIQUE_INDEX[band.needs] <= TECHNIQUE_INDEX[band.hardest]:
        return None
    return f"{band.needs!r} is harder than hardest = {band.hardest!r}"


def _within(value: Figure, band: tuple[float, float] | None) -> bool | np.ndarray:
    return True if band is None else (band[0] <= value) & (value <= band[1])


#: Default bands, easiest first, by score on the Sudoku Explainer scale (see engine.grade), each
#: the SE range it holds (measured on SE-rated puzzles, bench/se_correlation.py, README):
#: easy = singles and direct locked candidates / hidden pairs (SE below 2.5), medium = locked
#: candidates, pairs and X-wings (SE 2.5-3.4), hard = triples, swordfish, wings, short X-chains,
#: unique rectangles, quads, BUG (SE 3.5-5.9), expert = colouring and chains, no trial (SE
#: 6.0-7.4), extreme = forcing chains, i.e. trial, or ALS (SE 7.5 up; from 7.9). Scores are
#: tenths, as SE's (engine.grade.final_score), so each band ends a tenth below the next.
DEFAULT_TIERS: dict[str, Tier] = {
    "easy": Tier("easy", score=(0.0, 2.4)),
    "medium": Tier("medium", score=(2.5, 3.4)),
    "hard": Tier("hard", score=(3.5, 5.9)),
    "expert": Tier("expert", score=(6.0, 7.8)),
    "extreme": Tier("extreme", score=(7.9, math.inf)),
}
TIERS: tuple[str, ...] = tuple(DEFAULT_TIERS)


def tier_of(
    tiers: Mapping[str, Tier], score: float, iterations: int, clues: int, hardest: str | None
) -> str | None:
    """Name of the first band (in order) that admits these figures, or None."""
    for name, band in tiers.items():
        if band.admits(score, iterations, clues, hardest):
            return name
    return None


def tier_indices(
    tiers: Mapping[str, Tier],
    score: np.ndarray,
    iterations: np.ndarray,
    clues: np.ndarray,
    rank: np.ndarray,
) -> np.ndarray:
    """Index of the first band that admits each row (as :func:`tier_of`, ``rank`` the hardest
    technique's index), -1 for none: one vectorised test per band, not one call per row."""
    found = np.full(score.shape[0], -1, dtype=np.int64)
    for index, band in enumerate(tiers.values()):
        found[(found < 0) & band.admits_rank(score, iterations, clues, rank)] = index
    return found


def tiers_from_mapping(mapping: Mapping[str, Any]) -> dict[str, Tier]:
    """Bands from a parsed ``[tiers]`` TOML table ({name: {key: value}}), in table order.

    The one parser of bands from tables (recipes use it): keys, [min, max] pairs, technique
    names, and ``needs`` no harder than ``hardest``. Raises :class:`InvalidTiers` naming the
    dotted key, e.g. ``tiers.hard.score: expected [min, max] floats``.
    """
    if not isinstance(mapping, Mapping):
        raise InvalidTiers(f"tiers: expected a table of tier bands, got {mapping!r}")
    bands: dict[str, Tier] = {}
    for name, table in mapping.items():
        where = f"tiers.{name}"
        if not isinstance(table, Mapping):
            raise InvalidTiers(f"{where}: expected a table, got {table!r}")
        unknown = sorted(set(table) - set(BAND_KEYS))
        if unknown:
            raise InvalidTiers(
                f"{where}.{unknown[0]}: unknown key; a band has {', '.join(BAND_KEYS)}"
            )
        band = Tier(
            name=name,
            score=_pair(table, "score", where, float),
            iterations=_pair(table, "iterations", where, int),
            clues=_pair(table, "clues", where, int),
            hardest=_technique(table, "hardest", where),
            needs=_technique(table, "needs", where),
        )
        clash = techniques_clash(band)
        if clash:
            raise InvalidTiers(f"{where}.needs: {clash}")
        bands[name] = band
    return bands


def _pair(table: Mapping[str, Any], key: str, where: str, kind: type) -> tuple | None:
    if key not in table:
        return None
    value = table[key]
    noun = "floats" if kind is float else "integers"
    allowed = (int, float) if kind is float else (int,)
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, allowed) and not isinstance(v, bool) for v in value)
    ):
        raise InvalidTiers(f"{where}.{key}: expected [min, max] {noun}, got {value!r}")
    low, high = kind(value[0]), kind(value[1])
    if math.isnan(low) or math.isnan(high) or low == math.inf:
        raise InvalidTiers(f"{where}.{key}: got {value!r}; min must be a finite number, no nan")
    if low > high:
        raise InvalidTiers(f"{where}.{key}: min {low} is above max {high}")
    return (low, high)


def _technique(table: Mapping[str, Any], key: str, where: str) -> str | None:
    if key not in table:
        return None
    value = table[key]
    if not isinstance(value, str) or value not in TECHNIQUE_INDEX:
        raise InvalidTiers(
            f"{where}.{key}: unknown technique {value!r}; expected one of {', '.join(TECHNIQUES)}"
        )
    return value
