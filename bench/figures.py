"""Tables of benchmark figures: printed as markdown, and written to a file for run_all.py, which
puts every table of one run into bench/last-run.md and bench/RESULTS.md."""

from __future__ import annotations

import argparse
import statistics
import textwrap
from dataclasses import dataclass, field
from pathlib import Path


def number(text: str) -> int:
    """An argparse type: a whole number of 1 or more."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


@dataclass
class Table:
    """A titled markdown table; every row has one cell per column, figures right-aligned after
    the first (label) column."""

    title: str
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)

    def add(self, cells: list[str]) -> None:
        if len(cells) != len(self.columns):
            raise ValueError(f"{len(cells)} cells for {len(self.columns)} columns: {cells}")
        self.rows.append(cells)

    def markdown(self) -> str:
        lines = [
            textwrap.fill(self.title + ":", width=100),
            "",
            "| " + " | ".join(self.columns) + " |",
            "|---|" + "---:|" * (len(self.columns) - 1),
        ]
        lines += ["| " + " | ".join(row) + " |" for row in self.rows]
        return "\n".join(lines) + "\n"

    def emit(self, path: Path | None) -> None:
        """Print the table, and append it to ``path`` when one is given."""
        text = self.markdown()
        print("\n" + text, flush=True)
        if path is not None:
            with path.open("a") as handle:
                handle.write(text + "\n")


def rate_cell(rates: list[float]) -> str:
    """'median/s (min-max)' of one side's repeats."""
    low, high = min(rates), max(rates)
    return f"{statistics.median(rates):,.1f}/s ({low:,.1f}-{high:,.1f})"


def share_cell(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.0%})"
