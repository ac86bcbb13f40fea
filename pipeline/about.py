"""The book's "About the difficulty" text, written for the person who bought it.

Each section gets a sentence or two in plain words on what its puzzles ask, derived from the
techniques those puzzles needed (their rows' ``techniques``), not a fixed text per tier name: a
section whose puzzles need no fish says nothing of fish. Techniques are explained as skills (a
family a solver learns as one idea), each the first time a section needs it, with one name a
solver can look up; later sections say only what they add.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import ceil
from statistics import mean
from typing import Any

from engine import TECHNIQUE_NAMES, TECHNIQUES
from engine.logic.killer import KILLER_TECHNIQUES
from pipeline.render.pages import symbol_word

INTRO = "Every puzzle has exactly one solution. Here is what each section's puzzles ask of you"
LOOK_UP_NOTE = "; a name in brackets is a technique's usual name, to look up if you wish"
CLASSIC_SIZE = 9  # a book of 9x9 grids only needs no grid size in its heads
NOTABLE_SHARE = 1 / 5  # a skill is worth a mention once this share of a section's puzzles need it
MOST_SHARE = 1 / 2
MANY_SHARE = 1 / 3
MAX_CLAUSES = 3  # skills told of per section, so each section stays a sentence or two
MAX_GROWN = 1  # a skill told of before and now needed by most: worth a clause when room is left
MOST = ("most", "all")  # shares of a section's puzzles that make a skill the section's own
SINGLES = ("full_house", "naked_single", "hidden_single")
#: Names to look up where the engine's display name is longer than the name solvers search for.
LOOK_UP = {
    "locked_pointing": "Locked Candidates",
    "locked_claiming": "Locked Candidates",
    "bug_plus_one": "BUG+1",
}


@dataclass(frozen=True)
class Skill:
    """Techniques a solver learns as one idea, and that idea in plain words."""

    again: str  # a few words, for a section that needs it again
    explained: str  # a noun phrase, the first time; ``{symbol}`` is "number" or "symbol"
    techniques: tuple[str, ...]


SKILLS = (
    Skill(
        "cage sums",
        "the sums of a Killer's cages: the digit sets a cage's total allows, and the rule of 45 "
        "(a row, column or box holds each digit once, so it adds up to 45 on a 9x9 grid, and "
        "the cells its own cages leave over have a known sum)",
        KILLER_TECHNIQUES,
    ),
    Skill(
        "a {symbol} locked in one line of a box",
        "a {symbol} that a box confines to one row or column",
        ("locked_pointing", "locked_claiming"),
    ),
    Skill(
        "cells that share their candidates",
        "two or three cells of a row, column or box that share the same candidates",
        ("naked_pair", "hidden_pair", "naked_triple", "hidden_triple", "naked_quad", "hidden_quad"),
    ),
    Skill(
        "rows that confine a {symbol} to the same columns",
        "a {symbol} that two or three rows confine to the same columns",
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
    ),
    Skill(
        "one-{symbol} patterns",
        "a pattern of one {symbol} across rows, columns and boxes",
        ("skyscraper", "two_string_kite", "empty_rectangle", "simple_colouring"),
    ),
    Skill(
        "linked cells with few candidates",
        "cells with few candidates, linked through one of them or through a group of cells "
        "in one unit",
        (
            "xy_wing",
            "xyz_wing",
            "wxyz_wing",
            "w_wing",
            "vwxyz_wing",
            "uvwxyz_wing",
            "tuvwxyz_wing",
            "aligned_triplet_exclusion",
        ),
    ),
    Skill(
        "the one-solution rule",
        "the one-solution rule: no rectangle or loop of cells may be left with the same two "
        "candidates",
        (
            "unique_rectangle",
            "hidden_rectangle",
            "avoidable_rectangle",
            "unique_loop",
            "bug_plus_one",
        ),
    ),
    Skill(
        "either-or chains",
        "a chain of either-or links, followed from cell to cell",
        ("x_chain", "xy_chain", "aic", "grouped_x_chain", "grouped_aic"),
    ),
    Skill(
        "groups of cells with one candidate too many",
        "a group of cells holding one candidate more than it has cells",
        ("als_xz", "als_xy_wing", "als_chain", "sue_de_coq"),
    ),
    Skill(
        "a trial",
        "a trial: suppose a candidate and follow what it forces until something clashes",
        (
            "cycle",
            "forcing_x_chain",
            "forcing_chain",
            "nishio_forcing_chain",
            "multiple_forcing_chain",
            "dynamic_forcing_chain",
            "trial_and_error",
        ),
    ),
)


@dataclass(frozen=True)
class Told:
    """Where a skill was first told of, and how many of that section's puzzles needed it."""

    title: str
    share: str  # all, most, many, some or one


