"""How inputs are read and how commands fail: real pipes, process substitution and FIFOs read
once and whole, a truncated gzip read up to its break, bounded memory on huge lines, headerless
CSV, exit code 3 with a saved traceback, seeds in range, outputs that cannot be written, and
recipes checked when read."""

from __future__ import annotations

import gzip
import os
import resource
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import pipeline.grade
from pipeline.app import INTERNAL_ERROR, TRACEBACK_PREFIX
from pipeline.cli import app
from pipeline.formats import FormatError, read_puzzles
from pipeline.formats.sources import MAX_LINE_CHARS, SNIFF_BYTES
from pipeline.recipe import RecipeError, load_recipe
from pipeline.recipe_schema import MAX_SEED
from tests.helpers import (
    CLASH,
    SOLUTION,
    UNIQUE,
    invoke,
    runner,
)

PROJECT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).with_name("pipeline")
FILE_LIMIT = 2048  # bytes a process may write to one file, in the full-disk test
#: More lines than fit in the sniffed head: a second open of a pipe would lose the first ones.
MANY = SNIFF_BYTES // (len(UNIQUE) + 1) * 2


def big_text() -> bytes:
    """MANY lines, every 50th a clash, so the rows can be told apart by line number."""
    return "".join(f"{CLASH if i % 50 == 0 else UNIQUE}\n" for i in range(MANY)).encode()


def rows_of(*sources: str | Path, **options) -> list:
    return [row for chunk in read_puzzles(list(sources), **options) for row in chunk]


def write_later(target: str | Path | int, data: bytes) -> threading.Thread:
    """A thread that opens ``target`` (a path, or a file descriptor it then owns) for writing
    (a FIFO: blocks until the reader opens it) and writes ``data``."""

    def write() -> None:
        with open(target, "wb") as handle:
            handle.write(data)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def check_every_line(rows: list) -> None:
    assert [row.line for row in rows] == list(range(1, MANY + 1))
    assert [row.ok for row in rows] == [i % 50 != 0 for i in range(MANY)]


def test_a_pipe_by_its_dev_fd_name_is_read_whole() -> None:
    reader, writer = os.pipe()
    try:
        thread = write_later(writer, big_text())
        check_every_line(rows_of(f"/dev/fd/{reader}"))
        thread.join(10)
    finally:
        os.close(reader)


def test_a_named_fifo_is_read_whole(tmp_path: Path) -> None:
    fifo = tmp_path / "puzzles.fifo"
    os.mkfifo(fifo)
    thread = write_later(fifo, big_text())
    check_every_line(rows_of(fifo))
    thread.join(10)


def test_fifos_written_one_after_the_other_do_not_deadlock(tmp_path: Path) -> None:
    """A writer filling FIFO a then FIFO b: b is opened only when a is done."""
    first, second = tmp_path / "a.fifo", tmp_path / "b.fifo"
    os.mkfifo(first)
    os.mkfifo(second)

    def write_both() -> None:
        for path in (first, second):
            with open(path, "wb") as handle:
                handle.write(big_text())

    thread = threading.Thread(target=write_both, daemon=True)
    thread.start()
    rows = rows_of(first, second)
    thread.join(10)
    assert [row.source for row in rows] == [str(first)] * MANY + [str(second)] * MANY


@pytest.mark.skipif(not SCRIPT.exists(), reason="the installed pipeline script is needed")
def test_grade_of_process_substitution_and_fifo_in_a_real_shell(tmp_path: Path) -> None:
    source = tmp_path / "big.txt"
    source.write_bytes(big_text())
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    script = (
        f"{SCRIPT} grade -q -j 1 <(cat {source}) -o {tmp_path}/sub.parquet; echo $? > "
        f"{tmp_path}/sub.code; cat {source} > {fifo} & "
        f"{SCRIPT} grade -q -j 1 {fifo} -o {tmp_path}/fifo.parquet; echo $? > {tmp_path}/fifo.code"
    )
    subprocess.run(["bash", "-c", script], cwd=PROJECT, timeout=300, capture_output=True)
    for name in ("sub", "fifo"):
        assert (tmp_path / f"{name}.code").read_text().strip() == "1"  # the clash rows
        table = pq.read_table(tmp_path / f"{name}.parquet")
        assert table.column("line").to_pylist() == list(range(1, MANY + 1))
        statuses = table.column("status").to_pylist()
        assert statuses == ["invalid" if i % 50 == 0 else "ok" for i in range(MANY)]


