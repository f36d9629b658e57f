"""steps/train_asr.sh -> steps/decode_asr.sh -> steps/score.sh on the embedded mini corpus, as a recipe runs them.

Default run: a short training of the small tier on the tiny mini corpus (CI time): the mechanics (ESPnet exp
layout, hypotheses for every utterance, hypothesis CTM inside the audio, RESULTS.md sections, per-gender WER)
and that the model learns (validation accuracy rises above its first-epoch value).
Slow run (-m slow): the small tier trained fully on the default-size mini corpus; its test WER must stay far
below 100% (regression guard; the measured figure is in the README/RESULTS).
"""

import json

import pytest

from pydeid.io import DataDir, read_ctm, read_kaldi_map

from asr_helpers import REPO, run_step

SMALL = str(REPO / "conf" / "asr" / "small.yaml")


def _check_decode(data, dec):
    d = DataDir.read(data)
    hyps = read_kaldi_map(dec / "text", require_value=False)
    assert set(hyps) == set(d.utts)
    info = json.loads((dec / "decode_info.json").read_text())
    assert info["num_utts"] == len(d.utts) and info["rtf"] > 0
    ctm = read_ctm(dec / "hyp.ctm")
    assert info["ctm"].startswith("ok")
    durs = {u: float(v) for u, v in read_kaldi_map(data / "utt2dur").items()}
    for e in ctm:
        assert 0 <= e.start and e.end <= durs[e.utt] + 0.1, e
    by_utt = {}
    for e in ctm:
        by_utt.setdefault(e.utt, []).append(e.token)
    for u, toks in by_utt.items():
        assert toks == hyps[u].split()
    return hyps


def test_train_decode_score_small(mini_corpus, tmp_path):
    train, dev, test = mini_corpus / "mini_train", mini_corpus / "mini_dev", mini_corpus / "mini_test"
    exp = tmp_path / "exp" / "asr_small"
    # 32 training utterances: smaller batches, a short warm-up and no SpecAugment so that 8 epochs show learning
    run_step(["steps/train_asr.sh", "--asr-config", SMALL, "--max-epoch", "8",
              "--espnet-args", "--batch_size 4 --scheduler_conf warmup_steps=20 --specaug none",
              str(train), str(dev), str(exp)])
    for f in ("config.yaml", "valid.cer_ctc.best.pth", "checkpoint.pth", "textnorm.json", "tokens/tokens.txt",
              "stats/train/feats_stats.npz", "log/train.log", "RESULTS.md", "decode.yaml"):
        assert (exp / f).exists(), f
    summ = json.loads((exp / "train_summary.json").read_text())
    assert summ["num_epochs"] == 8
    cers = [e["valid_cer_ctc"] for e in summ["epochs"]]
    assert min(cers) < cers[0] - 0.05, cers  # it learns (CTC-only tier: no attention accuracy)
    assert summ["best_valid_cer_ctc"] == min(cers)

    # a character LM of the same transcripts, with the model's token list
    lm = tmp_path / "exp" / "lm_small"
    run_step(["steps/train_lm.sh", "--max-epoch", "2", str(exp), str(lm)])
    assert (lm / "valid.loss.best.pth").exists()
    lm_summ = json.loads((lm / "train_summary.json").read_text())
    assert lm_summ["num_epochs"] == 2 and lm_summ["best_valid_ppl"] > 1
    # the targets are normalised: lower case, no punctuation
    text = (exp / "data" / "train" / "text").read_text()
    assert text == text.lower()

    dec = exp / "decode_mini_test"
    run_step(["steps/decode_asr.sh", "--nj", "1", "--beam-size", "2", "--lm-exp", str(lm), str(exp), str(test),
              str(dec)])
    hyps = _check_decode(test, dec)
    info = json.loads((dec / "decode_info.json").read_text())
    assert (info["beam_size"], info["ctc_weight"]) == (2, 1.0)  # option over the tier's decode.yaml default
    assert info["model"].endswith("valid.cer_ctc.best.pth")  # the tier's criterion picks the checkpoint
    assert info["lm"] == {"lm_exp": str(lm), "lm_weight": 1.0}
    # ASR output as a data dir (text transformation / masking on ASR transcripts, seed 004 section 5.2)
    from pydeid.asr.decode import hyp_data_dir
    hd = DataDir.read(hyp_data_dir(test, dec, tmp_path / "mini_test_asr"))
    assert hd.text == {u: hyps[u] for u in hd.utts} and hd.wav_scp == DataDir.read(test).wav_scp
    assert [e.token for e in read_ctm(tmp_path / "mini_test_asr" / "words.ctm")] == \
        [w for u in hd.utts for w in hyps[u].split()]
    p = run_step(["steps/score.sh", str(test), str(dec)])
    assert "%WER" in p.stdout
    res = json.loads((dec / "scoring" / "results.json").read_text())
    assert {"all", "m", "f"} <= set(res)
    assert res["all"]["words"] == sum(len(t.split()) for t in DataDir.read(test).text.values())
    assert res["all"]["cer"] > 0  # the WER figure itself is guarded by the slow test on the default-size corpus
    md = (exp / "RESULTS.md").read_text()
    assert "asr-train" in md and "asr-score-asr_small-decode_mini_test" in md
