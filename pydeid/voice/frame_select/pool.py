"""The target pool of frame selection: every frame of up to max_utts utterances of each pool speaker (coded
envelope, coded aperiodicity, voicing, content features: mel-cepstra normalised over that speaker, or Whisper
encoder frames stored as float16) and the speaker's log-F0 statistics. Saved as one npz (no pickles) next to the
secret plan; the published corpus never holds it. meta["version"] is bumped whenever what `content` holds changes,
so a pool of an older version is refused rather than matched against features of another kind."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..common import log_f0_stats
from .features import code_frames, content

VERSION = 2   # 2: meta records the content feature (mcep | whisper | both), its model and weight
# meta["phones"] (absent before): the pool holds each frame's aligned phone and the utterance starts (match segments)


@dataclass
class SpeakerFrames:
    mcep: np.ndarray
    bap: np.ndarray
    voiced: np.ndarray
    content: np.ndarray
    log_f0: tuple[float, float]
    phone: np.ndarray | None = None    # (T,) aligned phone index per frame (-1: none); pools built with phones
    bounds: np.ndarray | None = None   # frame offsets where each utterance starts


class FramePool:
    def __init__(self, speakers: dict[str, SpeakerFrames], meta: dict):
        self.speakers = speakers
        self.meta = meta   # n_mcep, n_content, delta_weight, sr, fft_size, frame_period

    @classmethod
    def build(cls, utterances: dict[str, list], world, n_mcep: int, n_content: int, delta_weight: float,
              progress=None, content_kind: str = "mcep", whisper_model: str = "tiny.en",
              whisper_weight: float = 1.0, phone_labels=None, ap_bands: int = 0) -> "FramePool":
        """utterances: {speaker: [waveform (16 kHz), ...]} (iterables are read lazily); phone_labels: {speaker:
        [function n_frames -> (n_frames,) phone index per frame, one per utterance, in the same order]}."""
        from ..world import analyze
        from .whisper_content import whisper_content
        spk_frames, fft_size = {}, None
        for spk, wavs in (progress or (lambda x: x))(list(utterances.items())):
            fr, f0s, wh, ph = [], [], [], []
            labellers = None if phone_labels is None else list(phone_labels[spk])
            for i, wav in enumerate(wavs):
                f = analyze(wav, 16000, world)
                if labellers is not None:
                    ph.append(np.asarray(labellers[i](len(f.f0)), np.int16))
                fft_size = (f.sp.shape[1] - 1) * 2
                fr.append(code_frames(f, n_mcep, ap_bands))
                f0s.append(f.f0)
                if content_kind in ("whisper", "both"):   # computed once per pool utterance; float16 halves the pool
                    wh.append(whisper_content(wav, len(f.f0), world.frame_period, whisper_model).astype(np.float16))
            if not fr:
                raise ValueError(f"pool speaker '{spk}' has no utterance")
            mcep = np.vstack([x.mcep for x in fr])
            try:
                lf0 = log_f0_stats(f0s)
            except ValueError as e:
                raise ValueError(f"pool speaker '{spk}': {e}") from None
            # content normalised over the speaker's frames, deltas within each utterance
            mu, sd = mcep[:, :n_content].mean(0), mcep[:, :n_content].std(0) + 1e-6
            cont = np.vstack(wh) if content_kind == "whisper" else \
                np.vstack([content(x.mcep, n_content, delta_weight, (mu, sd)) for x in fr])
            if content_kind == "both":   # mel-cepstra and the weighted Whisper frames side by side
                cont = np.hstack([np.vstack([content(x.mcep, n_content, delta_weight, (mu, sd)) for x in fr]),
                                  whisper_weight * np.vstack(wh).astype(np.float32)]).astype(np.float16)
            spk_frames[spk] = SpeakerFrames(mcep=mcep, bap=np.vstack([x.bap for x in fr]),
                                            voiced=np.concatenate([x.voiced for x in fr]), content=cont,
                                            log_f0=lf0, phone=np.concatenate(ph) if ph else None,
                                            bounds=np.cumsum([0] + [len(x.voiced) for x in fr[:-1]]) if ph else None)
        meta = {"version": VERSION, "content": content_kind,
                "whisper_model": whisper_model if content_kind != "mcep" else None,
                "whisper_weight": float(whisper_weight) if content_kind == "both" else None,
                "n_mcep": n_mcep, "n_content": n_content, "delta_weight": float(delta_weight), "sr": 16000,
                "fft_size": int(fft_size or 1024), "frame_period": float(world.frame_period)}
        if phone_labels is not None:
            meta["phones"] = True
        if ap_bands:
            meta["ap_bands"] = int(ap_bands)
        return cls(spk_frames, meta)

    def save(self, path: os.PathLike) -> None:
        from pydeid.io import atomic_write_bytes
        import io
        import json
        arrays = {"__meta__": np.frombuffer(json.dumps(self.meta).encode(), dtype=np.uint8)}
        for i, (spk, s) in enumerate(sorted(self.speakers.items())):
            arrays[f"{i}_name"] = np.frombuffer(spk.encode("utf-8"), dtype=np.uint8)
            arrays[f"{i}_mcep"], arrays[f"{i}_bap"] = s.mcep, s.bap
            arrays[f"{i}_voiced"], arrays[f"{i}_content"] = s.voiced, s.content
            arrays[f"{i}_logf0"] = np.asarray(s.log_f0)
            if s.phone is not None:
                arrays[f"{i}_phone"], arrays[f"{i}_bounds"] = s.phone, np.asarray(s.bounds, dtype=np.int64)
        buf = io.BytesIO()
        np.savez(buf, **arrays)
        atomic_write_bytes(Path(path), buf.getvalue())

    @staticmethod
    def speaker_names(path: os.PathLike) -> list[str]:
        """The pool speakers of a saved pool, sorted, without loading its frames."""
        with np.load(path, allow_pickle=False) as z:
            return sorted(bytes(z[k]).decode("utf-8") for k in z.files if k.endswith("_name"))

    @classmethod
    def load(cls, path: os.PathLike) -> "FramePool":
        import json
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(bytes(z["__meta__"]).decode())
            spk, i = {}, 0
            while f"{i}_name" in z:
                lf = z[f"{i}_logf0"]
                spk[bytes(z[f"{i}_name"]).decode("utf-8")] = SpeakerFrames(
                    mcep=z[f"{i}_mcep"], bap=z[f"{i}_bap"], voiced=z[f"{i}_voiced"], content=z[f"{i}_content"],
                    log_f0=(float(lf[0]), float(lf[1])), phone=z[f"{i}_phone"] if f"{i}_phone" in z else None,
                    bounds=z[f"{i}_bounds"] if f"{i}_bounds" in z else None)
                i += 1
        return cls(spk, meta)


__all__ = ["VERSION", "FramePool", "SpeakerFrames"]