def readable_lines(data: bytes) -> int:
    """Complete lines in the part of a cut gzip that zlib itself can decompress."""
    return zlib.decompressobj(wbits=31).decompress(data).count(b"\n")


@pytest.mark.parametrize("fraction", [0.1, 0.5, 0.9])
def test_truncated_gzip_yields_every_readable_row_then_one_error(
    tmp_path: Path, fraction: float
) -> None:
    data = gzip.compress(big_text() * 4)
    cut = data[: int(len(data) * fraction)]
    path = tmp_path / "cut.txt.gz"
    path.write_bytes(cut)
    rows = rows_of(path)
    complete = readable_lines(cut)
    assert complete > 0
    assert [row.line for row in rows] == list(range(1, complete + 2))
    assert all(row.ok == (i % MANY % 50 != 0) for i, row in enumerate(rows[:-1]))
    assert rows[-1].line == complete + 1 and "cannot read past line" in rows[-1].reason


def test_headerless_csv_reads_its_first_row_as_a_puzzle(tmp_path: Path) -> None:
    path = tmp_path / "plain.txt"
    path.write_text(f"{UNIQUE},{SOLUTION}\n{CLASH},x\n")
    rows = rows_of(path, fmt="csv")
    assert [(row.line, row.ok) for row in rows] == [(1, True), (2, False)]
    assert rows[0].extra == {"field2": SOLUTION}
    with pytest.raises(FormatError, match=r"--column 'quizzes' needs a header row.*line 1"):
        read_puzzles([path], fmt="csv", column="quizzes")


def test_a_title_line_with_a_semicolon_does_not_make_a_table(tmp_path: Path) -> None:
    path = tmp_path / "club.txt"
    path.write_text(f"Puzzles from the club; week 3\n{UNIQUE} 3.4\n{UNIQUE}\n")
    rows = rows_of(path)
    assert [(row.line, row.ok) for row in rows] == [(1, False), (2, True), (3, True)]
    assert rows[1].extra == {"rating": "3.4"}
    table = tmp_path / "table.txt"
    table.write_text(f"id,puzzle\n1,{UNIQUE}\n")
    assert [(row.line, row.ok, row.extra) for row in rows_of(table)] == [(2, True, {"id": "1"})]


