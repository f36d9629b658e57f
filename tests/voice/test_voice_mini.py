"""transform-voice on the embedded corpus: every side file of the data contract survives, VTLN moves each
speaker's F0 to the gender of its target."""

from __future__ import annotations

import filecmp
import json

import numpy as np

from pydeid.io import DataDir, validate_data_dir
from test_voice_cli import all_text, cli
from voice_helpers import median_f0


def test_mini_vtln_strategy2(mini_corpus, tmp_path):
    src, tgt = mini_corpus / "mini_test_enroll", mini_corpus / "mini_dev"     # 4 sources, pool of 2 (f, m)
    # default rule: every target has its source speaker's gender
    cli("transform-voice", "--method", "vtln", "--strategy", "2", "--target-data", tgt, "--exp-dir",
        tmp_path / "exp_same", "--part", "plan", src, tmp_path / "same")
    same = json.loads((tmp_path / "exp_same" / "secrets" / "voice_plan.json").read_text())
    s0, t0 = DataDir.read(src), DataDir.read(tgt)
    assert same["target_gender"] == "same" and "target_gender_fallback" not in same
    assert all(s0.spk2gender[spk] == t0.spk2gender[t] for spk, t in same["spk2target"].items())
    # --target-gender any: cross-gender pairs, whose F0 must move to the target's gender
    out, exp = tmp_path / "mini_test_enroll_vtln", tmp_path / "exp"
    cli("transform-voice", "--method", "vtln", "--strategy", "2", "--target-data", tgt, "--exp-dir", exp,
        "--target-gender", "any", src, out)
    validate_data_dir(out, check_audio=True)
    for f in src.iterdir():
        if f.is_file() and f.name not in ("wav.scp", "spk2utt"):
            assert filecmp.cmp(f, out / f.name, shallow=False), f.name   # trials, tags.conll, words.ctm, ...
    s, o, t = DataDir.read(src), DataDir.read(out), DataDir.read(tgt)
    text = all_text(out)
    assert not any(p in text for p in s.wav_scp.values())
    plan = json.loads((exp / "secrets" / "voice_plan.json").read_text())
    cross = 0
    for spk, utts in s.spk2utt.items():
        target = plan["spk2target"][spk]
        ratios = [median_f0(o.load_audio(u)) / median_f0(s.load_audio(u)) for u in utts[:2]]
        src_g, tgt_g = s.spk2gender[spk], t.spk2gender[target]
        if (src_g, tgt_g) == ("m", "f"):
            assert np.mean(ratios) > 1.2, (spk, target, ratios)
            cross += 1
        elif (src_g, tgt_g) == ("f", "m"):
            assert np.mean(ratios) < 0.85, (spk, target, ratios)
            cross += 1
        for u in utts:
            assert len(o.load_audio(u)) == len(s.load_audio(u))
    assert cross >= 1, plan["spk2target"]   # the seed gives at least one cross-gender pair to check


def test_mini_mcadams_and_voicemask(mini_corpus, tmp_path):
    src = mini_corpus / "mini_test_enroll"
    for method in ("mcadams", "voicemask"):
        out = tmp_path / method
        cli("transform-voice", "--method", method, "--exp-dir", tmp_path / f"exp_{method}", src, out)
        validate_data_dir(out, check_audio=True)
        s, o = DataDir.read(src), DataDir.read(out)
        for u in s.utts[:4]:
            x, y = s.load_audio(u), o.load_audio(u)
            assert len(x) == len(y) and np.all(np.isfinite(y))
            assert np.max(np.abs(y)) <= min(np.max(np.abs(x)), 0.99) + 1e-3   # 16-bit rounding
            assert not np.allclose(x, y, atol=1e-2)
