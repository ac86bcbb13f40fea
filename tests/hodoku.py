"""HoDoKu's technique codes as our technique ids, and its exemplar file: what the tests on HoDoKu's
regression library and exemplars (GPL data, read from ../shared at test time) share."""

from __future__ import annotations

from pathlib import Path

REGLIB = "hodoku_reglib_techniques.tsv"
EXEMPLARS = "hodoku_exemplars_techniques.tsv"

#: HoDoKu code (variant suffix dropped) -> our technique id; codes not listed are techniques we do
#: not implement (kraken fish, death blossoms, templates, ...). HoDoKu's "Siamese" fish (a
#: digit appended to the code) map to the finned fish of their size, and their cases count its
#: sashimi fish too (``POOLS`` in test_hodoku_reglib).
CODES = {
    "0000": "full_house",
    "0002": "hidden_single",
    "0003": "naked_single",
    "0100": "locked_pointing",
    "0101": "locked_claiming",
    "0110": "naked_pair",  # locked pair: a naked pair in a box and a line
    "0111": "naked_triple",  # locked triple
    "0200": "naked_pair",
    "0201": "naked_triple",
    "0202": "naked_quad",
    "0210": "hidden_pair",
    "0211": "hidden_triple",
    "0212": "hidden_quad",
    "0300": "x_wing",
    "0301": "swordfish",
    "0302": "jellyfish",
    "0310": "finned_x_wing",
    "0311": "finned_swordfish",
    "03111": "finned_swordfish",  # Siamese
    "0312": "finned_jellyfish",
    "03121": "finned_jellyfish",
    # Franken and mutant fish, basic and finned, X-wing to jellyfish (Siamese: 03411 ...) and
    # the finned mutant squirmbag and whale (0363, 0364)
    **dict.fromkeys(("0330", "0331", "0332", "0340", "0341", "03411", "0342"), "franken_fish"),
    **dict.fromkeys(("03421",), "franken_fish"),
    **dict.fromkeys(("0350", "0351", "0352", "0360", "0361", "0362", "03621"), "mutant_fish"),
    **dict.fromkeys(("0363", "0364"), "mutant_fish"),
    "0320": "sashimi_x_wing",
    "0321": "sashimi_swordfish",
    "03211": "finned_swordfish",  # Siamese sashimi: a sashimi and a finned (or sashimi) fish
    "0322": "sashimi_jellyfish",
    "03221": "finned_jellyfish",
    "0400": "skyscraper",
    "0401": "two_string_kite",
    "0402": "empty_rectangle",
    "0405": "empty_rectangle",  # dual: see POOLS
    "0600": "unique_rectangle",  # type 1
    "0601": "unique_rectangle",  # type 2
    "0602": "unique_rectangle",  # type 3
    "0603": "unique_rectangle",  # type 4
    "0604": "unique_rectangle",  # type 5
    "0605": "unique_rectangle",  # type 6
    "0606": "hidden_rectangle",
    "0607": "avoidable_rectangle",  # type 1
    "0608": "avoidable_rectangle",  # type 2
    "0610": "bug_plus_one",
    "0500": "simple_colouring",  # trap
    "0501": "simple_colouring",  # wrap
    "0701": "x_chain",
    "0702": "xy_chain",
    "0703": "xy_chain",  # remote pairs are XY-chains
    "0706": "aic",  # continuous nice loop
    "0707": "aic",  # discontinuous nice loop
    "0708": "aic",
    "0709": "grouped_aic",  # grouped continuous nice loop
    "0710": "grouped_aic",  # grouped discontinuous nice loop
    "0711": "grouped_aic",
    "0800": "xy_wing",
    "0801": "xyz_wing",
    "0803": "w_wing",
    "1101": "sue_de_coq",
    "0901": "als_xz",
    "0902": "als_xy_wing",
    "0903": "als_chain",
    # patterns that one of our finders subsumes
    "0403": "x_chain",  # turbot fish
    "0404": "two_string_kite",  # dual 2-string kite
    "0502": "x_chain",  # multi-colours
    "0503": "x_chain",
    "1202": "trial_and_error",  # template delete
}
SUBSUMED = {"0403", "0404", "0502", "0503", "1202"}  # the codes just above
#: Finned fish of each size and the sashimi fish of that size: HoDoKu's "Siamese" fish and its
#: finned codes count both.
FAMILIES = {
    f"finned_{fish}": (f"finned_{fish}", f"sashimi_{fish}")
    for fish in ("x_wing", "swordfish", "jellyfish")
}


def read_exemplars(path: Path) -> list[tuple[str, str]]:
    """(puzzle, HoDoKu code without its variant) of each exemplar of a technique of ours: not
    another's, nor a pattern one of ours only subsumes."""
    exemplars = []
    with path.open() as handle:
        for line in handle:
            if line.startswith("#") or not line.strip():
                continue
            puzzle, code = line.split("\t")[:2]
            code = code.split("-")[0]
            if code in CODES and code not in SUBSUMED:
                exemplars.append((puzzle, code))
    return exemplars
