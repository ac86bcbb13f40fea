"""Recipe sections that print puzzles others made (``source``), through the real CLI with a real
``.sdk`` collection: selected by tier and order as `pipeline grade` grades them, bad rows skipped
and counted, the catalog's dedupe (disguised copies too) as for dug puzzles, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

import engine
from pipeline.app import BAD_ARGUMENTS
from pipeline.cli import app
from pipeline.store import MANIFEST_FILE, PUZZLES_FILE, read_rows
from tests.conftest import read_puzzles
from tests.helpers import runner

BOUGHT = 40  # puzzles of 17_clue.txt in the collection
CLASH = "11" + "." * 79  # two 1s in the first row: invalid
RECIPE = """
title = "{title}"
seed = {seed}
output = "{output}"
[parallel]
n_jobs = 1
[[sections]]
title = "Bought Medium"
tier = "medium"
count = {medium}
source = "collection.sdk"
order = "{order}"
[[sections]]
title = "Bought Easy"
tier = "easy"
count = 3
source = "collection.sdk"
order = "random"
[[sections]]
title = "Dug Tiny"
size = 4
tier = "easy"
count = 2
minimal = false
"""


def grid_block(puzzle: str) -> str:
    """A puzzle as an .sdk grid: nine lines of nine."""
    return "\n".join(puzzle[row : row + 9] for row in range(0, 81, 9)) + "\n\n"


def transposed(puzzle: str) -> str:
    """The same puzzle reflected in the main diagonal: a disguised copy."""
    return "".join(puzzle[col * 9 + row] for row in range(9) for col in range(9))


def write_collection(folder: Path, puzzles: list[str]) -> list[str]:
    (folder / "collection.sdk").write_text("".join(map(grid_block, puzzles)))
    return puzzles


@pytest.fixture
def collection(shared_data: Path, tmp_path: Path) -> list[str]:
    """``tmp_path/collection.sdk``: 40 17-clue puzzles, an invalid grid and a puzzle with many
    solutions (a 17-clue puzzle less a clue)."""
    puzzles = read_puzzles(shared_data / "17_clue.txt")[:BOUGHT]
    first = puzzles[0]
    many = first.replace(next(c for c in first if c != "."), ".", 1)
    return write_collection(tmp_path, [*puzzles, CLASH, many])


def recipe(folder: Path, title: str = "Bought", seed: int = 3, medium: int = 4, order="hardest"):
    path = folder / f"{title.lower()}-{seed}-{medium}-{order}.toml"
    text = RECIPE.format(
        title=title, seed=seed, output=folder / "output", medium=medium, order=order
    )
    path.write_text(text)
    return path


def run(path: Path, *options: str) -> Path:
    result = runner.invoke(app, ["run", str(path), "-q", *options])
    assert result.exit_code == 0, result.output
    return Path(result.stdout.split(" in ")[1].split(" (")[0])


def graded(folder: Path) -> list[dict]:
    """The collection as `pipeline grade` grades it (the real command)."""
    out = folder / "graded.parquet"
    result = runner.invoke(app, ["grade", str(folder / "collection.sdk"), "-o", str(out), "-q"])
    assert result.exit_code == 1  # two rows are not ok
    return read_rows(out)


def test_a_book_from_a_bought_collection(tmp_path: Path, collection: list[str]) -> None:
    folder = run(recipe(tmp_path))
    rows = read_rows(folder / PUZZLES_FILE)
    assert [row["section"] for row in rows] == [0] * 4 + [1] * 3 + [2] * 2
    reference = [row for row in graded(tmp_path) if row["status"] == "ok"]
    medium = sorted(
        (row for row in reference if row["tier"] == "medium"), key=lambda row: -row["score"]
    )
    assert [row["givens"] for row in rows[:4]] == [row["puzzle"] for row in medium[:4]]
    assert [row["score"] for row in rows[:4]] == [row["score"] for row in medium[:4]]
    easy = {row["puzzle"]: row["line"] for row in reference if row["tier"] == "easy"}
    assert {row["givens"] for row in rows[4:7]} <= set(easy)
    assert [row["position"] for row in rows[4:7]] == [easy[row["givens"]] for row in rows[4:7]]
    assert {row["tier"] for row in rows} == {"medium", "easy"}
    assert len({row["id"] for row in rows}) == len(rows)
    manifest = json.loads((folder / MANIFEST_FILE).read_text())
    first, second = manifest["sources"]
    assert first["file"].endswith("collection.sdk") and len(first["sha256"]) == 64
    assert (first["rows"], first["skipped"], first["chosen"]) == (len(collection), 2, 4)
    assert first["other_tier"] == len(collection) - 2 - len(medium)
    assert second["chosen"] == 3
    verified = runner.invoke(app, ["verify", str(folder)])
    assert verified.exit_code == 0, verified.output
    text = " ".join(page.extract_text() for page in PdfReader(folder / "bought.pdf").pages[:6])
    about = " ".join(text.split()).split("About the difficulty", 1)[1]
    assert about.lstrip().startswith("Every puzzle") and "Bought Medium" in about
    # random order follows the run seed: the same seed picks the same, another seed others
    again = read_rows(run(recipe(tmp_path), "-o", str(tmp_path / "again")) / PUZZLES_FILE)
    other = read_rows(run(recipe(tmp_path, seed=4), "-o", str(tmp_path / "other")) / PUZZLES_FILE)
    picks = [[row["givens"] for row in book[4:7]] for book in (rows, again, other)]
    assert picks[0] == picks[1] != picks[2]


def test_puzzles_in_an_earlier_book_are_skipped_disguised_or_not(
    tmp_path: Path, collection: list[str]
) -> None:
    medium = next(p for p in collection if engine.grade(p).tier == "medium")
    assert engine.grade(transposed(medium)).tier == "medium"
    at = collection.index(medium) + 1  # its disguised copy right after it
    write_collection(tmp_path, [*collection[:at], transposed(medium), *collection[at:]])
    first = read_rows(run(recipe(tmp_path, "First", medium=1, order="file")) / PUZZLES_FILE)
    second_folder = run(recipe(tmp_path, "Second", medium=1, order="file"))
    second = read_rows(second_folder / PUZZLES_FILE)
    for key in ("id", "canonical"):
        assert not {row[key] for row in first} & {row[key] for row in second}
    assert first[0]["givens"] == medium
    assert second[0]["givens"] not in (medium, transposed(medium))
    sources = json.loads((second_folder / MANIFEST_FILE).read_text())["sources"]
    assert sources[0]["duplicates"] == 2  # the first book's puzzle and its copy


def test_too_few_puzzles_names_the_section_and_the_file(
    tmp_path: Path, collection: list[str]
) -> None:
    result = runner.invoke(app, ["run", str(recipe(tmp_path, medium=BOUGHT)), "-q"])
    assert result.exit_code == BAD_ARGUMENTS and "Traceback" not in result.output
    message = result.stderr.strip()
    assert message.startswith("Error: section 'Bought Medium': ")
    assert str(tmp_path / "collection.sdk") in message and f"{BOUGHT} wanted" in message
