"""Whisper encoder output as the content feature of frame selection (`content: whisper`).

kNN-VC matches frames on a self-supervised model's features because they encode WHICH sound is spoken and little of
WHO speaks it. On CPU, with no new weights, the closest thing installed is the Whisper encoder (the CTranslate2
models of pydeid.asr.whisper_models): its output frames are trained to carry the words for the decoder. CTranslate2
gives the final encoder layer only (no intermediate layers), so that is what is matched on.

Frames: Whisper's log-mel at 10 ms, the encoder halves it to 20 ms (50 Hz); only the frames covering the real audio
are kept (longer audio: consecutive 30 s windows). The window is the audio padded to the next multiple of 10 s, not
Whisper's fixed 30 s: CTranslate2 takes shorter inputs, a 4 s utterance then costs 0.06 CPU-s instead of 0.43, and
its frames keep a cosine of 0.98 (5th percentile 0.97) to the 30 s window's (measured on a VCTK utterance); pool and
source frames are computed the same way, which is what the matching needs.

Position: the final layer carries Whisper's absolute position strongly (the mean output per position over a
speaker's 20 utterances has norm 0.7-0.9 of unit frames): matched on raw, a source frame takes the target frames at
the same time offset (correlation 0.99 on speechocean762) and the conversion is unintelligible (dev WER 122 %). The
encoder's output for SILENCE of the same window is subtracted at each position: it removes that positional component
(and the silence content), and same-sentence retrieval across speakers no longer depends on where the sentence
starts (tests/voice/test_frame_select_whisper.py). The frames are then linearly interpolated onto WORLD's frame
times (t * frame_period) and L2-normalised, so the squared distance of pydeid's kNN is the cosine distance kNN-VC
uses.

Measured (bench/results/voice_frame_select.md): alone it finds the right sentence, not the right 10 ms (the last
layer is contextual) and matches worse than the mel-cepstra; beside them (`content: both`) it lowers the WER.
"""

from __future__ import annotations

import numpy as np

SR = 16000
WINDOW = 30 * SR          # Whisper's longest input window (samples)
PAD_TO = 10 * SR          # shorter audio is padded to a multiple of this (module docstring)
ENC_HOP = 320             # samples per encoder frame (20 ms)

_ENCODERS: dict = {}      # model name -> WhisperEncoder (one load per process: ~1 s and ~40-80 MB)


class WhisperEncoder:
    def __init__(self, model: str = "tiny.en"):
        from pydeid.asr.whisper_models import resolve_model   # installed weights only, no download
        import ctranslate2
        from faster_whisper.feature_extractor import FeatureExtractor
        path = resolve_model(model)
        # int8 on one thread: the meter's own compute type; frame selection runs one job per core
        self.model = ctranslate2.models.Whisper(str(path), device="cpu", compute_type="int8", intra_threads=1,
                                                inter_threads=1)
        self.fe = FeatureExtractor(feature_size=self.model.n_mels)
        self.name = model
        self._silence: dict = {}   # window width (samples) -> encoder output of silence (module docstring)

    def _encode(self, chunk: np.ndarray, width: int) -> np.ndarray:
        import ctranslate2
        mel = self.fe(np.pad(chunk, (0, width - len(chunk))))[:, :width // 160]   # (n_mels, width / 10 ms)
        sv = ctranslate2.StorageView.from_array(np.ascontiguousarray(mel[None], dtype=np.float32))
        return np.asarray(self.model.encode(sv, to_cpu=True))[0]                   # (width / 20 ms, D)

    def silence(self, width: int) -> np.ndarray:
        if width not in self._silence:
            self._silence[width] = self._encode(np.zeros(0, np.float32), width)
        return self._silence[width]

    def encode(self, wav: np.ndarray, positional: bool = False) -> np.ndarray:
        """(ceil(len/320), D) float32 encoder frames of 16 kHz audio (20 ms each), minus the silence template
        (positional=True: the raw output)."""
        wav = np.asarray(wav, dtype=np.float32)
        n = max(1, -(-len(wav) // ENC_HOP))
        out = []
        for a in range(0, max(len(wav), 1), WINDOW):
            chunk = wav[a:a + WINDOW]
            width = min(WINDOW, -(-max(len(chunk), 1) // PAD_TO) * PAD_TO)
            enc = self._encode(chunk, width)
            if not positional:
                enc = enc - self.silence(width)
            out.append(enc[:max(1, -(-len(chunk) // ENC_HOP))])
        return np.vstack(out)[:n].astype(np.float32)


def get_encoder(model: str) -> WhisperEncoder:
    if model not in _ENCODERS:
        _ENCODERS[model] = WhisperEncoder(model)
    return _ENCODERS[model]


def to_world_frames(enc: np.ndarray, n_frames: int, frame_period_ms: float) -> np.ndarray:
    """Encoder frames (centres at 10, 30, 50 ... ms) linearly interpolated at WORLD's frame times, L2-normalised."""
    t = np.arange(n_frames) * frame_period_ms
    pos = np.clip((t - 10.0) / 20.0, 0.0, len(enc) - 1)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, len(enc) - 1)
    w = (pos - lo)[:, None].astype(np.float32)
    x = (1.0 - w) * enc[lo] + w * enc[hi]
    return (x / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-8)).astype(np.float32)


def whisper_content(wav: np.ndarray, n_frames: int, frame_period_ms: float, model: str = "tiny.en") -> np.ndarray:
    """(n_frames, D) unit-norm Whisper encoder features of one 16 kHz utterance on WORLD's frames."""
    return to_world_frames(get_encoder(model).encode(wav), n_frames, frame_period_ms)


__all__ = ["WhisperEncoder", "get_encoder", "to_world_frames", "whisper_content"]
