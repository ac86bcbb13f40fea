"""The book's "about the difficulty" page, written from the puzzles it prints: what each
section's puzzles need, by the names solvers use (:data:`engine.TECHNIQUE_NAMES`), not a fixed
sentence that may promise techniques a book never uses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import TECHNIQUE_NAMES, TECHNIQUES

INTRO = (
    "Every puzzle has exactly one solution. Each section is graded by the hardest step its "
    "puzzles need, rated on the Sudoku Explainer scale; here is what each one asks of you."
)
SINGLES = ("full_house", "naked_single", "hidden_single")
FORCING = "trial_and_error"
FORCING_NOTE = (
    "A forcing chain supposes one candidate and follows what it forces until two conclusions "
    "clash, which proves that candidate false."
)


def _names(ids: Sequence[str], last: str = "and") -> str:
    """Display names in ladder order, as prose: "a, b and c"."""
    names = [TECHNIQUE_NAMES[t] for t in sorted(set(ids), key=TECHNIQUES.index)]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"


def section_paragraph(title: str, rows: Sequence[Mapping[str, Any]]) -> str:
    """One section: its grid size and tier, the hardest steps its puzzles need, every step used."""
    size, tier = rows[0]["size"], rows[0]["tier"]
    hardest = [row["hardest"] for row in rows if row.get("hardest")]
    used = [t["technique"] for row in rows for t in row["techniques"] if t["steps"]]
    head = f"{title} ({size}x{size}, {tier}):"
    if set(used) <= set(SINGLES):
        return f"{head} singles only ({_names(used)})."
    needs = _names(hardest, "or")
    return f"{head} each puzzle's hardest step is {needs}; steps used: {_names(used)}."


def about_text(sections: Sequence[tuple[str, Sequence[Mapping[str, Any]]]]) -> str:
    """The about page (paragraphs split by blank lines) for ``(title, rows)`` per section."""
    paragraphs = [INTRO, *(section_paragraph(title, rows) for title, rows in sections if rows)]
    if any(row.get("hardest") == FORCING for _, rows in sections for row in rows):
        paragraphs.append(FORCING_NOTE)
    return "\n\n".join(paragraphs)
