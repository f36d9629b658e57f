"""Detectors behind one registry: a new detector is a small class and one register line, and the CLI, Detection and
hidden_types ask the registry (a toy detector registered here runs through `pydeid tag-entities`)."""

import pytest

from pydeid.cli import main
from pydeid.io.conll import ENTITY_TYPES, read_conll
from pydeid.text import detector_registry as R
from pydeid.text.detectors import DEFAULT_DETECTORS, Detection, DetectionConfig
from pydeid.text.spans import Span


class Shouting(R.Detector):
    """Toy: a word written in capitals (two letters or more) is a person."""
    name, types = "toy_shouting", ("PER",)

    def detect(self, tokens):
        return [Span(i, i + 1, "PER", {self.name}) for i, t in enumerate(tokens) if t.isupper() and len(t) > 1]


@pytest.fixture
def toy():
    R.register(Shouting, "upper-case words are names (test)")
    yield Shouting.name
    R.unregister(Shouting.name)


def test_a_registered_toy_detector_runs_through_the_cli(toy, tmp_path, capsys):
    src = tmp_path / "in.conll"
    src.write_text("please\tO\ncall\tO\nBORIS\tO\nnow\tO\n\nOK\tO\nthen\tO\n\n")
    out = tmp_path / "out.conll"
    assert main(["tag-entities", "--detectors", f"{toy},grammar", str(src), str(out)]) == 0
    got = read_conll(out)
    assert got[0].tags == ["O", "O", "B-PER", "O"]
    assert got[1].tags == ["B-PER", "O"]
    assert toy in capsys.readouterr().out          # "tagged 2 sentences with toy_shouting, grammar ..."
    # and through the Python API and a YAML config
    cfg = tmp_path / "det.yaml"
    cfg.write_text(f"detectors: [{toy}]\n")
    det = Detection(DetectionConfig.from_yaml(cfg))
    assert [(s.start, s.end, s.type) for s in det.detect_many([["hi", "ANNA"]])[0]] == [(1, 2, "PER")]


def test_unknown_detector_names_are_errors(tmp_path, capsys):
    src = tmp_path / "in.conll"
    src.write_text("hi\tO\n\n")
    with pytest.raises(SystemExit) as e:
        main(["tag-entities", "--detectors", "grammar,toy_shouting", str(src), str(tmp_path / "o.conll")])
    assert e.value.code == 2 and "unknown name(s) toy_shouting" in capsys.readouterr().err
    assert not (tmp_path / "o.conll").exists()
    with pytest.raises(ValueError, match="unknown detector 'toy_shouting'"):
        Detection(DetectionConfig(detectors=["toy_shouting"]))
    with pytest.raises(ValueError, match="already registered"):
        R.register(Shouting, "again", name="grammar")


def test_builtin_entries_are_detectors_that_say_what_they_emit():
    assert set(DEFAULT_DETECTORS) <= set(R.names())
    for name in R.names():
        cls = R.get(name).cls()
        assert issubclass(cls, R.Detector) and cls.name == name
        assert cls.types and set(cls.types) <= set(ENTITY_TYPES), name


def test_hidden_types_follow_the_registry(toy):
    from pydeid.text.hidden_types import detector_types, hidden_types
    assert detector_types() == set(hidden_types())
    # a detector that can emit a type the tag contract lacks would be caught by the equality above
    R.register(type("Odd", (R.Detector,), {"name": "toy_odd", "types": ("WEAPON",)}), "test")
    try:
        assert "WEAPON" in detector_types() and detector_types() != set(hidden_types())
    finally:
        R.unregister("toy_odd")