def test_huge_lines_are_error_rows_read_in_bounded_memory(tmp_path: Path) -> None:
    """300 lines of a million characters: each one error row, and the reader's peak memory far
    below the 300 MB the lines would take if any were held whole for long."""
    path = tmp_path / "huge.txt"
    line = b"1" * 1_000_000 + b"\n"
    with path.open("wb") as handle:
        handle.write(UNIQUE.encode() + b"\n")
        for _ in range(300):
            handle.write(line)
    code = (  # VmHWM: this process's peak (ru_maxrss would carry pytest's over from the fork)
        "import re, sys; from pipeline.formats import read_puzzles; "
        "rows = [r for c in read_puzzles([sys.argv[1]]) for r in c]; "
        "peak = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1); "
        "print(len(rows), sum(r.ok for r in rows), rows[-1].reason, int(peak) // 1024)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[:2] == ["301", "1"]
    assert f"line 301 has 1000000 characters; a line may have {MAX_LINE_CHARS}" in " ".join(out)
    assert int(out[-1]) < 250, f"peak {out[-1]} MB"


def test_an_internal_error_exits_3_and_saves_its_traceback(tmp_path: Path, monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("the grader broke")

    monkeypatch.setattr(pipeline.grade, "grade_files", broken)
    source = tmp_path / "p.txt"
    source.write_text(UNIQUE + "\n")
    code, _, stderr = invoke("grade", source, "-q")
    assert code == INTERNAL_ERROR == 3
    (line,) = stderr.strip().splitlines()
    assert line.startswith("Error: internal error (RuntimeError: the grader broke)")
    saved = Path(line.split("the full traceback is in ")[1].split(";")[0])
    assert saved.name.startswith(TRACEBACK_PREFIX)
    text = saved.read_text()
    assert f"pipeline grade {source} -q" in text and "Traceback" in text and "in broken" in text
    saved.unlink()


@pytest.mark.parametrize("command", ["generate", "dig", "run"])
def test_seeds_beyond_int64_are_refused_naming_the_option(tmp_path: Path, command: str) -> None:
    existing = tmp_path / "in.toml"
    existing.write_text("")
    args = {
        "generate": ["generate", "-o", tmp_path / "g.parquet"],
        "dig": ["dig", existing, "-o", tmp_path / "d.parquet"],
        "run": ["run", existing],
    }[command]
    code, _, stderr = invoke(*args, "--seed", MAX_SEED + 1)
    assert code == 2 and "'--seed'" in stderr and str(MAX_SEED) in stderr
    code, _, stderr = invoke(*args, "--seed", -1)
    assert code == 2 and "'--seed'" in stderr


def test_the_largest_seed_is_stored(tmp_path: Path) -> None:
    out = tmp_path / "g.parquet"
    code, _, stderr = invoke("generate", "-o", out, "-n", "2", "--size", "4", "-j", "1", "-q",
                          "--seed", MAX_SEED)  # fmt: skip
    assert code == 0, stderr
    assert set(pq.read_table(out).column("seed").to_pylist()) == {MAX_SEED}


def write_recipe(path: Path, tiers: str = "", seed: str = "seed = 1", output: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'title = "T"\n{seed}\n{output}\n{tiers}\n[[sections]]\ntier = "x"\ncount = 1\n'
    )
    return path


@pytest.mark.parametrize(
    ("band", "key", "words"),
    [
        ("score = [nan, 3.0]", "tiers.x.score", "no nan"),
        ("score = [0.0, 0.5]", "sections[0].tier", "no puzzle scores below"),
        ("clues = [90, 99]", "sections[0].tier", "the grid has 81 cells"),
        ('hardest = "naked_single"\nneeds = "x_wing"', "tiers.x.needs", "harder than"),
    ],
)
def test_a_band_that_cannot_work_fails_at_once_naming_its_key(
    tmp_path: Path, band: str, key: str, words: str
) -> None:
    recipe = write_recipe(tmp_path / "r.toml", f"[tiers.x]\n{band}\n")
    start = time.perf_counter()
    code, _, stderr = invoke("run", recipe, "-o", tmp_path / "out")
    assert time.perf_counter() - start < 5  # before the engine compiles or a worker starts
    assert code == 2 and stderr.startswith(f"Error: {recipe}: {key}: ") and words in stderr


def test_a_seed_beyond_int64_in_a_recipe_names_the_key(tmp_path: Path) -> None:
    recipe = write_recipe(tmp_path / "r.toml", "[tiers.x]\nscore = [1.0, 9.0]", f"seed = {2**63}")
    with pytest.raises(RecipeError, match=r"r\.toml: seed: got 9223372036854775808; allowed"):
        load_recipe(recipe)


def test_a_relative_output_follows_the_recipe_not_the_current_folder(
    tmp_path: Path, monkeypatch
) -> None:
    recipe = write_recipe(tmp_path / "books" / "r.toml", '[tiers.x]\nscore = [1.0, 9.0]', "",
                          'output = "out"')  # fmt: skip
    for folder in (tmp_path, tmp_path / "books"):
        monkeypatch.chdir(folder)
        assert load_recipe(recipe.relative_to(folder)).output.resolve() == tmp_path / "books/out"
    for name in ("nightly", "kids", "giant"):
        monkeypatch.chdir(tmp_path)
        assert load_recipe(PROJECT / "configs" / f"{name}.toml").output == PROJECT / "output"


def test_an_output_that_is_also_the_input_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "p.txt"
    source.write_text(UNIQUE + "\n")
    graded = tmp_path / "graded.parquet"
    assert invoke("grade", source, "-o", graded, "-q", "-j", "1")[0] == 0
    before = graded.read_bytes()
    for args in (
        ("grade", graded, "-o", graded),
        ("grade", source, "-o", tmp_path / "." / "p.txt"),
        ("render", graded, "-o", graded),
        ("dig", graded, "-o", graded),
    ):
        code, _, stderr = invoke(*args)
        assert code == 2 and "is also an input" in stderr, args
    assert graded.read_bytes() == before and source.read_text() == UNIQUE + "\n"


def test_an_output_folder_that_cannot_be_written_is_one_error(tmp_path: Path) -> None:
    source = tmp_path / "p.txt"
    source.write_text(UNIQUE + "\n")
    code, _, stderr = invoke("grade", source, "-o", "/proc/graded.parquet", "-q", "-j", "1")
    assert code == 2 and stderr.startswith("Error: /proc/graded.parquet: cannot write in /proc")


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_a_full_disk_is_one_error(tmp_path: Path, suffix: str) -> None:
    """A file size limit (RLIMIT_FSIZE) makes writes fail as a full disk does, in a real
    process."""
    source = tmp_path / "p.txt"
    source.write_text(f"{UNIQUE}\n" * 3000)
    out = tmp_path / f"graded{suffix}"

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))

    code = "import sys; from pipeline.cli import app; app(sys.argv[1:], prog_name='pipeline')"
    result = subprocess.run(
        [sys.executable, "-c", code, "grade", str(source), "-o", str(out), "-q", "-j", "1"],
        capture_output=True,
        text=True,
        preexec_fn=limit,
        timeout=300,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines()[-1] == f"Error: {out}: cannot write: File too large"
    assert not out.exists() and not list(tmp_path.glob(".graded*"))


def test_grids_are_not_puzzles_and_a_bad_grid_row_is_named(tmp_path: Path) -> None:
    grids = tmp_path / "grids.parquet"
    assert invoke("generate", "-o", grids, "-n", "3", "--size", "4", "-j", "1", "-q")[0] == 0
    for command in ("render", "stats"):
        args = (
            (command, grids, "-o", tmp_path / "x.pdf") if command == "render" else (command, grids)
        )
        code, _, stderr = invoke(*args)
        assert code == 2 and "holds solution grids" in stderr and "pipeline dig" in stderr
    table = pq.read_table(grids)
    solutions = table.column("solution").to_pylist()
    solutions[1] = solutions[1][:-1] + "."
    broken = tmp_path / "broken.parquet"
    column = table.schema.get_field_index("solution")
    pq.write_table(table.set_column(column, "solution", [solutions]), broken)
    code, _, stderr = invoke("dig", broken, "-o", tmp_path / "d.parquet", "-j", "1", "-q")
    assert code == 2 and "broken.parquet: row 2: solution has 1 blank cells" in stderr


def test_stats_reads_grade_output(tmp_path: Path) -> None:
    source = tmp_path / "p.txt"
    source.write_text(f"{UNIQUE}\n{CLASH}\n")
    graded = tmp_path / "graded.parquet"
    assert invoke("grade", source, "-o", graded, "-q", "-j", "1")[0] == 1
    result = runner.invoke(app, ["stats", str(graded)])
    assert result.exit_code == 0 and "1 puzzles" in result.stdout
    assert "skipped 1 rows" in result.stderr
