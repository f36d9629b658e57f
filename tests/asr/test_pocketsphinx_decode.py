"""Decoding real speech with the pretrained pocketsphinx en-us recogniser (the utility meter of real voices)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from pydeid.io import DataDir, FormatError

pytest.importorskip("pocketsphinx")
SHARED = Path(os.environ.get("PYDEID_SHARED_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))


@pytest.fixture(scope="module")
def so_data(tmp_path_factory):
    from pydeid.corpora.speechocean import read_split

    root = SHARED / "speechocean762_adults"
    if not root.is_dir():
        pytest.skip(f"real data subset {root} is absent (read in place from ../shared/data, never committed)")
    out = tmp_path_factory.mktemp("so")
    train = read_split(root, "train", with_durations=False)
    train.write(out / "train")
    test = read_split(root, "test", with_durations=False)
    keep = ["000240010", "000240031", "001200015"]  # 3 utterances of 2 test speakers
    test.subset(keep).write(out / "test")
    return out


def test_corpus_lm_from_training_transcripts_decodes_real_speech(so_data, tmp_path, repo_root):
    lm = tmp_path / "lm"
    p = subprocess.run(["pydeid", "build-ngram-lm", "--not-from", str(so_data / "test"), str(so_data / "train"),
                        str(lm)], capture_output=True, text=True, cwd=repo_root)
    assert p.returncode == 0, p.stderr
    info = json.loads((lm / "lm_info.json").read_text())
    assert info["sentences"] == 600 and info["order"] == 3
    dec = tmp_path / "dec"
    p = subprocess.run(["pydeid", "decode-pocketsphinx", "--lm", str(lm), str(so_data / "test"), str(dec)],
                       capture_output=True, text=True, cwd=repo_root)
    assert p.returncode == 0, p.stderr
    hyp = dict(line.split(" ", 1) for line in (dec / "text").read_text().splitlines())
    assert hyp["000240010"].strip() == "it was good for me"  # a clear utterance is decoded exactly
    meta = json.loads((dec / "decode_pocketsphinx.json").read_text())
    assert meta["utterances"] == 3 and 0 < meta["rtf"] < 5
    from pydeid.asr.score import score_decode_dir
    res = score_decode_dir(so_data / "test", dec, results_md=tmp_path / "R.md")
    assert res["all"]["words"] == 5 + 8 + 10 and res["all"]["wer"] < 60


def test_decoding_does_not_depend_on_order_or_split(so_data, tmp_path):
    from pydeid.asr.pocketsphinx_decode import build_corpus_lm, decode_data_dir, merge_parts

    lm = tmp_path / "lm"
    build_corpus_lm(DataDir.read(so_data / "train").text.values(), lm)
    full = decode_data_dir(so_data / "test", tmp_path / "all", lm=str(lm))
    d = DataDir.read(so_data / "test")
    d.subset(["001200015"]).write(tmp_path / "p1")
    d.subset(["000240010", "000240031"]).write(tmp_path / "p2")
    decode_data_dir(tmp_path / "p1", tmp_path / "d1", lm=str(lm))
    decode_data_dir(tmp_path / "p2", tmp_path / "d2", lm=str(lm))
    merged = merge_parts([tmp_path / "d1", tmp_path / "d2"], tmp_path / "merged")
    assert (tmp_path / "merged" / "text").read_text() == (tmp_path / "all" / "text").read_text()
    assert merged["utterances"] == full["utterances"] == 3


def test_training_data_sharing_a_test_utterance_is_refused(so_data, tmp_path, repo_root):
    p = subprocess.run(["pydeid", "build-ngram-lm", "--not-from", str(so_data / "test"), str(so_data / "test"),
                        str(tmp_path / "lm")], capture_output=True, text=True, cwd=repo_root)
    assert p.returncode == 1
    assert "is also in the LM training data" in p.stderr and "Traceback" not in p.stderr
    assert not (tmp_path / "lm" / "lm.arpa").exists()


def test_unknown_lm_names_the_path(tmp_path):
    from pydeid.asr.pocketsphinx_decode import resolve_lm
    with pytest.raises(FormatError, match="neither 'general', a dir nor a file"):
        resolve_lm(str(tmp_path / "nope"))
    (tmp_path / "lmdir").mkdir()
    with pytest.raises(FormatError, match="lm.arpa: missing"):
        resolve_lm(str(tmp_path / "lmdir"))
