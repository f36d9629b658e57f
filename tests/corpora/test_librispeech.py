"""LibriSpeech data prep on the real 3-speaker sample (../shared/data/librispeech_mini) and the recipe's data stage."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import kaldiio
import numpy as np
import pytest
import soundfile as sf

from pydeid.corpora.librispeech import find_subset_dir, prepare_subset, read_speakers_txt
from pydeid.io import DataDir, FormatError, read_kaldi_map, validate_data_dir

SUBSET = "dev-clean-2"


@pytest.fixture(scope="module")
def prepared(librispeech_mini_dir, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ls") / "dev_clean_2"
    prepare_subset(librispeech_mini_dir, SUBSET, out)
    return out


def test_ids_genders_text(prepared, librispeech_mini_dir):
    validate_data_dir(prepared, check_audio=True)
    d = DataDir.read(prepared)
    assert len(d.utts) == 10
    assert d.spk2gender == {"1988": "f", "2412": "f", "3752": "m"}
    for utt, spk in d.utt2spk.items():
        assert utt.startswith(spk + "-") and d.utt2gender[utt] == d.spk2gender[spk]
    assert d.text["3752-4944-0000"] == "CAPTAIN FRERE SAYS THAT THE SCENERY IS DELIGHTFUL"
    assert all(t == t.upper() for t in d.text.values())
    # every transcript line is in text, verbatim
    trans = librispeech_mini_dir / "LibriSpeech" / SUBSET / "1988" / "24833" / "1988-24833.trans.txt"
    for line in trans.read_text().splitlines():
        utt, words = line.split(" ", 1)
        assert d.text[utt] == words


def test_audio_paths_and_durations(prepared):
    d = DataDir.read(prepared)
    # Kaldi's own LibriSpeech form: Kaldi's wave reader cannot open a bare .flac
    have_flac = shutil.which("flac") is not None
    scp = kaldiio.load_scp(str(prepared / "wav.scp")) if have_flac else {}  # Kaldi tools run the pipe
    for utt, spec in d.wav_scp.items():
        assert spec.startswith("flac -c -d -s /") and spec.endswith(f"{utt}.flac |"), spec
        path = spec[len("flac -c -d -s "):-2]
        ref, sr = sf.read(path, dtype="float32")
        assert sr == 16000
        wav = d.load_audio(utt)
        np.testing.assert_allclose(wav, ref, atol=1e-6)
        if have_flac:
            rate, samples = scp[utt]
            assert rate == 16000 and len(samples) == len(ref)
        assert abs(d.utt2dur[utt] - len(ref) / sr) < 1e-3


def test_parent_of_librispeech_folder_accepted(librispeech_mini_dir):
    assert find_subset_dir(librispeech_mini_dir, SUBSET) == find_subset_dir(
        librispeech_mini_dir / "LibriSpeech", SUBSET)
    with pytest.raises(FormatError, match="not found"):
        find_subset_dir(librispeech_mini_dir, "train-clean-100")


def test_speakers_txt_format(tmp_path):
    p = tmp_path / "SPEAKERS.TXT"
    # the real file's NAME field may contain '|' (speaker 60 is "|CBW|Simon")
    p.write_text("; ID |SEX| SUBSET |MINUTES| NAME\n60   | M | train-clean-100  | 20.18 | |CBW|Simon\n"
                 "14   | F | train-clean-360  | 25.03 | Kristin LeMoine\n")
    assert read_speakers_txt(p) == {"60": "m", "14": "f"}
    p.write_text("; header\n14 | X | train-clean-360 | 25.03 | Someone\n")
    with pytest.raises(FormatError, match=r"SPEAKERS.TXT:2: sex must be M or F"):
        read_speakers_txt(p)


def _copy_corpus(src: Path, dst: Path) -> Path:
    shutil.copytree(src / "LibriSpeech", dst / "LibriSpeech")
    return dst


def test_transcript_without_audio_names_file_and_line(librispeech_mini_dir, tmp_path):
    root = _copy_corpus(librispeech_mini_dir, tmp_path / "c")
    (root / "LibriSpeech" / SUBSET / "3752" / "4944" / "3752-4944-0001.flac").unlink()
    with pytest.raises(FormatError, match=r"3752-4944\.trans\.txt:2: audio 3752-4944-0001\.flac is missing"):
        prepare_subset(root, SUBSET, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_speaker_missing_from_speakers_txt(librispeech_mini_dir, tmp_path):
    root = _copy_corpus(librispeech_mini_dir, tmp_path / "c")
    spk = root / "LibriSpeech" / "SPEAKERS.TXT"
    spk.write_text("\n".join(line for line in spk.read_text().splitlines() if not line.startswith("2412")) + "\n")
    with pytest.raises(FormatError, match="speaker 2412 is not listed in SPEAKERS.TXT"):
        prepare_subset(root, SUBSET, tmp_path / "out")


def test_run_sh_data_stage(repo_root, librispeech_mini_dir, tmp_path, recipe_copy):
    rec = recipe_copy("librispeech", tmp_path / "s5")
    args = ["./run.sh", "--stage", "0", "--stop-stage", "1", "--corpus-root", str(librispeech_mini_dir),
            "--asr-train-set", SUBSET, "--xvector-train-set", SUBSET, "--dev-set", SUBSET, "--test-set", SUBSET,
            "--num-enroll", "1"]
    p = subprocess.run(args, cwd=rec, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "skipped (no --download true)" in p.stdout
    data = rec / "data"
    for name in ("dev_clean_2", "dev_clean_2_enroll", "dev_clean_2_trial"):
        validate_data_dir(data / name, check_audio=True)
    enroll, trial = DataDir.read(data / "dev_clean_2_enroll"), DataDir.read(data / "dev_clean_2_trial")
    assert set(enroll.utts).isdisjoint(trial.utts) and len(enroll.utts) + len(trial.utts) == 10
    assert len(enroll.utts) == 3  # one per speaker
    trials = [line.split() for line in (data / "dev_clean_2_trial" / "trials").read_text().splitlines()]
    assert {lab for _, _, lab in trials} == {"target", "nontarget"}
    for spk, utt, lab in trials:
        assert (trial.utt2spk[utt] == spk) == (lab == "target")
    # idempotent: a second run leaves the data dirs untouched
    before = {f: f.stat().st_mtime_ns for f in data.rglob("*") if f.is_file()}
    p = subprocess.run(args[:2] + ["1"] + args[3:], cwd=rec, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "skipping" in p.stdout
    assert before == {f: f.stat().st_mtime_ns for f in data.rglob("*") if f.is_file()}
    assert read_kaldi_map(data / "dev_clean_2" / "spk2gender") == {"1988": "f", "2412": "f", "3752": "m"}


def test_download_script_without_network(repo_root, tmp_path):
    """The download helper refuses unknown parts and does nothing for a part already unpacked (no network used)."""
    script = repo_root / "local" / "librispeech" / "download_and_untar.sh"
    url = "http://127.0.0.1:9/never-contacted"
    p = subprocess.run([str(script), str(tmp_path), url, "dev-clean-3"], capture_output=True, text=True)
    assert p.returncode == 1 and "unknown LibriSpeech part" in p.stderr
    (tmp_path / "LibriSpeech" / "dev-clean").mkdir(parents=True)
    (tmp_path / "LibriSpeech" / "dev-clean" / ".complete").touch()
    p = subprocess.run([str(script), str(tmp_path), url, "dev-clean"], capture_output=True, text=True)
    assert p.returncode == 0 and "already downloaded" in p.stdout
    run_sh = (repo_root / "egs" / "librispeech" / "s5" / "run.sh").read_text()
    assert "\ndownload=false\n" in run_sh  # the download stage is off unless --download true


@pytest.mark.slow
def test_run_sh_deid_stages_on_librispeech_mini(repo_root, librispeech_mini_dir, tmp_path, recipe_copy):
    """Stages 1-6 (data prep, alignment, tagging, text transformation, voice conversion, masking + leak check)
    on the real 3-speaker sample; ~1 min on 2 cores. Stages 1-9: tests/corpora/test_librispeech_stages.py."""
    rec = recipe_copy("librispeech", tmp_path / "s5")
    args = ["./run.sh", "--stage", "1", "--stop-stage", "6", "--corpus-root", str(librispeech_mini_dir),
            "--asr-train-set", SUBSET, "--xvector-train-set", SUBSET, "--dev-set", SUBSET, "--test-set", SUBSET,
            "--num-enroll", "1", "--nj", "1", "--voice-method", "voicemask"]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    p = subprocess.run(args, cwd=rec, capture_output=True, text=True, timeout=900, env=env)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    data = rec / "data"
    neutral = DataDir.read(data / "dev_clean_2_neutral", check_audio=True)
    assert len(neutral.utts) == 10
    orig = DataDir.read(data / "dev_clean_2")
    assert not set(neutral.wav_scp.values()) & set(orig.wav_scp.values())   # no original audio in the corpus
    assert all(str(data / "dev_clean_2_neutral") in v for v in neutral.wav_scp.values())
    # published: no original speaker, chapter or utterance id anywhere, no gender file
    from pydeid.io.id_leaks import find_id_leaks, ids_of_data_dir
    assert not set(neutral.utts) & set(orig.utts)
    assert find_id_leaks(data / "dev_clean_2_neutral", ids_of_data_dir(data / "dev_clean_2")) == []
    assert not [p for p in (data / "dev_clean_2_neutral").iterdir() if "gender" in p.name]
    for name in ("dev_clean_2_voicemask", "dev_clean_2_trial_voicemask", "dev_clean_2_enroll_voicemask_a",
                 "dev_clean_2_text"):
        validate_data_dir(data / name)
    secrets = list((rec / "exp").rglob("voice_plan.json"))
    assert secrets and all(oct(s.stat().st_mode & 0o777) == "0o600" for s in secrets)
    assert not list(data.rglob("voice_plan.json"))
    results = (rec / "RESULTS.md").read_text()
    assert "verify-masking" in results and "| dev_clean_2" in results
