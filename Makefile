# Each target creates the virtual environment it needs, so a fresh clone needs only Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/pip install --quiet --disable-pip-version-check
# Stamps: the package alone, enough to play; the compiler of its core; the tools that test it.
RUNTIME := $(VENV)/.installed
COMPILER := $(VENV)/.installed-compiler
DEV := $(VENV)/.installed-dev
# The compiled core: the whole package, its core modules compiled by mypyc (setup.py).
# It is used by putting it first on PYTHONPATH; HEGEMON_BUILD says which build a run
# asked for, and the tests check that it is the one they import.
COMPILED := build/compiled
# Every file of the package, templates and styles included: the build copies them all.
PACKAGE_FILES := $(shell find src/hegemon -type f ! -path '*/__pycache__/*')
ON_COMPILED := HEGEMON_BUILD=compiled PYTHONPATH=$(COMPILED)
ON_PURE := HEGEMON_BUILD=pure
# The port `make run` serves on: `make run PORT=8001` beside a server on 8000.
PORT ?= 8000

.PHONY: run compiled test lint bench bench-server bench-press bench-bots boards datc clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(RUNTIME): pyproject.toml | $(BIN)/python
	@echo "Installing Hegemon and its dependencies into $(VENV)/ (about a minute the first time)."
	$(PIP) -e .
	touch $(RUNTIME)

$(COMPILER): pyproject.toml | $(BIN)/python
	@echo "Installing the compiler of the core (mypyc) into $(VENV)/."
	$(PIP) -e '.[compile]'
	touch $(RUNTIME) $(COMPILER)

$(DEV): pyproject.toml | $(BIN)/python
	$(PIP) -e '.[dev]'
	touch $(RUNTIME) $(COMPILER) $(DEV)

compiled: $(COMPILED)/.built

# Built afresh whenever the package changes: the build holds a copy of every module.
# Some 65 s on two cores, in which the build prints nothing but its log: said first.
$(COMPILED)/.built: $(PACKAGE_FILES) setup.py $(COMPILER)
	@echo "Building the compiled core (mypyc and a C compiler; about a minute, more on a slow"
	@echo "machine; its log: build/compile.log)."
	rm -rf $(COMPILED) && mkdir -p build
	touch build/.compile-started
	HEGEMON_COMPILE=1 $(BIN)/python setup.py --quiet build --build-lib $(COMPILED) \
		--build-temp build/temp >build/compile.log 2>&1 || (tail -20 build/compile.log; false)
	touch -r build/.compile-started $@  # as old as the build's start: a file saved during it is newer

# The compiled core when it builds; else, saying so, pure Python. On PORT (8000 unless
# given); a port in use is refused before the demo's passwords are changed.
run: $(RUNTIME)
	@echo "The hegemon command is in $(BIN)/; '. $(BIN)/activate' puts it on your PATH."
	@if $(MAKE) --no-print-directory compiled; then \
		echo "Serving on the compiled core ($(COMPILED))."; \
		$(ON_COMPILED) $(BIN)/hegemon serve --demo --port $(PORT); \
	else \
		echo "The compiled core did not build (build/compile.log says why): serving on pure Python."; \
		$(ON_PURE) $(BIN)/hegemon serve --demo --port $(PORT); \
	fi

# The whole suite on the pure package, then again on the compiled core, which can differ,
# each on every core. The compiled run leaves out the tests that exercise only modules the
# build keeps as Python (setup.py's CORE is what it compiles), reaching the core through
# calls the rest of its suite makes too:
# - tests/server, tests/web: the server and the pages, Python in both builds;
# - tests/test_boards.py: the drawn boards (hegemon.render), geometry, colours, labels and
#   what each viewer's board shows, read from positions that the judge's tests check;
# - tests/test_boards_png.py: the boards as PNG (hegemon.render.png), against resvg's own,
#   with an order of a kind written for the test (no compiled class can be subclassed);
# - tests/test_architecture.py: the source's imports and names, the same text in both.
# Not `--dist loadgroup` nor `loadscope`: they keep one test of those that share a node id,
# and tests/server/test_openapi.py's 38 generated operations all share one (3 of its 40
# tests would run). The server's load test runs last, alone, on the compiled core that
# `make run` serves: it counts what the server gets through in its time, which a test beside
# it would take, and it plays whole games through the server on that build.
PYTHON_ONLY_TESTS := tests/server tests/web tests/test_boards.py tests/test_boards_png.py \
	tests/test_architecture.py
LOAD_TEST := tests/server/test_load.py
test: lint compiled
	$(ON_PURE) $(BIN)/pytest -n auto --deselect $(LOAD_TEST)
	$(ON_COMPILED) $(BIN)/pytest -n auto $(addprefix --ignore ,$(PYTHON_ONLY_TESTS))
	$(ON_COMPILED) $(BIN)/pytest $(LOAD_TEST)

lint: $(DEV)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools
	$(BIN)/mypy

datc: $(RUNTIME) compiled
	for build in "$(ON_PURE)" "$(ON_COMPILED)"; do \
		echo "$$build:"; \
		env $$build $(BIN)/hegemon datc tests/data/datc/datc_v2.4_06.txt && \
		env $$build $(BIN)/hegemon datc --edition 2023 tests/data/datc/datc_v2.4_06.txt \
			tests/data/datc/datc_v3.0_changes.txt || exit 1; \
	done

bench: $(DEV) compiled
	$(ON_PURE) $(BIN)/python benchmarks/classic_phases.py
	$(ON_COMPILED) $(BIN)/python benchmarks/classic_phases.py
	$(ON_PURE) $(BIN)/python benchmarks/reading.py
	$(ON_COMPILED) $(BIN)/python benchmarks/reading.py
	$(ON_PURE) $(BIN)/python benchmarks/variant_phases.py
	$(ON_COMPILED) $(BIN)/python benchmarks/variant_phases.py
	$(ON_PURE) $(BIN)/python benchmarks/menus.py
	$(ON_COMPILED) $(BIN)/python benchmarks/menus.py
	$(BIN)/python benchmarks/random_games.py sub_saharan
	$(BIN)/python benchmarks/random_games.py europe_1615
	$(BIN)/python benchmarks/random_games.py african_diplomacy_ii --option last_year=1920
	$(BIN)/python benchmarks/random_games.py african_riots --years 200
	$(BIN)/python benchmarks/random_games.py africa_ii --option random_events=true
	$(BIN)/python benchmarks/boards.py

bench-server: $(DEV) compiled
	$(ON_COMPILED) $(BIN)/python benchmarks/game_page.py
	$(ON_COMPILED) $(BIN)/python benchmarks/server_requests.py
	$(BIN)/python benchmarks/server_load.py
	$(BIN)/python benchmarks/press_live.py

# Press delivered live: 50 clients in 10 games, 20 messages each, through two API
# processes, each reader holding its stream (docs/server.md, "Load").
bench-press: $(DEV)
	$(BIN)/python benchmarks/press_live.py

# The bot against random players and against itself in every variant, on the compiled
# core its costs are measured for (docs/bots.md: some 45 minutes on two cores;
# BOTS_ARGS="--games 20" for a sample). Each game is recorded as it ends, so that a run
# stopped part-way goes on where it stopped, until the package's sources change.
bench-bots: $(DEV) compiled
	$(ON_COMPILED) $(BIN)/python benchmarks/bots.py --record build/bench-bots.jsonl $(BOTS_ARGS)

boards: $(RUNTIME)
	$(BIN)/python tools/boards.py build/boards

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
