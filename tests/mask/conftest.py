"""A small synthetic corpus with exactly known word times: every word is a tone burst at the CTM position."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pydeid.io import CtmEntry, Sentence, write_audio, write_conll, write_ctm, write_data_dir

SR = 16000
AMP = 0.3
# utt -> (duration, [(text token, ctm token, tag, start, end)])
UTTS = {
    # punctuation/case differ between tags/text ("Stella.") and CTM ("stella"); adjacent DATE + TIME entities
    "spk1-u1": (3.0, [("Please", "please", "O", 0.20, 0.55), ("call", "call", "O", 0.60, 0.90),
                      ("Stella.", "stella", "B-PER", 0.95, 1.50), ("on", "on", "O", 1.60, 1.75),
                      ("Monday", "monday", "B-DATE", 1.80, 2.20), ("morning", "morning", "B-TIME", 2.20, 2.70)]),
    # entities at both utterance edges
    "spk1-u2": (2.0, [("Bob", "Bob", "B-PER", 0.00, 0.40), ("is", "is", "O", 0.50, 0.70),
                      ("in", "in", "O", 0.75, 0.95), ("Paris", "Paris", "B-LOC", 1.10, 2.00)]),
    # nothing to hide
    "spk2-u3": (1.5, [("hello", "hello", "O", 0.20, 0.60), ("there", "there", "O", 0.70, 1.20)]),
    # overlapping CTM entries inside one entity, an untagged word with the same spelling as a tagged one
    "spk2-u4": (2.5, [("meet", "meet", "O", 0.10, 0.45), ("Anna", "Anna", "B-PER", 0.50, 0.90),
                      ("Smith", "Smith", "I-PER", 0.85, 1.30), ("today", "today", "O", 1.40, 1.90),
                      ("smith", "smith", "O", 1.95, 2.40)]),
}
SENSITIVE = ["Stella", "Monday", "morning", "Bob", "Paris", "Anna"]


def word_audio(utt: str, dur: float, words) -> np.ndarray:
    t = np.arange(int(dur * SR)) / SR
    wav = np.zeros_like(t, dtype=np.float32)
    for k, (_, _, _, s, e) in enumerate(words):
        m = (t >= s) & (t < e)
        wav[m] += AMP * np.sin(2 * np.pi * (300 + 70 * k) * t[m])
    return wav.astype(np.float32)


@pytest.fixture()
def synth(tmp_path) -> dict:
    data = tmp_path / "data"
    wavs = tmp_path / "orig_wav"
    wav_scp, text, utt2spk, ctm, sents = {}, {}, {}, [], []
    for utt, (dur, words) in UTTS.items():
        p = wavs / f"{utt}.wav"
        write_audio(p, word_audio(utt, dur, words), SR)
        wav_scp[utt] = str(p)
        text[utt] = " ".join(w[0] for w in words)
        utt2spk[utt] = utt.split("-")[0]
        ctm += [CtmEntry(utt, "1", s, round(e - s, 3), c) for _, c, _, s, e in words]
        sents.append(Sentence([w[0] for w in words], [w[2] for w in words], utt))
    write_data_dir(data, wav_scp=wav_scp, text=text, utt2spk=utt2spk)
    write_ctm(tmp_path / "words.ctm", ctm)
    write_conll(tmp_path / "tags.conll", sents)
    return {"root": tmp_path, "data": data, "ctm": tmp_path / "words.ctm", "tags": tmp_path / "tags.conll"}


def interval_samples(s: float, e: float) -> slice:
    return slice(int(np.ceil(s * SR)), int(np.floor(e * SR)))
