"""Text, CoNLL, strategies and the pseudonym map: transform-text, tag-entities, text-metrics."""

from __future__ import annotations

import json

import pytest

from robust_helpers import refused, snapshot


def tt(cli, base, *opts, tags=None, out="out"):
    return cli("transform-text", *opts, base / "data", tags or base / "tags.conll", base / out)


def test_valid_input_is_accepted(cli, base):
    rc, out, err = tt(cli, base)
    assert rc == 0, err
    assert (base / "out" / "text").is_file()


def test_text_with_non_utf8_bytes(cli, base):
    t = base / "data" / "text"
    t.write_bytes(t.read_bytes().replace(b"Paris", b"Par\xefs"))
    refused(tt(cli, base), 1, "data/text:2", "UTF-8", outputs=[base / "out"])


def test_conll_with_non_utf8_bytes(cli, base):
    c = base / "tags.conll"
    c.write_bytes(c.read_bytes().replace(b"Paris", b"Par\xe9s"))
    refused(tt(cli, base), 1, "tags.conll:", "UTF-8", outputs=[base / "out"])


def test_conll_unknown_entity_type_is_an_error_not_a_leak(cli, base):
    c = base / "tags.conll"
    c.write_text(c.read_text().replace("Paris\tB-LOC", "Paris\tB-PRE"))
    refused(tt(cli, base), 1, "tags.conll:", "PRE", outputs=[base / "out"])


def test_conll_duplicate_id(cli, base):
    c = base / "tags.conll"
    c.write_text(c.read_text() + "\n# id = spkA-d1-02\nmeet\tO\nme\tO\nin\tO\nParis\tO\n")
    refused(tt(cli, base), 1, "tags.conll:", "spkA-d1-02", outputs=[base / "out"])


def test_conll_missing_tag_column(cli, base):
    c = base / "tags.conll"
    c.write_text(c.read_text().replace("meet\tO", "meet"))
    refused(tt(cli, base), 1, "tags.conll:", outputs=[base / "out"])


def test_conll_bad_bio_prefix(cli, base):
    c = base / "tags.conll"
    c.write_text(c.read_text().replace("Paris\tB-LOC", "Paris\tX-LOC"))
    refused(tt(cli, base), 1, "tags.conll:", "X-LOC", outputs=[base / "out"])


def test_conll_tokens_differ_from_text(cli, base):
    c = base / "tags.conll"
    c.write_text(c.read_text().replace("Paris\tB-LOC", "Rome\tB-LOC"))
    refused(tt(cli, base), 1, "tags.conll", "spkA-d1-02", outputs=[base / "out"])


def test_conll_missing_utterance(cli, base):
    c = base / "tags.conll"
    c.write_text(c.read_text().split("# id = spkB-d1-01")[0])
    refused(tt(cli, base), 1, "tags.conll", "spkB-d1-01", outputs=[base / "out"])


def test_conll_missing_file(cli, base):
    refused(tt(cli, base, tags=base / "nope.conll"), 1, "nope.conll", outputs=[base / "out"])


def test_unknown_strategy_name(cli, base):
    refused(tt(cli, base, "--strategy", "PER=pseudonymise"), 2, "--strategy", "pseudonymise",
            outputs=[base / "out"])


def test_strategy_for_unknown_entity_type(cli, base):
    refused(tt(cli, base, "--strategy", "PERSON=redact"), 2, "--strategy", "PERSON", outputs=[base / "out"])


@pytest.mark.parametrize("p", ["1.5", "-0.1", "nan"])
def test_probability_outside_0_1(cli, base, p):
    refused(tt(cli, base, "--p", p), 2, "--p", outputs=[base / "out"])


def test_invalid_dialogue_regex(cli, base):
    refused(tt(cli, base, "--dialogue-mode", "regex", "--dialogue-regex", "(d[0-9]"), 2, "--dialogue-regex",
            outputs=[base / "out"])


def test_pseudonymize_without_secret_dir(cli, base):
    refused(tt(cli, base, "--strategy", "PER=pseudonymize"), 2, "--secret-dir", outputs=[base / "out"])


