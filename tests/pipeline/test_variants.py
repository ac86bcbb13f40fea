"""Variant books through the pipeline: a recipe of Sudoku-X, Windoku, Jigsaw and Jigsaw-X sections
run end to end through the CLI, every puzzle checked against its variant's rules by a SAT solver
of the test's own (one solution, the stored one; every unit; each Jigsaw region n connected
cells); the same puzzles from one worker or two; Jigsaw grids generated and dug; and the
catalog, whose keys carry the variant (a disguised copy is caught, an X puzzle and a classic
one with the same givens are two entries)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from engine.geometry import SYMBOLS
from pipeline.catalog import DATABASE, Catalog
from pipeline.parallel import UntrustedResult
from pipeline.recheck import check_dug
from pipeline.recipe import load_recipe, with_overrides
from pipeline.run import run_book
from pipeline.store import PUZZLES_FILE, puzzle_id, read_rows
from pipeline.tasks import Chunk, DigJob, section_tiers
from pipeline.variants import canonical_keys, row_geometry
from tests.helpers import (
    content,
    in_one_piece,
    invoke,
    one_error_line,
    variant_recipe,
)
from tests.variant_rules import obeys, rule_units, sat_solutions

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
SECTION_VARIANTS = ["x"] * 2 + ["windoku"] + ["jigsaw"] * 3 + ["jigsaw+x"]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The variant recipe run once through the CLI: (recipe, run folder)."""
    recipe = variant_recipe(tmp_path_factory.mktemp("variants"))
    code, stdout, stderr = invoke("run", recipe, "--quiet")
    assert code == 0, stderr
    folders = list((recipe.parent / "output" / "variant-test").iterdir())
    assert len(folders) == 1 and str(folders[0]) in stdout
    return recipe, folders[0]


def test_the_shipped_variant_book_runs_end_to_end(tmp_path: Path) -> None:
    code, stdout, stderr = invoke("run", CONFIGS / "variants.toml", "-o", tmp_path, "--quiet")
    assert code == 0, stderr
    (folder,) = (tmp_path / "sudoku-variants").iterdir()
    rows = read_rows(folder / PUZZLES_FILE)
    assert {row["variant"] for row in rows} == {"x", "windoku", "jigsaw", "jigsaw+x"}
    assert all(solutions(row, row["givens"]) == [row["solution"]] for row in rows)
    assert (folder / "sudoku-variants.pdf").is_file() and str(folder) in stdout


def cells(text: str) -> np.ndarray:
    """A grid's values read from its text (0 for a blank) without the engine's parser."""
    return np.array([0 if symbol == "." else SYMBOLS.index(symbol) + 1 for symbol in text])


def solutions(row: dict, text: str) -> list[str]:
    """Up to two solutions of ``text`` under the row's rules, by the SAT count of
    tests/variant_rules.py (its units written out from the rules, not the engine's table)."""
    found = sat_solutions(row_geometry(row), cells(text))
    return ["".join(SYMBOLS[v - 1] for v in grid) for grid in found]


def obeys_every_unit(row: dict, text: str) -> bool:
    """No symbol twice in any unit of the row's rules (blanks aside)."""
    return obeys(row_geometry(row), cells(text))


def check_regions(row: dict) -> None:
    """A Jigsaw row's layout is n regions of n connected cells; other rows have none."""
    n = row["size"]
    if "jigsaw" not in row["variant"]:
        assert row["regions"] is None
        return
    layout = row["regions"]
    assert len(layout) == n * n and set(layout) == set(SYMBOLS[:n])
    for name in SYMBOLS[:n]:
        cells = [c for c in range(n * n) if layout[c] == name]
        assert len(cells) == n and in_one_piece(cells, n), (name, layout)


