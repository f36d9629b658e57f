"""egs/speechocean762/s5 --espnet true (stage 5b): the ESPnet ASR of the mini recipe trained on the corpus's original
and neutral training data, decoded on the utility subset original / converted / masked; its table in the report."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pydeid.report.speechocean_report import build_report, espnet_results, read_stage_times, render
from pydeid.io import FormatError, read_kaldi_map

from test_speechocean_recipe import SHARED  # noqa: E402


def _per_utt(d: Path, rows: list[tuple[str, int, int]]):
    """A decode dir's scoring/per_utt as pydeid asr-score writes it: (utt, words, substitutions)."""
    (d / "scoring").mkdir(parents=True)
    (d / "scoring" / "per_utt").write_text("".join(f"{u} words={w} sub={s} del=0 ins=0\n  ref: x\n  hyp: y\n"
                                                   for u, w, s in rows))


def _fake_run(tmp_path: Path) -> tuple[Path, Path]:
    """data/ and exp/ of a run with 2 test speakers (4 utterances of 5 words in the utility subset)."""
    d, exp = tmp_path / "data", tmp_path / "exp"
    for sub, name, text in (("test_trial", "trials", "s1 u1 target\ns2 u1 nontarget\n"),
                            ("test_enroll", "spk2gender", "s1 f\ns2 m\n"), ("test_trial", "utt2gender", "u1 f\n"),
                            ("test_trial", "utt2spk", "u1 s1\n"),
                            ("test_wer", "utt2spk", "u1 s1\nu2 s1\nu3 s2\nu4 s2\n"),
                            ("train_asr", "utt2spk", "t1 a\nt2 a\nt3 b\n"), ("dev_asr", "utt2spk", "d1 a\n"),
                            ("train_asr_neutral", "utt2spk", "t1 a\nt3 b\n")):
        (d / sub).mkdir(parents=True, exist_ok=True)
        (d / sub / name).write_text(text)
    utts = ["u1", "u2", "u3", "u4"]
    for lm, conds in (("general", ["test_wer", "test_wer_vtln3"]),
                      ("train", ["test_wer", "test_wer_vtln3", "test_wer_vtln3_masked"])):
        for c in conds:
            _per_utt(exp / "ps" / f"decode_{lm}_{c}", [(u, 4 if c.endswith("masked") else 5, 2) for u in utts])
    # ESPnet: the original model makes 1 error in 5 words on original speech, 3 on converted; the neutral one 2
    for model, errs in (("original", (1, 3, 3)), ("neutral", (2, 2, 2))):
        for c, e in zip(("test_wer", "test_wer_vtln3", "test_wer_vtln3_masked"), errs):
            w = 4 if c.endswith("masked") else 5   # one word masked in each utterance
            _per_utt(exp / f"asr_small_{model}" / f"decode_{c}", [(u, w, e) for u in utts])
        (exp / f"asr_small_{model}").joinpath("config.yaml").write_text("batch_size: 8\nmax_epoch: 20\n")
    (exp / "stage_times.tsv").write_text("stage\twall_s\tcpu_s\tfinished\n5\t60\t50.0\t2026-11-24T05:01:00\n"
                                         "5b\t900\t1230.0\t2026-11-24T05:16:00\n")
    (exp / "mask" / "train_vtln3").mkdir(parents=True)
    (exp / "mask" / "train_vtln3" / "report.json").write_text(json.dumps({"entities": 7, "dropped": 1}))
    return d, exp


