"""The "About the difficulty" text as a buyer reads it: written from a real run's puzzles (the
nightly and kids' recipes through the CLI), short, each technique named once and only where a
section's puzzles needed it, and printed on the page with the contents and how to play (read
back with pypdf)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from engine import TECHNIQUE_NAMES, TECHNIQUES
from pipeline.about import LOOK_UP, SINGLES, SKILLS, about_text
from pipeline.cli import app
from pipeline.recipe import load_recipe
from pipeline.render.book import book_from_rows
from pipeline.render.booklet import render_book
from pipeline.render.options import PrintOptions
from pipeline.store import read_rows
from tests.helpers import runner

# one worker builds this module's shared fixtures once (make test: pytest -n auto --dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_about")

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
SEED = 7
MAX_WORDS = 250
NAMES_PER_SECTION = 3  # a handful of names to look up, for five sections
ABOUT_HEADING = "About the difficulty"

Sections = list[tuple[str, list[dict[str, Any]]]]


def run_recipe(recipe: Path, folder: Path) -> Path:
    """Run ``recipe`` through the CLI into ``folder``; the run folder."""
    command = ["run", str(recipe), "-o", str(folder / "out"), "-j", "1", "-q", "--seed", str(SEED)]
    result = runner.invoke(app, command)
    assert result.exit_code == 0, result.output
    return Path(result.stdout.split(" in ")[1].split(" (")[0])


def sections_of(recipe: Path, folder: Path) -> Sections:
    """(title, rows) per recipe section, as the run printed them."""
    rows = read_rows(folder / "puzzles.parquet")
    titles = [spec.title for spec in load_recipe(recipe).sections]
    return [(title, [r for r in rows if r["section"] == k]) for k, title in enumerate(titles)]


def page_texts(pdf: Path) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(pdf).pages]


def squeezed(text: str) -> str:
    """``text`` without whitespace, to compare with what a PDF's line breaks cut up."""
    return "".join(text.split())


def names_in(text: str) -> Counter[str]:
    """Technique names (the engine's and the look-up ones) printed in ``text``, each counted."""
    names = set(TECHNIQUE_NAMES.values()) | set(LOOK_UP.values())
    return Counter(
        {
            name: n
            for name in names
            if (n := len(re.findall(rf"(?<![\w-]){re.escape(name)}(?![\w+-])", text)))
        }
    )


def used_names(rows: Sequence[Mapping[str, Any]]) -> set[str]:
    techniques = {t["technique"] for row in rows for t in row["techniques"] if t["steps"]}
    return {LOOK_UP.get(t, TECHNIQUE_NAMES[t]) for t in techniques}


def paragraphs(text: str) -> list[str]:
    return text.split("\n\n")


@pytest.fixture(scope="module")
def nightly(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Sections]:
    """The nightly recipe run on a fixed seed: (its PDF, its sections)."""
    recipe = CONFIGS / "nightly.toml"
    folder = run_recipe(recipe, tmp_path_factory.mktemp("nightly"))
    return folder / "nightly-sudoku.pdf", sections_of(recipe, folder)  # not its -cover.pdf


def test_nightly_about_is_short_and_names_each_technique_once(
    nightly: tuple[Path, Sections],
) -> None:
    _, sections = nightly
    text = about_text(sections)
    assert len(text.split()) <= MAX_WORDS
    named = names_in(text)
    assert named and max(named.values()) == 1, named
    assert sum(named.values()) <= NAMES_PER_SECTION * len(sections)
    described = paragraphs(text)[1:]
    assert len(described) == len(sections)
    for (title, rows), paragraph in zip(sections, described, strict=True):
        head, _, sentences = paragraph.partition(". ")
        assert head == title, paragraph  # 9x9 only: no size, and the tier is not repeated
        assert len(re.findall(r"[.!?](?:\s|$)", sentences)) <= 2, paragraph
        assert set(names_in(paragraph)) <= used_names(rows), paragraph


def test_nightly_about_shares_the_contents_page(nightly: tuple[Path, Sections]) -> None:
    pdf, sections = nightly
    pages = page_texts(pdf)
    second = squeezed(pages[1])
    for heading in ("Contents", "How to play", ABOUT_HEADING):
        assert squeezed(heading) in second
    for paragraph in paragraphs(about_text(sections)):
        assert squeezed(paragraph) in second
    assert pages[2].splitlines()[0] == sections[0][0]  # page 3 is the first puzzles' page


