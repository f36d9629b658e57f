"""egs/librispeech/s5 stages 1-9 at tiny settings on ../shared/data/librispeech_mini (dev-clean-2: 3 speakers,
10 utterances): no stage is dead code. ESPnet small tier 1 epoch, x-vector mini config 1 epoch, McAdams.
Slow (ESPnet trainings and 5 x-vector attacks: several minutes on 2 cores): `pytest -m slow`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

SUBSET = "dev-clean-2"


@pytest.mark.slow
def test_librispeech_stages_1_to_9(recipe_copy, librispeech_mini_dir, tmp_path):
    rec = recipe_copy("librispeech", tmp_path / "s5")
    args = ["./run.sh", "--stage", "1", "--corpus-root", str(librispeech_mini_dir), "--asr-train-set", SUBSET,
            "--xvector-train-set", SUBSET, "--dev-set", SUBSET, "--test-set", SUBSET, "--num-enroll", "1",
            "--nj", "1", "--decode-nj", "1", "--voice-method", "mcadams", "--asr-config", "conf/asr/small.yaml",
            "--asr-ngpu", "0", "--asr-max-epoch", "1", "--xvector-config", "conf/xvector/mini.yaml",
            "--xvector-epochs", "1"]
    p = subprocess.run(args, cwd=rec, capture_output=True, text=True, timeout=3000)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-3000:]
    for stage in range(1, 10):
        assert f"stage {stage}:" in p.stdout, stage
    # stage 7: both ASR models decoded and scored on the test sets
    for d in ("exp/asr_original/decode_original_dev_clean_2", "exp/asr_neutral/decode_neutral_dev_clean_2_neutral",
              "exp/asr_neutral/decode_neutral_dev_clean_2"):
        res = json.loads((rec / d / "scoring" / "results.json").read_text())
        assert res["all"]["sents"] == 10 and res["all"]["wer"] is not None
    # stage 7: the pretrained Whisper meter on the same test set, original / converted / neutral, paired
    wt = json.loads((rec / "exp" / "utility" / "whisper.json").read_text())
    assert [r["condition"] for r in wt["rows"]] == ["original", "converted", "neutral"]
    assert wt["rows"][0]["utterances"] == 10 and wt["rows"][0]["whisper_wer"] < 30   # native read speech
    assert wt["rows"][1]["whisper_diff"]["utterances"] == 10
    # the neutral set paired with the original by its working ids (its published ids are keyed pseudonyms)
    assert 0 < wt["rows"][2]["whisper_diff"]["utterances"] == wt["rows"][2]["utterances"]
    # stage 8: every attacker scenario scored; the attackers' enrollment converted from original audio
    for name in ("original", "ignorant_mcadams", "lazy-informed_mcadams", "informed_mcadams",
                 "parameter-shifted_mcadams"):
        m = json.loads((rec / "exp" / "attack" / name / "scores" / "metrics.json").read_text())
        assert 0.0 <= m["backends"]["cosine"]["pooled"]["eer_pct"] <= 100.0
    # stage 9: the report tables
    results = (rec / "RESULTS.md").read_text()
    assert "WER" in results and "EER" in results
