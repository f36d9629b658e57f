"""rules_off (and the other name lists of the detection config) must be lists: a string was read letter by letter
("rules_off: court" -> "unknown rule group 'c'"); now one error naming the key (issue 39)."""

import pytest

from pydeid.io.errors import FormatError
from pydeid.text.detectors import Detection, DetectionConfig


@pytest.mark.parametrize("key, value", [("rules_off", "court"), ("filters_off", "titles"), ("detectors", "grammar")])
def test_a_string_where_a_list_is_expected_names_the_key(tmp_path, key, value):
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"combine: union\n{key}: {value}\n")
    with pytest.raises(FormatError, match=rf"bad.yaml:2: {key} must be a list \(e.g. {key}: \[{value}\]\)"):
        DetectionConfig.from_yaml(bad)
    ok = tmp_path / "ok.yaml"
    ok.write_text(f"{key}: [{value}]\n") if key == "rules_off" else ok.write_text("rules_off: [court]\n")
    assert DetectionConfig.from_yaml(ok).rules_off == ["court"]


def test_the_python_config_refuses_a_string_too():
    with pytest.raises(ValueError, match=r"rules_off must be a list of names \(e.g. rules_off=\['court'\]\)"):
        Detection(DetectionConfig(detectors=["grammar"], rules_off="court"))
