"""A pretrained Whisper recogniser (faster-whisper / CTranslate2, int8 on one CPU core): the utility meter.

Deterministic decoding: beam search (5) at temperature 0 only (no sampled fallback), language en, no VAD, no
conditioning on previous text; guarded against repetition loops (pydeid.asr.whisper_guards). Weights come from
installed registry packages (pydeid.asr.whisper_models). Word times are Whisper's cross-attention word
timestamps (seconds from the start of the input).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from pydeid.io import UsageError, resample

from . import whisper_guards as G
from .whisper_models import resolve_model

SAMPLE_RATE = 16000


@dataclass
class WhisperResult:
    text: str
    # (word, start s, end s, probability): the probability is Whisper's own for the word (the product over its
    # tokens), written as the CTM confidence so that the masking can hide what the recogniser was unsure of
    words: list[tuple[str, float, float, float]] = field(default_factory=list)
    guards: list[str] = field(default_factory=list)  # names of the guards that changed this output


def check_audio(wav, sr: int) -> np.ndarray:
    """float32 mono 16 kHz from a mono or (samples, channels) array; bad input is a ValueError."""
    if not isinstance(sr, (int, np.integer)) or sr <= 0:
        raise ValueError(f"sample rate must be a positive integer, not {sr!r}")
    wav = np.asarray(wav, dtype=np.float32)
    if wav.ndim == 2:  # (samples, channels), as soundfile reads it
        wav = wav.mean(axis=1)
    elif wav.ndim != 1:
        raise ValueError(f"audio must be mono or (samples, channels), not shape {wav.shape}")
    if not np.all(np.isfinite(wav)):
        raise ValueError("audio holds non-finite samples (NaN or inf)")
    return np.ascontiguousarray(resample(wav, int(sr), SAMPLE_RATE), dtype=np.float32)


class WhisperRecognizer:
    """`WhisperRecognizer("tiny.en").transcribe(wav, sr)` -> WhisperResult."""

    def __init__(self, model: str = "tiny.en", beam_size: int = 5, cpu_threads: int = 1,
                 cache_dir: str | os.PathLike | None = None, word_timestamps: bool = True):
        if beam_size < 1:
            raise UsageError("--beam-size", f"must be >= 1, not {beam_size}")
        if cpu_threads < 1:
            raise UsageError("--cpu-threads", f"must be >= 1, not {cpu_threads}")
        self.model_name = model
        self.model_path = resolve_model(model, cache_dir)
        self.beam_size = beam_size
        self.cpu_threads = cpu_threads
        self.word_timestamps = word_timestamps
        self._model = None  # loaded on first use: a resumed run with nothing left to decode never loads it

    @property
    def model(self):
        if self._model is None:
            import logging

            from faster_whisper import WhisperModel

            logging.getLogger("faster_whisper").setLevel(logging.WARNING)  # not a line per utterance
            self._model = WhisperModel(str(self.model_path), device="cpu", compute_type="int8",
                                       cpu_threads=self.cpu_threads, local_files_only=True)
            self._eot = self._model.hf_tokenizer.token_to_id("<|endoftext|>")  # ids below it are text tokens
        return self._model

    @property
    def settings(self) -> dict:
        return {"model": self.model_name, "model_path": str(self.model_path), "beam_size": self.beam_size,
                "temperature": 0.0, "language": "en", "compute_type": "int8", "cpu_threads": self.cpu_threads,
                "vad_filter": False, "condition_on_previous_text": False, "word_timestamps": self.word_timestamps,
                "guards": {"tokens_per_second": G.TOKENS_PER_SECOND, "token_margin": G.TOKEN_MARGIN,
                           "no_repeat_ngram_size": G.NGRAM, "ngram_loop_count": G.NGRAM_LOOP_COUNT,
                           "compression_ratio": G.COMPRESSION_RATIO}}

    def _decode(self, wav: np.ndarray, no_repeat: int):
        budget = G.token_budget(len(wav) / SAMPLE_RATE)
        segs, _ = self.model.transcribe(
            wav, language="en", task="transcribe", beam_size=self.beam_size, temperature=[0.0],
            compression_ratio_threshold=None, condition_on_previous_text=False, vad_filter=False,
            no_repeat_ngram_size=no_repeat, max_new_tokens=budget, word_timestamps=self.word_timestamps,
            without_timestamps=False)
        segs = list(segs)
        per_window: dict[int, list[int]] = {}
        for s in segs:
            per_window.setdefault(s.seek, []).extend(s.tokens)
        text_tokens = [t for s in segs for t in s.tokens if t < self._eot]
        hit_budget = any(len(toks) >= budget for toks in per_window.values())
        return segs, text_tokens, hit_budget

    def transcribe(self, wav, sr: int) -> WhisperResult:
        wav = check_audio(wav, sr)
        if len(wav) < SAMPLE_RATE // 100:  # under 10 ms: nothing to hear
            return WhisperResult("", [], [])
        guards = []
        segs, toks, hit = self._decode(wav, 0)
        if G.looks_looped(toks, _text(segs), hit):
            segs2, toks2, hit = self._decode(wav, G.NGRAM)
            if _text(segs2) != _text(segs):
                guards.append("no_repeat_ngram")
            segs = segs2
        if hit:
            guards.append("length")
        words = [(w.word.strip(), round(float(w.start), 3), round(float(w.end), 3),
                  round(float(w.probability), 4))
                 for s in segs for w in (s.words or []) if w.word.strip()]
        text = _text(segs)
        if G.compression_ratio(text) > G.COMPRESSION_RATIO:
            if self.word_timestamps:
                cut = G.loop_start([w[0] for w in words])
                if cut is not None:
                    words = words[:cut]
                    text = " ".join(w[0] for w in words)
                    guards.append("truncate_loop")
            else:
                ws = text.split()
                cut = G.loop_start(ws)
                if cut is not None:
                    text = " ".join(ws[:cut])
                    guards.append("truncate_loop")
        return WhisperResult(" ".join(text.split()), words, guards)


def _text(segs) -> str:
    return " ".join("".join(s.text for s in segs).split())
