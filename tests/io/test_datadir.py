"""Data-dir validation: each error kind is caught with a message naming the file and line."""

from __future__ import annotations

import shutil
from pathlib import Path

import kaldiio
import numpy as np
import pytest
import soundfile as sf

from pydeid.io import DataDir, FormatError, Segment, read_kaldi_map, validate_data_dir


def _make(tmp: Path, n_spk=2, n_utt=3, sr=16000) -> Path:
    d = tmp / "data"
    wavdir = tmp / "wav"
    wavdir.mkdir(parents=True)
    rng = np.random.default_rng(0)
    dd = DataDir()
    for s in range(n_spk):
        spk = f"spk{s}"
        for u in range(n_utt):
            utt = f"{spk}-u{u}"
            path = wavdir / f"{utt}.wav"
            sf.write(path, (0.1 * rng.standard_normal(sr // 2)).astype(np.float32), sr, subtype="PCM_16")
            dd.wav_scp[utt] = str(path)
            dd.text[utt] = f"hello world {u}"
            dd.utt2spk[utt] = spk
    dd.utt2gender = {u: ("m" if dd.utt2spk[u] == "spk0" else "f") for u in dd.utt2spk}
    dd.write(d)
    return d


def test_written_data_dir_is_valid_and_readable_by_kaldiio(tmp_path):
    d = _make(tmp_path)
    validate_data_dir(d, check_audio=True)
    dd = DataDir.read(d)
    assert dd.utts == sorted(dd.utts)
    assert dd.spk2utt == {"spk0": ["spk0-u0", "spk0-u1", "spk0-u2"], "spk1": ["spk1-u0", "spk1-u1", "spk1-u2"]}
    # kaldiio reads our wav.scp and text as Kaldi does
    with kaldiio.ReadHelper(f"scp:{d / 'wav.scp'}") as reader:
        n = 0
        for utt, (rate, arr) in reader:
            assert rate == 16000 and arr.shape == (8000,)
            n += 1
    assert n == 6
    assert kaldiio.load_scp(str(d / "wav.scp"))["spk1-u2"][0] == 16000
    wav = dd.load_audio("spk0-u1")
    assert wav.dtype == np.float32 and wav.shape == (8000,)


def _swap_lines(path: Path, i: int, j: int) -> None:
    lines = path.read_text().splitlines(keepends=True)
    lines[i], lines[j] = lines[j], lines[i]
    path.write_text("".join(lines))


def _expect(d: Path, fname: str, line: int | None, fragment: str, **kw):
    with pytest.raises(FormatError) as ei:
        validate_data_dir(d, **kw)
    e = ei.value
    assert Path(e.path).name == fname, str(e)
    assert e.line == line, str(e)
    assert fragment in str(e)
    assert f"{fname}:{line}" in str(e) if line else fname in str(e)


def test_unsorted(tmp_path):
    d = _make(tmp_path)
    _swap_lines(d / "text", 1, 2)
    _expect(d, "text", 3, "not sorted")


def test_missing_utterance_in_text(tmp_path):
    d = _make(tmp_path)
    lines = (d / "text").read_text().splitlines(keepends=True)
    (d / "text").write_text("".join(lines[:3] + lines[4:]))  # drop spk1-u0 (line 4 of utt2spk)
    _expect(d, "utt2spk", 4, "spk1-u0' has no entry in text")


def test_utt2spk_spk2utt_mismatch(tmp_path):
    d = _make(tmp_path)
    (d / "spk2utt").write_text("spk0 spk0-u0 spk0-u1\nspk1 spk0-u2 spk1-u0 spk1-u1 spk1-u2\n")
    _expect(d, "spk2utt", 1, "disagrees with utt2spk")


def test_duplicate_ids(tmp_path):
    d = _make(tmp_path)
    text = (d / "utt2spk").read_text().splitlines(keepends=True)
    (d / "utt2spk").write_text("".join(text[:2] + [text[1]] + text[2:]))
    _expect(d, "utt2spk", 3, "duplicate id 'spk0-u1'")


def test_unreadable_wav(tmp_path):
    d = _make(tmp_path)
    victim = Path(read_kaldi_map(d / "wav.scp")["spk0-u2"])
    victim.write_bytes(b"this is not audio")
    validate_data_dir(d)  # structure alone is fine
    _expect(d, "wav.scp", 3, "spk0-u2", check_audio=True)
    victim.unlink()
    _expect(d, "wav.scp", 3, "does not exist", check_audio=True)


def test_bad_gender_and_unknown_speaker(tmp_path):
    d = _make(tmp_path)
    (d / "utt2gender").write_text((d / "utt2gender").read_text().replace("spk1-u1 f", "spk1-u1 x"))
    _expect(d, "utt2gender", 5, "gender must be")
    d2 = _make(tmp_path / "b")
    (d2 / "spk2utt").write_text((d2 / "spk2utt").read_text() + "spk9 spk9-u0\n")
    _expect(d2, "spk2utt", 3, "spk9")


def test_segments_reading_and_validation(tmp_path):
    wav = tmp_path / "rec.wav"
    sr = 16000
    t = np.arange(3 * sr) / sr
    sig = np.concatenate([np.full(sr, 0.1), np.full(sr, 0.3), np.full(sr, 0.5)]).astype(np.float32)
    sf.write(wav, sig, sr, subtype="FLOAT")
    dd = DataDir(wav_scp={"rec1": str(wav)}, text={"a-1": "x", "a-2": "y"}, utt2spk={"a-1": "a", "a-2": "a"},
                 segments={"a-1": Segment("rec1", 1.0, 2.0), "a-2": Segment("rec1", 2.0, -1)})
    d = dd.write(tmp_path / "data")
    validate_data_dir(d, check_audio=True)
    back = DataDir.read(d)
    seg1 = back.load_audio("a-1")
    assert len(seg1) == sr and np.allclose(seg1, 0.3)
    seg2 = back.load_audio("a-2")
    assert len(seg2) == sr and np.allclose(seg2, 0.5)
    (d / "segments").write_text("a-1 rec1 1.0 2.0\na-2 rec2 2.0 3.0\n")
    _expect(d, "segments", 2, "recording 'rec2' is not in wav.scp")
    (d / "segments").write_text("a-1 rec1 2.0 1.0\na-2 rec1 2.0 3.0\n")
    _expect(d, "segments", 1, "bad segment times")


def test_subset_and_write_roundtrip(tmp_path):
    d = _make(tmp_path)
    dd = DataDir.read(d)
    sub = dd.subset(["spk1-u0", "spk0-u2"])
    out = sub.write(tmp_path / "sub")
    validate_data_dir(out, check_audio=True)
    assert (out / "spk2utt").read_text() == "spk0 spk0-u2\nspk1 spk1-u0\n"
    assert DataDir.read(out).text["spk0-u2"] == "hello world 2"
