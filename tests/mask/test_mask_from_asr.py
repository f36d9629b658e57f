"""steps/mask_from_asr.sh (the chain of --transcripts asr): Whisper's hypothesis tagged, masked at Whisper's word
times, verified on them, and its audio entity recall scored against the mini corpus's gold tags and times.
Slow (Whisper tiny.en and spaCy on 4 utterances): `pytest -m slow`."""

from __future__ import annotations

import json
import subprocess

import pytest


@pytest.mark.slow
def test_mask_from_asr_on_mini(repo_root, tmp_path):
    env_run = lambda *a: subprocess.run(["bash", "-c", ". ./path.sh; " + " ".join(a)], cwd=repo_root,  # noqa: E731
                                        capture_output=True, text=True, timeout=1800)
    p = env_run("local/mini/prepare_data.sh", "--size", "tiny", "--nj", "1", str(tmp_path / "mini"))
    assert p.returncode == 0, p.stderr[-2000:]
    p = env_run("utils/subset_data_dir.sh", "--first", "4", str(tmp_path / "mini/mini_test"), str(tmp_path / "src"))
    assert p.returncode == 0, p.stderr[-2000:]
    p = env_run("steps/mask_from_asr.sh", "--gold-tags", str(tmp_path / "mini/mini_test/tags.conll"), "--gold-ctm",
                str(tmp_path / "mini/mini_test/words.ctm"), str(tmp_path / "src"), str(tmp_path / "src"),
                str(tmp_path / "exp"), str(tmp_path / "neutral"))
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "leaks: audio 0, text 0" in p.stdout
    r = json.loads((tmp_path / "exp/recall.json").read_text())
    assert r["utterances"] == 4 and r["sensitive_tokens"] > 0 and 0 <= r["recall_pct"] <= 100
    # the published text is the hypothesis minus the detected words, never the reference
    hyp = (tmp_path / "exp/hyp_data/text").read_text().split("\n")[0].split()[1:]
    pub = (tmp_path / "neutral/text").read_text().split("\n")[0].split()[1:]
    assert set(pub) <= set(hyp)
    # the words Whisper was unsure of (default --hide-below-conf 0.7) are hidden like entities: each tagged in
    # hide.conll is gone from the published text
    from pydeid.io.conll import read_conll
    sents = read_conll(tmp_path / "exp/tags/hide.conll")
    assert any(c.startswith("unsure = ") for s in sents for c in s.comments)  # tiny.en on espeak is often unsure
    published = {ln.split(" ", 1)[0]: ln.split()[1:] for ln in (tmp_path / "neutral/text").read_text().splitlines()}
    for s in sents:
        hidden = {t for t, g in zip(s.tokens, s.tags) if g != "O"}
        kept = {t for t, g in zip(s.tokens, s.tags) if g == "O"}
        assert not hidden & (set(published.get(s.id, [])) - kept), s.id
