# Two commands are all a new user needs: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint typecheck bench clean

# OpenWar needs Python 3.11+: an older one is refused before .venv is made, and a .venv left
# half made is removed (every later make would keep it; `make clean` removes a whole one)
$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "OpenWar needs Python 3.11 or newer; $(PYTHON) is %s: run make again with PYTHON=python3.11 (or newer)" % sys.version.split()[0])'
	@echo "Creating $(VENV) and installing OpenWar's dependencies (about a minute, once)..."
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip || { rm -rf $(VENV); exit 1; }

# a .venv made some other way with an older Python: said before pip fails on it
VENV_PYTHON_OK = @$(BIN)/python -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "$(VENV) has Python %s; OpenWar needs 3.11 or newer: make clean, then make again with PYTHON=python3.11 (or newer)" % sys.version.split()[0])'

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(VENV_PYTHON_OK)
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(VENV_PYTHON_OK)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	@mkdir -p out
	$(BIN)/openwar battle examples/armies/openwar/iron_road_legion.yaml \
		examples/armies/openwar/hearthhold_lodge.yaml --seed 7 \
		--png out/battle.png --replay out/battle-replay.json
	$(BIN)/openwar replay out/battle-replay.json --json | grep -E '"(winner|victory|verified)"'
	$(BIN)/openwar odds aos --attacks 20 --hit 4+ --wound 3+ --rend -1 --damage D3 --save 4+ --reroll-hits ones --models-wounds 2 --models 10

test: $(VENV)/.installed-test
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy
	$(BIN)/pytest -n 2

bench: $(VENV)/.installed-test
	$(BIN)/openwar bench odds

clean:
	rm -rf $(VENV) build dist *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
