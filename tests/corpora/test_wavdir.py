"""egs/wavdir/s5 stage 0 (pydeid.corpora.wavdir): a folder of recordings in any format, rate and channel count
-> a data dir of 16 kHz mono working copies with pseudonymous ids; the originals stay out of it."""

from __future__ import annotations

import os
import stat
import subprocess

import numpy as np
import pytest
import soundfile as sf

from pydeid.corpora.wavdir import build_wavdir
from pydeid.io.datadir import validate_data_dir
from pydeid.io.errors import FormatError


@pytest.fixture
def rec_folder(tmp_path, vctk_dir):
    """p225_001 as a stereo 44.1 kHz wav (second channel scaled) and p226_002 as a mono 8 kHz flac."""
    from pydeid.io.audio import read_audio
    a, _ = read_audio(str(vctk_dir / "wav/p225/p225_001.flac"), sr=44100)
    b, _ = read_audio(str(vctk_dir / "wav/p226/p226_002.flac"), sr=8000)
    d = tmp_path / "Calls of Alice Smith"
    (d / "bob").mkdir(parents=True)
    sf.write(d / "alice_smith_call.wav", np.stack([a, 0.5 * a], axis=1), 44100)
    sf.write(d / "bob" / "bob_jones_0412.flac", b, 8000)
    (d / "notes.txt").write_text("not audio: ignored\n")
    return d


def test_builds_16k_mono_working_copies_with_pseudonymous_ids(tmp_path, rec_folder):
    out, audio, secret = tmp_path / "data/wavdir", tmp_path / "exp/audio", tmp_path / "exp/secrets/map.json"
    d = build_wavdir(rec_folder, out, audio, secret)
    assert sorted(d.utt2spk) == ["spk0001-0001", "spk0002-0001"]    # one speaker per recording
    assert not (out / "text").exists()
    for utt, spec in d.wav_scp.items():
        info = sf.info(spec)
        assert (info.samplerate, info.channels) == (16000, 1)
        assert str(audio.resolve()) in spec
        assert abs(info.duration - d.utt2dur[utt]) < 0.01
    # stereo 44.1 kHz -> the mix at 16 kHz: same duration as the original, real signal
    orig = sf.info(rec_folder / "alice_smith_call.wav")
    assert abs(d.utt2dur["spk0001-0001"] - orig.duration) < 0.01
    wav, _ = sf.read(d.wav_scp["spk0001-0001"])
    assert np.abs(wav).max() > 0.05
    # nothing in the data dir names an original file or folder
    for f in out.iterdir():
        body = f.read_text()
        for needle in ("alice", "bob_jones", "Calls of", str(rec_folder)):
            assert needle not in body, (f, needle)
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600
    assert "bob_jones_0412.flac" in secret.read_text()      # the only link back: the secret map
    validate_data_dir(out, no_text=True)


def test_spk_from_dirname_and_resume(tmp_path, rec_folder):
    out, audio, secret = tmp_path / "d", tmp_path / "a", tmp_path / "s/map.json"
    sf.write(rec_folder / "bob" / "bob_2.wav", np.zeros(8000, np.float32) + 0.1, 8000)
    d = build_wavdir(rec_folder, out, audio, secret, spk_from="dirname")
    assert sorted(d.spk2utt) == ["spk0001", "spk0002"]
    assert d.spk2utt["spk0002"] == ["spk0002-0001", "spk0002-0002"]
    before = {u: os.stat(p).st_mtime_ns for u, p in d.wav_scp.items()}
    d2 = build_wavdir(rec_folder, out, audio, secret, spk_from="dirname")   # a rerun reuses the copies
    assert {u: os.stat(p).st_mtime_ns for u, p in d2.wav_scp.items()} == before


def test_refuses_bad_files_and_secret_inside_the_data(tmp_path, rec_folder):
    (rec_folder / "broken.wav").write_bytes(b"RIFF....not a wav")
    with pytest.raises(FormatError, match="broken.wav: unreadable audio"):
        build_wavdir(rec_folder, tmp_path / "d", tmp_path / "a", tmp_path / "s.json")
    (rec_folder / "broken.wav").unlink()
    sf.write(rec_folder / "empty.wav", np.zeros((0,), np.float32), 16000)
    with pytest.raises(FormatError, match="empty.wav: empty recording"):
        build_wavdir(rec_folder, tmp_path / "d", tmp_path / "a", tmp_path / "s.json")
    (rec_folder / "empty.wav").unlink()
    with pytest.raises(FormatError, match="secret would lie inside"):
        build_wavdir(rec_folder, tmp_path / "d", tmp_path / "a", tmp_path / "d/map.json")


def test_cli_one_line_error(tmp_path, repo_root):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "x.wav").write_bytes(b"")
    r = subprocess.run(["pydeid", "make-wavdir-data", "--audio-dir", str(tmp_path / "a"), "--secret",
                        str(tmp_path / "s.json"), str(tmp_path / "in"), str(tmp_path / "d")],
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.strip().count("\n") == 0 and "x.wav: unreadable audio" in r.stderr
    assert not (tmp_path / "d").exists()


def test_text_free_data_dir_reads_unvalidated(tmp_path, rec_folder):
    """steps/transcribe.sh reads the text-free dir: DataDir.read(validate=False) gives an empty text; validated
    reading still refuses it."""
    from pydeid.io import DataDir
    out = tmp_path / "d"
    build_wavdir(rec_folder, out, tmp_path / "a", tmp_path / "s.json")
    d = DataDir.read(out, validate=False)
    assert d.text == {} and len(d.wav_scp) == 2
    with pytest.raises(FormatError, match="text"):
        DataDir.read(out)
