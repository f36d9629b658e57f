"""steps/align_phones_for_vtln.sh and steps/transform_voice_vtln_outputs.sh --phone-ali-root (issue 19): the phone
alignment a phone-class VTLN config needs, made by the shared step every recipe calls, on the embedded corpus' espeak
speech (real pocketsphinx alignments of real files); and egs/mini/s5 converting and attacking with vtln:3_phanycmnw."""

from __future__ import annotations

import filecmp
import json
import os
import subprocess
from pathlib import Path

import pytest

from pydeid.io import DataDir


def _run(cwd, *args, ok=True):
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    p = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=900, env=env)
    if ok:
        assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return p


def _one_line_error(p) -> str:
    assert p.returncode != 0
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    return lines[0]


def _ctm(ali: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for ln in (ali / "phn_ali" / "ctm").read_text().splitlines():
        f = ln.split()
        out.setdefault(f[0], []).append(f[4])
    return out


@pytest.fixture
def rec(tmp_path, recipe_copy, mini_corpus):
    """A private mini recipe dir (steps/, utils/, conf/ linked) with one utterance of each of the tiny corpus' four
    enrolment speakers as data/src and three of each of its two target voices as data/mini_dev."""
    r = recipe_copy("mini", tmp_path / "s5")
    (r / "data").mkdir()
    for s, d, n in (("mini_test_enroll", "src", 1), ("mini_dev", "mini_dev", 3)):
        _run(r, "utils/subset_data_dir.sh", "--per-spk", n, mini_corpus / s, r / "data" / d)
    return r


def test_aligns_then_skips_then_realigns(rec):
    """Every utterance of espeak speech gets phones (vowels among them), a rerun keeps the alignment, a newer
    transcript file makes it again."""
    p = _run(rec, "steps/align_phones_for_vtln.sh", "data/src", "exp/align_ph/src")
    assert "(made): phone alignment of 4/4 utterances" in p.stdout, p.stdout
    ali = rec / "exp/align_ph/src"
    phones = _ctm(ali)
    assert sorted(phones) == sorted(DataDir.read(rec / "data/src").utts)
    vowels = {"IY", "IH", "EH", "EY", "AE", "AH", "ER", "AA", "AO", "OW", "UH", "UW", "AW", "AY", "OY"}
    assert all(len(vowels & {x.rstrip("012") for x in ph}) >= 3 for ph in phones.values()), phones
    assert not (rec / "exp/align_ph/src.tmp").exists()
    stamp = (ali / "report.json").stat().st_mtime_ns
    p = _run(rec, "steps/align_phones_for_vtln.sh", "data/src", "exp/align_ph/src")
    assert "(current)" in p.stdout and (ali / "report.json").stat().st_mtime_ns == stamp
    t = (ali / "report.json").stat().st_mtime + 5
    os.utime(rec / "data/src/text", (t, t))
    p = _run(rec, "steps/align_phones_for_vtln.sh", "data/src", "exp/align_ph/src")
    assert "(made)" in p.stdout and (ali / "report.json").stat().st_mtime_ns != stamp


def test_missing_transcripts_one_line_no_output(rec):
    (rec / "data/src/text").unlink()
    line = _one_line_error(_run(rec, "steps/align_phones_for_vtln.sh", "data/src", "exp/align_ph/src", ok=False))
    assert "data/src/text" in line and "transcripts" in line
    assert not (rec / "exp/align_ph/src").exists()
    line = _one_line_error(_run(rec, "steps/align_phones_for_vtln.sh", "--max-failed", "2", "data/mini_dev",
                                "exp/align_ph/mini_dev", ok=False))
    assert "--max-failed" in line and not (rec / "exp/align_ph/mini_dev").exists()


def test_failed_utterances_bounded_and_unlabelled(rec):
    """An utterance the aligner cannot align (punctuation-only transcript) is counted; beyond --max-failed the
    step fails in one line naming it and leaves no alignment; within it, its frames carry no phone class."""
    text = rec / "data/src/text"
    lines = text.read_text().splitlines()
    bad = lines[0].split()[0]
    text.write_text("\n".join([f"{bad} ..."] + lines[1:]) + "\n")
    line = _one_line_error(_run(rec, "steps/align_phones_for_vtln.sh", "--max-failed", "0.1", "data/src",
                                "exp/align_ph/src", ok=False))
    assert "failed on 1 of 4" in line and bad in line and "--max-failed 0.1" in line, line
    assert not (rec / "exp/align_ph/src").exists() and (rec / "exp/align_ph/src.tmp/report.json").is_file()
    p = _run(rec, "steps/align_phones_for_vtln.sh", "--max-failed", "0.25", "data/src", "exp/align_ph/src")
    assert "3/4 utterances" in p.stdout and "failed 1" in p.stdout
    from pydeid.voice.vtln.phone_classes import PhoneAlignment
    ali = PhoneAlignment.read(rec / "exp/align_ph/src")
    assert bad in ali.failed and (ali.frame_classes(bad, 200, 5.0) == -1).all()
    assert (ali.frame_classes(lines[1].split()[0], 200, 5.0) >= 0).any()


def test_vtln_outputs_variants_with_phone_alignment(rec):
    """One call with a k-means and a phone-class output: a pass per config, the alignments of the input and of the
    target voices made under --phone-ali-root, the phone-class pool beside the k-means one, and the phone-class
    audio bit-identical to steps/transform_voice.sh given the same alignments and config by hand."""
    _run(rec, "steps/transform_voice_vtln_outputs.sh", "--phone-ali-root", "exp/align_ph", "data/src", "data/mini_dev",
         "exp/voice/pool_s{seed}.npz", "3:0:data/src_k", "3_phanycmnw:0:data/src_ph")
    assert (rec / "exp/align_ph/src/phn_ali/ctm").is_file() and (rec / "exp/align_ph/mini_dev/phn_ali/ctm").is_file()
    assert sorted(p.name for p in (rec / "exp/voice").glob("pool_*.npz")) == ["pool_ph_s0.npz", "pool_s0.npz"]
    plans = {n: json.loads((rec / f"exp/voice/src_{n}/secrets/voice_plan.json").read_text())["params"]
             for n in ("k", "ph")}
    assert plans["ph"]["classes"] == "phones" and plans["k"].get("classes", "kmeans") != "phones"
    _run(rec, "steps/transform_voice.sh", "--method", "vtln", "--strategy", 3, "--seed", 0, "--target-data",
         "data/mini_dev", "--voice-config", "conf/voice/vtln_phanycmnw.yaml", "--ali-dir", "exp/align_ph/src",
         "--target-ali-dir", "exp/align_ph/mini_dev", "--pool-file", "exp/voice/pool_ph_s0.npz", "data/src",
         "exp/voice/byhand", "data/byhand")
    for u in DataDir.read(rec / "data/src").utts:
        assert filecmp.cmp(rec / f"data/src_ph/wav/{u}.wav", rec / f"data/byhand/wav/{u}.wav", shallow=False), u
        assert not filecmp.cmp(rec / f"data/src_ph/wav/{u}.wav", rec / f"data/src_k/wav/{u}.wav", shallow=False), u
    # finished outputs are skipped: no realignment, no conversion
    p = _run(rec, "steps/transform_voice_vtln_outputs.sh", "--phone-ali-root", "exp/align_ph", "data/src",
             "data/mini_dev", "exp/voice/pool_s{seed}.npz", "3:0:data/src_k", "3_phanycmnw:0:data/src_ph")
    assert p.stdout == "" and p.stderr == ""


@pytest.mark.parametrize("args, needle", [
    (["3_nosuch:0:data/x"], "conf/voice/vtln_nosuch.yaml"),
    (["--voice-config", "conf/voice/vtln.yaml", "3_phanycmnw:0:data/x"], "exclude each other"),
    (["4:0:data/x"], "must be 1, 2 or 3"),
    (["3:0"], "expected <strategy>:<seed>:<out-data>"),
])
def test_vtln_outputs_bad_specs_one_line(rec, args, needle):
    opts = [a for a in args if a.startswith("--") or a.startswith("conf/")]
    specs = [a for a in args if a not in opts]
    p = _run(rec, "steps/transform_voice_vtln_outputs.sh", *opts, "--phone-ali-root", "exp/align_ph", "data/src",
             "data/mini_dev", "exp/voice/pool_s{seed}.npz", *specs, ok=False)
    assert needle in _one_line_error(p)
    assert not (rec / "data/x").exists() and not (rec / "exp").exists()


@pytest.mark.slow
def test_mini_recipe_phone_class_config(tmp_path, recipe_copy):
    """egs/mini/s5 at tiny size with --voice-configs "vtln:3 vtln:3_phanycmnw": stage 4 aligns every set it converts
    with the phone-class config (published test set, the attackers' enrolment and training subsets) and the target
    voices, stage 7 attacks both conversions (~3 CPU-min)."""
    pytest.importorskip("espeakng_loader")
    r = recipe_copy("mini", tmp_path / "s5")
    _run(r, "./run.sh", "--stage", 0, "--stop-stage", 0, "--size", "tiny", "--nj", 1)
    vc = ["--voice-configs", "vtln:3 vtln:3_phanycmnw", "--nj", 1]
    _run(r, "./run.sh", "--stage", 4, "--stop-stage", 4, *vc)
    for s in ("mini_test", "mini_test_enroll", "mini_train_xv", "mini_dev"):
        assert (r / f"exp/align_ph/{s}/phn_ali/ctm").is_file(), s
    assert not (r / "exp/align_ph/mini_train").exists()     # only what the phone-class conversions need
    for d in ("mini_test_vtln3_phanycmnw", "mini_test_trial_vtln3_phanycmnw", "mini_test_enroll_vtln3_phanycmnw_s1",
              "mini_train_xv_vtln3_phanycmnw_s1", "mini_test_vtln3", "mini_test_enroll_vtln3_s1"):
        assert (r / "data" / d / "wav.scp").is_file(), d
    plan = json.loads((r / "exp/voice/mini_test_vtln3_phanycmnw/secrets/voice_plan.json").read_text())
    assert plan["params"]["classes"] == "phones" and plan["strategy"] == 3
    _run(r, "./run.sh", "--stage", 7, "--stop-stage", 7, *vc)
    for sc in ("ignorant", "lazy-informed", "semi-informed"):
        assert (r / f"exp/attack/{sc}_vtln3_phanycmnw/scores/metrics.json").is_file(), sc
    assert "vtln3_phanycmnw" in (r / "RESULTS.md").read_text()


@pytest.mark.slow
def test_librispeech_recipe_phone_class_strategy(librispeech_mini_dir, tmp_path, recipe_copy):
    """egs/librispeech/s5 stages 1-5 on the real 3-speaker sample with --voice-strategy 3_phanycmnw: every set it
    converts (published, the attackers' own and parameter-shifted conversions) and the target voices are aligned
    into exp/align_ph and converted with phone classes; the shifted attacker keeps its -T 10 pool."""
    sub = "dev-clean-2"
    r = recipe_copy("librispeech", tmp_path / "s5")
    _run(r, "./run.sh", "--stage", 1, "--stop-stage", 5, "--corpus-root", librispeech_mini_dir, "--asr-train-set", sub,
         "--xvector-train-set", sub, "--dev-set", sub, "--test-set", sub, "--num-enroll", 1, "--nj", 1,
         "--voice-method", "vtln", "--voice-strategy", "3_phanycmnw")
    conv = sorted(p.parent.parent.name for p in (r / "exp/voice").glob("*/secrets/voice_plan.json"))
    assert len(conv) >= 4 and any(c.endswith("_ps") for c in conv), conv
    for c in conv:
        plan = json.loads((r / "exp/voice" / c / "secrets/voice_plan.json").read_text())
        assert plan["params"]["classes"] == "phones" and plan["strategy"] == 3, c
        assert (r / "data" / c / "wav.scp").is_file(), c
    assert (r / "exp/align_ph/dev_clean_2/phn_ali/ctm").is_file()
    pools = {p.name: json.loads(p.read_text()) for p in (r / "exp/voice").glob("pool_*_ph_s*.npz.json")}
    assert {k["max_targets"] for k in pools.values()} == {100, 10}
    assert all(k["classes"] == "phones" for k in pools.values())
