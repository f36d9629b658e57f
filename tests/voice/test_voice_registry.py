"""The voice method registry: a method declared in one module (here a toy gain method written by the test) is found
through PYDEID_VOICE_METHODS and runs through `pydeid transform-voice` like the built-in ones: its config keys are
checked, its draws are in the secret plan, its transformer makes the audio."""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import soundfile as sf

from pydeid.io import DataDir
from pydeid.voice import registry

TOY = textwrap.dedent('''
    from dataclasses import dataclass

    import numpy as np

    from pydeid.voice.method import VoiceMethod


    @dataclass(frozen=True)
    class GainParams:
        gain_range: tuple = (0.5, 0.9)


    def build(**overrides):
        p = GainParams(**{k: tuple(v) if isinstance(v, list) else v for k, v in overrides.items()})
        if not 0 < p.gain_range[0] <= p.gain_range[1] <= 1:
            raise ValueError(f"gain_range must lie in (0, 1]: {p.gain_range}")
        return p


    def draw(params, rng):
        return {"gain": float(rng.uniform(*params.gain_range))}


    class Gain:
        def __init__(self, params):
            self.params = params

        def transform(self, wav, sr=16000, draw=None):
            return (wav * draw["gain"]).astype(np.float32)


    METHOD = VoiceMethod(name="toygain", params=GainParams, build=build, draw=draw,
                         transformer=lambda params, world: Gain(params), summary="scales the waveform")
''')


def _run(tmp_path, *args):
    env = dict(os.environ, OMP_NUM_THREADS="1", PYDEID_VOICE_METHODS="toy_voice_method",
               PYTHONPATH=f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    return subprocess.run([sys.executable, "-m", "pydeid", *map(str, args)], env=env, capture_output=True, text=True)


def test_builtin_methods_are_registered():
    assert registry.names()[:3] == ["voicemask", "vtln", "mcadams"]
    vtln = registry.get("vtln")
    assert vtln.speaker_targets and "k" in vtln.config_allowed() and "class_shift" in vtln.config_allowed()
    assert registry.get("voicemask").frame_period == 10.0 and not registry.get("mcadams").speaker_targets
    with pytest.raises(ValueError, match="unknown voice conversion method 'nosuch'; methods: voicemask, vtln"):
        registry.get("nosuch")


def test_toy_method_through_transform_voice(mini_corpus, tmp_path):
    (tmp_path / "toy_voice_method.py").write_text(TOY)
    src = mini_corpus / "mini_test_enroll"
    conf = tmp_path / "toygain.yaml"
    conf.write_text("gain_range: [0.5, 0.5]\n")
    out, exp = tmp_path / "out", tmp_path / "exp"
    r = _run(tmp_path, "transform-voice", "--method", "toygain", "--config", conf, "--exp-dir", exp, src, out)
    assert r.returncode == 0, r.stderr
    plan = json.loads((exp / "secrets" / "voice_plan.json").read_text())
    d_in, d_out = DataDir.read(src), DataDir.read(out)
    assert plan["method"] == "toygain" and sorted(plan["utt"]) == d_in.utts
    assert all(e == {"gain": 0.5} for e in plan["utt"].values())
    for u in d_in.utts[:4]:
        x = d_in.load_audio(u, sr=16000)
        y, sr = sf.read(d_out.wav_scp[u], dtype="float32")
        assert sr == 16000 and len(y) == len(x)
        assert np.abs(y - 0.5 * x).max() < 2e-4          # 16-bit rounding only
    # its config keys are checked like a built-in method's: one line naming the file and the allowed keys
    bad = tmp_path / "bad.yaml"
    bad.write_text("gain: 0.5\n")
    r = _run(tmp_path, "transform-voice", "--method", "toygain", "--config", bad, "--exp-dir", tmp_path / "e2", src,
             tmp_path / "out2")
    assert r.returncode != 0 and "unknown key 'gain'; allowed: gain_range, world" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and not (tmp_path / "out2").exists()
    bad.write_text("gain_range: [0.5, 2.0]\n")
    r = _run(tmp_path, "transform-voice", "--method", "toygain", "--config", bad, "--exp-dir", tmp_path / "e3", src,
             tmp_path / "out3")
    assert r.returncode != 0 and "toygain: gain_range must lie in (0, 1]" in r.stderr
    # without the plug-in the name is unknown
    r = subprocess.run([sys.executable, "-m", "pydeid", "transform-voice", "--method", "toygain", str(src)],
                       capture_output=True, text=True, env={k: v for k, v in os.environ.items()
                                                            if k != registry.ENV})
    assert r.returncode == 2 and "invalid choice: 'toygain'" in r.stderr


def test_a_bad_plugin_name_is_one_line(tmp_path):
    env = dict(os.environ, PYDEID_VOICE_METHODS="no_such_voice_module")
    r = subprocess.run([sys.executable, "-m", "pydeid", "transform-voice", "--help"], env=env, capture_output=True,
                       text=True)
    assert r.returncode == 1 and r.stderr.strip().splitlines() == [
        "pydeid: ERROR: PYDEID_VOICE_METHODS: no voice method in module 'no_such_voice_module' "
        "(No module named 'no_such_voice_module')"]