def test_on_a_small_trim_the_about_text_starts_a_page_of_its_own(
    nightly: tuple[Path, Sections], tmp_path: Path
) -> None:
    """On 6x9 it does not fit under the contents: the whole of it moves to the next page rather
    than leaving a few lines over."""
    _, sections = nightly
    about = about_text(sections)
    rows = [row for _, section in sections for row in section]
    layouts = {row["tier"]: 2 for row in rows}
    book = book_from_rows(rows, "Nightly Sudoku", "Tests", layouts, about=about)
    result = render_book(book, tmp_path / "small.pdf", PrintOptions(trim="6x9"))
    pages = page_texts(result.path)
    assert ABOUT_HEADING not in pages[1]
    third = squeezed(pages[2])
    assert third.startswith(squeezed(ABOUT_HEADING))
    assert all(squeezed(paragraph) in third for paragraph in paragraphs(about))


def test_kids_book_about_speaks_of_scanning_only(tmp_path: Path) -> None:
    """configs/kids.toml prints no about page; with one, its 4x4 and 6x6 sections read well:
    grid sizes in the heads, no tier names, no candidates or technique names."""
    recipe = tmp_path / "kids.toml"
    text = (CONFIGS / "kids.toml").read_text().replace("about = false", "about = true")
    recipe.write_text(text)
    folder = run_recipe(recipe, tmp_path)
    about = about_text(sections_of(recipe, folder))
    assert "Little Squares (4x4). Scanning solves every puzzle: look for a cell" in about
    assert "Six by Six (6x6). Scanning still solves every puzzle; now also look for" in about
    assert not names_in(about) and "candidate" not in about and "bracket" not in about
    assert not re.search(r"starter|explorer", about)
    second = squeezed(page_texts(next(folder.glob("*.pdf")))[1])
    assert squeezed(about.split("\n\n")[-1]) in second
    assert squeezed("1 to 4 in a 4x4 grid, 1 to 6 in a 6x6 grid") in second


def row(size: int, *techniques: str, clues: int = 25) -> dict[str, Any]:
    steps = [{"technique": t, "steps": 1} for t in ("naked_single", *techniques)]
    return {"size": size, "tier": "t", "clues": clues, "techniques": steps}


def test_a_section_claims_only_what_its_puzzles_needed() -> None:
    """A hard section of wings and no fish says nothing of fish; a second section that needs
    nothing new says so instead of explaining wings again."""
    wings = [row(9, "xy_wing")] * 3 + [row(9, "skyscraper")]
    text = about_text([("Hard", wings), ("Harder", wings)])
    assert "XY-Wing" in text and "Skyscraper" in text
    assert "X-Wing" not in names_in(text) and "rows confine" not in text
    hard, harder = paragraphs(text)[1:]
    assert hard.startswith("Hard. Pencil in the candidates") and "Most puzzles need" in hard
    assert harder == (
        "Harder. No technique beyond those above: most puzzles need linked cells with few "
        "candidates."
    )


def test_a_skill_few_puzzles_need_is_told_rather_than_nothing_new() -> None:
    harder = [row(9, "x_wing")] + [row(9)] * 9
    text = about_text([("Hard", [row(9, "xy_wing")] * 3), ("Harder", harder)])
    assert paragraphs(text)[2] == (
        "Harder. One puzzle needs a number that two or three rows confine to the same columns "
        "(X-Wing)."
    )


def test_a_skill_needed_by_most_is_recalled_where_it_grows() -> None:
    """An almost locked set that one expert puzzle of five needed, and every extreme one: the
    extreme section says so in a few words, with no second name."""
    expert = [row(9, "xy_chain")] + [row(9, "aic")] * 3 + [row(9, "als_xz")]
    extreme = [row(9, "als_xz", "xy_chain")] * 3
    text = about_text([("Expert", expert), ("Extreme", extreme)])
    assert paragraphs(text)[2] == (
        "Extreme. Every puzzle needs groups of cells with one candidate too many, as in Expert."
    )
    assert max(names_in(text).values()) == 1


def test_a_second_singles_section_says_what_differs() -> None:
    easy = [row(16, "hidden_single", clues=128)] * 2
    fewer = [row(16, "hidden_single", clues=104)] * 2
    text = about_text([("Giant Easy", easy), ("Giant Medium", fewer)])
    assert paragraphs(text)[2] == (
        "Giant Medium (16x16). Scanning still solves every puzzle, from fewer clues: about 104, "
        "against 128 in Giant Easy."
    )
    assert "symbol" in paragraphs(text)[1] and "number" not in text


def test_every_technique_beyond_singles_is_one_skill() -> None:
    skill_of = Counter(t for skill in SKILLS for t in skill.techniques)
    assert set(skill_of) | set(SINGLES) == set(TECHNIQUES)
    assert max(skill_of.values()) == 1 and not set(skill_of) & set(SINGLES)
