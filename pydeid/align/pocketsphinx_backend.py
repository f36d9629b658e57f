"""Forced alignment with pocketsphinx 5 and the en-us model + CMU dictionary shipped in its wheel.

Per utterance: words are looked up case-insensitively in the dictionary, missing ones get a pronunciation from
the offline neural G2P (pydeid.align.g2p) and are added to the decoder; non-verbal tokens map to the model's
filler words ([NOISE] -> +NSN+, [SPEECH] -> +SPN+). The decoder is run twice, as pocketsphinx requires: once
in align-text mode, once more with set_alignment() to obtain the phone/state segmentation.
"""

from __future__ import annotations

import logging
import os
import re

import numpy as np

from .normalize import Prepared, prepare
from .result import PhoneTime, UttAlignment, WordTime

log = logging.getLogger(__name__)
FRAME_RATE = 100  # pocketsphinx frames per second
FILLER_FOR = {"noise": "[NOISE]", "speech": "[SPEECH]"}
_ALT = re.compile(r"\(\d+\)$")
# Without the fwdflat/bestpath rescoring passes (meant for n-gram search), the align-text search returns a
# complete path through the transcript far more often (mini corpus test set: 0 vs 6 failures in 32
# utterances); wider beams keep long utterances alive; 16 Gaussians per frame instead of 4 score accented
# synthetic voices better (fewer lost paths, ~1 ms better boundaries).
DECODER_OPTS = {"fwdflat": False, "bestpath": False, "beam": 1e-100, "wbeam": 1e-80, "pbeam": 1e-100,
                "topn": 16}
# Tried in this order when the search loses every path through the transcript (counted per name in the
# report): more Gaussians per frame; no optional pauses/fillers between words (pauses then go into the
# neighbouring words); the same with much wider beams. On the default-size mini test set 5 of 128
# utterances needed one of them.
FALLBACKS = {
    "topn32": {"topn": 32},
    "no_pauses": {"fsgusefiller": False},
    "no_pauses_wide": {"fsgusefiller": False, "beam": 1e-200, "pbeam": 1e-200, "wbeam": 1e-150},
}


def bundled_model() -> tuple[str, str]:
    """(acoustic model dir, dictionary) of the en-us model inside the pocketsphinx wheel."""
    import pocketsphinx
    root = os.path.join(pocketsphinx.get_model_path(), "en-us")
    return os.path.join(root, "en-us"), os.path.join(root, "cmudict-en-us.dict")


def resolve_model(model: str | None) -> tuple[str, str]:
    """'en-us' (or None) means the bundled model; a directory may hold `hmm/` (or the model files) and `dict`."""
    if model in (None, "", "en-us", "default"):
        return bundled_model()
    if not os.path.isdir(model):
        raise FileNotFoundError(f"pocketsphinx model: '{model}' is neither 'en-us' nor a directory")
    hmm = os.path.join(model, "hmm") if os.path.isdir(os.path.join(model, "hmm")) else model
    dic = os.path.join(model, "dict")
    if not os.path.exists(os.path.join(hmm, "mdef")) or not os.path.exists(dic):
        raise FileNotFoundError(f"pocketsphinx model dir '{model}' needs mdef (in it or in hmm/) and a 'dict' file")
    return hmm, dic


