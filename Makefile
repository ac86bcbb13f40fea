# Two commands do all set-up: `make run` (the nightly book on the default recipe) and `make test`.
# Both create .venv on first use and reinstall only when pyproject.toml changes.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RECIPE ?= configs/nightly.toml
# Every process of a run or of the tests (workers, the commands the tests start) imports the
# project's modules: Python keeps their bytecode in __pycache__ unless told not to, as some
# containers tell it (PYTHONDONTWRITEBYTECODE), which costs each process 0.15 s of compiling.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test lint bench system-deps coverage

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,distributed]'
	@touch $(STAMP)

system-deps:
	@bash .ci/system-deps

run: $(STAMP)
	$(BIN)/pipeline run $(RECIPE)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# pytest-randomly shuffles the test order on every run and the summary ends with its seed:
# `make test SEED=<seed>` repeats that order, `make test SEED=none` runs in file order.
ORDER = $(if $(filter none,$(SEED)),-p no:randomly,$(if $(SEED),-p randomly --randomly-seed=$(SEED)))

test: $(STAMP) system-deps lint
	$(BIN)/pipeline prepare
	$(BIN)/python -m pytest -q -n auto --dist loadgroup $(ORDER)

# BENCH=dig_bench,engine_bench runs only those scripts (bench/RESULTS.md's qqwing tables come from these two)
bench: $(STAMP)
	@bash .ci/system-deps bench
	$(BIN)/python bench/run_all.py $(if $(BENCH),--only $(BENCH))

# Line coverage of engine/ and pipeline/ with numba off (NUMBA_DISABLE_JIT=1), so kernel bodies
# count as Python. Kernels run as plain Python are about a hundred times slower, so this runs the
# tests that finish without the JIT (text, formats, recipe, store, render, CLI: 4 to 6 minutes);
# the engine's property tests, digging, grading and whole runs need compiled kernels.
COVERAGE_TESTS ?= tests/engine/test_text.py tests/pipeline/test_formats.py \
	tests/pipeline/test_formats_fuzz.py tests/pipeline/test_formats_writers.py \
	tests/pipeline/test_recipe.py tests/pipeline/test_store.py tests/pipeline/test_render_layout.py \
	tests/pipeline/test_render_page.py tests/pipeline/test_render_pdf.py \
	tests/pipeline/test_print_shop.py tests/pipeline/test_cli.py

coverage: $(STAMP)
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -p no:cacheprovider \
		--cov=engine --cov=pipeline --cov-report=term:skip-covered $(COVERAGE_TESTS)
