"""ESPnet data preparation: plain 16 kHz wavs referenced in place, anything else dumped; normalised text."""

import numpy as np
import soundfile as sf

from pydeid.asr.prep import prepare_asr_data, write_speaker_ids
from pydeid.asr.textnorm import TextNorm
from pydeid.io import read_kaldi_map, write_data_dir


def test_prepare_in_place_dump_and_no_text(tmp_path):
    t = np.linspace(0, 1, 16000, dtype=np.float32)
    sf.write(tmp_path / "a.wav", 0.1 * np.sin(2000 * t), 16000)
    sf.write(tmp_path / "b.wav", 0.1 * np.sin(3000 * np.linspace(0, 1, 8000)), 8000)  # 8 kHz: resampled dump
    write_data_dir(tmp_path / "d", wav_scp={"s1-a": str(tmp_path / "a.wav"), "s1-b": str(tmp_path / "b.wav"),
                                            "s2-c": f"cat {tmp_path / 'a.wav'} |"},
                   text={"s1-a": "Hello, World!", "s1-b": "...", "s2-c": "Bob's car"},
                   utt2spk={"s1-a": "s1", "s1-b": "s1", "s2-c": "s2"})
    out = prepare_asr_data(tmp_path / "d", tmp_path / "asr", TextNorm())
    wav = read_kaldi_map(out / "wav.scp")
    assert wav == {"s1-a": str(tmp_path / "a.wav"), "s2-c": str(out / "wav" / "s2-c.wav")}
    assert read_kaldi_map(out / "text") == {"s1-a": "hello world", "s2-c": "bob's car"}
    assert (out / "dropped").read_text() == "s1-b\n"  # empty after normalisation: not trainable
    assert sf.info(wav["s2-c"]).samplerate == 16000
    write_speaker_ids(out, {"s2": 0})
    assert read_kaldi_map(out / "spk") == {"s1-a": "-1", "s2-c": "0"}
    # decoding: no text needed, every utterance kept, 8 kHz audio resampled to 16 kHz
    (tmp_path / "d" / "text").unlink()
    out2 = prepare_asr_data(tmp_path / "d", tmp_path / "asr2", TextNorm(), need_text=False)
    wav2 = read_kaldi_map(out2 / "wav.scp")
    assert set(wav2) == {"s1-a", "s1-b", "s2-c"} and sf.info(wav2["s1-b"]).samplerate == 16000
    assert not (out2 / "text").exists()
