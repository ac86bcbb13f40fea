"""One tier truth: a run's bands per grid size travel with its puzzles (manifest and Parquet
metadata), `pipeline grade --recipe` re-labels a giant run exactly as the run did, the About page
is written from the book's puzzles, and people read technique names, not ids."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

import engine
from engine.grade import NESTED_BASE
from pipeline.about import about_text
from pipeline.cli import app
from pipeline.recipe import bands_for, bands_table, load_recipe
from pipeline.report import format_summary, summarize
from pipeline.run import MANIFEST_FILE, PUZZLES_FILE
from pipeline.store import read_metadata, read_rows
from tests.helpers import runner

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
GIANT_COUNT = 3  # per section, instead of giant.toml's 10


@pytest.fixture(scope="module")
def giant_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """configs/giant.toml with fewer puzzles, run through the CLI: (recipe copy, run folder)."""
    folder = tmp_path_factory.mktemp("giant")
    recipe = folder / "giant.toml"
    text = (CONFIGS / "giant.toml").read_text()
    recipe.write_text(re.sub(r"(?m)^count = \d+$", f"count = {GIANT_COUNT}", text))
    result = runner.invoke(app, ["run", str(recipe), "-o", str(folder / "out"), "-j", "1", "-q"])
    assert result.exit_code == 0, result.output
    return recipe, Path(result.stdout.split(" in ")[1].split(" (")[0])


def regrade(source: Path, out: Path, *options: str) -> list[dict]:
    command = ["grade", str(source), "--column", "givens", "-o", str(out), "-j", "1", "-q"]
    result = runner.invoke(app, [*command, *options])
    assert result.exit_code == 0, result.output
    return read_rows(out)


def test_grade_with_the_recipe_gives_the_giant_runs_tiers(giant_run: tuple[Path, Path]) -> None:
    recipe, folder = giant_run
    rows = read_rows(folder / PUZZLES_FILE)
    tiers = [row["tier"] for row in rows]
    assert tiers == ["easy"] * GIANT_COUNT + ["medium"] * GIANT_COUNT
    regraded = regrade(folder / PUZZLES_FILE, folder.parent / "graded.parquet", "--recipe", recipe)
    assert [row["tier"] for row in regraded] == tiers
    assert [row["score"] for row in regraded] == [row["score"] for row in rows]
    # giant.toml defines no tiers of its own, so the sizes' defaults alone label them alike
    plain = regrade(folder / PUZZLES_FILE, folder.parent / "plain.parquet")
    assert [row["tier"] for row in plain] == tiers


def test_the_bands_travel_with_the_puzzles(giant_run: tuple[Path, Path]) -> None:
    recipe, folder = giant_run
    manifest = json.loads((folder / MANIFEST_FILE).read_text())
    stored = json.loads(read_metadata(folder / PUZZLES_FILE)["bands"])
    giant = bands_for(load_recipe(recipe).tiers, 4, 4)
    assert stored == manifest["bands"] == {"4x4": bands_table(giant)}
    easy, medium, *_, extreme = stored["4x4"]
    assert easy == {"name": "easy", "score": [0.0, 2.4], "clues": [128, 256]}
    assert medium == {"name": "medium", "score": [0.0, 2.4]}  # singles, fewer clues
    assert extreme == {"name": "extreme", "score": [6.0, NESTED_BASE - 0.1]}  # never nested
    assert bands_for((), 3, 3)["medium"].score == (2.5, 3.4)  # 9x9 keeps the grader's bands


def test_the_about_page_describes_the_books_puzzles(giant_run: tuple[Path, Path]) -> None:
    _, folder = giant_run
    rows = read_rows(folder / PUZZLES_FILE)
    pages = [page.extract_text() for page in PdfReader(next(folder.glob("*.pdf"))).pages]
    about = " ".join(next(page for page in pages if "About the difficulty" in page).split())
    sections = [("Giant Easy", rows[:GIANT_COUNT]), ("Giant Medium", rows[GIANT_COUNT:])]
    for paragraph in about_text(sections).split("\n\n"):
        assert " ".join(paragraph.split()) in about
    assert "Giant Medium (16x16). Scanning still solves every puzzle" in about
    assert not re.search(r"wing|fish|chain|candidate", about)  # nothing these puzzles need


def test_people_read_technique_names() -> None:
    assert tuple(engine.TECHNIQUE_NAMES) == engine.TECHNIQUES
    assert engine.TECHNIQUE_NAMES["trial_and_error"] == "Forcing Chain"
    row = {"size": 9, "tier": "extreme", "score": 9.0, "iterations": 3, "clues": 17}
    report = format_summary(summarize([row | {"hardest": "trial_and_error"}]))
    assert "hardest technique: Forcing Chain 1" in report and "trial_and_error" not in report
    fish = [row | {"hardest": "x_wing", "techniques": [{"technique": "x_wing", "steps": 1}]}]
    about = about_text([("Extreme", fish)])
    assert "(X-Wing)." in about and "x_wing" not in about


def test_the_grade_summary_names_hardest_techniques(shared_data: Path, tmp_path: Path) -> None:
    lines = (shared_data / "magictour_top1465.txt").read_text().splitlines()[:20]
    source = tmp_path / "hard.txt"
    source.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["grade", str(source), "-j", "1", "-q"])
    assert result.exit_code == 0, result.output
    techniques = result.stdout.split("hardest technique\n")[1].split("score ")[0].splitlines()
    named = {line.rsplit(maxsplit=1)[0].strip() for line in techniques}
    assert "Forcing Chain" in named and named <= set(engine.TECHNIQUE_NAMES.values())
    assert "trial_and_error" not in result.stdout
