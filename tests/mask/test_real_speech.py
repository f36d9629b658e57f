"""Masking on real speech: the mini corpus with its gold CTM, and the VCTK names "Stella", "Bob", "Wednesday"."""

import csv

import numpy as np
import pytest

from pydeid.io import DataDir, Sentence, read_audio, write_conll, write_data_dir
from pydeid.mask.pipeline import MaskOptions, mask_data_dir
from pydeid.mask.verify import frame_dbfs, verify_masking


def test_mini_gold_ctm_zero_leaks(mini_corpus, tmp_path):
    for name in ("mini_test", "mini_dev"):
        data = mini_corpus / name
        rep = mask_data_dir(data, data / "tags.conll", data / "words.ctm", tmp_path / name)
        leaks = verify_masking(tmp_path / name, data / "tags.conll", data / "words.ctm", orig_data=data)
        assert rep["entities"] > 0 and leaks.entities == rep["entities"]
        assert leaks.n_leaks == 0, leaks.summary()
        # the masked text keeps every untagged word, in order
        orig = DataDir.read(data).text
        out = DataDir.read(tmp_path / name).text
        assert all(len(out[u].split()) < len(orig[u].split()) for u in out if out[u] != orig[u])


NAMES = {"Stella.": "B-PER", "Bob.": "B-PER", "Wednesday": "B-DATE"}
SPEAKERS = ("p225", "p226", "p227", "p228")


@pytest.fixture(scope="module")
def vctk_masked(vctk_dir, tmp_path_factory):
    from pydeid.align.pipeline import align_data_dir
    tmp = tmp_path_factory.mktemp("vctk")
    rows = {r["utt_id"]: r for r in csv.DictReader(open(vctk_dir / "manifest.tsv"), delimiter="\t")}
    utts = [f"{s}_{n}" for s in SPEAKERS for n in ("001", "003", "005")]
    write_data_dir(tmp / "data", wav_scp={u: str(vctk_dir / rows[u]["path"]) for u in utts},
                   text={u: rows[u]["transcript"] for u in utts}, utt2spk={u: rows[u]["speaker"] for u in utts})
    write_conll(tmp / "tags.conll", [Sentence(rows[u]["transcript"].split(),
                                              [NAMES.get(t, "O") for t in rows[u]["transcript"].split()], u)
                                     for u in utts])
    align_data_dir(tmp / "data", tmp / "ali", "pocketsphinx", "en-us", phones=False)
    mask_data_dir(tmp / "data", tmp / "tags.conll", tmp / "ali/wrd_ali/ctm", tmp / "masked", MaskOptions(ramp=0))
    return tmp


def test_vctk_names_silenced(vctk_masked):
    from pydeid.io import ctm_by_utt, read_ctm
    t = vctk_masked
    words = ctm_by_utt(read_ctm(t / "ali/wrd_ali/ctm"))
    orig, masked = DataDir.read(t / "data"), DataDir.read(t / "masked")
    assert verify_masking(t / "masked", t / "tags.conll", t / "ali/wrd_ali/ctm", orig_data=t / "data").n_leaks == 0
    seen = set()
    for utt in masked.utts:
        ws = words[utt]
        k = next(i for i, w in enumerate(ws) if w.token in ("Stella", "Bob", "Wednesday"))
        name = ws[k]
        seen.add(name.token)
        assert name.token not in masked.text[utt] and name.token in orig.text[utt]
        o, sr = read_audio(orig.wav_scp[utt], sr=None)
        m, _ = read_audio(masked.wav_scp[utt], sr=None)
        a, b = int(np.ceil(name.start * sr)), int(name.end * sr)
        assert 0.25 < name.end - name.start < 1.2, (utt, name)
        assert np.all(m[a:b] == 0), utt                                # silenced
        assert frame_dbfs(o[a:b], sr).max() > -30, utt                # ... and there was speech to silence
        pad = MaskOptions().pad + 0.01
        prev = ws[k - 1]                                     # the words before stay audible
        pa, pb = int(ws[max(0, k - 2)].start * sr), int((prev.end - pad) * sr)
        assert pb - pa > 0.1 * sr
        assert np.array_equal(m[pa:pb], o[pa:pb]) and frame_dbfs(m[pa:pb], sr).max() > -30, utt
        if name.token == "Wednesday":                                  # mid-sentence: "at the train station"
            nxt = ws[k + 1]
            na = int((nxt.start + pad) * sr)
            assert np.array_equal(m[na:], o[na:]) and frame_dbfs(m[na:], sr).max() > -30, utt
        else:                                                          # sentence-final: nothing spoken after it
            tail = frame_dbfs(m[int((prev.end + pad) * sr):], sr)
            assert tail.size == 0 or tail.max() < -40, utt
    assert seen == {"Stella", "Bob", "Wednesday"}
