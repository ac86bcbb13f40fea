"""Daily seeds through the real CLI: each day a new book sharing no puzzle with earlier ones, the
same day resumed, the day pinned by --date, and the seed still pinned by --seed."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from pipeline.app import BAD_ARGUMENTS
from pipeline.cli import app
from pipeline.daily import daily_seed, today, with_run_seed
from pipeline.recipe import RecipeError, load_recipe, with_overrides
from pipeline.run import run_folder
from pipeline.store import MANIFEST_FILE, PUZZLES_FILE, read_rows
from tests.helpers import content, runner

DAY, NEXT_DAY = date(2026, 11, 23), date(2026, 11, 24)

DAILY = """
title = "Daily Test"
timezone = "Europe/Paris"
output = "{output}"
[parallel]
n_jobs = 1
chunk_size = 2
[[sections]]
title = "Tiny"
size = 4
tier = "easy"
count = 12
minimal = false
layout = 6
[[sections]]
title = "Classic"
tier = "easy"
count = 3
layout = 4
"""


def daily_recipe(folder: Path) -> Path:
    """A recipe without seed: 4x4 (few distinct puzzles, so days collide and dedupe works) and
    9x9."""
    path = folder / "daily.toml"
    path.write_text(DAILY.format(output=folder / "output"))
    return path


def run(recipe: Path, *options: str) -> Path:
    """``pipeline run`` through the real app; the run folder."""
    result = runner.invoke(app, ["run", str(recipe), "-q", *options])
    assert result.exit_code == 0, result.output
    return Path(result.output.split(" in ")[1].split(" (")[0])


def test_two_days_make_two_books_with_no_puzzle_in_common(tmp_path: Path) -> None:
    recipe = daily_recipe(tmp_path)
    first = run(recipe, "--date", DAY.isoformat())
    second = run(recipe, "--date", NEXT_DAY.isoformat())
    assert first != second and first.parent == second.parent
    books = [read_rows(folder / PUZZLES_FILE) for folder in (first, second)]
    assert [len(rows) for rows in books] == [15, 15]
    for key in ("id", "canonical"):
        assert not {row[key] for row in books[0]} & {row[key] for row in books[1]}
    manifests = [json.loads((f / MANIFEST_FILE).read_text()) for f in (first, second)]
    plain = load_recipe(recipe)
    for manifest, day in zip(manifests, (DAY, NEXT_DAY), strict=True):
        assert manifest["date"] == day.isoformat() and manifest["timezone"] == "Europe/Paris"
        assert manifest["seed"] == daily_seed(plain, day)
    assert [{row["seed"] for row in rows} for rows in books] == [{m["seed"]} for m in manifests]
    assert manifests[0]["seed"] != manifests[1]["seed"]
    # the second day met puzzles of the first in its 4x4 section and replaced them
    assert manifests[1]["counts"]["duplicates"] > 0


def test_the_same_day_resumes_the_same_book(tmp_path: Path) -> None:
    recipe = daily_recipe(tmp_path)
    first = run(recipe, "--date", DAY.isoformat())
    rows = read_rows(first / PUZZLES_FILE)
    again = runner.invoke(app, ["run", str(recipe), "-q", "--date", DAY.isoformat()])
    assert again.exit_code == 0, again.output
    manifest = json.loads((first / MANIFEST_FILE).read_text())
    total = manifest["counts"]["chunks_total"]
    assert f"{total} of {total} chunks resumed" in again.output  # no chunk dug again
    assert str(first) in again.output
    assert content(read_rows(first / PUZZLES_FILE)) == content(rows)


def test_without_date_the_day_is_today_in_the_recipes_time_zone(tmp_path: Path) -> None:
    recipe = load_recipe(daily_recipe(tmp_path))
    seeded, day = with_run_seed(recipe)
    assert day == today("Europe/Paris") and seeded.seed == daily_seed(recipe, day)
    # UTC+14 and UTC-11 are always on different calendar days
    assert today("Pacific/Kiritimati") != today("Pacific/Pago_Pago")
    assert run_folder(seeded) == run_folder(with_run_seed(recipe, day)[0])


def test_seed_still_pins_the_run_and_date_then_is_refused(tmp_path: Path) -> None:
    recipe = daily_recipe(tmp_path)
    folder = run(recipe, "--seed", "11")
    manifest = json.loads((folder / MANIFEST_FILE).read_text())
    assert manifest["seed"] == 11 and manifest["date"] is None
    assert folder.name.startswith("11-")
    refused = runner.invoke(app, ["run", str(recipe), "--seed", "11", "--date", "2026-11-23"])
    assert refused.exit_code == BAD_ARGUMENTS  # the CLI contract's code for a recipe error
    assert refused.output.startswith("Error: ") and "--date picks a daily seed" in refused.output
    with pytest.raises(RecipeError, match="seed is fixed at 11"):
        with_run_seed(with_overrides(load_recipe(recipe), seed=11), DAY)
