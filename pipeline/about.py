"""The book's "about the difficulty" page, written for the person who bought the book: per
section, one sentence in plain words on what its typical puzzle asks (the family of techniques
most of its puzzles need at their hardest step), with the names of at most three techniques a
solver could look up, each named once in the book. Taken from the section's own puzzles, never
a fixed sentence per tier name, which could promise a technique the book never uses."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine import TECHNIQUE_NAMES, TECHNIQUES

INTRO = (
    "Every puzzle has exactly one solution, reached by logic alone. The sections grow harder "
    "as the book goes on; here is what each asks of you."
)
NAMED = 3  # technique names given per section at most: the ones its puzzles need most often

#: What a family of techniques asks of a solver, in plain words, easiest family first; a
#: section is described by the hardest family its puzzles need.
ASKS = (
    (
        ("full_house", "naked_single", "hidden_single"),
        "find the one place a digit can go in a row, column or box, or the one digit a cell "
        "can hold",
    ),
    (
        ("locked_pointing", "locked_claiming"),
        "notice when a digit's places in a box all lie in one row or column",
    ),
    (
        ("naked_pair", "hidden_pair", "naked_triple", "hidden_triple", "naked_quad", "hidden_quad"),
        "spot two or three cells that share the same few candidates",
    ),
    (
        (
            "x_wing",
            "swordfish",
            "jellyfish",
            "finned_x_wing",
            "finned_swordfish",
            "finned_jellyfish",
            "sashimi_x_wing",
            "sashimi_swordfish",
            "sashimi_jellyfish",
            "franken_fish",
            "mutant_fish",
        ),
        "follow one digit across several rows and columns at once",
    ),
    (
        ("skyscraper", "two_string_kite", "empty_rectangle", "simple_colouring"),
        "follow one digit through rows, columns and boxes where it has only two places",
    ),
    (
        ("xy_wing", "xyz_wing", "w_wing", "wxyz_wing", "sue_de_coq"),
        "combine a few cells with two or three candidates into one deduction",
    ),
    (
        ("unique_rectangle", "bug_plus_one", "hidden_rectangle", "avoidable_rectangle"),
        "use the fact that the solution is unique",
    ),
    (
        ("x_chain", "xy_chain", "aic", "grouped_x_chain", "grouped_aic"),
        "follow long chains of either-or links between candidates",
    ),
    (
        ("als_xz", "als_xy_wing", "als_chain"),
        "link groups of cells that hold one candidate more than they have cells",
    ),
    (
        ("trial_and_error",),
        "test what a candidate would force, several steps ahead, until it breaks a rule",
    ),
)
_FAMILY = {technique: rank for rank, (family, _) in enumerate(ASKS) for technique in family}
assert set(_FAMILY) == set(TECHNIQUES), set(TECHNIQUES) ^ set(_FAMILY)


def section_sentence(title: str, rows: Sequence[Mapping[str, Any]], named: set[str]) -> str:
    """One section: what its typical puzzle asks, and the techniques of that family its puzzles
    need most, leaving out those ``named`` already (which gains the ones named here)."""
    hardest = Counter(row["hardest"] for row in rows if row.get("hardest"))
    families = Counter({_FAMILY[technique]: 0 for technique in hardest})
    for technique, count in hardest.items():
        families[_FAMILY[technique]] += count
    rank = max(families, key=lambda family: (families[family], family), default=0)
    asks = ASKS[rank][1]
    if rank == 0:
        return f"{title}: singles are enough. {asks[0].upper()}{asks[1:]}."
    names = [
        TECHNIQUE_NAMES[technique]
        for technique, _ in hardest.most_common()
        if _FAMILY[technique] == rank and TECHNIQUE_NAMES[technique] not in named
    ][:NAMED]
    named.update(names)
    sentence = f"{title}: most puzzles ask you to {asks}."
    if not names:
        return sentence
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    return f"{sentence} Look up {listed}."


def about_text(sections: Sequence[tuple[str, Sequence[Mapping[str, Any]]]]) -> str:
    """The about page (paragraphs split by blank lines) for ``(title, rows)`` per section."""
    named: set[str] = set()
    sentences = [section_sentence(title, rows, named) for title, rows in sections if rows]
    return "\n\n".join([INTRO, *sentences])
