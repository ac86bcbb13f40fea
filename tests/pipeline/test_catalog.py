"""The catalog database with real processes: four books at once share no puzzle, a run killed or
failing before its PDF uses up none, a dead run's reservation is dropped, an old Parquet catalog
is imported once and its puzzles stay out of new books, damage is found by ``pipeline catalog
check`` and repaired by ``rebuild``, the export reads back, a planted link is refused, and a
resumed run redoes a chunk that is not its own."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.app import SOME_ROWS_BAD
from pipeline.catalog import (
    DATABASE,
    EXPORT_SCHEMA,
    RUN_LOCKS,
    SCHEMA_VERSION,
    Catalog,
    CatalogError,
)
from pipeline.cli import app
from pipeline.recipe import load_recipe
from pipeline.run import STATE_FILE, run_book, run_folder
from pipeline.store import CATALOG, CHUNKS, PUZZLES_FILE, read_rows
from tests.helpers import runner

ROOT = Path(__file__).resolve().parents[2]
OLD_CATALOG = ROOT / "tests" / "data" / "old_catalog"  # written by the Parquet catalog
PIPELINE = str(Path(sys.executable).parent / "pipeline")
TIMEOUT = 180  # seconds a subprocess run may take on a busy 2-core machine

BOOK = """
title = "{title}"
seed = {seed}
output = "{output}"
[parallel]
n_jobs = 1
chunk_size = 2
[print]
about = false
[[sections]]
title = "Classic"
size = {size}
tier = "easy"
count = {count}
layout = {layout}
"""


def book(
    folder: Path, title: str, seed: int = 11, count: int = 6, layout: int = 4, size: int = 9
) -> Path:
    """A one-section easy recipe in ``folder``, writing to ``folder/output``. Recipes that
    differ only in the title differ in run id but dig the very same puzzles."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{title.encode().hex()}.toml"
    output = folder / "output"
    text = BOOK.format(title=title, seed=seed, output=output, count=count, layout=layout, size=size)
    path.write_text(text)
    return path


