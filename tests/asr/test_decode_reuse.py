"""steps/decode_asr.sh keeps a decode dir that already holds the same decoding (decode_is_current)."""

from __future__ import annotations

import json
import os
import time

import pytest

from pydeid.asr.decode import decode_is_current


@pytest.fixture()
def decoded(tmp_path):
    exp, data, lm, out = (tmp_path / n for n in ("exp", "data", "lm", "decode"))
    for d in (exp, data, lm, out):
        d.mkdir()
    (exp / "config.yaml").write_text("best_model_criterion:\n- - valid\n  - cer_ctc\n  - min\n")
    (exp / "valid.cer_ctc.best.pth").write_bytes(b"model")
    (exp / "decode.yaml").write_text("beam_size: 8\nctc_weight: 1.0\nlm_weight: 1.0\n")
    (lm / "valid.loss.best.pth").write_bytes(b"lm")
    (data / "wav.scp").write_text("a /x/a.wav\nb /x/b.wav\n")
    (out / "text").write_text("a hello\nb world\n")
    info = {"model": str((exp / "valid.cer_ctc.best.pth").resolve()), "data": str(data.resolve()),
            "beam_size": 8, "ctc_weight": 1.0, "penalty": 0.0, "num_utts": 2, "ctm": "ok",
            "lm": {"lm_exp": str(lm.resolve()), "lm_weight": 1.0}}
    (out / "decode_info.json").write_text(json.dumps(info))
    past = time.time() - 60                      # inputs older than the decoding
    for f in (exp / "valid.cer_ctc.best.pth", lm / "valid.loss.best.pth", data / "wav.scp"):
        os.utime(f, (past, past))
    return exp, data, lm, out


def test_same_decoding_is_current(decoded):
    exp, data, lm, out = decoded
    assert decode_is_current(exp, data, out, lm_exp=lm)[0]
    assert decode_is_current(exp, data, out, lm_exp=lm, ctm=False, beam_size=8)[0]


@pytest.mark.parametrize("change, reason", [
    (dict(beam_size=4), "beam_size differs"),
    (dict(lm_exp=None), "lm differs"),
    (dict(lm_weight=0.5), "lm differs"),
    (dict(ctc_weight=0.3), "ctc_weight differs"),
    (dict(penalty=0.5), "penalty differs"),
])
def test_other_options_are_decoded_again(decoded, change, reason):
    exp, data, lm, out = decoded
    kw = {"lm_exp": lm, **change}
    ok, why = decode_is_current(exp, data, out, **kw)
    assert not ok and reason in why


def test_changed_inputs_or_missing_parts_are_decoded_again(decoded):
    exp, data, lm, out = decoded
    (lm / "valid.loss.best.pth").write_bytes(b"retrained")        # newer than decode_info.json
    ok, why = decode_is_current(exp, data, out, lm_exp=lm)
    assert not ok and "valid.loss.best.pth changed since" in why
    os.utime(lm / "valid.loss.best.pth", (0, 0))
    (data / "wav.scp").write_text("a /x/a.wav\nb /x/b.wav\nc /x/c.wav\n")
    os.utime(data / "wav.scp", (0, 0))
    assert "2 utterances decoded, the data has 3" in decode_is_current(exp, data, out, lm_exp=lm)[1]
    (data / "wav.scp").write_text("a /x/a.wav\nb /x/b.wav\n")
    os.utime(data / "wav.scp", (0, 0))
    info = json.loads((out / "decode_info.json").read_text())
    (out / "decode_info.json").write_text(json.dumps(dict(info, ctm="not requested")))
    assert decode_is_current(exp, data, out, lm_exp=lm, ctm=False)[0]
    assert decode_is_current(exp, data, out, lm_exp=lm)[1] == "no word timings"
    (out / "text").unlink()
    assert not decode_is_current(exp, data, out, lm_exp=lm, ctm=False)[0]
