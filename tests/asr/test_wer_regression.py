"""Regression guard of the small tier's utility (slow run): steps/train_asr.sh,
steps/train_lm.sh, steps/decode_asr.sh and steps/score.sh on a CI-sized mini corpus (24 training voices x 8
turns, 4 unseen test voices), as the recipe runs them. The WER on the unseen voices must stay far below 100%.
The figure of the full-size demo corpus is in egs/mini/s5/RESULTS.md (slow test: tests/asr/test_slow.py)."""

import json

import pytest

from asr_helpers import REPO, run_step

SMALL = str(REPO / "conf" / "asr" / "small.yaml")
MAX_WER = 70.0  # measured: see the note in bench/asr_results_mini.md (CI corpus)


# slow: trains the small ESPnet tier with its LM (4-5 CPU-min); test_pipeline keeps a short training in the default run
@pytest.mark.slow
def test_small_tier_with_lm_wer_far_below_100(asr_mini, tmp_path):
    m = asr_mini
    exp, lm, dec = tmp_path / "asr_small", tmp_path / "lm_small", tmp_path / "asr_small" / "decode_mini_test"
    run_step(["steps/train_asr.sh", "--asr-config", SMALL, str(m / "mini_train"), str(m / "mini_dev"), str(exp)])
    run_step(["steps/train_lm.sh", str(exp), str(lm)])
    run_step(["steps/decode_asr.sh", "--nj", "2", "--ctm", "false", "--lm-exp", str(lm), str(exp),
              str(m / "mini_test"), str(dec)])
    run_step(["steps/score.sh", str(m / "mini_test"), str(dec)])
    res = json.loads((dec / "scoring" / "results.json").read_text())["all"]
    assert res["sents"] == 32
    print(f"small tier + LM on unseen voices: WER {res['wer']:.1f}% CER {res['cer']:.1f}%")
    assert res["wer"] < MAX_WER, res
