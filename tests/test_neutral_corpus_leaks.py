"""End-to-end leak hunt on a neutral corpus built like the learning branch builds it (seed 004 section 5.2):
converted voices (VTLN, strategy 3) -> tagged words silenced and removed -> published data dir.

The neutral corpus must never contain an original sensitive token, an original voice, a pseudonym map or
speaker-target assignment, or an original audio path. Each check below looks for one of these.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import pyworld
import soundfile as sf

from pydeid.io import DataDir, read_conll, read_ctm


def _pydeid(*args):
    proc = subprocess.run([sys.executable, "-m", "pydeid", *map(str, args)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


@pytest.fixture(scope="module")
def neutral(mini_corpus, tmp_path_factory):
    work = tmp_path_factory.mktemp("neutral")
    src = mini_corpus / "mini_test"
    conv = work / "data" / "mini_test_vtln3"
    _pydeid("transform-voice", "--method", "vtln", "--strategy", "3", "--target-data", mini_corpus / "mini_dev",
            "--seed", "0", "--exp-dir", work / "exp" / "voice", src, conv)
    out = work / "data" / "mini_test_neutral"
    _pydeid("mask-words", conv, src / "tags.conll", src / "words.ctm", out)
    return src, out, work


def _all_text_files(root: Path):
    for p in root.rglob("*"):
        if p.is_file() and p.suffix != ".wav":
            yield p, p.read_text(encoding="utf-8", errors="replace")


def test_no_original_audio_path_and_no_secret_in_corpus(neutral, mini_corpus):
    src, out, work = neutral
    originals = list(DataDir.read(src).wav_scp.values())
    for p, text in _all_text_files(out):
        for orig in originals:
            assert orig not in text, f"{p} names original audio {orig}"
        assert str(mini_corpus / "wav") not in text, f"{p} points into the original audio folder"
        assert not any(k in p.name for k in ("voice_plan", "secret", "pseudonym", "map")), f"secret-like file {p}"
    for utt, spec in DataDir.read(out).wav_scp.items():
        assert Path(spec).resolve().is_relative_to(out.resolve()), f"{utt}: {spec} lies outside the corpus"
    secrets = list((work / "exp").rglob("voice_plan.json"))
    assert secrets, "the speaker-target assignment was not written"
    for s in secrets:
        assert (os.stat(s).st_mode & 0o777) == 0o600 and not s.resolve().is_relative_to(out.resolve())


def test_no_sensitive_token_in_published_text(neutral):
    src, out, _ = neutral
    gold = {s.id: s for s in read_conll(src / "tags.conll")}
    published = DataDir.read(out).text
    checked = 0
    for utt, sent in gold.items():
        spans = sent.spans()
        if not spans or utt not in published:
            continue
        words = published[utt].split()
        kept = [t for i, t in enumerate(sent.tokens) if not any(a <= i < b for a, b, _ in spans)]
        assert words == kept, f"{utt}: published text {words} is not the original minus its entities"
        plain = set(kept)
        for a, b, typ in spans:
            for tok in sent.tokens[a:b]:
                if tok not in plain:  # a word that also occurs outside any entity is not sensitive here
                    assert tok not in words, f"{utt}: {typ} token '{tok}' survives"
        checked += 1
    assert checked >= 10


def test_no_sensitive_token_in_any_corpus_file(neutral):
    """A pseudonym map or an assignment file in the corpus would carry original entity words: scan every
    non-audio file for the corpus's distinctive entity words (those that never occur outside an entity)."""
    src, out, _ = neutral
    plain, sensitive = set(), set()
    for sent in read_conll(src / "tags.conll"):
        for tok, tag in zip(sent.tokens, sent.tags):
            (plain if tag == "O" else sensitive).add(tok)
    distinctive = {t for t in sensitive - plain if t[:1].isupper() and len(t) > 3}
    assert len(distinctive) >= 10
    for p, text in _all_text_files(out):
        found = [t for t in distinctive if f" {t} " in f" {text.replace(chr(10), ' ')} "]
        assert not found, f"{p} contains original entity words {found[:5]}"


def _rms_db(x):
    return 10 * np.log10(np.mean(np.square(x.astype(np.float64))) + 1e-12)


def test_entities_silent_and_voice_converted(neutral):
    src, out, _ = neutral
    orig, neut = DataDir.read(src), DataDir.read(out)
    ctm = {}
    for e in read_ctm(src / "words.ctm"):
        ctm.setdefault(e.utt, []).append(e)
    gold = {s.id: s for s in read_conll(src / "tags.conll")}
    ratios = []
    for utt in neut.utts:
        x, y = orig.load_audio(utt), neut.load_audio(utt)
        assert abs(len(x) - len(y)) <= 160
        sent = gold[utt]
        for a, b, _ in sent.spans():
            words = ctm[utt][a:b]
            s, e = int(words[0].start * 16000), int(words[-1].end * 16000)
            assert _rms_db(y[s:e]) < -50, f"{utt}: entity {sent.tokens[a:b]} is audible in the neutral audio"
        # an original voice would keep its pitch: compare median F0 on voiced frames
        f0x, _ = pyworld.dio(x.astype(np.float64), 16000)
        f0y, _ = pyworld.dio(y.astype(np.float64), 16000)
        if (f0x > 0).sum() > 20 and (f0y > 0).sum() > 20:
            ratios.append(np.median(f0y[f0y > 0]) / np.median(f0x[f0x > 0]))
        assert not np.allclose(x[: len(y)], y[: len(x)], atol=1e-3), f"{utt}: audio unchanged"
    ratios = np.array(ratios)
    # VTLN strategy 3 moves every utterance towards another speaker's pitch: most utterances change clearly
    assert np.mean(np.abs(np.log2(ratios)) > 0.1) > 0.6, f"F0 ratios too close to 1: {np.round(ratios, 2)}"
