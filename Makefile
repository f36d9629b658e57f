# Two entry points (see README): `make demo` runs the embedded recipe end to end, `make test` runs the tests.
# Both create .venv on first use from requirements.txt + constraints.txt; re-running is a no-op when the
# pinned files did not change (the stamp is named after their hash).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
REQ_HASH := $(shell cat requirements.txt requirements-nodeps.txt constraints.txt pyproject.toml | sha256sum | cut -c1-16)
STAMP := $(VENV)/.installed-$(REQ_HASH)
# placeholders that stop g2p_en (imported by ESPnet) from calling nltk.download at import: pydeid/offline.py
NLTK_STUBS := $(VENV)/nltk_data/corpora/cmudict.zip
PYTEST_ARGS ?=

.PHONY: venv demo test test-slow bench clean-venv

venv: $(STAMP) $(NLTK_STUBS)

$(STAMP): requirements.txt requirements-nodeps.txt constraints.txt pyproject.toml
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	@# keep the venv's bundled pip: pip 26 refuses ESPnet's dependency tree
	$(VENV)/bin/pip install --disable-pip-version-check -q -r requirements.txt -c constraints.txt
	$(VENV)/bin/pip install --disable-pip-version-check -q --no-deps -r requirements-nodeps.txt
	$(VENV)/bin/pip install --disable-pip-version-check -q --no-deps --no-build-isolation -e .
	@rm -f $(VENV)/.installed-*
	@touch $@

$(NLTK_STUBS): $(STAMP)
	$(VENV)/bin/python -m pydeid.offline $(VENV)/nltk_data

demo: $(STAMP) $(NLTK_STUBS)
	cd egs/mini/s5 && ./run.sh

test: $(STAMP) $(NLTK_STUBS)
	source path.sh && python -m pytest $(PYTEST_ARGS)

test-slow: $(STAMP) $(NLTK_STUBS)
	source path.sh && python -m pytest -m slow $(PYTEST_ARGS)

bench: $(STAMP) $(NLTK_STUBS)
	source path.sh && for b in bench/*.sh; do echo "== $$b"; bash $$b || exit 1; done

clean-venv:
	rm -rf $(VENV)
