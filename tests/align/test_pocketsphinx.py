"""pocketsphinx forced alignment on real VCTK speech and on the mini corpus (gold word timings)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pydeid.align.pipeline import align_data_dir
from pydeid.align.pocketsphinx_backend import PocketsphinxAligner
from pydeid.io import DataDir, ctm_by_utt, read_ctm

from .conftest import vctk_data_dir

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def aligner():
    return PocketsphinxAligner()


@pytest.fixture(scope="module")
def p225_001(vctk_dir):
    from pydeid.io import read_audio
    return read_audio(str(vctk_dir / "wav/p225/p225_001.flac"))[0]


def test_vctk_prompt_with_punctuation_maps_back_to_tokens(aligner, vctk_dir, tmp_path):
    d = vctk_data_dir(vctk_dir, tmp_path / "d", ["p225_009"])   # "There is , according to legend, ..."
    wav = DataDir.read(d).load_audio("p225_009")
    toks = DataDir.read(d).text["p225_009"].split()
    r = aligner.align("p225_009", wav, toks)
    assert r.error is None
    assert r.stats["punctuation_tokens"] == 1
    assert [w.token for w in r.words] == [t.strip(".,") for t in toks if t != ","]
    assert [w.token_index for w in r.words] == [i for i, t in enumerate(toks) if t != ","]
    ends = [(w.start, w.end) for w in r.words]
    assert all(s < e for s, e in ends) and all(a[1] <= b[0] + 1e-6 for a, b in zip(ends, ends[1:]))
    assert ends[-1][1] <= len(wav) / 16000 + 0.01
    assert r.phones and r.phones[0].start == 0.0


def test_case_insensitive_and_g2p_for_unknown_words(aligner, p225_001):
    low = aligner.align("u", p225_001, "please call stella")
    up = aligner.align("u", p225_001, "PLEASE Call Stella.")
    assert [(w.start, w.end) for w in low.words] == [(w.start, w.end) for w in up.words]
    assert up.stats["g2p_tokens"] == 0 and [w.token for w in up.words] == ["PLEASE", "Call", "Stella"]
    stella = up.words[2]
    assert 0.25 < stella.end - stella.start < 1.0 and stella.start >= up.words[1].end - 1e-6
    odd = aligner.align("u", p225_001, "Please call Stellaxa.")
    assert odd.stats["g2p_tokens"] == 1 and "stellaxa" in aligner.g2p_words
    assert abs(odd.words[2].start - stella.start) < 0.05


def test_nonverbal_tokens_are_accounted_for(aligner, p225_001):
    r = aligner.align("u", p225_001, "[noise] Please call Stella. <unk> [sil]")
    st = r.stats
    assert st["nonverbal_tokens"] == 2 and st["silence_markers"] == 1
    assert st["nonverbal_aligned"] + st["nonverbal_unplaced"] == 2
    placed = [w.token for w in r.words if w.token.startswith(("[", "<"))]
    assert len(placed) == st["nonverbal_aligned"]
    assert [w.token for w in r.words if not w.token.startswith(("[", "<"))] == ["Please", "call", "Stella"]


def test_results_do_not_depend_on_order(vctk_dir, tmp_path):
    utts = ["p225_001", "p226_001", "p227_001"]
    d = DataDir.read(vctk_data_dir(vctk_dir, tmp_path / "d", utts))
    a1, a2 = PocketsphinxAligner(), PocketsphinxAligner()
    r1 = {u: a1.align(u, d.load_audio(u), d.text[u]) for u in utts}
    r2 = {u: a2.align(u, d.load_audio(u), d.text[u]) for u in reversed(utts)}
    for u in utts:
        assert [(w.start, w.end) for w in r1[u].words] == [(w.start, w.end) for w in r2[u].words]
        assert [(p.phone, p.start) for p in r1[u].phones] == [(p.phone, p.start) for p in r2[u].phones]


def test_steps_align_parallel_equals_serial(vctk_dir, tmp_path):
    data = vctk_data_dir(vctk_dir, tmp_path / "d", ["p225_001", "p226_001", "p227_001"])
    env = dict(os.environ, PATH=f"{REPO / 'utils'}:{REPO / 'steps'}:{os.environ['PATH']}")
    for nj in (1, 2):
        p = subprocess.run(["bash", "steps/align.sh", "--nj", str(nj), str(data), "en-us", str(tmp_path / f"ali{nj}")],
                           cwd=REPO, env=env, capture_output=True, text=True)
        assert p.returncode == 0, p.stderr + p.stdout
    for kind in ("wrd_ali", "phn_ali"):
        assert (tmp_path / "ali1" / kind / "ctm").read_text() == (tmp_path / "ali2" / kind / "ctm").read_text()
    rep = json.loads((tmp_path / "ali2" / "report.json").read_text())
    assert rep["counts"]["aligned"] == 3 and rep["counts"]["punctuation_tokens"] == 0
    words = ctm_by_utt(read_ctm(tmp_path / "ali2" / "wrd_ali" / "ctm"))
    assert [e.token for e in words["p226_001"]] == ["Please", "call", "Stella"]


def test_accuracy_on_mini_within_bound_and_masking_leaks(mini_corpus, tmp_path):
    """Measured (seed 0, tiny, mini_test): 41.9 ms mean abs boundary error, 80.1% of boundaries within 50 ms,
    3 audio leaks out of 48 entities when masking with the aligner's CTM (pad 100 ms) and checking against the
    gold CTM."""
    from pydeid.align.accuracy import boundary_accuracy
    from pydeid.mask.pipeline import mask_data_dir
    from pydeid.mask.verify import verify_masking

    data = mini_corpus / "mini_test"
    rep = align_data_dir(data, tmp_path / "ali", "pocketsphinx", "en-us", phones=False)
    gold = ctm_by_utt(read_ctm(data / "words.ctm"))
    hyp = ctm_by_utt(read_ctm(tmp_path / "ali" / "wrd_ali" / "ctm"))
    acc = boundary_accuracy(gold, hyp)
    assert rep["counts"]["failed"] <= 2
    assert acc.paired_words >= 0.9 * acc.gold_words
    assert acc.mean_abs_error < 0.060, acc.as_dict()
    assert acc.within_tolerance > 0.70, acc.as_dict()
    m = mask_data_dir(data, data / "tags.conll", tmp_path / "ali" / "wrd_ali" / "ctm", tmp_path / "masked")
    leaks = verify_masking(tmp_path / "masked", data / "tags.conll", data / "words.ctm")
    assert m["entities"] == leaks.entities > 20
    assert len(leaks.text_leaks) == 0 and len(leaks.unverifiable) == 0
    assert len(leaks.audio_leaks) <= 0.15 * leaks.entities, leaks.summary()
