"""qqwing's four levels, by qqwing's own definitions, decided with our logic solver.

qqwing (``SudokuBoard::getDifficulty``) rates a puzzle by the techniques its solver used, taking
the easiest first: naked singles, then hidden singles, then naked pairs, pointing pairs/triples,
box/line reductions and hidden pairs, then guessing. Its level is the hardest group used:

* simple: naked singles alone solve it;
* easy: naked and hidden singles solve it, naked singles alone do not;
* intermediate: singles, naked and hidden pairs, pointing and claiming (box/line) solve it,
  singles alone do not;
* expert: it needs a guess (nothing but those techniques gets it further).

Each set of techniques only removes candidates, so whether it solves a puzzle does not depend on
the order of the steps: running our pass loop with exactly that set enabled decides the level.
``level_of`` does that; ``DIG_BANDS`` are the nearest tier bands our digger takes, so the
benchmark keeps only the dug puzzles that ``level_of`` puts in the level, and counts the time of
the others. Tier bands cannot say "by naked singles alone" (a pass of our grader places hidden
singles too, so ``hardest="naked_single"`` admits almost no minimal puzzle: 4,000 candidates dug
in vain) nor "not by naked singles alone", and our ladder tries X-wings before hidden pairs.
"""

from __future__ import annotations

from itertools import accumulate

from engine import Tier, parse
from engine.logic.passes import techniques_mask, workspace

#: The techniques each level allows beyond the previous one (qqwing's names in comments).
_ADDED = {
    "simple": ("full_house", "naked_single"),  # "singles" (a full house is a naked single)
    "easy": ("hidden_single",),  # "hidden singles"
    "intermediate": (
        "naked_pair",  # "naked pairs"
        "hidden_pair",  # "hidden pairs"
        "locked_pointing",  # "pointing pairs/triples"
        "locked_claiming",  # "box/line intersections"
    ),
}

DIG_BANDS = {
    "simple": Tier("qqwing-simple", hardest="hidden_single"),
    "easy": Tier("qqwing-easy", hardest="hidden_single", needs="hidden_single"),
    "intermediate": Tier("qqwing-intermediate", hardest="hidden_pair", needs="locked_pointing"),
    "expert": Tier("qqwing-expert", needs="naked_triple"),
}


#: (level, the techniques enabled) for the three levels below expert, easiest first.
MASKS = [
    (level, techniques_mask(names))
    for level, names in zip(_ADDED, accumulate(_ADDED.values()), strict=True)
]


def level_of(puzzle: str) -> str:
    """qqwing's level of a unique 9x9 puzzle, by the definitions above."""
    grid = parse(puzzle)
    values, space = grid.values, workspace(grid.geometry)
    for level, enabled in MASKS:
        solved, _ = space.solve(values, enabled)
        if solved:
            return level
    return "expert"