def test_espnet_table(tmp_path):
    d, exp = _fake_run(tmp_path)
    rep = build_report(d, exp, ["vtln:3"], ["general", "train"], n_boot=50, partial=True, espnet=("small", "vtln3"))
    e = rep["espnet"]
    assert e["wer"]["original:test_wer"]["wer_pct"] == pytest.approx(20.0)
    assert e["wer"]["original:test_wer_vtln3"]["wer_pct"] == pytest.approx(60.0)
    assert e["wer"]["neutral:test_wer_vtln3_masked"]["wer_pct"] == pytest.approx(50.0)
    assert e["wer"]["neutral:test_wer_vtln3_masked"]["words"] == 16
    assert e["train"] == {"original_utts": 3, "neutral_utts": 2, "dev_utts": 1, "speakers": 2, "masked_entities": 7,
                          "dropped_untimed": 1, "original_epochs": 20, "neutral_epochs": 20}
    title, md = render(rep, ["vtln:3"], ["general", "train"])["so-espnet-wer"]
    assert "ESPnet" in title
    lines = md.splitlines()
    assert "WER original (4 utts, 20 words)" in lines[0] and "WER VTLN S3 + masked (4 utts, 16 words)" in lines[0]
    row = next(ln for ln in lines if ln.startswith("| ESPnet small, trained on original"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[0] == "ESPnet small, trained on original speech (3 utts)"
    assert [c.split()[0] for c in cells[1:]] == ["20.0", "60.0", "75.0"]
    for c in cells[1:]:   # every rate with its interval, the rate inside it
        m = re.fullmatch(r"(\d+\.\d) \[(\d+\.\d), (\d+\.\d)\]", c)
        assert m and float(m.group(2)) <= float(m.group(1)) <= float(m.group(3)), c
    ps = next(ln for ln in lines if ln.startswith("| pocketsphinx en-us, general LM"))
    assert ps.rstrip(" |").endswith("n/a")   # the general LM does not decode the masked sets
    assert "7 tagged entities silenced and removed, 1 utterances dropped" in md and "20 epochs" in md
    assert "Stage 5b: 20.5 CPU-min (user+sys), 15.0 min of wall over 1 invocation (exp/stage_times.tsv)." in md
    # without --espnet there is no such table; a missing decoding is an error naming it unless partial
    plain = build_report(d, exp, ["vtln:3"], ["general", "train"], n_boot=10, partial=True)
    assert "espnet" not in plain and "so-espnet-wer" not in render(plain, ["vtln:3"], ["general", "train"])
    shutil.rmtree(exp / "asr_small_neutral" / "decode_test_wer")
    with pytest.raises(FormatError, match="asr_small_neutral/decode_test_wer/scoring/per_utt: missing"):
        espnet_results(d, exp, "small", "vtln3", read_kaldi_map(d / "test_wer" / "utt2spk"), 10, 0)
    rep = build_report(d, exp, ["vtln:3"], ["general", "train"], n_boot=10, partial=True, espnet=("small", "vtln3"))
    assert rep["espnet"]["wer"]["neutral:test_wer"] is None
    with pytest.raises(FormatError, match="mcadams is not one of the voice configs"):
        build_report(d, exp, ["vtln:3"], ["general"], n_boot=10, partial=True, espnet=("small", "mcadams"))


def test_stage_times_order_5b(tmp_path):
    f = tmp_path / "stage_times.tsv"
    f.write_text("stage\twall_s\tcpu_s\tfinished\n" + "".join(f"{s}\t1\t1.0\t2026-11-24T05:0{i}:00\n"
                                                              for i, s in enumerate(["7", "5b", "10", "5", "0"])))
    assert [r["stage"] for r in read_stage_times(f)] == ["0", "5", "5b", "7", "10"]


@pytest.mark.parametrize("args, message", [
    (["--neutral-voice", "mcadams:-"], "--neutral-voice mcadams:- is not one of --voice-configs (vtln:3)"),
    (["--asr-max-epoch", "x"], "--asr-max-epoch must be a whole number, not 'x'"),
    (["--asr-dev-per-spk", "0"], "--asr-dev-per-spk must be >= 1"),
])
def test_espnet_options_are_checked(repo_root, tmp_path, args, message, recipe_copy):
    rec = recipe_copy("speechocean762", tmp_path / "s5")
    p = subprocess.run(["./run.sh", "--voice-configs", "vtln:3", "--espnet", "true", "--neutral-voice", "vtln:3", *args,
                        "--stop-stage", "0"],
                       cwd=rec, capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and p.stderr.strip().endswith(message), p.stderr
    assert not (rec / "data").exists()


def test_espnet_chain_refused(repo_root, tmp_path, recipe_copy):
    rec = recipe_copy("speechocean762", tmp_path / "s5")
    p = subprocess.run(["./run.sh", "--voice-configs", "vtln:3 mcadams:vtln3", "--espnet", "true", "--neutral-voice",
                        "mcadams:vtln3", "--stop-stage", "0"], cwd=rec, capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "a chained conversion cannot be the neutral voice" in p.stderr, p.stderr


@pytest.mark.slow
def test_tiny_recipe_espnet(repo_root, tmp_path, recipe_copy):
    """Stages 0-5b and the report at tiny settings (6 + 6 speakers, 8 utterances each, McAdams as the published
    method, 2 ASR and 2 LM epochs): both models train, the neutral one on converted and masked audio only, each
    decodes the three utility sets, and the report holds the ESPnet table with intervals."""
    root = SHARED / "speechocean762_adults"
    if not root.is_dir():
        pytest.skip(f"real data subset {root} is absent (read in place from ../shared/data, never committed)")
    rec = recipe_copy("speechocean762", tmp_path / "s5")
    args = ["./run.sh", "--size", "tiny", "--corpus-root", str(root), "--voice-configs", "mcadams:-",
            "--general-lm", "false", "--bootstrap", "50", "--nj", "2", "--espnet", "true",
            "--neutral-voice", "mcadams:-", "--stop-stage", "5"]
    p = subprocess.run(args, cwd=rec, capture_output=True, text=True, timeout=2400)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    data = rec / "data"

    def utts(name):
        return set(read_kaldi_map(data / name / "utt2spk"))
    # the ASR's own split of the train speakers: 2 of each speaker's 8 utterances for validation
    assert len(utts("dev_asr")) == 12 and len(utts("train_asr")) == 36
    assert not utts("dev_asr") & utts("train_asr") and utts("dev_asr") | utts("train_asr") == utts("train")
    assert not utts("train") & utts("test")
    # the neutral training data: the publisher's conversion, masked; never the original audio
    # published with pseudonymous ids: the same split through the secret id map, no original id
    from pydeid.io.pseudonyms import read_id_map
    pseudo = read_id_map(rec / "exp" / "secrets", data / "train_neutral")["utterances"]
    assert utts("train_asr_neutral") and utts("train_asr_neutral") <= {pseudo[u] for u in utts("train_asr") if u in pseudo}
    assert not utts("train_asr_neutral") & utts("train")
    orig_wavs = set(read_kaldi_map(data / "train" / "wav.scp").values())
    assert not orig_wavs & set(read_kaldi_map(data / "train_asr_neutral" / "wav.scp").values())
    assert "train_neutral/wav/" in (data / "train_asr_neutral" / "wav.scp").read_text()
    exp = rec / "exp"
    # the models' transcripts: their own training data (the neutral one's with the tagged words removed)
    assert (exp / "asr_small_neutral" / "data" / "train" / "text").is_file()
    for model in ("original", "neutral"):
        for c in ("test_wer", "test_wer_mcadams", "test_wer_mcadams_masked"):
            assert (exp / f"asr_small_{model}" / f"decode_{c}" / "scoring" / "per_utt").is_file(), (model, c)
    assert "5b" in [r["stage"] for r in read_stage_times(exp / "stage_times.tsv")]
    # the report of these decodings (stage 7 needs the attacks of stage 6: the table alone here)
    rep = build_report(data, exp, ["mcadams:-"], ["train"], n_boot=20, partial=True, espnet=("small", "mcadams"))
    w = rep["espnet"]["wer"]
    assert all(w[k] is not None and w[k]["utterances"] == 12 for k in w), w
    assert w["original:test_wer"]["words"] == w["original:test_wer_mcadams"]["words"] > 0
    md = render(rep, ["mcadams:-"], ["train"])["so-espnet-wer"][1]
    assert re.search(r"\| ESPnet small, trained on neutral speech \(McAdams, masked; \d+ utts\) +\| \d+\.\d \[", md)
