"""Fixtures of the ASR tests (helpers in asr_helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from asr_helpers import ASR_MINI


@pytest.fixture(scope="session")
def asr_mini(tmp_path_factory) -> Path:
    from pydeid.corpora.mini import build_corpus
    out = tmp_path_factory.mktemp("asr_mini")
    build_corpus(out, seed=0, size="tiny", **ASR_MINI)
    return out
