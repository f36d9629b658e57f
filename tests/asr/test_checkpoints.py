"""Which checkpoint decoding, alignment and the probes use when none is named (pydeid.asr.checkpoints)."""

import pytest
import yaml

from pydeid.asr.checkpoints import default_model_file, resolve_model_file


def _exp(tmp_path, criteria, files):
    exp = tmp_path / "exp"
    exp.mkdir()
    (exp / "config.yaml").write_text(yaml.safe_dump({"best_model_criterion": criteria}))
    for f in files:
        (exp / f).write_bytes(b"x")
    return exp


def test_first_criterion_wins(tmp_path):
    exp = _exp(tmp_path, [["valid", "cer_ctc", "min"], ["valid", "acc", "max"]],
               ["valid.acc.best.pth", "valid.cer_ctc.best.pth", "latest.pth"])
    assert default_model_file(exp) == exp / "valid.cer_ctc.best.pth"


def test_ctc_only_model_without_acc(tmp_path):
    # a CTC-only tier never writes valid.acc.best.pth; its own criterion's file is found
    exp = _exp(tmp_path, [["valid", "loss", "min"]], ["valid.loss.best.pth", "latest.pth"])
    assert default_model_file(exp) == exp / "valid.loss.best.pth"


def test_fallback_when_criterion_file_missing(tmp_path):
    exp = _exp(tmp_path, [["valid", "wer", "min"]], ["latest.pth"])
    assert default_model_file(exp) == exp / "latest.pth"


def test_no_model_names_the_exp_dir(tmp_path):
    exp = _exp(tmp_path, [["valid", "acc", "max"]], [])
    with pytest.raises(FileNotFoundError, match=str(exp)):
        default_model_file(exp)


def test_resolve_named_file(tmp_path):
    exp = _exp(tmp_path, [["valid", "acc", "max"]], ["valid.acc.best.pth", "3epoch.pth"])
    assert resolve_model_file(exp, "3epoch.pth") == exp / "3epoch.pth"
    assert resolve_model_file(exp, None) == exp / "valid.acc.best.pth"
    with pytest.raises(FileNotFoundError, match="9epoch.pth"):
        resolve_model_file(exp, "9epoch.pth")


def test_lm_with_another_token_list_is_refused(tmp_path):
    from pydeid.asr.lm import check_lm_matches
    asr, lm = tmp_path / "asr", tmp_path / "lm"
    for d, toks in ((asr, ["<blank>", "<unk>", "a", "b", "<sos/eos>"]), (lm, ["<blank>", "<unk>", "a", "<sos/eos>"])):
        d.mkdir()
        (d / "config.yaml").write_text(yaml.safe_dump({"token_list": toks}))
    (lm / "valid.loss.best.pth").write_bytes(b"x")
    with pytest.raises(ValueError, match="token list differs"):
        check_lm_matches(asr, lm)
    (lm / "config.yaml").write_text((asr / "config.yaml").read_text())
    assert check_lm_matches(asr, lm) == lm / "valid.loss.best.pth"
