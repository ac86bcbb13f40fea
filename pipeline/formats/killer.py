"""The text form of a Killer puzzle on one line (docs/puzzle-files.md)::

    killer: <cage map> <totals> [<givens>]

``<cage map>`` names each cell's cage, row by row: one label a cell, the same label for the
cells of one cage (any character but a blank, ``/``, a quote or a field separator, so there are
labels for more cages than symbols: the writer uses :data:`CAGE_LABELS`, enough for every 9x9).
``<totals>`` are the cages' sums joined by ``/``, in the order the labels first appear in the map,
so which label names which cage does not matter. ``<givens>`` is an ordinary puzzle (dots for
blanks) and may be left out when there are none; a solution, rating or comment follows as on
any line, after the givens. A Jigsaw-Killer gives its layout first
(``jigsaw+killer: <layout> <cage map> <totals> [<givens>]``).

Tables give cages in a ``cages`` column: Parquet as the store writes it (a list of ``{sum,
cells}``, cells row-major from 0), CSV as the same list in JSON. Whether the cages make a Killer
(a total their size allows, connected, each cell covered once) is checked when the row is
validated, by :func:`engine.cages.checked_cages`, which names the cage at fault.
"""

from __future__ import annotations

import json
import string
from collections.abc import Sequence
from typing import Any

from engine.cages import Cage
from engine.geometry import Geometry

#: Labels the writer gives cages, in order of their first cell: 85 of them, more than the 81
#: cells of a 9x9 grid.
CAGE_LABELS = string.ascii_letters + string.digits + "!#$%&()*+-.<=>?@[]^_{}~"
TOTALS_SEPARATOR = "/"
#: Cages as read, before they are checked: ``((total, (cell, ...)), ...)``, hashable.
RawCages = tuple[tuple[int, tuple[int, ...]], ...]


def read_cages(cage_map: str, totals: str) -> RawCages:
    """The cages a cage map and its totals describe, in order of first appearance; ValueError
    naming the token at fault (a total that is not a whole number, one total too few or many)."""
    cells: dict[str, list[int]] = {}
    for cell, label in enumerate(cage_map):
        cells.setdefault(label, []).append(cell)
    sums = totals.split(TOTALS_SEPARATOR)
    bad = next((token for token in sums if not token.isdigit()), None)
    if bad is not None:
        raise ValueError(
            f"totals: {bad!r} is not a whole number (write the sums joined by "
            f"'{TOTALS_SEPARATOR}', as 3/15/22)"
        )
    if len(sums) != len(cells):
        raise ValueError(
            f"the cage map names {len(cells)} cages, but {len(sums)} totals are given "
            "(one a cage, in the order the labels first appear)"
        )
    return tuple(
        (int(total), tuple(where)) for total, where in zip(sums, cells.values(), strict=True)
    )


def raw_cages(value: Any) -> RawCages | None:
    """A ``cages`` value as any reader finds it (the text form's cages, a Parquet list of
    ``{sum, cells}``, or that list as JSON text in a CSV cell) as :data:`RawCages`; None when
    there is none. ValueError saying what does not fit."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise ValueError(f"cages: not JSON ({exc.msg} at character {exc.pos + 1})") from None
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise ValueError('cages: expected a list of cages, each {"sum": ..., "cells": [...]}')
    made = []
    for index, cage in enumerate(value):
        if isinstance(cage, dict):
            total, cells = cage.get("sum"), cage.get("cells")
        elif isinstance(cage, Sequence) and len(cage) == 2:
            total, cells = cage
        else:
            total = cells = None
        numbers = [total, *cells] if isinstance(cells, Sequence) else []
        if not numbers or not all(isinstance(x, int) and not isinstance(x, bool) for x in numbers):
            raise ValueError(
                f'cages: cage {index + 1} is {cage!r}; expected {{"sum": 23, "cells": [0, 1]}}'
            )
        made.append((int(total), tuple(int(cell) for cell in cells)))  # type: ignore[arg-type]
    return tuple(made)


def cage_map(cages: Sequence[Cage], n: int) -> tuple[str, str]:
    """The cage map and totals of a grid's cages (labels :data:`CAGE_LABELS` in order of each
    cage's first cell); ValueError when there are more cages than labels."""
    if len(cages) > len(CAGE_LABELS):
        raise ValueError(
            f"{len(cages)} cages have no text form (at most {len(CAGE_LABELS)}); "
            "write the puzzle to Parquet or CSV, which have a cages column"
        )
    labels = [""] * (n * n)
    ordered = sorted(cages, key=lambda cage: min(cage.cells))
    for label, cage in zip(CAGE_LABELS, ordered, strict=False):
        for cell in cage.cells:
            labels[cell] = label
    return "".join(labels), TOTALS_SEPARATOR.join(str(cage.total) for cage in ordered)


def puzzle_line(puzzle: str, geo: Geometry) -> str:
    """A puzzle in the text form of its variant: the puzzle alone for a classic, else the
    variant's name, a Jigsaw's layout, a Killer's cage map and totals, and the givens (left out
    when a Killer has none)."""
    if geo.classic:
        return puzzle
    parts = [f"{geo.variant}:"]
    if geo.regions is not None:
        parts.append(geo.regions)
    if geo.cages is not None:
        parts.extend(cage_map(geo.cages, geo.n))
        if set(puzzle) <= {".", "0"}:
            return " ".join(parts)
    return " ".join([*parts, puzzle])