def pipeline(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [PIPELINE, *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def book_ids(recipe: Path) -> set[str]:
    return {row["id"] for row in read_rows(run_folder(load_recipe(recipe)) / PUZZLES_FILE)}


def query(output: Path, sql: str, *args: object) -> list[tuple]:
    """Rows of ``sql`` read straight from the database, as any SQLite client would."""
    db = sqlite3.connect(output / DATABASE)
    try:
        return db.execute(sql, args).fetchall()
    finally:
        db.close()


def committed(output: Path) -> set[str]:
    """Ids of printed puzzles (reservations left out)."""
    if not (output / DATABASE).exists():
        return set()
    return {value for (value,) in query(output, "SELECT id FROM puzzles")}


def integrity(output: Path) -> list[tuple]:
    return query(output, "PRAGMA integrity_check")


def test_four_books_at_once_into_one_output_share_no_puzzle(tmp_path: Path) -> None:
    recipes = [book(tmp_path, f"Book {n}", size=6, count=4) for n in range(4)]
    assert len({load_recipe(r).sections for r in recipes}) == 1  # the same puzzles on offer
    runs = [pipeline("run", str(recipe), "--quiet") for recipe in recipes]
    for process in runs:
        _, stderr = process.communicate(timeout=TIMEOUT)
        assert process.returncode == 0, stderr
    books = [book_ids(recipe) for recipe in recipes]
    assert [len(ids) for ids in books] == [4, 4, 4, 4]
    assert len(set().union(*books)) == 16  # no id in two books
    counts = [
        json.loads((run_folder(load_recipe(r)) / "manifest.json").read_text())["counts"]
        for r in recipes
    ]  # the first to reserve kept its four; each other one saw them printed or reserved
    duplicates = sorted(c["duplicates"] for c in counts)
    assert duplicates[0] == 0 and min(duplicates[1:]) >= 4, counts
    output = tmp_path / "output"
    assert committed(output) == set().union(*books)
    assert integrity(output) == [("ok",)]
    assert query(output, "SELECT count(*) FROM reservations") == [(0,)]
    assert Catalog(output).check() == []


def test_a_held_reservation_keeps_other_runs_off_until_its_process_dies(tmp_path: Path) -> None:
    script = (
        "import sys, time\nfrom pipeline.catalog import Catalog\n"
        "assert Catalog(sys.argv[1]).reserve('run-a', ['aa', 'bb']) == set()\n"
        "print('reserved', flush=True)\ntime.sleep(60)\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline() == "reserved\n"
        other = Catalog(tmp_path)
        assert other.known_ids() == {"aa", "bb"}
        assert other.reserve("run-b", ["bb", "cc"]) == {"bb"}  # none of them reserved
        assert other.known_ids(exclude_run="run-a") == set()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    assert query(tmp_path, "SELECT id FROM reservations ORDER BY id") == [("aa",), ("bb",)]
    assert other.known_ids() == set()  # the dead run's reservation no longer counts
    assert not (tmp_path / RUN_LOCKS / "run-a.lock").exists()
    assert other.reserve("run-b", ["bb", "cc"]) == set()
    assert Catalog(tmp_path).known_ids() == {"bb", "cc"}
    other.release("run-b")
    assert Catalog(tmp_path).known_ids() == set() == committed(tmp_path)
    assert list((tmp_path / RUN_LOCKS).iterdir()) == []


def wait_for_stage(folder: Path, stage: str, process: subprocess.Popen[str]) -> None:
    """Poll the run's ``state.json`` until it names ``stage``."""
    deadline = time.monotonic() + TIMEOUT
    while process.poll() is None and time.monotonic() < deadline:
        try:
            if json.loads((folder / STATE_FILE).read_text())["stage"] == stage:
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.001)
    raise AssertionError(f"the run never reached {stage!r} (exit {process.poll()})")


def test_a_run_killed_after_reserving_uses_up_no_puzzle(tmp_path: Path) -> None:
    recipe = book(tmp_path, "Killed Book", count=12, layout=1)  # a page per puzzle: a slow PDF
    folder, output = run_folder(load_recipe(recipe)), tmp_path / "output"
    process = pipeline("run", str(recipe), "--quiet")
    wait_for_stage(folder, "render", process)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    assert process.returncode == -signal.SIGKILL
    chosen = book_ids(recipe)  # puzzles.parquet is written before the PDF
    assert len(chosen) == 12
    assert integrity(output) == [("ok",)]
    assert committed(output) == set()
    rid = folder.name
    assert set(query(output, "SELECT id, run_id FROM reservations")) == {(i, rid) for i in chosen}
    again = pipeline("run", str(recipe), "--quiet")
    stdout, stderr = again.communicate(timeout=TIMEOUT)
    assert again.returncode == 0, stderr
    assert "6 of 6 chunks resumed" in stdout
    assert committed(output) == chosen == book_ids(recipe)
    assert query(output, "SELECT count(*) FROM reservations") == [(0,)]
    assert integrity(output) == [("ok",)]


def test_a_book_whose_pdf_fails_gives_its_puzzles_back(tmp_path: Path) -> None:
    broken = book(tmp_path, "数独 Book")  # the built-in fonts have no CJK glyph
    process = pipeline("run", str(broken), "--quiet")
    _, stderr = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 2
    assert stderr.startswith("Error: ") and "cannot render the book" in stderr
    assert len(stderr.splitlines()) == 1
    output = tmp_path / "output"
    assert committed(output) == set() and Catalog(output).known_ids() == set()
    fixed = book(tmp_path, "Sudoku Book")  # another title: another run, the same puzzles
    done = pipeline("run", str(fixed), "--quiet")
    _, stderr = done.communicate(timeout=TIMEOUT)
    assert done.returncode == 0, stderr
    assert committed(output) == book_ids(fixed) == book_ids(broken)


def entry(value: str, size: int = 4) -> dict[str, object]:
    box_rows = 2 if size in (4, 6) else 3
    box_cols = size // box_rows
    shape = {"size": size, "box_rows": box_rows, "box_cols": box_cols, "tier": "easy"}
    return {"id": value, "canonical": f"form-{value}", **shape}


def test_commit_records_every_size_and_a_rerun_replaces_its_entries(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path)
    catalog.commit("run-a", "book", [entry("n1", 9), entry("n2", 9), entry("f1", 4)])
    assert catalog.known_ids() == {"n1", "n2", "f1"}
    assert catalog.known_ids(exclude_run="run-a") == set()
    sizes = "SELECT size, count(*) FROM puzzles GROUP BY size ORDER BY size"
    assert query(tmp_path, sizes) == [(4, 1), (9, 2)]
    catalog.commit("run-a", "book", [entry("s1", 6)])  # the same run again: its only entries
    assert Catalog(tmp_path).known_ids() == {"s1"}
    assert query(tmp_path, sizes) == [(6, 1)]
    assert query(tmp_path, "SELECT run_id, book FROM books") == [("run-a", "book")]


# the tables of a catalog before variants (PRAGMA user_version 1)
VERSION_1 = (
    "CREATE TABLE books (run_id TEXT PRIMARY KEY, book TEXT NOT NULL, printed TEXT NOT NULL)",
    """CREATE TABLE puzzles (
        id TEXT PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES books (run_id) ON DELETE CASCADE,
        box_rows INTEGER NOT NULL CHECK (box_rows > 0),
        box_cols INTEGER NOT NULL CHECK (box_cols > 0),
        size INTEGER NOT NULL CHECK (size = box_rows * box_cols),
        canonical TEXT NOT NULL,
        tier TEXT NOT NULL) WITHOUT ROWID""",
    "CREATE TABLE reservations (id TEXT PRIMARY KEY, run_id TEXT NOT NULL, reserved TEXT NOT NULL)",
    """CREATE TABLE imports (manifest_sha256 TEXT PRIMARY KEY, source TEXT NOT NULL,
        imported TEXT NOT NULL, books INTEGER NOT NULL, puzzles INTEGER NOT NULL)""",
    "INSERT INTO books VALUES ('old-run', 'old-book', '2024-01-01T00:00:00+00:00')",
    "INSERT INTO puzzles VALUES ('old1', 'old-run', 3, 3, 9, 'form-old1', 'easy')",
    "PRAGMA user_version = 1",
)


def test_a_catalog_from_before_variants_gains_their_columns(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / DATABASE)
    for statement in VERSION_1:
        db.execute(statement)
    db.commit()
    db.close()
    catalog = Catalog(tmp_path)
    assert catalog.known_ids() == {"old1"}
    jigsaw = entry("jig1", 6) | {"variant": "jigsaw", "regions": "1" * 6 + "2" * 6 + "3" * 24}
    catalog.commit("new-run", "new-book", [jigsaw, entry("x1", 9) | {"variant": "x"}])
    found = query(tmp_path, "SELECT id, variant, regions FROM puzzles ORDER BY id")
    assert found == [
        ("jig1", "jigsaw", jigsaw["regions"]),
        ("old1", "classic", None),
        ("x1", "x", None),
    ]
    assert query(tmp_path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    target = tmp_path / "export.parquet"
    assert catalog.export(target) == 3
    exported = {row["id"]: row["variant"] for row in pq.read_table(target).to_pylist()}
    assert exported == {"jig1": "jigsaw", "old1": "classic", "x1": "x"}


def test_commit_refuses_a_puzzle_another_run_holds(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path)
    catalog.commit("run-a", "book-a", [entry("aa")])
    assert catalog.reserve("run-b", ["bb"]) == set()
    with pytest.raises(CatalogError, match=r"book 'book-c' \(run run-c\) holds 2 puzzles.*aa, bb"):
        catalog.commit("run-c", "book-c", [entry("aa"), entry("bb"), entry("cc")])
    assert committed(tmp_path) == {"aa"}  # nothing of run-c was recorded
    catalog.release("run-b")


def test_an_old_catalog_is_imported_once_and_its_puzzles_stay_out(tmp_path: Path) -> None:
    output = shutil.copytree(OLD_CATALOG, tmp_path / "output")
    old = set(pq.read_table(output / CATALOG).column("id").to_pylist())
    assert len(old) == 8
    recipe = book(tmp_path, "New Book", seed=5, size=6, count=4)  # how the old book was dug
    first = pipeline("run", str(recipe), "--quiet")
    stdout, stderr = first.communicate(timeout=TIMEOUT)
    assert first.returncode == 0, stderr
    assert stderr == (
        f"{output / DATABASE}: imported the old catalog {output / CATALOG} "
        "(8 puzzles of 2 books); its files are left in place\n"
    )
    assert "4 duplicates replaced" in stdout  # the old book's four, dug again and refused
    assert not book_ids(recipe) & old
    assert committed(output) == old | book_ids(recipe)
    assert sorted(p.name for p in (output / CATALOG / "size=6").iterdir()) == [
        "5-c980d695d9.parquet",
        "6-17c5ff7dc2.parquet",
    ]
    assert (output / ".catalog" / "manifest.json").is_file()
    again = runner.invoke(app, ["run", str(book(tmp_path, "Newer Book", seed=5, size=6))])
    assert again.exit_code == 0 and "imported" not in again.stderr
    assert query(output, "SELECT books, puzzles FROM imports") == [(2, 8)]
    assert query(output, "SELECT DISTINCT variant, regions FROM puzzles") == [("classic", None)]


def test_catalog_import_reads_an_old_catalog_from_elsewhere_once(tmp_path: Path) -> None:
    output = tmp_path / "output"
    output.mkdir()
    command = ["catalog", "import", "-o", str(output), str(OLD_CATALOG)]
    done = runner.invoke(app, command)
    assert done.exit_code == 0, done.output
    assert done.stdout == f"{output / DATABASE}: imported 8 puzzles of 2 books from {OLD_CATALOG}\n"
    assert len(Catalog(output).known_ids()) == 8
    again = runner.invoke(app, command)
    assert again.exit_code == 0
    assert again.stdout == f"{OLD_CATALOG}: imported before; nothing to do\n"
    none = runner.invoke(app, ["catalog", "import", "-o", str(output), str(tmp_path)])
    assert none.exit_code == 2
    assert none.stderr == (
        f"Error: {tmp_path}/.catalog/manifest.json: missing; {tmp_path} holds no old catalog "
        "(its catalog/ and .catalog/manifest.json)\n"
    )


def test_a_damaged_old_catalog_stops_a_run_and_rebuild_salvages_it(tmp_path: Path) -> None:
    output = shutil.copytree(OLD_CATALOG, tmp_path / "output")
    edited = output / CATALOG / "size=6" / "6-17c5ff7dc2.parquet"
    edited.write_bytes(edited.read_bytes()[:-9])  # a truncated file
    refused = runner.invoke(app, ["run", str(book(tmp_path, "New Book", seed=5, size=6))])
    assert refused.exit_code == 2
    assert refused.stderr.startswith(f"Error: the catalog is damaged: {edited}: contents differ")
    rebuilt = runner.invoke(app, ["catalog", "rebuild", "-o", str(output)])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert rebuilt.stdout.startswith(f"dropped {edited}: ")
    assert "imported 4 puzzles of the old catalog" in rebuilt.stdout
    assert len(Catalog(output).known_ids()) == 4  # the readable file's; the other is lost
    assert runner.invoke(app, ["catalog", "check", "-o", str(output)]).exit_code == 0


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An output folder with one printed book (9x9) and one catalog entry whose run folder is
    gone (4x4), both committed."""
    folder = tmp_path_factory.mktemp("printed")
    run_book(load_recipe(book(folder, "Printed Book")))
    Catalog(folder / "output").commit("gone-run", "old-book", [entry("0123abcd")])
    return folder / "output"


def test_export_writes_the_printed_puzzles_to_parquet(printed: Path, tmp_path: Path) -> None:
    target = tmp_path / "printed.parquet"
    done = runner.invoke(app, ["catalog", "export", "-o", str(printed), str(target)])
    assert done.exit_code == 0, done.output
    assert done.stdout == f"{target}: 7 printed puzzles\n"
    table = pq.read_table(target)
    assert table.schema == EXPORT_SCHEMA
    rows = {row["id"]: row for row in table.to_pylist()}
    assert rows.keys() == Catalog(printed).known_ids()
    assert rows["0123abcd"]["book"] == "old-book" and rows["0123abcd"]["size"] == 4
    assert {row["book"] for row in rows.values()} == {"old-book", "printed-book"}
    assert [p.name for p in tmp_path.iterdir()] == ["printed.parquet"]  # no temporary left


def forget_book(output: Path) -> str:
    db = sqlite3.connect(output / DATABASE)
    with db:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("DELETE FROM books WHERE run_id != 'gone-run'")
    db.close()
    return "a printed book (run 11-"


def deleted_database(output: Path) -> str:
    (output / DATABASE).unlink()
    return "a printed book (run 11-"


def forget_one_puzzle(output: Path) -> str:
    db = sqlite3.connect(output / DATABASE)
    with db:
        db.execute("DELETE FROM puzzles WHERE id = (SELECT max(id) FROM puzzles WHERE size = 9)")
    db.close()
    return "whose ids are not in the catalog (1 of 6 missing)"


@pytest.mark.parametrize("damage", [forget_book, deleted_database, forget_one_puzzle])
def test_check_finds_a_printed_book_missing_and_rebuild_restores_it(
    damage, printed: Path, tmp_path: Path
) -> None:
    output = shutil.copytree(printed, tmp_path / "output", symlinks=True)
    before = Catalog(output).known_ids()
    assert runner.invoke(app, ["catalog", "check", "-o", str(output)]).exit_code == 0
    fault = damage(output)
    checked = runner.invoke(app, ["catalog", "check", "-o", str(output)])
    assert checked.exit_code == SOME_ROWS_BAD
    assert any(fault in line for line in checked.stdout.splitlines()), checked.stdout
    assert checked.stderr.startswith("Error: ") and "pipeline catalog rebuild" in checked.stderr
    if damage is not forget_one_puzzle:  # a run checks that each printed book is recorded
        refused = runner.invoke(app, ["run", str(book(tmp_path, "Next Book")), "--quiet"])
        assert refused.exit_code == 2 and len(refused.stderr.splitlines()) == 1
        assert refused.stderr.startswith("Error: the catalog is damaged: ")
        assert f"`pipeline catalog rebuild -o {output}`" in refused.stderr
    rebuilt = runner.invoke(app, ["catalog", "rebuild", "-o", str(output)])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert runner.invoke(app, ["catalog", "check", "-o", str(output)]).exit_code == 0
    lost = {"0123abcd"} if damage is deleted_database else set()  # its run folder is gone
    assert Catalog(output).known_ids() == before - lost
    nxt = run_book(load_recipe(book(tmp_path, "Next Book")))  # same seed: must avoid them all
    assert not {row["id"] for row in nxt.rows} & before


def test_a_rebuild_stopped_half_way_changes_nothing(
    printed: Path, tmp_path: Path, monkeypatch
) -> None:
    output = shutil.copytree(printed, tmp_path / "output", symlinks=True)
    forget_book(output)
    before = query(output, "SELECT * FROM puzzles ORDER BY id")
    record = Catalog._record

    def killed(self, db, *args):
        record(self, db, *args)
        raise KeyboardInterrupt  # as Ctrl-C after the first book was written

    monkeypatch.setattr(Catalog, "_record", killed)
    with pytest.raises(KeyboardInterrupt):
        Catalog(output).rebuild()
    assert query(output, "SELECT * FROM puzzles ORDER BY id") == before


@pytest.mark.parametrize("problem", ["garbage", "version"])
def test_a_database_rebuild_cannot_use_is_named_and_moved_aside(
    problem: str, printed: Path, tmp_path: Path
) -> None:
    output = shutil.copytree(printed, tmp_path / "output", symlinks=True)
    database = output / DATABASE
    if problem == "garbage":
        database.write_bytes(b"not a database at all" * 100)
        fault = f"{database}: file is not a database"
    else:
        query(output, "PRAGMA user_version = 7")
        fault = f"{database}: schema version 7, this pipeline reads {SCHEMA_VERSION}"
    checked = runner.invoke(app, ["catalog", "check", "-o", str(output)])
    assert checked.exit_code == SOME_ROWS_BAD and checked.stdout == f"{fault}\n"
    rebuilt = runner.invoke(app, ["catalog", "rebuild", "-o", str(output)])
    assert rebuilt.exit_code == 2
    assert rebuilt.stderr.startswith(f"Error: {fault}; rebuild repairs the database in place")
    database.rename(output / "catalog.sqlite.damaged")
    assert runner.invoke(app, ["catalog", "rebuild", "-o", str(output)]).exit_code == 0
    assert runner.invoke(app, ["catalog", "check", "-o", str(output)]).exit_code == 0


@pytest.mark.parametrize("name", [DATABASE, f"{DATABASE}-wal", f"{DATABASE}-shm"])
def test_a_link_at_the_database_paths_is_refused(name: str, tmp_path: Path) -> None:
    output = tmp_path / "output"
    output.mkdir()
    target = tmp_path / "elsewhere"
    target.write_bytes(b"precious")
    (output / name).symlink_to(target)
    with pytest.raises(CatalogError, match=f"{output / name}: is a symbolic link"):
        Catalog(output).known_ids()
    assert [p.name for p in output.iterdir()] == [name]  # nothing made beside it either
    refused = runner.invoke(app, ["run", str(book(tmp_path, "Linked Book")), "--quiet"])
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"Error: {output / name}: is a symbolic link; the catalog is never written through "
        "one: remove it and try again\n"
    )
    assert target.read_bytes() == b"precious" and (output / name).is_symlink()


def retag(path: Path, **changes: str) -> None:
    """Rewrite a chunk file with some of its recorded provenance changed."""
    table = pq.read_table(path)
    meta = {**table.schema.metadata, **{f"sudoku.{k}".encode(): v for k, v in changes.items()}}
    pq.write_table(table.replace_schema_metadata(meta), path)


def test_a_resumed_run_redoes_chunks_that_are_not_its_own(tmp_path: Path) -> None:
    recipe = book(tmp_path, "Resumed Book", count=8)
    clean = run_book(load_recipe(recipe))
    pdf = clean.folder / "resumed-book.pdf"
    printed = pdf.read_bytes()
    chunks = clean.folder / CHUNKS
    shutil.copy(chunks / "s000-c00002.parquet", chunks / "s000-c00000.parquet")  # other chunk
    retag(chunks / "s000-c00001.parquet", generator="0.0.1+older")
    retag(chunks / "s000-c00003.parquet", section="1", chunk="0")  # from another section
    for made in (pdf, clean.folder / PUZZLES_FILE):
        made.unlink()
    result = runner.invoke(app, ["run", str(recipe), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "1 of 4 chunks resumed, 3 stored chunks made again" in result.stdout
    assert "1 chunk differs" in result.stdout and "1 generator differs" in result.stdout
    manifest = json.loads((clean.folder / "manifest.json").read_text())
    assert manifest["chunks_redone"] == {
        "chunk differs": 1,
        "generator differs": 1,
        "section differs": 1,
    }
    assert pdf.read_bytes() == printed
    assert [row["id"] for row in read_rows(clean.folder / PUZZLES_FILE)] == [
        row["id"] for row in clean.rows
    ]


COLOSSAL = """
title = "{title}"
seed = 36
output = "{output}"
[print]
about = false
trim = {{ width = 8.5, height = 11 }}
[[sections]]
title = "Colossal"
size = 36
tier = "easy"
count = 2
minimal = false
layout = 1
"""


def test_a_36x36_book_is_deduplicated_like_any_other(tmp_path: Path) -> None:
    """The canonical form reaches 36x36 (a graph labelling past 25x25): a second book from the
    same seed digs the first one's puzzles again, and the catalog refuses them."""
    recipes, said = [], []
    for title in ("Colossal One", "Colossal Two"):
        recipe = tmp_path / f"{title.split()[1]}.toml"
        recipe.write_text(COLOSSAL.format(title=title, output=tmp_path / "output"))
        recipes.append(recipe)
        result = runner.invoke(app, ["run", str(recipe)])
        assert result.exit_code == 0, result.stderr
        said.append(result.stdout)
    assert "0 duplicates replaced" in said[0] and "2 duplicates replaced" in said[1]
    first, second = (book_ids(recipe) for recipe in recipes)
    assert len(first) == len(second) == 2 and not first & second
    assert committed(tmp_path / "output") == first | second
