"""Audio checks (empty, truncated, non-finite, durations vs utt2dur and segments) and voice conversion inputs:
configs, secrets placement, --resume with another seed or config."""

from __future__ import annotations

import numpy as np
import soundfile as sf

from robust_helpers import SR, refused, snapshot


def tv(cli, base, *opts, out="out", exp="exp"):
    return cli("transform-voice", "--method", "mcadams", "--exp-dir", base / exp, *opts, base / "data", base / out)


def test_valid_conversion(cli, base):
    rc, out, err = tv(cli, base)
    assert rc == 0, err
    assert len(list((base / "out" / "wav").glob("*.wav"))) == 3


def test_zero_sample_audio(cli, base):
    sf.write(base / "data" / "wav" / "spkA-d1-02.wav", np.zeros(0, np.float32), SR, subtype="PCM_16")
    refused(tv(cli, base), 1, "spkA-d1-02", "no samples", outputs=[base / "out"])


def test_truncated_wav(cli, base):
    w = base / "data" / "wav" / "spkA-d1-02.wav"
    w.write_bytes(w.read_bytes()[: 44 + 8000])
    refused(tv(cli, base), 1, "spkA-d1-02", "truncated", outputs=[base / "out"])


def test_nan_samples(cli, base):
    x = np.zeros(int(1.2 * SR), np.float32)
    x[100:200] = np.nan
    sf.write(base / "data" / "wav" / "spkB-d1-01.wav", x, SR, subtype="FLOAT")
    refused(tv(cli, base), 1, "spkB-d1-01", "NaN", outputs=[base / "out"])


def test_inf_samples(cli, base):
    x = np.full(int(1.2 * SR), 0.1, np.float32)
    x[5] = np.inf
    sf.write(base / "data" / "wav" / "spkB-d1-01.wav", x, SR, subtype="FLOAT")
    refused(tv(cli, base), 1, "spkB-d1-01", outputs=[base / "out"])


def test_audio_not_audio(cli, base):
    (base / "data" / "wav" / "spkA-d1-01.wav").write_text("this is not audio\n")
    refused(tv(cli, base), 1, "spkA-d1-01", outputs=[base / "out"])


def test_missing_audio_file(cli, base):
    (base / "data" / "wav" / "spkA-d1-01.wav").unlink()
    refused(tv(cli, base), 1, "spkA-d1-01", outputs=[base / "out"])


def test_failing_pipe(cli, base):
    scp = base / "data" / "wav.scp"
    lines = scp.read_text().splitlines()
    lines[0] = "spkA-d1-01 false |"
    scp.write_text("\n".join(lines) + "\n")
    refused(tv(cli, base), 1, "spkA-d1-01", outputs=[base / "out"])


def test_utt2dur_disagrees_with_audio(cli, base):
    """A truncated file that is still valid WAV: utt2dur says 1.2 s, the audio holds 0.5 s."""
    sf.write(base / "data" / "wav" / "spkA-d1-02.wav", np.zeros(SR // 2, np.float32) + 0.01, SR)
    refused(tv(cli, base), 1, "utt2dur", "spkA-d1-02", outputs=[base / "out"])


def test_segment_past_the_end_of_the_recording(cli, base):
    d = base / "data"
    (d / "segments").write_text("spkA-d1-01 spkA-d1-01 0.0 1.0\nspkA-d1-02 spkA-d1-02 0.2 4.0\n"
                                "spkB-d1-01 spkB-d1-01 0.0 -1\n")
    (d / "utt2dur").unlink()
    refused(tv(cli, base), 1, "segments", "spkA-d1-02", outputs=[base / "out"])


def test_segment_starting_after_the_end(cli, base):
    d = base / "data"
    (d / "segments").write_text("spkA-d1-01 spkA-d1-01 0.0 1.0\nspkA-d1-02 spkA-d1-02 2.0 3.0\n"
                                "spkB-d1-01 spkB-d1-01 0.0 -1\n")
    (d / "utt2dur").unlink()
    refused(tv(cli, base), 1, "spkA-d1-02", outputs=[base / "out"])


def test_voice_config_unknown_key(cli, base):
    conf = base / "mc.yaml"
    conf.write_text("alpha: 0.8\nalfa_range: [0.7, 0.9]\n")
    refused(tv(cli, base, "--config", conf), 1, "mc.yaml", "alfa_range", "alpha_range", outputs=[base / "out"])


def test_voice_config_syntax_error(cli, base):
    conf = base / "mc.yaml"
    conf.write_text("alpha: 0.8\nlp_order: [20\n")
    refused(tv(cli, base, "--config", conf), 1, "mc.yaml:", outputs=[base / "out"])


def test_voice_config_value_out_of_range(cli, base):
    conf = base / "mc.yaml"
    conf.write_text("alpha: 3.0\n")
    refused(tv(cli, base, "--config", conf), 1, "mc.yaml", "3.0", outputs=[base / "out", base / "exp"])


def test_voicemask_config_unknown_world_key(cli, base):
    conf = base / "vm.yaml"
    conf.write_text("world:\n  f0_methd: dio\n")
    refused(cli("transform-voice", "--method", "voicemask", "--config", conf, "--exp-dir", base / "exp",
                base / "data", base / "out"), 1, "vm.yaml", "f0_methd", outputs=[base / "out", base / "exp"])


def test_exp_dir_inside_output(cli, base):
    refused(tv(cli, base, exp="out/exp"), 1, "exp", outputs=[base / "out"])


def test_wav_dir_holding_the_secrets(cli, base):
    """The converted audio dir would contain the plan that undoes the conversion."""
    refused(tv(cli, base, "--wav-dir", base / "exp"), 1, "secrets", outputs=[base / "out", base / "exp"])


def test_vtln_without_target_data(cli, base):
    refused(cli("transform-voice", "--method", "vtln", "--exp-dir", base / "exp", base / "data", base / "out"), 2,
            "--target-data", outputs=[base / "out", base / "exp"])


def test_resume_with_another_seed_is_refused(cli, base):
    """Silent acceptance before: --resume kept the old draws and relabelled the plan with the new seed."""
    conf = base / "mc.yaml"
    conf.write_text("alpha_range: [0.7, 0.9]\n")
    rc, _, err = tv(cli, base, "--config", conf, "--seed", "1", "--part", "plan")
    assert rc == 0, err
    before = snapshot(base / "exp")
    refused(tv(cli, base, "--config", conf, "--seed", "2", "--resume"), 1, "seed", before=before,
            outputs=[base / "exp"])
    assert not (base / "out").exists()


def test_resume_with_another_config_is_refused(cli, base):
    conf = base / "mc.yaml"
    conf.write_text("alpha_range: [0.7, 0.9]\n")
    rc, _, err = tv(cli, base, "--config", conf, "--part", "plan")
    assert rc == 0, err
    conf.write_text("alpha_range: [0.6, 0.7]\n")
    before = snapshot(base / "exp")
    refused(tv(cli, base, "--config", conf, "--resume"), 1, "alpha_range", before=before, outputs=[base / "exp"])


def test_targets_file_that_is_not_json(cli, base):
    bad = base / "plan.json"
    bad.write_text("{not json")
    refused(tv(cli, base, "--targets-file", bad), 1, "plan.json", outputs=[base / "out", base / "exp"])
