"""utils/split_decode.sh, the job plumbing of steps/decode_phones.sh and steps/decode_pocketsphinx.sh: the same
decoding in one job and split over speakers (merged in Kaldi order, RTF over the parts), and a failed job reported
in one line naming its log."""

import json
import os
import subprocess

import pytest


def _step(repo_root, *args):
    env = dict(os.environ, PATH=f"{repo_root}/utils:{repo_root}/steps:{os.environ['PATH']}")
    return subprocess.run([str(a) for a in args], cwd=repo_root, env=env, capture_output=True, text=True)


def _two_speakers(repo_root, mini_corpus, tmp_path, per_spk: int):
    """<per_spk> utterances of each of 2 speakers of the tiny mini_test_enroll: two jobs of whole speakers."""
    spk = sorted({ln.split()[1] for ln in (mini_corpus / "mini_test_enroll" / "utt2spk").read_text().splitlines()})
    (tmp_path / "spk").write_text("\n".join(spk[:2]) + "\n")
    r = _step(repo_root, "utils/subset_data_dir.sh", "--spk-list", tmp_path / "spk", mini_corpus / "mini_test_enroll",
              tmp_path / "two_all")
    assert r.returncode == 0, r.stderr
    r = _step(repo_root, "utils/subset_data_dir.sh", "--per-spk", str(per_spk), tmp_path / "two_all", tmp_path / "two")
    assert r.returncode == 0, r.stderr
    return tmp_path / "two"


@pytest.mark.slow
def test_phone_decoding_split_equals_one_job(repo_root, mini_corpus, tmp_path):
    data = _two_speakers(repo_root, mini_corpus, tmp_path, 2)
    one, two = tmp_path / "one", tmp_path / "two"
    for nj, d in (("1", one), ("2", two)):
        r = _step(repo_root, "steps/decode_phones.sh", "--nj", nj, data, d)
        assert r.returncode == 0, r.stderr
    text1, text2 = (one / "text").read_text(), (two / "text").read_text()
    assert text1 == text2 and len(text1.splitlines()) == 4 and all(len(ln.split()) > 3 for ln in text1.splitlines())
    info1, info2 = (json.loads((d / "decode_phones.json").read_text()) for d in (one, two))
    assert info2["jobs"] == 2 and info2["utterances"] == info1["utterances"] == 4 and "jobs" not in info1
    assert abs(info2["audio_seconds"] - info1["audio_seconds"]) < 1e-2 and not (two / "parts").exists()
    assert (two / "log" / "decode_phones.2.log").is_file() and (two / "log" / "merge.log").is_file()


def test_a_failed_job_is_one_line_naming_its_log(repo_root, mini_corpus, tmp_path):
    data = _two_speakers(repo_root, mini_corpus, tmp_path, 1)
    first = (data / "wav.scp").read_text().splitlines()[0].split()[0]
    lines = [f"{first} {tmp_path / 'missing.wav'}" if ln.split()[0] == first else ln
             for ln in (data / "wav.scp").read_text().splitlines()]
    (data / "wav.scp").write_text("\n".join(lines) + "\n")
    r = _step(repo_root, "steps/decode_pocketsphinx.sh", "--nj", "2", data, tmp_path / "dec")
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]   # run.pl's own lines come before; the step's verdict is one line
    assert last.startswith("steps/decode_pocketsphinx.sh: decoding failed: ") and "missing.wav" in last, r.stderr
    assert last.endswith(f"(log: {tmp_path / 'dec' / 'log' / 'decode.1.log'})") and not (tmp_path / "dec" / "text").exists()
