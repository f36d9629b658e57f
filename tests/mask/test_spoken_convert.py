"""Spoken fill BEFORE the voice conversion (issue 20): the fill of the original voices is converted with the plan,
target pool and source-speaker model of the original's own VTLN conversion, and verify-spoken proves the published
audio is that conversion of the verified fill."""

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest
import soundfile as sf

from pydeid.io import DataDir
from pydeid.mask.pipeline import load_tags
from pydeid.mask.spoken import SpokenOptions, spoken_data_dir
from pydeid.mask.verify_spoken import verify_spoken
from pydeid.voice.spoken_convert import check_conversion, convert_filled


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "pydeid", *map(str, args)], capture_output=True, text=True)


@pytest.fixture(scope="module")
def converted(mini_corpus, tmp_path_factory):
    """Three mini_test utterances of one speaker with entities and one without: VTLN S3 conversion of the
    original, the spoken fill of the original voices, and its conversion with the original's plan."""
    root = tmp_path_factory.mktemp("spoken_conv")
    src = DataDir.read(mini_corpus / "mini_test")
    tags = load_tags(mini_corpus / "mini_test" / "tags.conll")
    spk = src.utt2spk[src.utts[0]]
    mine = [u for u in src.utts if src.utt2spk[u] == spk]
    with_ents = [u for u in mine if tags[u].spans()][:3]
    without = [u for u in src.utts if not tags[u].spans()][:1]
    assert len(with_ents) == 3 and without, "tiny mini_test lacks the utterances this test needs"
    utts = sorted(with_ents + without)
    src.subset(utts).write(root / "data")
    shutil.copy(mini_corpus / "mini_test" / "tags.conll", root / "data" / "tags.conll")
    r = run_cli("transform-voice", "--method", "vtln", "--strategy", "3", "--target-data", mini_corpus / "mini_dev",
                "--seed", "0", "--exp-dir", root / "exp_voice", root / "data", root / "data_vtln3")
    assert r.returncode == 0, r.stderr
    r = run_cli("transform-text", "--strategy", "PER=pseudonymize,NUM=random_digits,default=same_type",
                "--avoid-original", "--secret-dir", root / "sec_text", "--pool-conll",
                mini_corpus / "mini_train" / "tags.conll", root / "data", root / "data" / "tags.conll", root / "text")
    assert r.returncode == 0, r.stderr
    ctm = mini_corpus / "mini_test" / "words.ctm"
    spoken_data_dir(root / "data", root / "data" / "tags.conll", root / "text" / "tags.conll", ctm, root / "filled",
                    root / "sec", SpokenOptions(seed=3))
    r = run_cli("convert-spoken", "--orig-data", root / "data", "--conversion", root / "exp_voice", root / "filled",
                root / "published")
    assert r.returncode == 0, r.stderr
    return {"root": root, "utts": utts, "with": with_ents, "without": without[0], "ctm": ctm,
            "tags": root / "data" / "tags.conll"}


def _wav(path):
    y, _ = sf.read(path, dtype="int16")
    return y


def test_published_is_the_conversion_of_the_fill(converted):
    c = converted
    root = c["root"]
    plain, filled, pub = (DataDir.read(root / n) for n in ("data_vtln3", "filled", "published"))
    # an utterance without an insert comes out bit-identical to the plain conversion: same plan, same target,
    # same source-speaker model (fitted on the original voices, not on the fill)
    u = c["without"]
    assert np.array_equal(_wav(pub.wav_scp[u]), _wav(plain.wav_scp[u]))
    for u in c["with"]:
        y, f = _wav(pub.wav_scp[u]), _wav(filled.wav_scp[u])
        assert len(y) == len(f)                    # the conversion keeps the fill's timing (its words.ctm holds)
        assert not np.array_equal(y, f)            # ... but converts it, inserts included
        assert pub.text[u] == filled.text[u]
    assert (root / "published" / "words.ctm").read_text() == (root / "filled" / "words.ctm").read_text()
    # the published wav.scp names neither the fill nor the original
    for v in pub.wav_scp.values():
        assert str(root / "filled") not in v and str(root / "data" / "wav") not in v
    chk = check_conversion(root / "data", root / "filled", root / "exp_voice", root / "published")
    assert chk == {"checked": 4, "mismatched": [], "missing": []}
    # a rerun keeps what was written (resume) and gives the same bytes
    before = {u: _wav(pub.wav_scp[u]) for u in c["utts"]}
    rep = convert_filled(root / "data", root / "filled", root / "exp_voice", root / "published2")
    again = DataDir.read(root / "published2")
    assert rep["converted"] == 4
    assert all(np.array_equal(before[u], _wav(again.wav_scp[u])) for u in c["utts"])


@pytest.mark.slow   # every insert re-rendered and every utterance re-converted, twice (~1 min on 2 idle cores)
def test_verify_spoken_checks_the_published_conversion(converted, tmp_path):
    c = converted
    root = c["root"]
    rep = verify_spoken(root / "filled", root / "sec", c["tags"], c["ctm"], orig_data=root / "data",
                        published=root / "published", conversion=root / "exp_voice")
    s = rep.summary()
    assert s["total_leaks"] == 0 and s["conversion_checked"] == 4 and s["inserts"] >= 3
    # a published corpus whose audio is not the conversion of the verified fill is caught (here: one utterance
    # replaced by the plain conversion, i.e. the original entity's converted voice)
    bad = tmp_path / "bad"
    shutil.copytree(root / "published", bad)
    u = c["with"][0]
    plain = DataDir.read(root / "data_vtln3")
    scp = (bad / "wav.scp").read_text().replace(str(root / "published" / "wav"), str(bad / "wav"))
    (bad / "wav.scp").write_text(scp)
    shutil.copy(plain.wav_scp[u], bad / "wav" / f"{u}.wav")
    r = run_cli("verify-spoken", "--secret-dir", root / "sec", "--orig-data", root / "data", "--published", bad,
                "--conversion", root / "exp_voice", root / "filled", c["tags"], c["ctm"])
    assert r.returncode == 1
    assert f"LEAK conversion_mismatch: {u}" in r.stderr
    assert "published = conversion of the fill: 3/4" in r.stdout
    # --published without the conversion is a usage error, one line
    r = run_cli("verify-spoken", "--secret-dir", root / "sec", "--published", bad, root / "filled", c["tags"],
                c["ctm"])
    assert r.returncode != 0 and "--conversion" in r.stderr and "Traceback" not in r.stderr
    json.dumps(s)
