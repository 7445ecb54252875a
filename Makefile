# The two commands of the README. Each builds .venv from nothing on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: study test lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,notebooks,distributed]'
	touch $(STAMP)

study: $(STAMP)
	$(BIN)/prefstats deal --n 5 --seed 1

lint: $(STAMP)
	$(BIN)/ruff check prefstats tests
	$(BIN)/ruff format --check prefstats tests
	$(BIN)/mypy

# pytest exits 5 when it collects no test: that is not a failure of the code.
test: lint
	$(BIN)/python -m pytest; rc=$$?; if [ $$rc -eq 5 ]; then exit 0; fi; exit $$rc

clean:
	rm -rf $(VENV) build *.egg-info
