"""The pretrained attacker: the GE2E speaker encoder (Wan et al. 2018) whose weights the Resemblyzer 0.1.4 wheel
ships inside its files (resemblyzer/pretrained.pt, 17 MB, Apache-2.0; 3-layer LSTM 256 on 40 Mel bands, 256-dim
embeddings; the Real-Time-Voice-Cloning encoder, described by its author as trained on thousands of speakers of
LibriSpeech train-other and VoxCeleb 1 and 2).

An attacker who starts from a model trained on many voices is what a real adversary has: the recipes' own
x-vector/ECAPA attackers learn from the corpus's 30 train speakers only. Nothing is downloaded: the weights are
read from the installed package, on CPU.

`PretrainedEncoder().embed(wav, sr)`: Resemblyzer's own preprocessing (resampling to 16 kHz, volume raised to
-30 dBFS, long silences trimmed by webrtcvad), 1.6 s partials at 1.3 per second, the L2-normalised mean of their
embeddings. Deterministic (no random draws).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

MIN_SECONDS = 0.2   # shorter audio (after the VAD) is tiled up to this length: one embedding for every utterance


def weights_path() -> Path:
    """The weights file inside the installed resemblyzer package (no network)."""
    import importlib.util
    spec = importlib.util.find_spec("resemblyzer")
    if spec is None or not spec.origin:
        raise ImportError("the pretrained attacker needs the resemblyzer package (requirements.txt)")
    return Path(spec.origin).parent / "pretrained.pt"


def weights_sha256(path: str | os.PathLike | None = None) -> str:
    h = hashlib.sha256()
    with open(path or weights_path(), "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class PretrainedEncoder:
    """Resemblyzer's GE2E voice encoder on CPU. state: a state dict replacing the shipped weights (a fine-tuned
    encoder, pydeid.attack.pretrained_finetune); num_threads: torch CPU threads (None: leave torch's setting)."""

    dim = 256

    def __init__(self, state: dict | None = None, num_threads: int | None = 1):
        import warnings
        import torch
        if num_threads:
            torch.set_num_threads(num_threads)
        with warnings.catch_warnings():   # resemblyzer imports scipy.ndimage.morphology (deprecated alias)
            warnings.simplefilter("ignore", DeprecationWarning)
            from resemblyzer import VoiceEncoder
        self.model = VoiceEncoder(device="cpu", verbose=False, weights_fpath=weights_path())
        if state is not None:
            self.model.load_state_dict(state)
        self.model.eval()

    @staticmethod
    def preprocess(wav: np.ndarray, sr: int) -> np.ndarray:
        """Resemblyzer's preprocessing; audio the VAD would remove entirely is kept as it is."""
        from resemblyzer import audio
        from resemblyzer.hparams import sampling_rate
        wav = np.asarray(wav, dtype=np.float32)
        if sr != sampling_rate:
            import librosa
            wav = librosa.resample(wav, orig_sr=sr, target_sr=sampling_rate)
        if len(wav) and np.any(wav):
            wav = audio.normalize_volume(wav, audio.audio_norm_target_dBFS, increase_only=True)
            trimmed = audio.trim_long_silences(wav)
            if len(trimmed) >= MIN_SECONDS * sampling_rate:
                wav = trimmed
        n = int(MIN_SECONDS * sampling_rate)
        if len(wav) < n:
            wav = np.tile(wav, n // max(len(wav), 1) + 1)[:n] if len(wav) else np.zeros(n, np.float32)
        return wav.astype(np.float32)

    def embed(self, wav: np.ndarray, sr: int) -> np.ndarray:
        """Utterance embedding [256] (float64, unit length)."""
        return np.asarray(self.model.embed_utterance(self.preprocess(wav, sr)), dtype=np.float64)
