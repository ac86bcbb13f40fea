# Two commands do all set-up: `make run` (the nightly book on the default recipe) and `make test`.
# Both create .venv on first use and reinstall only when pyproject.toml changes.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RECIPE ?= configs/nightly.toml

.PHONY: run test lint bench system-deps

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

test: $(STAMP) system-deps lint
	$(BIN)/pipeline prepare
	$(BIN)/python -m pytest -q

# BENCH=dig_bench,engine_bench runs only those scripts (the README's figures come from these two)
bench: $(STAMP) system-deps
	$(BIN)/python bench/run_all.py $(if $(BENCH),--only $(BENCH))
