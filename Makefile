# Quarterdeck: the two commands of the README, and a few helpers.
#   make run    set up and run the app (web server + Celery worker), open to the room's network
#   make test   set up and run the whole test suite
#   make reset  start the demo afresh (the embedded SQLite data and broker folder)
#   make dev    like run, on this machine only, reloading on code changes, Django's debug pages on
#               (uvicorn --reload: the pages' event streams need an ASGI server)
#   make fast   compile the rules kernel with mypyc (needs a C compiler; make pure undoes it)
#   make typecheck  mypy on the rules kernel
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000
VAR := $(or $(QUARTERDECK_VAR_DIR),var)
# The suite runs in one process per core (pytest-xdist; tests/isolation.py keeps them apart).
# The long statistical checks (marked slow: an AI against a random policy over 1,000 games)
# are make test-slow's, which CI runs too.
PYTEST_ARGS ?= -n auto

.PHONY: run dev reset test install install-test migrate demo worker bench lint check-python clean \
	fast pure typecheck test-compiled test-slow

check-python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Quarterdeck needs Python 3.11 or newer (found " + sys.version.split()[0] + ")")'

$(BIN)/python: | check-python
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

migrate: install
	@mkdir -p $(VAR)
	$(BIN)/python manage.py migrate --no-input

demo: migrate
	$(BIN)/python manage.py load_reference_data
	$(BIN)/python manage.py load_demo

# The launcher prints the addresses to open (with QR codes) and stops everything on Ctrl-C.
run: demo
	$(BIN)/python -m config.serve --host $(HOST) --port $(PORT)

dev: demo
	@trap 'kill 0' EXIT; \
	$(BIN)/celery -A config worker -B --loglevel=INFO --concurrency=2 & \
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(BIN)/python -m uvicorn config.asgi:application --reload \
	  --lifespan off --host 127.0.0.1 --port $(PORT)

reset: install
	@if [ -n "$$DATABASE_URL" ]; then \
	  echo "make reset starts the embedded SQLite demo afresh; DATABASE_URL is set, so reset that database yourself." >&2; \
	  exit 1; \
	fi
	rm -rf $(VAR)/celery $(VAR)/quarterdeck.sqlite3 $(VAR)/quarterdeck.sqlite3-wal $(VAR)/quarterdeck.sqlite3-shm
	$(MAKE) --no-print-directory demo

# -B embeds celery beat, which sends the sweep that hands the jobs of dead workers to the
# living (config/settings.py explains the jobs' settings).
worker: install
	@mkdir -p var
	$(BIN)/celery -A config worker -B --loglevel=INFO

test: install-test
	$(BIN)/python -m pytest $(PYTEST_ARGS) -m "not slow"

test-slow: install-test
	$(BIN)/python -m pytest $(PYTEST_ARGS) -m slow

bench: install
	$(BIN)/python -m benchmarks

# The modules of the kernel that mypyc compiles: the hot path of a game. rules/engine.py stays
# interpreted (mypyc refuses its runtime-checkable Protocol), and so do HFG's campaign, pre-battle
# and terrain dice (played once a battle at most).
FAST_MODULES := rules/cards.py rules/random.py rules/montecarlo.py rules/btq/tests.py \
	rules/btq/characters.py rules/btq/ships.py rules/btq/naval.py \
	rules/hfg/ai.py rules/hfg/arrivals.py rules/hfg/assault.py rules/hfg/combat.py \
	rules/hfg/command.py rules/hfg/data.py rules/hfg/engine.py rules/hfg/geometry.py \
	rules/hfg/leading.py rules/hfg/losses.py rules/hfg/movement.py rules/hfg/moves.py \
	rules/hfg/roads.py rules/hfg/rout.py rules/hfg/shooting.py rules/hfg/sight.py \
	rules/hfg/water.py rules/hfg/works.py

# The compiled modules land beside their sources (*.so), which Python then imports first;
# everything else stays as it is. Results are the same seed for seed (tests/rules/test_compiled.py).
fast: install-test
	@command -v $${CC:-cc} >/dev/null || { echo "make fast needs a C compiler (cc): the kernel stays pure Python" >&2; exit 1; }
	$(BIN)/mypyc $(FAST_MODULES)

pure:
	find rules -name '*.so' -delete
	rm -f *__mypyc*.so
	rm -rf build

typecheck: install-test
	$(BIN)/mypy

# The kernel's tests against the compiled build.
test-compiled: fast
	$(BIN)/python -m pytest tests/rules $(PYTEST_ARGS) -m "not slow"

lint: install-test
	$(BIN)/ruff check .

clean:
	rm -rf $(VAR)/celery $(VAR)/quarterdeck.sqlite3*
