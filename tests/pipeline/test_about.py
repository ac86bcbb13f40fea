"""The book's "about the difficulty" text, read as the buyer reads it: short, plain, each
technique named once, and on the page with the contents and "How to play"."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from engine import TECHNIQUE_NAMES
from pipeline.about import NAMED, about_text, section_sentence
from pipeline.recipe import load_recipe, with_overrides
from pipeline.run import run_book
from pipeline.store import PUZZLES_FILE, read_rows

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
MOST_WORDS = 250


@pytest.fixture(scope="module")
def nightly(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The nightly recipe's book, run once, with a fixed seed."""
    output = tmp_path_factory.mktemp("nightly")
    recipe = with_overrides(load_recipe(CONFIGS / "nightly.toml"), output=output, seed=11)
    return run_book(recipe).folder


def test_the_nightly_about_text_is_short_and_names_each_technique_once(nightly: Path) -> None:
    rows = read_rows(nightly / PUZZLES_FILE)
    recipe = load_recipe(CONFIGS / "nightly.toml")
    sections = [
        (spec.title, [r for r in rows if r["section"] == i])
        for i, spec in enumerate(recipe.sections)
    ]
    text = about_text(sections)
    assert len(text.split()) <= MOST_WORDS
    names = TECHNIQUE_NAMES.values()
    for name in names:  # "X-Chain" inside "Grouped X-Chain" is not a mention of its own
        inside = sum(text.count(longer) for longer in names if name in longer and longer != name)
        assert text.count(name) - inside <= 1, name
    for title, _ in sections:
        assert f"{title}:" in text and f"{title} (" not in text  # no "Easy (9x9, easy)"


def test_the_about_text_shares_its_page_with_the_contents(nightly: Path) -> None:
    pages = [page.extract_text() for page in PdfReader(next(nightly.glob("*.pdf"))).pages]
    about = next(i for i, page in enumerate(pages) if "About the difficulty" in page)
    assert "How to play" in pages[about]
    assert "singles are enough" in " ".join(pages[about].split())  # the whole text is there
    following = pages[about + 1]
    assert "About the difficulty" not in following and "Look up" not in following


def graded(hardest: str) -> dict:
    return {"hardest": hardest, "techniques": [{"technique": hardest, "steps": 1}]}


def test_a_section_is_told_by_its_usual_family_with_a_few_new_names() -> None:
    assert section_sentence(
        "Hard", [graded("x_wing"), graded("naked_pair"), graded("x_wing")], set()
    ) == (
        "Hard: most puzzles ask you to follow one digit across several rows and columns at "
        "once. Look up X-Wing."
    )
    many = [graded(t) for t in ("xy_chain", "aic", "x_chain", "grouped_aic", "xy_chain")]
    named = {"X-Chain"}
    sentence = section_sentence("Expert", many, named)
    assert sentence.startswith("Expert: most puzzles ask you to follow long chains")
    assert sentence.endswith("Look up XY-Chain, Alternating Inference Chain or Grouped AIC.")
    assert len(named) == NAMED + 1  # each name is given once in a book
    assert section_sentence("Expert", many, named).endswith("between candidates.")
    assert section_sentence("Easy", [graded("hidden_single")], set()).startswith(
        "Easy: singles are enough. Find the one place"
    )
