"""Which techniques run on a variant grid, and why the others do not.

Every finder reads the unit table, so its argument holds for any units a grid has, with two
kinds of exception written down here (``docs/variants.md`` prints these tables):

* the uniqueness techniques reason that a pattern would give a second *classic* solution by
  swapping two digits; a variant's extra unit (a diagonal, a window, an irregular region through
  the pattern) can forbid that swap, so the pattern proves nothing there;
* some finders read the boxes as a regular block (each box crossed by the same number of rows
  and columns, a box's lines forming a band): true of boxes, not of a Jigsaw's regions.

What stays on is checked by the soundness sweep (``tests/engine/test_variant_logic.py``): no
step of any of them removes a solution's digit, on states of every variant. The same sweep with
the switch bypassed catches the uniqueness techniques and the finned and sashimi fish and empty
rectangles (on Jigsaw) making wrong eliminations.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from engine.geometry import CLASSIC, Geometry, variant_parts
from engine.logic.state import TECHNIQUES

_SWAP = "assumes that swapping two digits in the pattern gives a second solution: a variant's "
_SWAP += "extra or irregular units can forbid the swap"
_BLOCK = "reads each box as a regular block of rows and columns, which irregular regions are not"

#: Off on every variant, with the reason.
OFF_ON_VARIANTS = {
    "unique_rectangle": _SWAP,
    "bug_plus_one": _SWAP,
    "hidden_rectangle": _SWAP,
    "avoidable_rectangle": _SWAP,
    "unique_loop": _SWAP,
}
#: Off on Jigsaw grids too, with the reason.
OFF_ON_JIGSAW = {
    "empty_rectangle": _BLOCK + " (its box's crossing lines are read as one slice per box)",
    "sue_de_coq": "built for a box and a line crossing in two or three cells; a region can cross "
    "a line in up to n cells (no wrong step seen in the sweep, but not proven: left off)",
    "finned_x_wing": _BLOCK + " (the fin's box as a band of cover lines)",
    "finned_swordfish": _BLOCK + " (the fin's box as a band of cover lines)",
    "finned_jellyfish": _BLOCK + " (the fin's box as a band of cover lines)",
    "sashimi_x_wing": _BLOCK + " (found with the finned fish)",
    "sashimi_swordfish": _BLOCK + " (found with the finned fish)",
    "sashimi_jellyfish": _BLOCK + " (found with the finned fish)",
    "franken_fish": _BLOCK + " (boxes as base or cover sets beside lines; no wrong step seen in "
    "the sweep, but not proven: left off)",
    "mutant_fish": _BLOCK + " (boxes as base or cover sets beside lines; no wrong step seen in "
    "the sweep, but not proven: left off)",
}


def switched_off(geo: Geometry) -> dict[str, str]:
    """The techniques that do not run on this grid, each with the reason."""
    return switched_off_for(geo.variant)


def switched_off_for(variant: str) -> dict[str, str]:
    """The techniques that do not run on grids of ``variant``, each with the reason."""
    if variant == CLASSIC:
        return {}
    off = dict(OFF_ON_VARIANTS)
    if "jigsaw" in variant_parts(variant):
        off.update(OFF_ON_JIGSAW)
    return off


@cache
def allowed_techniques(variant: str) -> np.ndarray:
    """Technique switches (int8 per technique, as ``techniques_mask``) for grids of ``variant``:
    all on for classic grids, the ones :func:`switched_off_for` names off for variants.
    Read-only."""
    mask = np.ones(len(TECHNIQUES), dtype=np.int8)
    for name in switched_off_for(variant):
        mask[TECHNIQUES.index(name)] = 0
    mask.setflags(write=False)
    return mask
