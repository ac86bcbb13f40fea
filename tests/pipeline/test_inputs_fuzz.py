"""A few thousand generated input files and recipes through the real readers and recipe loader:
no exception but the documented ones, every row reported once (``bench/fuzz_inputs.py`` runs
100,000, and some through the installed CLI)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.formats import FormatError
from pipeline.recipe import MAX_SEED
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
FUZZ = settings(
    max_examples=2_000, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


@FUZZ
@given(found=inputs)
def test_generated_inputs_report_every_row_once(found: Input) -> None:
    try:
        rows = read_input(FOLDER, found)
    except FormatError as exc:  # only a forced table whose head has no usable column
        assert found.fmt in ("csv", "tsv", "parquet") and found.name in str(exc), exc
        return
    check_rows(found, rows)


@settings(max_examples=1_000, deadline=None, database=None)
@given(text=recipes(), seed=st.none() | st.sampled_from([0, MAX_SEED, MAX_SEED + 1, -1]))
def test_generated_recipes_load_or_name_their_fault(text: str, seed: int | None) -> None:
    load_fuzzed_recipe(FOLDER, text, seed)
