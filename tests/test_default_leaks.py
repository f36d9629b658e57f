"""Leak hunt with DEFAULTS (bench/neutral_leaks.py): probe utterances with category words ("she has diabetes and the
pin is rainbow", "my password is tulipgarden and I have asthma"), a spoken e-mail, a spelled name, rare names and a
spoken phone number go through steps/tag_entities.sh, transform_text.sh, mask_words.sh + verify_masking.sh and
mask_spoken.sh + verify-spoken with every option at its default; no original sensitive word of any probe may appear
in any neutral output (text, the audio where the word was, the words of a spoken insert). Before the change the
silenced corpus kept all four category words in its text and audio and verify-masking reported 0 leaks; the spoken
fill said 13 originals and verify-spoken passed it (bench/results/neutral_leaks.md)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys

import pytest


@pytest.fixture(scope="module")
def nl(repo_root):
    spec = importlib.util.spec_from_file_location("neutral_leaks", repo_root / "bench" / "neutral_leaks.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_silence_with_default_steps_hides_every_probe(nl, repo_root, tmp_path):
    """tag (default detectors) -> mask-words -> verify-masking, each step with its defaults."""
    inp = nl.build(tmp_path / "in")
    r = nl.Runner(repo_root, tmp_path)
    r.run("steps/tag_entities.sh", inp["data"], "-", tmp_path / "tags")
    tags = tmp_path / "tags" / "tags.conll"
    r.run("steps/mask_words.sh", inp["data"], tags, inp["ctm"], tmp_path / "exp", tmp_path / "neutral")
    v = r.run("steps/verify_masking.sh", "--orig-data", inp["data"], tmp_path / "neutral", tags, inp["ctm"],
              tmp_path / "exp" / "verify")
    assert "leaks: audio 0, text 0" in v.stdout and "hidden types: all" in v.stdout, v.stdout
    text = nl.read_text(tmp_path / "neutral")
    assert nl.count_found(text) == {k: 0 for k in nl.KINDS}, text
    ctm = [(u, float(s), float(s) + float(d), w) for u, _, s, d, w in
           (ln.split() for ln in inp["ctm"].read_text().splitlines())]
    scp = dict(ln.split(" ", 1) for ln in (tmp_path / "neutral" / "wav.scp").read_text().splitlines())
    loud = [(utt, it) for _, utt, _, items in nl.PROBES for it in items
            if nl.audible(it, utt, scp[utt].strip(), ctm)]
    assert loud == []
    # the probe itself can fail: the original audio is loud where the words are
    orig = dict(ln.split(" ", 1) for ln in (inp["data"] / "wav.scp").read_text().splitlines())
    assert all(nl.audible(it, utt, orig[utt].strip(), ctm) for _, utt, _, items in nl.PROBES for it in items)


@pytest.mark.slow
def test_full_hunt_finds_no_original_in_any_neutral_output(nl, repo_root, tmp_path):
    """Both modes, the four transformations (default, tags equal to the originals, PER=keep, NUM=random_digits):
    every spoken fill either refuses (one line, nothing written) or verifies and says no original."""
    rep = nl.hunt(repo_root, tmp_path / "hunt")
    for kind, checks in rep["found"].items():
        assert all(v == 0 for v in checks.values()), (kind, checks)
    spoken = {k: v for k, v in rep["notes"].items() if k.startswith("mask-spoken")}
    assert spoken
    for k, v in spoken.items():
        if v.startswith("refused"):
            assert v.startswith("refused (0 wavs left)"), (k, v)
        else:
            assert "leaks: audio 0, uncovered entities 0, unverifiable 0, inserts saying an original 0" in v, (k, v)
    # a transformation that keeps the originals is never published
    for name in ("transformed tags = original tags", "PER=keep"):
        assert any(k.startswith(f"mask-spoken ({name}") and v.startswith("refused") for k, v in spoken.items())
