# Each target creates the virtual environment it needs, so a fresh clone needs only Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/pip install --quiet --disable-pip-version-check
# Stamps: the package alone, enough to play; and the tools that test it.
RUNTIME := $(VENV)/.installed
DEV := $(VENV)/.installed-dev

.PHONY: run test lint bench bench-server boards datc clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(RUNTIME): pyproject.toml | $(BIN)/python
	$(PIP) -e .
	touch $(RUNTIME)

$(DEV): pyproject.toml | $(BIN)/python
	$(PIP) -e '.[dev]'
	touch $(RUNTIME) $(DEV)

run: $(RUNTIME)
	@echo "The hegemon command is in $(BIN)/; '. $(BIN)/activate' puts it on your PATH."
	$(BIN)/hegemon serve --demo

test: lint
	$(BIN)/pytest

lint: $(DEV)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools
	$(BIN)/mypy

datc: $(RUNTIME)
	$(BIN)/hegemon datc tests/data/datc/datc_v2.4_06.txt
	$(BIN)/hegemon datc --edition 2023 tests/data/datc/datc_v2.4_06.txt tests/data/datc/datc_v3.0_changes.txt

bench: $(DEV)
	$(BIN)/python benchmarks/classic_phases.py
	$(BIN)/python benchmarks/random_games.py sub_saharan
	$(BIN)/python benchmarks/random_games.py europe_1615
	$(BIN)/python benchmarks/random_games.py african_diplomacy_ii --option last_year=1920
	$(BIN)/python benchmarks/random_games.py african_riots --years 200
	$(BIN)/python benchmarks/random_games.py africa_ii --option random_events=true
	$(BIN)/python benchmarks/boards.py

bench-server: $(DEV)
	$(BIN)/python benchmarks/server_load.py

boards: $(RUNTIME)
	$(BIN)/python tools/boards.py build/boards

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
