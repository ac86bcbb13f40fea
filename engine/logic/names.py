"""Display names of the techniques as solvers know them: HoDoKu's names, which mostly follow
Sudoku Explainer's. One mapping, so that worked solutions, hints and reports say the same."""

from __future__ import annotations

from engine.logic.state import TECHNIQUES

#: Technique id -> the name a solver would look up.
NAMES: dict[str, str] = {
    "full_house": "Full House",
    "naked_single": "Naked Single",
    "hidden_single": "Hidden Single",
    "cage_combination": "Cage Combinations",
    "locked_pointing": "Locked Candidates Type 1 (Pointing)",
    "locked_claiming": "Locked Candidates Type 2 (Claiming)",
    "innies_outies": "Innies and Outies",
    "cage_split": "Cage Split",
    "naked_pair": "Naked Pair",
    "hidden_pair": "Hidden Pair",
    "naked_triple": "Naked Triple",
    "hidden_triple": "Hidden Triple",
    "naked_quad": "Naked Quadruple",
    "hidden_quad": "Hidden Quadruple",
    "cage_confined": "Cage Confined Digit",
    "cage_naked_subset": "Naked Subset in a Cage",
    "cage_hidden_subset": "Hidden Subset in a Cage",
    "rule_of_45": "Rule of 45 (several units)",
    "x_wing": "X-Wing",
    "swordfish": "Swordfish",
    "jellyfish": "Jellyfish",
    "skyscraper": "Skyscraper",
    "two_string_kite": "2-String Kite",
    "empty_rectangle": "Empty Rectangle",
    "finned_x_wing": "Finned X-Wing",
    "finned_swordfish": "Finned Swordfish",
    "finned_jellyfish": "Finned Jellyfish",
    "sashimi_x_wing": "Sashimi X-Wing",
    "sashimi_swordfish": "Sashimi Swordfish",
    "sashimi_jellyfish": "Sashimi Jellyfish",
    "wxyz_wing": "WXYZ-Wing",
    "xy_wing": "XY-Wing",
    "xyz_wing": "XYZ-Wing",
    "w_wing": "W-Wing",
    "unique_rectangle": "Unique Rectangle",
    "bug_plus_one": "Bivalue Universal Grave + 1",
    "hidden_rectangle": "Hidden Rectangle",
    "avoidable_rectangle": "Avoidable Rectangle",
    "unique_loop": "Unique Loop",
    "vwxyz_wing": "VWXYZ-Wing",
    "uvwxyz_wing": "UVWXYZ-Wing",
    "sue_de_coq": "Sue de Coq",
    "simple_colouring": "Simple Colors",
    "x_chain": "X-Chain",
    "xy_chain": "XY-Chain",
    "aic": "Alternating Inference Chain",
    "tuvwxyz_wing": "TUVWXYZ-Wing",
    "grouped_x_chain": "Grouped X-Chain",
    "grouped_aic": "Grouped AIC",
    "als_xz": "ALS-XZ",
    "als_xy_wing": "ALS-XY-Wing",
    "als_chain": "ALS-XY-Chain",
    "franken_fish": "Franken Fish",  # with its size and fins: "Finned Franken Swordfish"
    "mutant_fish": "Mutant Fish",
    "cycle": "Bidirectional Cycle",
    "forcing_x_chain": "Forcing X-Chains",
    "forcing_chain": "Forcing Chains",
    "aligned_triplet_exclusion": "Aligned Triplet Exclusion",
    "nishio_forcing_chain": "Nishio Forcing Chains",
    "multiple_forcing_chain": "Cell or Region Forcing Chains",
    "dynamic_forcing_chain": "Dynamic Forcing Chains",
    "trial_and_error": "Forcing Chain",
}
assert tuple(NAMES) == TECHNIQUES, "every technique needs a display name, in the ladder's order"

#: The techniques a person spots without pencil marks beyond the cell or unit at hand.
SINGLES = frozenset({"full_house", "naked_single", "hidden_single"})