@dataclass(frozen=True)
class SectionNeeds:
    """What one section's puzzles needed, counted in puzzles."""

    title: str
    size: int
    puzzles: int
    clues: float  # the mean number of clues
    techniques: Counter[str]  # puzzles that needed each technique
    skills: Counter[Skill]  # puzzles that needed each skill beyond singles

    @property
    def singles(self) -> set[str]:
        return {t for t in SINGLES if self.techniques[t]}

    @property
    def symbol(self) -> str:
        return symbol_word([self.size])


def about_text(sections: Sequence[tuple[str, Sequence[Mapping[str, Any]]]]) -> str:
    """The about page for ``(title, rows)`` per section in print order: an introduction, then
    one paragraph per section that starts with its title (paragraphs split by blank lines)."""
    needs = [section_needs(title, rows) for title, rows in sections if rows]
    if not needs:
        return f"{INTRO}."
    show_size = any(need.size != CLASSIC_SIZE for need in needs)
    told: dict[Skill, Told] = {}
    paragraphs = []
    for k, need in enumerate(needs):
        head = f"{need.title} ({need.size}x{need.size})" if show_size else need.title
        paragraphs.append(f"{head}. {_section_text(need, needs[:k], told)}")
    intro = INTRO + (LOOK_UP_NOTE if told else "") + "."
    return "\n\n".join([intro, *paragraphs])


def section_needs(title: str, rows: Sequence[Mapping[str, Any]]) -> SectionNeeds:
    """Count, over a section's rows, the puzzles that needed each skill."""
    used = [{t["technique"] for t in row["techniques"] if t["steps"]} for row in rows]
    techniques: Counter[str] = Counter(t for puzzle in used for t in puzzle)
    skills: Counter[Skill] = Counter(
        skill for puzzle in used for skill in SKILLS if puzzle & set(skill.techniques)
    )
    return SectionNeeds(
        title=title,
        size=int(rows[0]["size"]),
        puzzles=len(rows),
        clues=mean(int(row["clues"]) for row in rows),
        techniques=techniques,
        skills=skills,
    )