def test_a_variant_book_is_made_and_every_puzzle_has_one_solution_under_its_rules(book) -> None:
    _, folder = book
    schema = pq.read_schema(folder / PUZZLES_FILE)
    assert schema.field("variant").type == pa.string() and not schema.field("variant").nullable
    assert schema.field("regions").type == pa.string()
    rows = read_rows(folder / PUZZLES_FILE)
    assert [row["variant"] for row in rows] == SECTION_VARIANTS
    for row in rows:
        check_regions(row)
        solution, givens = row["solution"], row["givens"]
        assert solutions(row, givens) == [solution], row["id"]
        assert obeys_every_unit(row, givens) and "." not in solution
        assert all(
            sorted(solution[c] for c in unit) == sorted(SYMBOLS[: row["size"]])
            for unit in rule_units(row_geometry(row))
        )
        assert all(g in (".", s) for g, s in zip(givens, solution, strict=True))
    layouts = [row["regions"] for row in rows if row["regions"]]
    assert len(set(layouts)) == len(layouts) == 4  # each Jigsaw puzzle has a layout of its own
    code, stdout, _ = invoke("verify", folder)
    assert code == 0 and "7 puzzles verified" in stdout
    assert (folder / "variant-test.pdf").stat().st_size > 0


def test_ids_hash_the_variant_key_and_the_catalog_records_the_variant(book) -> None:
    recipe, folder = book
    rows = read_rows(folder / PUZZLES_FILE)
    keys = canonical_keys([(row["givens"], row_geometry(row)) for row in rows])
    for row, key in zip(rows, keys, strict=True):
        assert row["canonical"] == key and key.startswith(f"{row['variant']}:")
        assert row["id"] == puzzle_id(row["box_rows"], row["box_cols"], key)
    with sqlite3.connect(recipe.parent / "output" / DATABASE) as db:
        found = dict(db.execute("SELECT id, variant FROM puzzles"))
        layouts = dict(db.execute("SELECT id, regions FROM puzzles"))
    assert found == {row["id"]: row["variant"] for row in rows}
    assert layouts == {row["id"]: row["regions"] for row in rows}


def test_one_and_two_workers_make_the_same_variant_puzzles(book, monkeypatch) -> None:
    recipe, folder = book
    monkeypatch.setattr("pipeline.parallel.WORKER_START", 0.0)  # the pool takes the chunks
    twice = with_overrides(load_recipe(recipe), n_jobs=2, output=recipe.parent / "two")
    assert content(run_book(twice).rows) == content(read_rows(folder / PUZZLES_FILE))


def test_a_worker_row_off_its_variants_rules_is_refused(book) -> None:
    recipe, folder = book
    spec = load_recipe(recipe)
    rows = read_rows(folder / PUZZLES_FILE)

    def job(section: int) -> DigJob:
        tiers = section_tiers(spec.sections[section], spec.tiers)
        chunk = Chunk(section, 0, 2)
        return DigJob(chunk, spec.sections[section], spec.seed, rows[0]["run_id"], tiers)

    x, jigsaw = rows[0:2], rows[3:5]
    check_dug(job(0), x)
    check_dug(job(2), jigsaw)
    layout = jigsaw[0]["regions"]
    assert layout[0] != layout[-1]
    pieces = layout[-1] + layout[1:-1] + layout[0]  # two far corners swap regions
    refused = [
        (job(0), [{**x[0], "variant": "classic"}, x[1]], "variant is 'classic', the task"),
        (job(0), [{**x[0], "regions": layout}, x[1]], "item 0: regions is"),
        (job(2), [jigsaw[0], {**jigsaw[1], "regions": None}], "item 1: the regions are not"),
        (job(2), [{**jigsaw[0], "regions": pieces}, jigsaw[1]], "is not connected"),
    ]
    for task, forged, message in refused:
        with pytest.raises(UntrustedResult, match=message):
            check_dug(task, forged)


def disguised(row: dict, rng: np.random.Generator) -> str:
    """A copy of a Jigsaw puzzle no one would know: transposed (its layout too) and relabelled;
    the commit of a catalog row needs only its id."""
    n = row["size"]
    geo = row_geometry(row)
    givens = np.array(list(row["givens"])).reshape(n, n).T.reshape(-1)
    layout = "".join(np.array(list(row["regions"])).reshape(n, n).T.reshape(-1))
    labels = dict(zip(SYMBOLS[:n], rng.permutation(list(SYMBOLS[:n])), strict=True))
    text = "".join(labels.get(symbol, ".") for symbol in givens)
    turned = geo.with_variant(geo.variant, layout)
    (key,) = canonical_keys([(text, turned)])
    assert text != row["givens"] and layout != row["regions"]
    return puzzle_id(geo.box_rows, geo.box_cols, key)