class PocketsphinxAligner:
    def __init__(self, model: str | None = "en-us", extra_dict: str | None = None, use_g2p: bool = True,
                 decoder_opts: dict | None = None, phones: bool = True):
        from pocketsphinx import Decoder
        hmm, dic = resolve_model(model)
        self.decoder_opts = dict(DECODER_OPTS if decoder_opts is None else decoder_opts)
        self.decoder = Decoder(hmm=hmm, dict=dic, samprate=16000, loglevel="FATAL", **self.decoder_opts)
        self.phones = phones  # the phone pass costs a decoder reinit per utterance (~0.2 s)
        self.g2p = None
        if use_g2p:
            from .g2p import NeuralG2P
            self.g2p = NeuralG2P()
        self.g2p_words: dict[str, str] = {}   # word -> phones added from the G2P model (reported)
        self._added: dict[str, str] = {}      # every word added to the decoder (restored after a reinit)
        self._dirty: dict[int, bool] = {}
        self._hmm, self._dict = hmm, dic
        self._alts: dict[str, object] = {}   # fallback decoders, created on first need
        if extra_dict:
            self._load_extra_dict(extra_dict)

    def _load_extra_dict(self, path: str) -> None:
        with open(path, encoding="utf-8") as f:
            entries = [ln.split() for ln in f if len(ln.split()) >= 2]
        for k, e in enumerate(entries):
            # the extra dictionary is kept with the G2P words so a decoder reinit restores it
            self._added[e[0].lower()] = " ".join(e[1:])
            self.decoder.add_word(e[0].lower(), " ".join(e[1:]), k == len(entries) - 1)

    def known(self, word: str) -> bool:
        return self.decoder.lookup_word(word) is not None

    def _ensure(self, word: str) -> str | None:
        """Make `word` alignable; returns 'dict', 'g2p' or None (no pronunciation possible)."""
        if self.known(word):
            return "g2p" if word in self.g2p_words else "dict"
        if self.g2p is None:
            return None
        phones = self.g2p.predict(word)
        if not phones:
            return None
        for d in (self.decoder, *self._alts.values()):
            d.add_word(word, " ".join(phones), True)
        self.g2p_words[word] = self._added[word] = " ".join(phones)
        log.info("G2P pronunciation for '%s': %s", word, " ".join(phones))
        return "g2p"

    def align(self, utt: str, wav: np.ndarray, transcript: str | list[str]) -> UttAlignment:
        tokens = transcript.split() if isinstance(transcript, str) else list(transcript)
        prep: Prepared = prepare(tokens, known=self.known)
        res = UttAlignment(utt)
        st = res.stats
        st["utterances"] += 1
        st["tokens"] += len(tokens)
        st["punctuation_tokens"] += len(prep.punctuation)
        st["silence_markers"] += len(prep.silence_markers)
        words: list[str] = []
        g2p_tokens: set[int] = set()
        for u in prep.units:
            if u.nonverbal:
                st["nonverbal_tokens"] += 1
                words.append(FILLER_FOR[u.nonverbal])
                continue
            how = self._ensure(u.text)
            if how is None:
                # no letters a G2P can read (e.g. a symbol): aligned as unknown speech, counted
                st["unknown_units"] += 1
                words.append("[SPEECH]")
                continue
            if how == "g2p":
                g2p_tokens.add(u.token_index)
            words.append(u.text)
        st["g2p_tokens"] += len(g2p_tokens)
        if not words:
            res.error = "nothing to align (empty or punctuation-only transcript)"
            st["failed"] += 1
            return res
        pcm = (np.clip(wav, -1.0, 1.0) * 32767).astype(np.int16).tobytes()
        placed, d_used, used, err = None, None, "", ""
        for name in ("main",) + tuple(FALLBACKS):
            d = self.decoder if name == "main" else self._fallback(name)
            try:
                segs = self._word_pass(words, pcm, d)
            except RuntimeError as e:
                err = f"pocketsphinx: {e} (also with every fallback setting)"
                continue
            placed = self._match(words, segs)
            if placed is not None:
                d_used, used = d, name
                break
            err = "decoder output does not follow the transcript"
        if placed is None:
            res.error = err
            st["failed"] += 1
            return res
        if used != "main":
            st[f"fallback_{used}"] += 1
        # words: one CTM entry per original token, spanning all its units
        span: dict[int, list[float]] = {}
        for k, u in enumerate(prep.units):
            seg = placed[k]
            if seg is None:
                st["nonverbal_unplaced" if u.nonverbal else "unknown_unplaced"] += 1
                continue
            if u.nonverbal:
                st["nonverbal_aligned"] += 1
            s, e = seg[1] / FRAME_RATE, seg[2] / FRAME_RATE
            if u.token_index in span:
                span[u.token_index][1] = e
            else:
                span[u.token_index] = [s, e]
        for i in sorted(span):
            s, e = span[i]
            res.words.append(WordTime(i, prep.ctm_token(i), round(s, 3), round(e, 3)))
        if self.phones:
            res.phones = self._phone_pass(pcm, words, st, d_used)
        st["words_in_ctm"] += len(res.words)
        st["aligned"] += 1
        return res

    def _reset(self, d) -> None:
        """After a failed state alignment the decoder is unusable: reinitialise it (about 0.2 s) and put the
        added words back."""
        if not self._dirty.get(id(d)):
            return
        d.reinit()
        items = list(self._added.items())
        for k, (w, ph) in enumerate(items):
            d.add_word(w, ph, k == len(items) - 1)
        self._dirty[id(d)] = False

    def _decode(self, d, pcm: bytes, dirty: bool = False) -> None:
        if dirty:
            self._dirty[id(d)] = True
        d.start_utt()
        d.process_raw(pcm, full_utt=True)
        d.end_utt()

    def _word_pass(self, words: list[str], pcm: bytes, d=None) -> list[tuple[str, int, int]]:
        """First pass: word segmentation as (word, start_frame, end_frame_exclusive)."""
        d = d or self.decoder
        self._reset(d)
        # live CMN and noise estimates carry over from the previous utterance: reset the front end so a result
        # never depends on which utterances came before (job split, order)
        d.reinit_feat()
        d.set_align_text(" ".join(words))
        self._decode(d, pcm)
        if d.hyp() is None:
            raise RuntimeError("no path through the transcript (audio too short or transcript does not fit)")
        return [(s.word, s.start_frame, s.end_frame + 1) for s in d.seg()]

    def _fallback(self, name: str):
        if name not in self._alts:
            from pocketsphinx import Decoder
            d = Decoder(hmm=self._hmm, dict=self._dict, samprate=16000, loglevel="FATAL",
                        **(self.decoder_opts | FALLBACKS[name]))
            self._alts[name] = d
            self._dirty[id(d)] = True  # restore the added words on first use
        return self._alts[name]

    def _phone_pass(self, pcm: bytes, words: list[str], st, d) -> list[PhoneTime]:
        """Second pass for phones (set_alignment after the word pass on decoder d). If the state aligner fails,
        the no-pause fallback decoder is tried, with and without filler words (counted as phone_fallback)."""
        nofill = [w for w in words if w not in FILLER_FOR.values()]
        attempts = [(d, None), (None, words)]
        if nofill and nofill != words:
            attempts.append((None, nofill))
        for k, (dec, ws) in enumerate(attempts):
            try:
                if dec is None:
                    dec = self._fallback("no_pauses")
                    self._word_pass(ws, pcm, dec)
                dec.set_alignment()
                self._decode(dec, pcm)
                ali = dec.get_alignment()
                phones = [PhoneTime(p.name, p.start / FRAME_RATE, (p.start + p.duration) / FRAME_RATE)
                          for w in ali.words() for p in w]  # read while iterating: the views are transient
            except RuntimeError:
                self._dirty[id(dec or self._fallback("no_pauses"))] = True  # failed state alignment: reinit
                continue
            if phones:
                if k:
                    st["phone_fallback"] += 1
                return phones
        st["phones_missing"] += 1
        return []

    @staticmethod
    def _match(words: list[str], segs) -> list | None:
        """Pair each requested word with its decoder segment; fillers the decoder dropped get None."""
        out: list = []
        j = 0
        real = [s for s in segs if _ALT.sub("", s[0]) not in ("<s>", "</s>", "<sil>")]
        for w in words:
            filler = w in FILLER_FOR.values()
            if j < len(real) and _ALT.sub("", real[j][0]) == w:
                out.append(real[j])
                j += 1
            elif filler:
                out.append(None)
            else:
                return None
        return out if j == len(real) else None