def _section_text(
    need: SectionNeeds, before: Sequence[SectionNeeds], told: dict[Skill, Told]
) -> str:
    """What this section asks beyond the sections before it: the skills it is the first to need
    by a notable share of its puzzles, explained, and one it needs far more often than the
    section that explained it; records what it tells in ``told``."""
    if not need.skills:
        return _scanning(need, before)
    sentences = []
    if not any(earlier.skills for earlier in before):
        sentences.append(f"pencil in the candidates, the {need.symbol}s each cell can still take")
    notable = ceil(need.puzzles * NOTABLE_SHARE)
    shares = {skill: _share(need, skill) for skill in need.skills}
    ranked = [skill for skill, _ in _by_count(need)]
    untold = [s for s in ranked if s not in told]
    new = [s for s in untold if need.skills[s] >= notable][:MAX_CLAUSES]
    grown = [s for s in ranked if s in told and shares[s] in MOST and told[s].share not in MOST]
    if not new and not grown:
        new = untold[:1]  # a few puzzles need it: say so rather than "nothing new"
    chosen = [s for s in ranked if s in new or s in grown[: max(0, MAX_GROWN - len(new))]]
    if not chosen:
        top = _by_count(need)[0][0]
        who = _who_needs(shares[top], first=True, again=False)
        again = top.again.format(symbol=need.symbol)
        sentences.append(f"no technique beyond those above: {who} {again}")
    clauses = []
    for k, skill in enumerate(chosen):
        share = shares[skill]
        who = _who_needs(share, first=k == 0, again=k > 0 and shares[chosen[k - 1]] == share)
        if skill in told:
            what = f"{skill.again.format(symbol=need.symbol)}, as in {told[skill].title}"
        else:
            what = _explained(skill, need)
        clauses.append(f"{who} {what}")
        told[skill] = Told(need.title, share)
    if clauses:
        sentences.append("; ".join(clauses))
    return " ".join(_sentence(text) for text in sentences)


def _scanning(need: SectionNeeds, before: Sequence[SectionNeeds]) -> str:
    """A section that singles solve: how to scan, or, after another such section, what differs."""
    previous = before[-1] if before else None
    if previous is None or previous.skills:
        return _sentence(f"scanning solves every puzzle: look for {_ways(need, need.singles)}")
    if need.singles - previous.singles:
        ways = _ways(need, need.singles - previous.singles)
        return _sentence(f"scanning still solves every puzzle; now also look for {ways}")
    if round(need.clues) < round(previous.clues):
        return _sentence(
            f"scanning still solves every puzzle, from fewer clues: about {round(need.clues)}, "
            f"against {round(previous.clues)} in {previous.title}"
        )
    return _sentence("scanning still solves every puzzle")


def _ways(need: SectionNeeds, singles: set[str]) -> str:
    """The kinds of single in ``singles``, as places to look."""
    ways = []
    if "hidden_single" in singles:
        ways.append(f"the one place left for a {need.symbol} in a row, column or box")
    if "naked_single" in singles:
        ways.append(f"a cell that only one {need.symbol} fits")
    return ", and for ".join(ways) or "the last empty cell of a row, column or box"


def _by_count(need: SectionNeeds) -> list[tuple[Skill, int]]:
    """The section's skills, most needed first, in ladder order among equals."""
    return sorted(need.skills.items(), key=lambda item: (-item[1], SKILLS.index(item[0])))


def _share(need: SectionNeeds, skill: Skill) -> str:
    """How many of the section's puzzles need ``skill``: all, most, many, some or one."""
    count, total = need.skills[skill], need.puzzles
    if count == total:
        return "all"
    if count == 1:
        return "one"
    if count > total * MOST_SHARE:
        return "most"
    return "many" if count >= total * MANY_SHARE else "some"


def _who_needs(share: str, *, first: bool, again: bool) -> str:
    """The subject and verb of a clause: "most puzzles need", then "many need", or "many also
    need" when the clause before said "many" too."""
    subject = {"all": "every puzzle", "one": "one puzzle"}.get(share, f"{share} puzzles")
    if not first:
        subject = share
    verb = "needs" if subject in ("every puzzle", "one puzzle", "one") else "need"
    return f"{subject} also {verb}" if again else f"{subject} {verb}"


def _explained(skill: Skill, need: SectionNeeds) -> str:
    """The skill in plain words, with the name of the technique of it this section used most."""
    used = [t for t in skill.techniques if need.techniques[t]]
    top = min(used, key=lambda t: (-need.techniques[t], TECHNIQUES.index(t)))
    name = LOOK_UP.get(top, TECHNIQUE_NAMES[top])
    return f"{skill.explained.format(symbol=need.symbol)} ({name})"


def _sentence(text: str) -> str:
    return f"{text[0].upper()}{text[1:]}."
