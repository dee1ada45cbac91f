# Quarterdeck: the two commands of the README, and a few helpers.
#   make run   set up and run the app (web server + Celery worker)
#   make test  set up and run the whole test suite
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install install-test migrate demo worker bench lint check-python clean

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
	@mkdir -p var
	$(BIN)/python manage.py migrate --no-input

demo: migrate
	$(BIN)/python manage.py load_reference_data
	$(BIN)/python manage.py load_demo

run: demo
	@echo
	@echo "  Quarterdeck is starting at http://$(HOST):$(PORT)/"
	@echo "  Demo logins (password for all: quarterdeck-demo):"
	@echo "    gm        the Game Master of 'The Cruise of the Hermes'"
	@echo "    otoole    player: Master Gregory O'Toole"
	@echo "    bosworth  player: Gunner Bosworth"
	@echo "    smith     player: Midshipman Smith"
	@echo
	@trap 'kill 0' EXIT; \
	$(BIN)/celery -A config worker -B --loglevel=INFO --concurrency=2 & \
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# -B embeds celery beat, which sends the sweep that hands the jobs of dead workers to the
# living (config/settings.py explains the jobs' settings).
worker: install
	@mkdir -p var
	$(BIN)/celery -A config worker -B --loglevel=INFO

test: install-test
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: install
	$(BIN)/python -m benchmarks

lint: install-test
	$(BIN)/ruff check .

clean:
	rm -rf var/celery var/quarterdeck.sqlite3
