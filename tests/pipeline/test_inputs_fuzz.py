"""A few thousand generated input files and recipes through the real readers and recipe loader:
no exception but the documented ones, every row reported once (``bench/fuzz_inputs.py`` runs
100,000, and some through the installed CLI)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings

from pipeline.formats import FormatError
from tests.pipeline.input_fuzz import (
    Input,
    check_rows,
    inputs,
    load_fuzzed_recipe,
    read_input,
    recipes,
    scratch_folder,
)

FOLDER = scratch_folder()


@pytest.fixture(scope="module", autouse=True)
def _remove_the_scratch_folder():
    yield
    shutil.rmtree(FOLDER, ignore_errors=True)


FUZZ = settings(
    max_examples=800, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


@FUZZ
@given(found=inputs)
def test_generated_inputs_report_every_row_once(found: Input) -> None:
    try:
        rows = read_input(FOLDER, found)
    except FormatError as exc:  # a forced table, or a puzzle column without text
        assert found.may_be_refused and found.name in str(exc), exc
        return
    check_rows(found, rows)


@settings(max_examples=800, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(case=recipes)
def test_generated_recipes_load_or_name_their_fault(case: tuple[str, int | None]) -> None:
    load_fuzzed_recipe(FOLDER, *case)


SCRIPT = Path(sys.executable).with_name("pipeline")


@pytest.mark.skipif(not SCRIPT.exists(), reason="the installed pipeline script is needed")
@settings(max_examples=4, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(found=inputs)
def test_generated_inputs_through_the_installed_script(found: Input) -> None:
    """``pipeline grade`` in a real process: exit 0, 1 or 2, never a traceback; the output has
    the reader's rows, each once."""
    folder = Path(tempfile.mkdtemp(dir=FOLDER))
    path = folder / found.name
    path.write_bytes(found.data)
    out = folder / "graded.parquet"
    options = ["--format", found.fmt] if found.fmt else []
    command = [str(SCRIPT), "grade", str(path), "-o", str(out), "-q", "-j", "1", *options]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 1, 2) and "Traceback" not in result.stderr, result.stderr
    if result.returncode == 2:
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith(f"Error: {path}: ")
        return
    lines = pq.read_table(out).column("line").to_pylist()
    assert lines == [row.line for row in read_input(folder, found)]
    if found.lines is not None:
        assert tuple(lines) == found.lines
