"""egs/mini/s5 local/mini/spoken_pseudonyms.sh stages 1-2 at tiny size (issue 20): a --variant with its own text
strategy transforms the three sets itself, fills every masked interval with the spoken surrogates and verifies the
fill; the published transcript is the variant's transformed text, every word of it timed in words.ctm, in order,
and the verifier finds no foreign sample. The converted voices stage 5 would make are stood in for by a copy of
the original voices (the fill after the conversion reads any voices; the conversion has its own tests)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from pydeid.io import DataDir, read_ctm
from pydeid.io.ctm import ctm_by_utt


def _sh(rec, *args, ok=True):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    p = subprocess.run(list(map(str, args)), cwd=rec, capture_output=True, text=True, timeout=900, env=env)
    if ok:
        assert p.returncode == 0, " ".join(map(str, args)) + "\n" + p.stdout[-3000:] + p.stderr[-3000:]
    return p


@pytest.mark.slow   # ~1 min on 2 cores: 80 tiny turns filled and every insert rendered again by the verifier
def test_spoken_pseudonyms_variant_stages_1_2(recipe_copy, tmp_path):
    pytest.importorskip("espeakng_loader")
    rec = recipe_copy("mini", tmp_path / "s5")
    _sh(rec, "local/mini/prepare_data.sh", "--size", "tiny", "--nj", "1", "data")
    sets = ("mini_train", "mini_dev", "mini_test")
    # without the converted voices the script names the stage that makes them and builds nothing
    p = _sh(rec, "local/mini/spoken_pseudonyms.sh", "--stage", "1", "--stop-stage", "2", ok=False)
    assert p.returncode == 1 and "missing data/mini_train_vtln3" in p.stderr and "run.sh stages 0-6" in p.stderr
    for s in sets:
        shutil.copytree(rec / "data" / s, rec / "data" / f"{s}_vtln3")
    strategy = "PER=pseudonymize,NUM=random_digits,default=surrogate"   # a corpus-drawn default would be refused by the fill
    _sh(rec, "local/mini/spoken_pseudonyms.sh", "--nj", "1", "--stage", "1", "--stop-stage", "2", "--variant", "fe",
        "--text-strategy", strategy, "--results", "R.md")
    for s in sets:
        orig = DataDir.read(rec / "data" / s)
        trans = DataDir.read(rec / "data" / f"{s}_text_spokenafter_fe")
        out = DataDir.read(rec / "data" / f"{s}_spokenafter_fe")
        assert out.utts == orig.utts
        ctm = ctm_by_utt(read_ctm(rec / "data" / f"{s}_spokenafter_fe" / "words.ctm"))
        changed = 0
        for u in out.utts:
            toks = out.text[u].split()
            assert toks == trans.text[u].split()                      # the variant's transformed text
            assert [w.token for w in ctm.get(u, [])] == toks           # every word timed, in order
            ends = [(w.start, w.end) for w in ctm.get(u, [])]
            tol = 1e-3 + 1e-9   # the CTM's 1 ms resolution (start and duration rounded apart), float error aside
            assert all(e1 <= s2 + tol for (_, e1), (s2, _) in zip(ends, ends[1:]))
            assert all(e <= out.utt2dur[u] + tol for _, e in ends)
            changed += toks != orig.text[u].split()
        assert changed >= len(out.utts) // 2
        # the secrets (plans, pseudonym map) are under exp/secrets, never in the corpus
        assert not any("spoken_plan" in str(f) for f in (rec / "data" / f"{s}_spokenafter_fe").rglob("*"))
        assert any((rec / "exp" / "secrets" / "spokenafter_fe" / s / "spoken_plan").iterdir())
    res = (rec / "R.md").read_text()
    rows = [ln for ln in res.splitlines() if "fill after conversion, fe" in ln]
    assert len(rows) == 3 and all(ln.split("|")[6].strip() == "0" for ln in rows), rows   # 0 foreign samples
    # a rerun with the same options resumes (no utterance filled again); with other fill options mask-spoken refuses
    # the fill made otherwise (its spoken_config.json) instead of the recipe publishing it
    _sh(rec, "local/mini/spoken_pseudonyms.sh", "--nj", "1", "--stage", "2", "--stop-stage", "2", "--variant", "fe",
        "--text-strategy", strategy, "--results", "R.md")
    rep = json.loads((rec / "exp" / "spokenafter_fe" / "mini_test" / "report.json").read_text())
    assert rep["written"] == 0 and rep["resumed"] == rep["utterances"] > 0, rep
    p = _sh(rec, "local/mini/spoken_pseudonyms.sh", "--nj", "1", "--stage", "2", "--stop-stage", "2", "--variant", "fe",
            "--text-strategy", strategy, "--results", "R.md", "--fill-opts", "--accents en-us", ok=False)
    assert p.returncode == 1 and "Traceback" not in p.stderr, p.stderr
    assert "data/mini_train_spokenafter_fe/wav/spoken_config.json" in p.stderr and "other options" in p.stderr, p.stderr
