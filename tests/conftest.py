"""Shared fixtures: paths to ../shared/data (skipped with a reason when absent) and the embedded mini corpus."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("PYDEID_SHARED_DATA", REPO.parent / "shared" / "data"))


def shared_subdir(name: str) -> Path:
    p = SHARED_DATA / name
    if not p.is_dir():
        pytest.skip(f"real data subset {p} is absent (../shared/data/{name} is read in place, never committed)")
    return p


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def vctk_dir() -> Path:
    return shared_subdir("vctk_subset")


@pytest.fixture(scope="session")
def librispeech_mini_dir() -> Path:
    return shared_subdir("librispeech_mini")


@pytest.fixture(scope="session")
def snips_dir() -> Path:
    return shared_subdir("text_snips")


@pytest.fixture(scope="session")
def mini_corpus(tmp_path_factory) -> Path:
    """The embedded corpus at its 'tiny' size, built once per test session.

    Returns the folder holding the data dirs mini_train, mini_dev, mini_test, mini_test_enroll, mini_test_trial.
    """
    from pydeid.corpora.mini import build_corpus
    out = tmp_path_factory.mktemp("mini")
    build_corpus(out, seed=0, size="tiny")
    return out
