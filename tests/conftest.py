"""Shared fixtures: paths to ../shared/data (skipped with a reason when absent) and the embedded mini corpus."""

from __future__ import annotations

import importlib
import os
import sys
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


@pytest.fixture
def recipe_copy(repo_root):
    """recipe_copy("speechocean762", dst): a private copy of egs/<recipe>/s5 at dst (run.sh writes data/ and exp/
    where it runs): its tool dirs symlinked, run.sh (and db.sh) copied."""
    def copy(recipe: str, dst: Path) -> Path:
        import shutil
        src = repo_root / "egs" / recipe / "s5"
        dst.mkdir()
        for name in ("steps", "utils", "local", "path.sh", "cmd.sh", "conf"):
            os.symlink((src / name).resolve(), dst / name)
        for name in ("run.sh", "db.sh"):
            if (src / name).exists():
                shutil.copy(src / name, dst / name)
        return dst
    return copy


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


@pytest.fixture(autouse=True)
def _drop_unloadable_lazy_modules():
    """speechbrain registers lazy optional modules (e.g. speechbrain.integrations.k2_fsa) in sys.modules; hypothesis
    walks sys.modules for constants and trips on those whose optional dependency is absent. Once speechbrain was
    imported by an earlier test, remove the lazy entries that cannot load so property tests run the same whatever
    the test order."""
    utils = sys.modules.get("speechbrain.utils.importutils")
    if utils is not None:
        for name, mod in list(sys.modules.items()):
            if isinstance(mod, utils.LazyModule) and mod.lazy_module is None:
                target = mod.target if mod.package is None else f"{mod.package}.{mod.target.lstrip('.')}"
                try:
                    importlib.util.find_spec(target.split(".")[0]) and importlib.import_module(target)
                except Exception:
                    del sys.modules[name]
    yield
