# Two commands are all a new user needs: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/openwar odds aos --attacks 20 --hit 4+ --wound 3+ --rend -1 --damage D3 --save 4+ --reroll-hits ones --models-wounds 2
	$(BIN)/openwar odds openwar --models 10 --attacks 1 --melee 1 --difficulty 4 --pierce 1 --armor 5 --target-size 10 --presence 1 --morale 10

test: $(VENV)/.installed-test
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy
	$(BIN)/pytest -n 2

bench: $(VENV)/.installed-test
	$(BIN)/openwar bench odds

clean:
	rm -rf $(VENV) build dist *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
