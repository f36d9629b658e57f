"""The phone-error-rate utility meter: phone-loop decoding of real speech with pocketsphinx en-us, scored against
the CMU-dictionary pronunciation of the transcript."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from pydeid.io import DataDir, FormatError

pytest.importorskip("pocketsphinx")
SHARED = Path(os.environ.get("PYDEID_SHARED_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))
KEEP = ["000240010", "000240031", "000240152", "001200015"]   # 4 utterances of 2 test speakers


@pytest.fixture(scope="module")
def so_test(tmp_path_factory):
    from pydeid.corpora.speechocean import read_split

    root = SHARED / "speechocean762_adults"
    if not root.is_dir():
        pytest.skip(f"real data subset {root} is absent (read in place from ../shared/data, never committed)")
    out = tmp_path_factory.mktemp("so_ph")
    read_split(root, "test", with_durations=False).subset(KEEP).write(out / "test")
    return out / "test"


@pytest.fixture(scope="module")
def decoded(so_test, tmp_path_factory):
    from pydeid.asr.phone_decode import decode_phones_data_dir, score_phones

    dec = tmp_path_factory.mktemp("ph") / "dec"
    decode_phones_data_dir(so_test, dec)
    return dec, score_phones(so_test, dec)


def test_reference_phones_of_a_known_sentence():
    from pydeid.asr.phone_decode import ReferencePhones

    ref = ReferencePhones()
    # CMU dictionary, first variant, no stress marks; punctuation and case normalised away
    assert ref("It was good, for ME.") == "IH T W AA Z G UH D F AO R M IY".split()
    assert ref("the") == ["DH", "AH"]           # 'the(2)' DH IY is a variant, never the reference
    assert ref.g2p_words == {}
    phones = ref("zorblaxian")                 # not in the dictionary: G2P, counted
    assert phones and set(phones) <= set(ref.lexicon["zebra"]) | set("Z AO R B L AE K S IY AH N SH".split())
    assert list(ref.g2p_words) == ["zorblaxian"]


def test_original_speech_per_well_below_100_and_distortion_raises_it(so_test, decoded, tmp_path):
    from pydeid.asr.phone_decode import decode_phones_data_dir, paired_difference, read_per_utt, score_phones

    dec, res = decoded
    assert res["phones"] == 13 + 25 + 25 + 32 and res["utterances"] == 4 and res["speakers"] == 2
    assert res["per"] < 75, res          # the meter on original non-native speech: poor, but far from chance
    lo, hi = res["ci95"]
    assert lo <= res["per"] <= hi
    hyp = dict(ln.split(" ", 1) for ln in (dec / "text").read_text().splitlines())
    assert set(hyp) == set(KEEP) and all(set(h.split()) - {"SIL"} == set(h.split()) for h in hyp.values())
    # a heavy distortion: every utterance played 1.5x faster (formants and pitch up by half) in white noise
    d = DataDir.read(so_test)
    import soundfile as sf
    wavs = tmp_path / "wav"
    wavs.mkdir()
    rng = np.random.default_rng(0)
    lines = []
    for u in d.utts:
        x = d.load_audio(u, sr=16000)
        y = np.interp(np.arange(0, len(x), 1.5), np.arange(len(x)), x)
        y = y + rng.normal(0, 0.3 * np.std(y), len(y))
        sf.write(wavs / f"{u}.wav", y.astype(np.float32), 16000)
        lines.append(f"{u} {wavs / (u + '.wav')}\n")
    dist = tmp_path / "dist"
    d.write(dist)
    (dist / "wav.scp").write_text("".join(lines))
    decode_phones_data_dir(dist, tmp_path / "dec_dist")
    r2 = score_phones(dist, tmp_path / "dec_dist")
    assert r2["per"] > res["per"] + 10, (res["per"], r2["per"])
    diff = paired_difference(read_per_utt(dec / "scoring_phones" / "per_utt.json"),
                             read_per_utt(tmp_path / "dec_dist" / "scoring_phones" / "per_utt.json"), d.utt2spk)
    assert diff["diff"] == pytest.approx(r2["per"] - res["per"]) and diff["utterances"] == 4


def test_decoding_resumes_after_a_kill_and_is_deterministic(so_test, decoded, tmp_path):
    from pydeid.asr.phone_decode import decode_phones_data_dir

    dec, _ = decoded
    full = (dec / "text").read_text().splitlines()
    out = tmp_path / "dec"
    out.mkdir()
    # a job killed after its first utterance, in the middle of writing the second line
    (out / "text.partial").write_text(full[0] + "\t.\n" + full[1][:12])
    (out / "decode_phones.partial.json").write_text(json.dumps({"lw": 4.0, "audio_seconds": 1.0,
                                                                "decode_cpu_seconds": 0.1}))
    from pydeid.asr import phone_decode

    class Killed(Exception):
        pass

    calls = []
    real = phone_decode.PhoneDecoder.decode

    def decode_then_kill(self, wav):   # killed again after one more utterance
        if calls:
            raise Killed
        calls.append(1)
        return real(self, wav)

    phone_decode.PhoneDecoder.decode = decode_then_kill
    try:
        with pytest.raises(Killed):
            decode_phones_data_dir(so_test, out)
    finally:
        phone_decode.PhoneDecoder.decode = real
    assert (out / "text.partial").read_text().splitlines() == [ln + "\t." for ln in full[:2]]
    info = decode_phones_data_dir(so_test, out)
    assert (out / "text").read_text().splitlines() == full
    assert info["utterances"] == 4 and not (out / "text.partial").exists()


def test_scoring_refuses_an_unfinished_decoding_in_one_line(so_test, decoded, tmp_path, repo_root):
    dec, _ = decoded
    part = tmp_path / "part"
    part.mkdir()
    (part / "text").write_text("".join(ln + "\n" for ln in (dec / "text").read_text().splitlines()[:3]))
    p = subprocess.run(["pydeid", "score-phones", str(so_test), str(part)], capture_output=True, text=True,
                       cwd=repo_root)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert f"{part / 'text'}" in p.stderr and "no hypothesis for 1 of 4 utterances" in p.stderr
    assert not (part / "scoring_phones" / "results.json").exists()


def test_per_table_pairs_methods_and_refuses_other_utterances(so_test, decoded, tmp_path, repo_root):
    import shutil

    dec, res = decoded
    same = tmp_path / "same"
    shutil.copytree(dec, same)
    out = tmp_path / "utility" / "per.tsv"
    p = subprocess.run(["pydeid", "per-table", "--utt2spk", str(so_test / "utt2spk"), "--pairs",
                        str(tmp_path / "pairs.tsv"), f"original={dec}", f"copy={same}", str(out)],
                       capture_output=True, text=True, cwd=repo_root)
    assert p.returncode == 0, p.stderr
    rows = [ln.split("\t") for ln in out.read_text().splitlines()]
    head = rows[0]
    assert head[:5] == ["method", "per", "ci_low", "ci_high", "n_phones"] and "wer_original_meter" in head
    r = [dict(zip(head, row)) for row in rows[1:]]
    assert [x["method"] for x in r] == ["original", "copy"]
    assert r[0]["per"] == r[1]["per"] == f"{res['per']:.2f}" == r[1]["per_original_meter"]
    assert r[0]["per_diff"] == "NA" and float(r[1]["per_diff"]) == 0 and r[1]["diff_beyond_noise"] == "no"
    assert r[0]["n_phones"] == "95" and r[0]["wer"] == "NA"
    from pydeid.asr.phone_decode import render_per_table
    md = render_per_table(out, {"copy": "A copy"})
    assert "| A copy " in md and "+0.0 [+0.0, +0.0] (noise)" in md
    assert f"at {res['per']:.1f} % PER and n/a WER (4 utterances of 2 speakers)" in md
    # a decoding of other utterances is not a paired set
    d = DataDir.read(so_test)
    d.subset(KEEP[:3]).write(tmp_path / "three")
    from pydeid.asr.phone_decode import decode_phones_data_dir, score_phones
    decode_phones_data_dir(tmp_path / "three", tmp_path / "dec3")
    score_phones(tmp_path / "three", tmp_path / "dec3")
    out2 = tmp_path / "u2" / "per.tsv"
    p = subprocess.run(["pydeid", "per-table", "--utt2spk", str(so_test / "utt2spk"), f"original={dec}",
                        f"other={tmp_path / 'dec3'}", str(out2)], capture_output=True, text=True, cwd=repo_root)
    assert p.returncode == 1 and "not a paired set" in p.stderr and "Traceback" not in p.stderr
    assert not out2.exists()


def test_unknown_phone_lm_or_bad_lw_is_one_line(so_test, tmp_path, repo_root):
    p = subprocess.run(["pydeid", "decode-phones", "--lw", "0", str(so_test), str(tmp_path / "d")],
                       capture_output=True, text=True, cwd=repo_root)
    assert p.returncode == 2 and "--lw: must be > 0" in p.stderr and "Traceback" not in p.stderr
    from pydeid.asr.phone_decode import read_per_utt
    with pytest.raises(FormatError, match="score the phone decoding first"):
        read_per_utt(tmp_path / "nothing.json")
