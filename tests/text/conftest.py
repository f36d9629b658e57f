"""Fixtures of the text tests: the default detectors (spaCy pipeline loaded once per session)."""

import pytest


@pytest.fixture(scope="session")
def default_detection():
    from pydeid.text.detectors import Detection, DetectionConfig
    return Detection(DetectionConfig())
