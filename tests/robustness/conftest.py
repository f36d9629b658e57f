"""Fixtures of the malformed-input suite (helpers in robust_helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from robust_helpers import Cli, build


@pytest.fixture
def base(tmp_path) -> Path:
    """tmp_path holding data/ (valid), tags.conll, words.ctm."""
    build(tmp_path)
    return tmp_path


@pytest.fixture
def cli(capsys):
    return Cli(capsys)
