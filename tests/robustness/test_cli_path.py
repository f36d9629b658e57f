"""The one error path itself (--debug, the real entry point, chain) and LibriSpeech preparation inputs."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import soundfile as sf

from robust_helpers import SR, refused, voiced
from pydeid.io import DataDir


def test_real_entry_point_prints_one_line_and_debug_shows_the_traceback(base):
    t = base / "data" / "text"
    t.write_bytes(t.read_bytes().replace(b"Paris", b"Par\xefs"))
    env = dict(os.environ, PYDEID_DEBUG="")
    cmd = [sys.executable, "-m", "pydeid", "validate-data-dir", str(base / "data")]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines() == [p.stderr.strip()] and "data/text:2" in p.stderr
    p = subprocess.run(cmd[:3] + ["--debug"] + cmd[3:], capture_output=True, text=True, env=env)
    assert p.returncode == 1 and "Traceback" in p.stderr and "FormatError" in p.stderr


def test_unexpected_exception_is_one_line_naming_debug(cli, base, monkeypatch):
    import pydeid.cli.validate_data_dir as v

    def boom(*a, **k):
        raise RuntimeError("internal bug")
    monkeypatch.setattr("pydeid.io.validate_data_dir", boom)
    line = refused(cli("validate-data-dir", base / "data"), 1, "RuntimeError", "--debug")
    assert "internal bug" in line and v


def test_chain_stops_at_the_bad_part_with_one_line(cli, base):
    (base / "data" / "spk2gender").write_text("spkA f\n")
    rc, out, err = cli("chain", "validate-data-dir", base / "data", ":::", "transform-text", base / "data",
                       base / "tags.conll", base / "out")
    assert rc == 1 and "Traceback" not in err
    assert any("data/spk2gender" in l and "ERROR" in l for l in err.splitlines())
    assert not (base / "out").exists()


def _libri(root, with_flac=True, speakers="1 | F | dev-clean | 1.0 | Ann\n"):
    ch = root / "LibriSpeech" / "dev-clean" / "1" / "2"
    ch.mkdir(parents=True)
    (root / "LibriSpeech" / "SPEAKERS.TXT").write_text(";ID | SEX | SUBSET | MINUTES | NAME\n" + speakers)
    (ch / "1-2.trans.txt").write_text("1-2-0000 HELLO JOHN\n1-2-0001 GOOD MORNING\n")
    for k, u in enumerate(("1-2-0000", "1-2-0001")):
        if with_flac or k == 0:
            sf.write(ch / f"{u}.flac", voiced(k, 0.5), SR, format="FLAC")
    return root


def test_librispeech_wav_scp_is_kaldi_readable_and_read_by_pydeid(cli, tmp_path):
    root = _libri(tmp_path / "ls")
    rc, out, err = cli("prepare-librispeech", root, "dev-clean", tmp_path / "d")
    assert rc == 0, err
    d = DataDir.read(tmp_path / "d", check_audio=True)
    assert all(v.startswith("flac -c -d -s /") and v.endswith(".flac |") for v in d.wav_scp.values())
    wav = d.load_audio("1-2-0000")
    assert len(wav) == SR // 2 and np.abs(wav).max() > 0.1
    rc, out, err = cli("validate-data-dir", "--check-audio", tmp_path / "d")
    assert rc == 0, err


def test_librispeech_missing_flac(cli, tmp_path):
    root = _libri(tmp_path / "ls", with_flac=False)
    refused(cli("prepare-librispeech", root, "dev-clean", tmp_path / "d"), 1, "1-2.trans.txt:2", "1-2-0001.flac",
            outputs=[tmp_path / "d"])


def test_librispeech_speaker_missing_from_speakers_txt(cli, tmp_path):
    root = _libri(tmp_path / "ls", speakers="7 | M | dev-clean | 1.0 | Bob\n")
    refused(cli("prepare-librispeech", root, "dev-clean", tmp_path / "d"), 1, "SPEAKERS.TXT",
            outputs=[tmp_path / "d"])


def test_librispeech_unknown_subset_dir(cli, tmp_path):
    root = _libri(tmp_path / "ls")
    refused(cli("prepare-librispeech", root, "dev-clena", tmp_path / "d"), 1, "dev-clena", outputs=[tmp_path / "d"])