def test_secret_dir_inside_output_is_refused_before_writing(cli, base):
    refused(tt(cli, base, "--strategy", "PER=pseudonymize", "--secret-dir", base / "out" / "secrets"), 1,
            "out/secrets", outputs=[base / "out"])


def test_secret_dir_inside_input_is_refused(cli, base):
    before = snapshot(base / "data")
    refused(tt(cli, base, "--strategy", "PER=pseudonymize", "--secret-dir", base / "data" / "secrets"), 1,
            "data/secrets", before=before, outputs=[base / "data"])
    assert not (base / "out").exists()


def test_two_outputs_with_one_basename_keep_their_own_pseudonym_maps(cli, base):
    """Silent acceptance before: b/out overwrote the map of a/out."""
    sec = base / "secrets"
    for sub in ("a", "b"):
        rc, _, err = tt(cli, base, "--strategy", "PER=pseudonymize", "--secret-dir", sec, out=f"{sub}/out")
        assert rc == 0, err
    maps = sorted(sec.iterdir())
    assert len(maps) == 2, maps
    for m in maps:
        assert m.stat().st_mode & 0o777 == 0o600
        assert json.loads(m.read_text())


def test_tag_entities_unknown_detector(cli, base):
    refused(cli("tag-entities", "--detectors", "grammar,flairr", base / "data", base / "out.conll"), 2,
            "--detectors", "flairr", outputs=[base / "out.conll"])


def test_tag_entities_non_utf8_text(cli, base):
    t = base / "data" / "text"
    t.write_bytes(t.read_bytes().replace(b"Paris", b"Par\xefs"))
    refused(cli("tag-entities", "--detectors", "grammar", base / "data", base / "out.conll"), 1, "data/text:2",
            outputs=[base / "out.conll"])


def test_tag_entities_config_unknown_key(cli, base):
    conf = base / "detect.yaml"
    conf.write_text("detectors: [grammar]\ncombyne: union\n")
    refused(cli("tag-entities", "--config", conf, base / "data", base / "out.conll"), 1, "detect.yaml",
            "combyne", "combine", outputs=[base / "out.conll"])


def test_tag_entities_config_yaml_syntax_error(cli, base):
    conf = base / "detect.yaml"
    conf.write_text("detectors: [grammar\ncombine: union\n")
    refused(cli("tag-entities", "--config", conf, base / "data", base / "out.conll"), 1, "detect.yaml:",
            outputs=[base / "out.conll"])


def test_text_metrics_gold_with_duplicate_id(cli, base):
    """Before: the second sentence silently replaced the first."""
    gold = base / "gold.conll"
    gold.write_text((base / "tags.conll").read_text() + "\n# id = spkA-d1-02\nmeet\tO\nme\tO\nin\tO\nParis\tO\n")
    refused(cli("text-metrics", "--pred", base / "tags.conll", "--json", base / "m.json", gold), 1, "gold.conll:",
            "spkA-d1-02", outputs=[base / "m.json"])


def test_text_metrics_non_utf8_prediction(cli, base):
    pred = base / "pred.conll"
    pred.write_bytes((base / "tags.conll").read_bytes().replace(b"Paris", b"Par\xefs"))
    refused(cli("text-metrics", "--pred", pred, "--json", base / "m.json", base / "tags.conll"), 1, "pred.conll:",
            outputs=[base / "m.json"])


def test_ner_config_unknown_key(tmp_path):
    """train-ner reads its config before importing flair: a typo is an error naming the allowed keys (before: a
    warning, and training went on with the default)."""
    from pydeid.io import FormatError
    from pydeid.text.flair_ner import NerConfig
    conf = tmp_path / "ner.yaml"
    conf.write_text("max_epochs: 3\nlearning_rat: 0.1\n")
    with pytest.raises(FormatError, match=r"ner.yaml:2: unknown key 'learning_rat'; allowed: .*learning_rate"):
        NerConfig.from_yaml(conf)


def test_tag_entities_config_unknown_detector_name(cli, base):
    conf = base / "detect.yaml"
    conf.write_text("combine: union\ndetectors: [grammar, flairr]\n")
    refused(cli("tag-entities", "--config", conf, base / "data", base / "out.conll"), 1, "detect.yaml:2", "flairr",
            outputs=[base / "out.conll"])
