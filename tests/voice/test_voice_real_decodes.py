"""bench/voice_real_decode.sh and bench/voice_real_merge_decodes.py: the trial-set WER meter of the real-voice bench
(issue 19) decodes only the trial utterances its utility subset's decode lacks, and the merge is the whole decode."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pydeid.io import DataDir
from voice_helpers import vctk_data_dir

REPO = Path(__file__).resolve().parents[2]
MERGE = REPO / "bench" / "voice_real_merge_decodes.py"
DECODE = REPO / "bench" / "voice_real_decode.sh"


def fake_decode(d: Path, utts: list[str], cpu: float) -> None:
    d.mkdir(parents=True)
    (d / "text").write_text("".join(f"{u} hello\n" for u in utts))
    (d / "decode_pocketsphinx.json").write_text(json.dumps(
        {"decoder": "pocketsphinx en-us", "utterances": len(utts), "audio_seconds": 2.0 * len(utts),
         "decode_cpu_seconds": cpu, "rtf": 0.0, "lm": "general"}))


def run_merge(*args) -> subprocess.CompletedProcess:
    return subprocess.run(["python", str(MERGE), *map(str, args)], capture_output=True, text=True)


def test_merge_sums_the_two_decodes_of_the_trial_set(tmp_path):
    data = tmp_path / "trial"
    data.mkdir()
    (data / "wav.scp").write_text("a /x/a.wav\nb /x/b.wav\nc /x/c.wav\n")
    fake_decode(tmp_path / "sub", ["b"], 3.0)
    fake_decode(tmp_path / "rest", ["a", "c"], 5.0)
    (tmp_path / "out").mkdir()
    r = run_merge(tmp_path / "sub", tmp_path / "rest", data, tmp_path / "out")
    assert r.returncode == 0, r.stderr
    m = json.loads((tmp_path / "out" / "decode_pocketsphinx.json").read_text())
    assert (m["utterances"], m["audio_seconds"], m["decode_cpu_seconds"], m["rtf"]) == (3, 6.0, 8.0, 1.3333)
    assert m["merged_from"] == [str(tmp_path / "sub"), str(tmp_path / "rest")] and m["data"] == str(data)


@pytest.mark.parametrize("rest", [["a"], ["a", "b", "c"], ["a", "c", "d"]])
def test_merge_refuses_decodes_that_do_not_make_the_trial_set_once(tmp_path, rest):
    data = tmp_path / "trial"
    data.mkdir()
    (data / "wav.scp").write_text("a /x/a.wav\nb /x/b.wav\nc /x/c.wav\n")
    fake_decode(tmp_path / "sub", ["b"], 3.0)
    fake_decode(tmp_path / "rest", rest, 5.0)
    (tmp_path / "out").mkdir()
    r = run_merge(tmp_path / "sub", tmp_path / "rest", data, tmp_path / "out")
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1 and "once each" in r.stderr
    assert not (tmp_path / "out" / "decode_pocketsphinx.json").exists()


def test_decode_script_refuses_a_missing_data_dir_in_one_line(tmp_path):
    r = subprocess.run(["bash", str(DECODE), "test_trial_nothing"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1 and r.stderr.strip() == f"{DECODE}: data/test_trial_nothing/wav.scp: no such file " \
                                                      f"(run in the work directory)"


@pytest.mark.slow
def test_trial_set_decoded_from_its_subset_equals_the_whole_decode(vctk_dir, tmp_path):
    """3 real utterances: the subset's decode (1) + the rest's (2) give the whole set's hypotheses and WER."""
    w = tmp_path / "work"
    trial = vctk_data_dir(vctk_dir, w / "data" / "test_trial", ["p225", "p226", "p227"], 1)
    d = DataDir.read(trial)
    (w / "data" / "test_wer").mkdir()
    DataDir(wav_scp={u: d.wav_scp[u] for u in d.utts[1:2]}, text={u: d.text[u] for u in d.utts[1:2]},
            utt2spk={u: d.utt2spk[u] for u in d.utts[1:2]}).write(w / "data" / "test_wer")
    for f in ("steps", "utils"):
        (w / f).symlink_to(REPO / f)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    run = lambda *a: subprocess.run(["bash", "-c", f". {REPO}/path.sh && {' '.join(map(str, a))}"], cwd=w, env=env,
                                    check=True, capture_output=True, text=True)
    run("steps/decode_pocketsphinx.sh --lm general --nj 1 data/test_wer exp/ps/decode_general_test_wer")
    run(DECODE, "test_trial")
    merged = w / "exp" / "ps" / "decode_general_test_trial"
    rest = w / "data" / "test_trial_rest"
    assert sorted(DataDir.read(rest).utts) == sorted(set(d.utts) - {d.utts[1]})
    assert json.loads((merged / "decode_pocketsphinx.json").read_text())["utterances"] == 3
    shutil.move(str(merged), str(tmp_path / "merged"))            # now the whole set in one decode
    shutil.rmtree(w / "exp" / "ps" / "decode_general_test_wer")   # (no subset decode: decoded whole)
    run(DECODE, "test_trial")
    assert (tmp_path / "merged" / "text").read_text() == (merged / "text").read_text()
    assert (tmp_path / "merged" / "scoring" / "per_utt").read_text() == (merged / "scoring" / "per_utt").read_text()
    assert "merged_from" not in json.loads((merged / "decode_pocketsphinx.json").read_text())