def test_a_disguised_jigsaw_from_an_earlier_book_is_replaced(book, tmp_path: Path) -> None:
    recipe, folder = book
    first = read_rows(folder / PUZZLES_FILE)
    victim = first[3]  # the first Jigsaw
    copy = disguised(victim, np.random.default_rng(4))
    assert copy == victim["id"]  # the same puzzle under its rules: the same id
    elsewhere = with_overrides(load_recipe(recipe), output=tmp_path / "night2")
    entry = {key: victim[key] for key in ("size", "box_rows", "box_cols", "variant", "regions")}
    entry |= {"id": copy, "canonical": victim["canonical"], "tier": "easy"}
    Catalog(elsewhere.output).commit("earlier-night", "another-book", [entry])
    second = run_book(elsewhere)
    ids = [row["id"] for row in second.rows]
    assert victim["id"] not in ids and len(set(ids)) == len(first)
    assert second.manifest["counts"]["duplicates"] >= 1


def test_an_x_puzzle_and_a_classic_one_with_the_same_givens_are_two_entries(
    book, tmp_path: Path
) -> None:
    _, folder = book
    x = read_rows(folder / PUZZLES_FILE)[0]
    classic = {**x, "variant": "classic", "regions": None}
    (key,) = canonical_keys([(x["givens"], row_geometry(classic))])
    classic |= {"canonical": key, "id": puzzle_id(x["box_rows"], x["box_cols"], key)}
    assert classic["id"] != x["id"]
    catalog = Catalog(tmp_path / "output")
    catalog.commit("a-run", "a-book", [x, classic])
    assert catalog.known_ids() == {x["id"], classic["id"]}


def test_jigsaw_grids_are_generated_each_on_its_layout_and_dug(tmp_path: Path) -> None:
    grids, dug = tmp_path / "grids.parquet", tmp_path / "dug.parquet"
    made = invoke("generate", "-o", grids, "-n", 3, "--size", 6, "--variant", "jigsaw", "-j", 1)
    assert made.code == 0, made.stderr
    rows = read_rows(grids)
    assert {row["variant"] for row in rows} == {"jigsaw"} and len({r["regions"] for r in rows}) == 3
    for row in rows:
        check_regions(row)
        assert obeys_every_unit(row, row["solution"])
    code, _, stderr = invoke("dig", grids, "-o", dug, "--tier", "easy", "-j", 1, "-q")
    assert code == 0, stderr
    for grid, puzzle in zip(rows, read_rows(dug), strict=True):
        assert (puzzle["variant"], puzzle["regions"]) == ("jigsaw", grid["regions"])
        assert solutions(puzzle, puzzle["givens"]) == [grid["solution"]]


def test_x_grids_are_the_same_from_one_or_two_workers(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("pipeline.parallel.WORKER_START", 0.0)
    files = []
    for jobs in (1, 2):
        path = tmp_path / f"x{jobs}.parquet"
        made = invoke("generate", "-o", path, "-n", 60, "--variant", "x", "-j", jobs, "-q")
        assert made.code == 0, made.stderr
        files.append([{k: v for k, v in r.items() if k != "created"} for r in read_rows(path)])
    assert files[0] == files[1] and all(obeys_every_unit(r, r["solution"]) for r in files[0])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("--variant", "windoku", "--size", "6"), "--variant: windoku is a 9x9 variant, not 6x6"),
        (("--variant", "jigsaw", "--box", "3x3"), "--box: a jigsaw grid's regions replace"),
        (("--variant", "x+zz"), "--variant: unknown variant 'x+zz'"),
    ],
)
def test_generate_refuses_a_variant_its_grid_cannot_have(
    options: tuple[str, ...], message: str, tmp_path: Path
) -> None:
    code, _, stderr = invoke("generate", "-o", tmp_path / "g.parquet", *options)
    assert code == 2 and message in one_error_line(stderr)
