"""speechocean762 data preparation (pydeid.corpora.speechocean): the corpus layout, .WAV or .flac, genders, and
one clear line naming the file and line for every mismatch."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pydeid.corpora.speechocean import prepare_split, read_split
from pydeid.io import DataDir, FormatError

SHARED = Path(os.environ.get("PYDEID_SHARED_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))


@pytest.fixture(scope="module")
def so_root() -> Path:
    root = SHARED / "speechocean762_adults"
    if not root.is_dir():
        pytest.skip(f"real data subset {root} is absent (read in place from ../shared/data, never committed)")
    return root


def _mini_copy(src: Path, dst: Path, spks=("0024", "0036"), ext=".WAV") -> Path:
    """Two speakers of the real corpus in its distributed layout (wav.scp naming .WAV files, audio .flac)."""
    for split in ("train", "test"):
        (dst / split).mkdir(parents=True)
        for name in ("text", "utt2spk", "wav.scp", "spk2gender"):
            lines = (src / split / name).read_text().splitlines()
            keep = [ln for ln in lines if ln.split()[0] in spks or ln.split()[0][1:5] in spks]
            if name == "wav.scp":
                keep = [ln.replace(".flac", ext) for ln in keep]
            (dst / split / name).write_text("".join(ln + "\n" for ln in keep))
    for spk in spks:
        shutil.copytree(src / "WAVE" / f"SPEAKER{spk}", dst / "WAVE" / f"SPEAKER{spk}")
    return dst


def test_real_splits(so_root, tmp_path):
    test = prepare_split(so_root, "test", tmp_path / "test")
    train = read_split(so_root, "train", with_durations=False)
    assert len(test.utts) == 600 and len(test.speakers) == 30 and len(train.speakers) == 30
    assert set(test.speakers).isdisjoint(train.speakers)
    assert sorted(set(test.spk2gender.values())) == ["f", "m"]
    assert test.text["000240010"] == "IT WAS GOOD FOR ME" and test.utt2spk["000240010"] == "0024"
    assert test.utt2gender["000240010"] == "f"
    assert Path(test.wav_scp["000240010"]).is_absolute() and test.wav_scp["000240010"].endswith(".flac")
    assert 1.0 < test.utt2dur["000240010"] < 4.0
    d = DataDir.read(tmp_path / "test", check_audio=False)
    assert len(d.utts) == 600


def test_distributed_wav_names_find_the_audio(so_root, tmp_path):
    root = _mini_copy(so_root, tmp_path / "c")
    d = read_split(root, "test", with_durations=False)
    assert len(d.utts) == 20 and all(p.endswith(".flac") for p in d.wav_scp.values())
    assert "WAVE/SPEAKER0024/000240010.WAV" in (root / "test" / "wav.scp").read_text()


def test_missing_audio_names_file_and_line(so_root, tmp_path):
    root = _mini_copy(so_root, tmp_path / "c")
    (root / "WAVE" / "SPEAKER0024" / "000240031.flac").unlink()
    with pytest.raises(FormatError, match=r"test/wav.scp:2: audio WAVE/SPEAKER0024/000240031.WAV not found"):
        prepare_split(root, "test", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_speaker_without_gender_and_bad_gender(so_root, tmp_path):
    root = _mini_copy(so_root, tmp_path / "c")
    (root / "test" / "spk2gender").write_text("0024 x\n")
    with pytest.raises(FormatError, match=r"test/spk2gender:1: gender must be m or f"):
        read_split(root, "test")
    (root / "test" / "spk2gender").write_text("")
    with pytest.raises(FormatError, match=r"test/utt2spk:1: speaker 0024 has no entry in spk2gender"):
        read_split(root, "test")


def test_cli_and_missing_split(so_root, tmp_path, repo_root):
    p = subprocess.run(["pydeid", "prepare-speechocean", str(tmp_path), "test", str(tmp_path / "out")],
                       capture_output=True, text=True, cwd=repo_root)
    assert p.returncode == 1 and "split 'test' not found" in p.stderr and "Traceback" not in p.stderr
