# Each target creates the virtual environment it needs, so a fresh clone needs only Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench boards datc clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/hegemon demo

test: $(STAMP) lint
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools
	$(BIN)/mypy

datc: $(STAMP)
	$(BIN)/hegemon datc tests/data/datc/datc_v2.4_06.txt

bench: $(STAMP)
	$(BIN)/python benchmarks/classic_phases.py
	$(BIN)/python benchmarks/random_games.py sub_saharan
	$(BIN)/python benchmarks/random_games.py europe_1615
	$(BIN)/python benchmarks/boards.py

boards: $(STAMP)
	$(BIN)/python tools/boards.py build/boards

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
