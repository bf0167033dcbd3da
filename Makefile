# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test migrate clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(STAMP)

migrate: $(STAMP)
	$(BIN)/python manage.py migrate --noinput

# DEBUG on: this is the one-machine setup for trying the site, see docs/deploy.md for production.
run: export DEBUG ?= 1
run: migrate
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# With DATABASE_URL set the settings demand a SECRET_KEY; tests get a throwaway one.
test: export SECRET_KEY ?= test-only-$(shell od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
test: $(TEST_STAMP)
	@if [ -n "$${SCREENSHOT_DIR:-}" ]; then echo "Browser test screenshots go to $$SCREENSHOT_DIR"; fi
	$(BIN)/python -m pytest $(PYTEST_ARGS)

clean:
	rm -rf $(VENV)
