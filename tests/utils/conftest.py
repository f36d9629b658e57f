"""Fixtures of the utils tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from datadir_helpers import build_vctk_dir  # noqa: E402


@pytest.fixture
def vctk_data(vctk_dir, tmp_path) -> Path:
    """A data dir over real VCTK recordings (16 kHz FLAC read in place) with words.ctm and tags.conll."""
    return build_vctk_dir(vctk_dir, tmp_path / "vctk")
