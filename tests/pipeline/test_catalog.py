"""The catalog as a transaction, with real processes: two books at once share no puzzle, a run
killed or failing before its PDF uses up none, a dead run's reservation is dropped, damage is
found by ``pipeline catalog check`` and repaired by ``rebuild``, and a resumed run redoes a chunk
that is not its own."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.app import SOME_ROWS_BAD
from pipeline.catalog import Catalog
from pipeline.cli import app
from pipeline.recipe import load_recipe
from pipeline.run import STATE_FILE, run_book, run_folder
from pipeline.store import CATALOG, CHUNKS, PUZZLES_FILE, read_rows

ROOT = Path(__file__).resolve().parents[2]
PIPELINE = str(Path(sys.executable).parent / "pipeline")
TIMEOUT = 120  # seconds a subprocess run may take on a busy 2-core machine
runner = CliRunner()

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
size = 9
tier = "easy"
count = {count}
layout = {layout}
"""


def book(folder: Path, title: str, seed: int = 11, count: int = 6, layout: int = 4) -> Path:
    """A one-section 9x9 easy recipe in ``folder``, writing to ``folder/output``. Recipes that
    differ only in the title differ in run id but dig the very same puzzles."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{title.encode().hex()}.toml"
    output = folder / "output"
    path.write_text(BOOK.format(title=title, seed=seed, output=output, count=count, layout=layout))
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


def committed(output: Path) -> set[str]:
    """Ids in the catalog's files (committed ones only), read as a plain Parquet dataset."""
    if not (output / CATALOG).is_dir():
        return set()
    return set(pq.read_table(output / CATALOG).column("id").to_pylist())


def test_two_books_at_once_into_one_output_share_no_puzzle(tmp_path: Path) -> None:
    one, two = book(tmp_path, "Book One"), book(tmp_path, "Book Two")
    assert load_recipe(one).sections == load_recipe(two).sections  # the same puzzles on offer
    runs = [pipeline("run", str(recipe), "--quiet") for recipe in (one, two)]
    for process in runs:
        _, stderr = process.communicate(timeout=TIMEOUT)
        assert process.returncode == 0, stderr
    ids_one, ids_two = book_ids(one), book_ids(two)
    assert len(ids_one) == len(ids_two) == 6
    assert not ids_one & ids_two
    counts = [
        json.loads((run_folder(load_recipe(r)) / "manifest.json").read_text())["counts"]
        for r in (one, two)
    ]  # the later book replaced all six, seen as printed or, while both ran, as reserved
    assert sorted(c["duplicates"] for c in counts) == [0, 6]
    output = tmp_path / "output"
    assert committed(output) == ids_one | ids_two
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
    assert other.known_ids() == set()  # the dead run's reservation no longer counts
    assert other.reserve("run-b", ["bb", "cc"]) == set()
    assert Catalog(tmp_path).known_ids() == {"bb", "cc"}
    other.release("run-b")
    assert Catalog(tmp_path).known_ids() == set() == committed(tmp_path)


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


def test_a_run_killed_while_printing_uses_up_no_puzzle(tmp_path: Path) -> None:
    recipe = book(tmp_path, "Killed Book", count=12, layout=1)  # a page per puzzle: a slow PDF
    folder, output = run_folder(load_recipe(recipe)), tmp_path / "output"
    process = pipeline("run", str(recipe), "--quiet")
    wait_for_stage(folder, "render", process)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    assert process.returncode == -signal.SIGKILL
    chosen = book_ids(recipe)  # puzzles.parquet is written before the PDF
    assert len(chosen) == 12
    assert committed(output) == set()
    assert Catalog(output).known_ids() == set()  # nor held by the dead run's reservation
    again = pipeline("run", str(recipe), "--quiet")
    stdout, stderr = again.communicate(timeout=TIMEOUT)
    assert again.returncode == 0, stderr
    assert "6 of 6 chunks resumed" in stdout
    assert committed(output) == chosen == book_ids(recipe)


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


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An output folder with one printed book (9x9) and one catalog entry whose run folder is
    gone (4x4), both committed."""
    folder = tmp_path_factory.mktemp("printed")
    run_book(load_recipe(book(folder, "Printed Book")))
    gone = {"size": 4, "box_rows": 2, "box_cols": 2, "canonical": "1234", "tier": "easy"}
    Catalog(folder / "output").commit("gone-run", "old-book", [{"id": "0123abcd", **gone}])
    return folder / "output"


def wrong_type(output: Path) -> str:
    path = next((output / CATALOG / "size=9").glob("*.parquet"))
    table = pq.read_table(path)
    column = table.schema.get_field_index("box_rows")
    pq.write_table(table.set_column(column, "box_rows", table["box_rows"].cast(pa.int64())), path)
    return f"{path}: column 'box_rows' is int64, not int32"


def deleted_file(output: Path) -> str:
    path = output / CATALOG / "size=4" / "gone-run.parquet"
    path.unlink()
    return f"{path}: missing (the manifest lists it with 1 ids)"


def renamed_partition(output: Path) -> str:
    (output / CATALOG / "size=9").rename(output / CATALOG / "size=8")
    return f"{next((output / CATALOG / 'size=8').glob('*.parquet'))}: not in the manifest"


def deleted_catalog(output: Path) -> str:
    shutil.rmtree(output / CATALOG)
    shutil.rmtree(output / ".catalog")
    return "a printed book (run 11-"


@pytest.mark.parametrize("damage", [wrong_type, deleted_file, renamed_partition, deleted_catalog])
def test_check_names_the_damage_and_rebuild_repairs_it(damage, printed: Path, tmp_path) -> None:
    output = shutil.copytree(printed, tmp_path / "output", symlinks=True)
    before = Catalog(output).known_ids()
    assert runner.invoke(app, ["catalog", "check", "-o", str(output)]).exit_code == 0
    fault = damage(output)
    checked = runner.invoke(app, ["catalog", "check", "-o", str(output)])
    assert checked.exit_code == SOME_ROWS_BAD
    assert any(fault in line for line in checked.stdout.splitlines()), checked.stdout
    assert checked.stderr.startswith("Error: ") and "pipeline catalog rebuild" in checked.stderr
    refused = runner.invoke(app, ["run", str(book(tmp_path, "Next Book")), "--quiet"])
    assert refused.exit_code == 2 and len(refused.stderr.splitlines()) == 1
    assert refused.stderr.startswith("Error: the catalog is damaged: ")
    assert f"`pipeline catalog rebuild -o {output}`" in refused.stderr
    rebuilt = runner.invoke(app, ["catalog", "rebuild", "-o", str(output)])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert runner.invoke(app, ["catalog", "check", "-o", str(output)]).exit_code == 0
    book_rows = before - {"0123abcd"}  # what the printed book's run folder restores
    lost = {"0123abcd"} if damage in (deleted_file, deleted_catalog) else set()
    assert Catalog(output).known_ids() == before - lost
    assert book_rows <= committed(output)
    nxt = run_book(load_recipe(book(tmp_path, "Next Book")))  # same seed: must avoid them all
    assert not {row["id"] for row in nxt.rows} & before
