"""Speech recognition with a pretrained recogniser: pocketsphinx 5 and the en-us model shipped in its wheel.

This is the utility meter of the VoicePrivacy Challenge kind: a recogniser nobody trained on the corpus decodes
original, converted and converted-and-masked speech, and the WER difference is what the conversion costs.
The wheel brings the acoustic model (en-us continuous HMM), the CMU dictionary and a general 3-gram language
model (en-us.lm.bin). A corpus language model built from the training transcripts (pydeid.asr.ngram_lm, ARPA)
makes a sharper meter; the words of those transcripts that the CMU dictionary lacks get a pronunciation from the
offline G2P (pydeid.align.g2p) in an extra dictionary next to the language model.

Decoding is deterministic: the front end (live CMN, noise estimate) is reset before each utterance, so a
hypothesis never depends on the utterances decoded before it (job split, order).
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from pathlib import Path

import numpy as np

from pydeid.align.pocketsphinx_backend import bundled_model
from pydeid.io import FormatError, atomic_write_text

log = logging.getLogger(__name__)
_ALT = re.compile(r"\(\d+\)$")
_NONWORD = re.compile(r"^(<s>|</s>|<sil>|\[.*\]|\+.*\+)$")
GENERAL = "general"


def general_lm() -> str:
    import pocketsphinx
    return os.path.join(pocketsphinx.get_model_path(), "en-us", "en-us.lm.bin")


def read_dict_words(path: str | os.PathLike) -> set[str]:
    words = set()
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.strip():
                words.add(_ALT.sub("", line.split(None, 1)[0]).lower())
    return words


def lm_words(sentences) -> list[str]:
    return sorted({w for s in sentences for w in s.split()})


def make_extra_dict(words, out: str | os.PathLike) -> dict:
    """Pronunciations of the words the CMU dictionary lacks (G2P), written as '<word> PH ON ES' lines."""
    from pydeid.align.g2p import NeuralG2P

    _, cmudict = bundled_model()
    known = read_dict_words(cmudict)
    g2p = NeuralG2P()
    lines, oov, unpronounceable = [], [], []
    for w in sorted(set(words)):
        if w in known:
            continue
        phones = g2p.predict(w)
        if not phones:
            unpronounceable.append(w)
            continue
        oov.append(w)
        lines.append(f"{w} {' '.join(phones)}\n")
    atomic_write_text(out, "".join(lines))
    return {"words": len(set(words)), "g2p_words": len(oov), "unpronounceable": unpronounceable,
            "g2p_examples": lines[:10]}


def build_corpus_lm(sentences, lm_dir: str | os.PathLike, order: int = 3) -> dict:
    """<lm_dir>/lm.arpa (interpolated Kneser-Ney over the lower-cased sentences), <lm_dir>/extra.dict, and
    <lm_dir>/lm_info.json (counts)."""
    from .ngram_lm import NgramLM
    from .textnorm import normalize_text

    lm_dir = Path(lm_dir)
    lm_dir.mkdir(parents=True, exist_ok=True)
    sents = [normalize_text(s) for s in sentences]
    sents = [s for s in sents if s]
    lm = NgramLM(sents, order=order)
    atomic_write_text(lm_dir / "lm.arpa", lm.to_arpa())
    info = {"order": order, "sentences": len(sents), "tokens": sum(len(s.split()) for s in sents),
            "vocabulary": len(lm.vocab), "ngrams": [len(lm.prob[n]) for n in range(1, order + 1)],
            "discounts": [round(d, 4) for d in lm.discounts[1:]]}
    info.update(make_extra_dict(lm.vocab, lm_dir / "extra.dict"))
    # the decoder's dictionary: the CMU entries (with alternates) of the LM's words, then the G2P pronunciations
    # of the others (a dictionary of the LM's words only: pocketsphinx loads the full one for a minute)
    _, cmudict = bundled_model()
    vocab = set(lm.vocab)
    with open(cmudict, encoding="utf-8", errors="replace") as a:
        base = [ln for ln in a if ln.strip() and _ALT.sub("", ln.split(None, 1)[0]).lower() in vocab]
    atomic_write_text(lm_dir / "lm.dict", "".join(base) + (lm_dir / "extra.dict").read_text(encoding="utf-8"))
    atomic_write_text(lm_dir / "lm_info.json", json.dumps(info, indent=1) + "\n")
    return info


def resolve_lm(lm: str | None) -> tuple[str, str | None]:
    """(language model file, dictionary) for 'general' or a dir built by build_corpus_lm (its lm.dict), or
    an ARPA / binary LM file (the CMU dictionary)."""
    cmudict = bundled_model()[1]
    if lm in (None, "", GENERAL):
        return general_lm(), cmudict
    p = Path(lm)
    if p.is_dir():
        for f in ("lm.arpa", "lm.dict"):
            if not (p / f).is_file():
                raise FormatError(p / f, None, "missing from the language model dir (pydeid build-ngram-lm)")
        return str(p / "lm.arpa"), str(p / "lm.dict")
    if not p.is_file():
        raise FormatError(p, None, f"language model '{lm}' is neither 'general', a dir nor a file")
    return str(p), cmudict


class PocketsphinxDecoder:
    """Decode 16 kHz float audio to lower-case words (fillers and silences removed)."""

    def __init__(self, lm: str | None = GENERAL, lw: float | None = None, extra_opts: dict | None = None):
        from pocketsphinx import Decoder

        hmm, _ = bundled_model()
        self.lm_path, dic = resolve_lm(lm)
        opts = dict(extra_opts or {})
        if lw is not None:
            opts["lw"] = lw
        self.decoder = Decoder(hmm=hmm, dict=dic, lm=self.lm_path, samprate=16000, loglevel="FATAL", **opts)
        self.settings = {"lm_file": self.lm_path, "dict": dic, "lw": lw, **opts}

    def decode(self, wav: np.ndarray) -> list[str]:
        d = self.decoder
        pcm = (np.clip(wav, -1.0, 1.0) * 32767).astype(np.int16).tobytes()
        d.reinit_feat()
        d.start_utt()
        d.process_raw(pcm, full_utt=True)
        d.end_utt()
        if d.hyp() is None:
            return []
        words = [_ALT.sub("", s.word) for s in d.seg()]
        return [w for w in words if not _NONWORD.match(w)]


def decode_data_dir(data, out_dir, lm: str | None = GENERAL, lw: float | None = None) -> dict:
    """Decode every utterance of a data dir into <out_dir>/text (sorted like the data dir), plus
    <out_dir>/textnorm.json (lower case, punctuation removed: how scoring normalises the references) and
    <out_dir>/decode_pocketsphinx.json (settings, audio seconds, decoding seconds, RTF)."""
    from pydeid.io import DataDir

    from .textnorm import TextNorm

    d = DataDir.read(data)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    dec = PocketsphinxDecoder(lm=lm, lw=lw)
    lines, audio_s, dec_s = [], 0.0, 0.0
    for utt in d.utts:
        wav = d.load_audio(utt, sr=16000)
        t0 = time.process_time()
        words = dec.decode(wav)
        dec_s += time.process_time() - t0
        audio_s += len(wav) / 16000
        lines.append(f"{utt} {' '.join(words)}".rstrip() + "\n")
    atomic_write_text(out / "text", "".join(lines))
    TextNorm().save(out / "textnorm.json")
    info = {"decoder": "pocketsphinx en-us", "data": str(data), "utterances": len(d.utts),
            "audio_seconds": round(audio_s, 3), "decode_cpu_seconds": round(dec_s, 3),
            "rtf": round(dec_s / audio_s, 4) if audio_s else None,
            "lm": lm or GENERAL, **dec.settings}
    atomic_write_text(out / "decode_pocketsphinx.json", json.dumps(info, indent=1) + "\n")
    return info


def merge_parts(parts: list[str | os.PathLike], out_dir: str | os.PathLike) -> dict:
    """Join the decode dirs of split jobs: text in C order, RTF over all parts (pydeid.asr.decode_parts)."""
    from .decode_parts import merge_decode_parts
    from .textnorm import TextNorm

    info = merge_decode_parts(parts, out_dir, "decode_pocketsphinx.json")
    TextNorm().save(Path(out_dir) / "textnorm.json")
    return info
