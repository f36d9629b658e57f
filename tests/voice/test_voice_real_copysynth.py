"""bench/voice_real_copysynth.py: the WORLD analysis-synthesis floor of the real-voice bench (issue 19), and the
options of bench/voice_real.sh that drive it and the trial-set WER meter."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from pydeid.attack.pitch import utterance_pitch_correlation
from pydeid.io import DataDir
from pydeid.voice.world import analyze
from voice_helpers import vctk_data_dir

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def copysynth():
    spec = importlib.util.spec_from_file_location("voice_real_copysynth", REPO / "bench" / "voice_real_copysynth.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def voiced_log_spectral_distance(x: np.ndarray, y: np.ndarray) -> float:
    """Mean log-spectral distance (dB) of the WORLD envelopes of x and y over the frames voiced in both."""
    a, b = analyze(np.asarray(x, np.float64), 16000), analyze(np.asarray(y, np.float64), 16000)
    v = (a.f0 > 0) & (b.f0 > 0)
    return float(np.sqrt(np.mean((10 * np.log10(a.sp[v] / b.sp[v])) ** 2, axis=1)).mean())


def test_copy_synthesis_keeps_the_voice_and_names_no_original_audio(copysynth, vctk_dir, tmp_path):
    src = vctk_data_dir(vctk_dir, tmp_path / "in", ["p225", "p226"], 1)
    out = tmp_path / "out"
    assert copysynth.main([str(src), str(out)]) == 0
    d_in, d_out = DataDir.read(src), DataDir.read(out)
    assert d_out.utts == d_in.utts and d_out.text == d_in.text and d_out.utt2spk == d_in.utt2spk
    assert not set(d_in.wav_scp.values()) & set(d_out.wav_scp.values())
    assert all(Path(p).parent == (out / "wav").resolve() for p in d_out.wav_scp.values())
    for u in d_in.utts:
        x, y = d_in.load_audio(u), d_out.load_audio(u)
        assert len(y) == len(x) and not np.array_equal(y, x)     # resynthesised, not copied
        # unmodified features: the same F0 contour and the same spectral balance (a conversion moves both)
        assert utterance_pitch_correlation(x, y, 16000) > 0.95
        # (a 0.85 warp of the envelope gives ~9.5 dB on these voices, the copy ~4)
        assert voiced_log_spectral_distance(x, y) < 6.0
    info = json.loads((out / "copysynth.json").read_text())
    assert info["converted"] == 2 and info["rtf_cpu"] > 0 and info["world"] == {"f0_method": "dio",
                                                                                  "frame_period": 5.0, "fft_size": None}


def test_copy_synthesis_world_options(copysynth, vctk_dir, tmp_path, capsys):
    """--world KEY=VALUE: any WorldConfig option, recorded in copysynth.json; the default run is the plain copy."""
    src = vctk_data_dir(vctk_dir, tmp_path / "in", ["p225"], 1)
    assert copysynth.main([str(src), str(tmp_path / "a")]) == 0
    assert copysynth.main(["--world", "d4c_threshold=0", "--world", "fft_size=2048", str(src),
                           str(tmp_path / "b")]) == 0
    info = json.loads((tmp_path / "b" / "copysynth.json").read_text())
    assert info["world"] == {"f0_method": "dio", "frame_period": 5.0, "fft_size": 2048, "d4c_threshold": 0}
    u = DataDir.read(src).utts[0]
    a, b = DataDir.read(tmp_path / "a").load_audio(u), DataDir.read(tmp_path / "b").load_audio(u)
    assert len(a) == len(b) and not np.array_equal(a, b)


@pytest.mark.parametrize("item,msg", [
    ("fft_size", "--world fft_size: expected KEY=VALUE"),
    ("fftsize=2048", "unknown WORLD option 'fftsize' (one of fft_size, f0_floor"),
    ("f0_method=harvest", "unknown WORLD option 'f0_method'"),       # its own flag
    ("d4c_threshold=2", "d4c_threshold must be a number in [0, 1], got 2"),
    ("stonemask=maybe", "stonemask must be true or false, got 'maybe'"),
])
def test_copy_synthesis_refuses_a_bad_world_option_in_one_line(copysynth, tmp_path, capsys, item, msg):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "wav.scp").write_text("")
    assert copysynth.main(["--world", item, str(tmp_path / "d"), str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert msg in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_copy_synthesis_resumes_and_keeps_its_first_timing(copysynth, vctk_dir, tmp_path):
    src = vctk_data_dir(vctk_dir, tmp_path / "in", ["p225"], 2)
    out = tmp_path / "out"
    assert copysynth.main([str(src), str(out)]) == 0
    first = (out / "copysynth.json").read_text()
    wav = sorted((out / "wav").glob("*.wav"))
    sf.write(wav[0], np.zeros(16000, np.float32), 16000)       # a kept output is not rewritten ...
    wav[1].unlink()                                             # ... a missing one is
    assert copysynth.main([str(src), str(out)]) == 0
    assert len(sf.read(wav[0])[0]) == 16000 and wav[1].is_file()
    assert json.loads((out / "copysynth.json").read_text())["converted"] == 1
    assert copysynth.main([str(src), str(out)]) == 0            # nothing left to do: the timing stays
    assert json.loads((out / "copysynth.json").read_text())["converted"] == 1
    assert first != (out / "copysynth.json").read_text()


def test_copy_synthesis_refuses_a_missing_input_and_its_own_input_as_output(copysynth, tmp_path, capsys):
    assert copysynth.main([str(tmp_path / "nothing"), str(tmp_path / "out")]) == 1
    assert "nothing/wav.scp: no such file" in capsys.readouterr().err
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "wav.scp").write_text("")
    assert copysynth.main([str(tmp_path / "d"), str(tmp_path / "d")]) == 1
    assert "is the input" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("opt,val", [("--wer-set", "all"), ("--copysynth", "yes")])
def test_voice_real_sh_refuses_an_unknown_option_value_in_one_line(tmp_path, opt, val):
    env = dict(os.environ, SPEECHOCEAN=str(tmp_path / "none"))
    r = subprocess.run(["bash", str(REPO / "bench" / "voice_real.sh"), "--work", str(tmp_path / "w"), opt, val],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode != 0
    assert r.stderr.strip().splitlines() == [r.stderr.strip()] and val in r.stderr and opt.lstrip("-") in r.stderr
    assert not (tmp_path / "w").exists()                        # refused before anything is written
